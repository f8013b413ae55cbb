"""Costs a player can trust, and the terminal's lookups, on real boards: the bundled 2010 USBF
semi-final (BBO LIN: every auction and card, a teams match scored in IMPs against the other room).

A mistake's cost is in the event's own units (IMPs here): a side's play costs on a board add up to
what its own mistakes lost at the table (checked by hand against the other room's score), a
missed double or redouble is labelled hypothetical and ranks below every real loss, and the
counts agree with the DD counters. `ddrank player` and `ddrank event` answer from the store.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

import pytest
from site_store import lin_store, query

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def usbf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The USBF match with its DD analysis, scores, site and mistake costs (built in-process)."""
    return lin_store(tmp_path_factory) / "store.duckdb"


def _rows(db: Path) -> list[dict]:
    cols = ("record_id", "board", "player", "seat", "side", "kind", "what", "tricks",
            "dd_points", "cost", "unit", "basis", "rank", "call", "category")  # fmt: skip
    found = query(db, f"select {', '.join(cols)} from ranked_mistakes")
    return [dict(zip(cols, r, strict=True)) for r in found]


def test_every_cost_is_in_imps_and_no_more_than_a_board_can_swing(usbf: Path) -> None:
    rows = _rows(usbf)
    assert len(rows) == 89  # 68 for the auctions (both players of a side), 21 for the cards
    assert {r["unit"] for r in rows if r["cost"] is not None} == {"IMP"}
    assert all(0 <= r["cost"] <= 24 for r in rows if r["cost"] is not None)
    per_side: dict[tuple, float] = defaultdict(float)
    for r in {
        (r["record_id"], r["side"], r["what"], r["cost"])
        for r in rows
        if r["basis"] == "table" and r["cost"] is not None
    }:  # one per mistake, not player
        per_side[(r[0], r[1])] += r[3]
    assert max(per_side.values()) <= 24


def test_a_sides_play_costs_add_up_to_what_its_mistakes_lost_against_the_other_room(
    usbf: Path,
) -> None:
    """Board 56: 3NT by East, 8 tricks, 5 IMPs to North-South. The trace goes 8 -> 10 (the
    lead) -> 8 (East's DK) -> 10 (North's D7) -> 8 (dummy's SJ): East-West's play threw away 4
    tricks, North-South's defence gave 4 back. Each side's costs add up to the IMPs its own
    mistakes lost against the other room's score, the opponents' mistakes as they were (3NT with
    12 tricks for East-West, with 4 for North-South): not 12 IMPs a card, 48 on a board that
    swung 5."""
    from ddrank.scoring.arithmetic.duplicate import duplicate_score, imps
    from ddrank.types import Contract, Seat

    ((rid, other_ns, vul),) = query(usbf, """
        select s.record_id, o.ns_score, s.ew_vulnerable from scored_results s
        join scored_results o on o.board = s.board and o.record_id <> s.record_id
        where s.board = '56' and s.contract = '3N' and s.declarer = 'E' and s.tricks = 8""")  # fmt: skip
    here = query(usbf, "select ns_score, imps from scored_results where record_id = ?", [rid])
    assert here == [(50, 5.0)]  # 3NT down 1 here, the other room's result 5 IMPs worse for NS
    tricks = Counter()
    costs: dict[str, float] = defaultdict(float)
    for _what, side, n, cost in {(r["what"], r["side"], r["tricks"], r["cost"]) for r in _rows(usbf)
                                if r["record_id"] == rid and r["basis"] == "table"}:  # fmt: skip
        tricks[side] += n
        costs[side] += cost
    assert tricks == {"EW": 4, "NS": 4}

    def ns_imps(ew_tricks: int) -> int:  # NS's IMPs against the other room
        score = duplicate_score(Contract.parse("3N", declarer=Seat.E), ew_tricks, bool(vul), 2010)
        return imps(-score - other_ns)

    assert costs["EW"] == pytest.approx(ns_imps(8) - ns_imps(12)) == 13  # EW's own 4 tricks back
    assert costs["NS"] == pytest.approx(ns_imps(4) - ns_imps(8)) == 4  # NS's own 4 tricks back


def test_hypothetical_costs_are_labelled_and_rank_below_every_real_loss(usbf: Path) -> None:
    rows = _rows(usbf)
    redouble = [r for r in rows if "did not redouble" in r["what"]]
    assert redouble and {r["basis"] for r in redouble} == {"hypothetical"}
    assert all(r["kind"] == "auction" for r in rows if r["basis"] == "hypothetical")
    by_player: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        by_player[r["player"]].append(r)
    checked = 0
    for mine in by_player.values():
        real = [r["rank"] for r in mine if r["basis"] == "table" and (r["cost"] or 0) > 0]
        hypothetical = [r["rank"] for r in mine if r["basis"] == "hypothetical"]
        if real and hypothetical:
            assert max(real) < min(hypothetical)
            checked += 1
    assert checked >= 4


def test_the_mistakes_are_the_counters_own(usbf: Path) -> None:
    """Per player, the card, lead and claim mistakes listed equal the DD counters' counts."""
    counters = query(usbf, """
        select w.player, sum(s.lead_mistakes), sum(s.play_mistakes_as_declarer),
               sum(s.play_mistakes_as_defender), sum(s.claim_mistakes)
        from player_board_stats s join board_players w using (record_id, seat)
        group by w.player""")  # fmt: skip
    listed = Counter((r["player"], r["kind"]) for r in _rows(usbf))
    for player, lead, declarer, defence, claim in counters:
        assert (listed[(player, "lead")], listed[(player, "declarer")],
                listed[(player, "defence")], listed[(player, "claim")]) == (
            lead, declarer, defence, claim), player  # fmt: skip


def ddrank(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "200", "DO_NOT_TRACK": "1"}
    return subprocess.run([sys.executable, "-m", "cli.main", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)  # fmt: skip


def test_player_shows_the_card_the_trick_and_the_cost_in_imps(usbf: Path) -> None:
    done = ddrank("player", "mahm", "--db", str(usbf), "--json")
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["player"] == "Mahmood" and found["boards"] == 15
    first = found["costliest"][0]
    assert first["basis"] == "table" and first["unit"] == "IMP" and first["cost"] > 0
    assert first["trick"] and first["card"] and first["what"].endswith(f"played {first['card']}")
    text = ddrank("player", "MAHMOOD", "--db", str(usbf)).stdout
    assert f"trick {first['trick']}, card {first['position']}" in text
    assert first["what"] in text


def test_player_labels_a_hypothetical_cost(usbf: Path) -> None:
    done = ddrank("player", "meckstroth", "--db", str(usbf))
    assert done.returncode == 0, done.stderr
    lines = [ln for ln in done.stdout.splitlines() if "(hypothetical)" in ln]
    assert lines and all("IMP (hypothetical)" in ln for ln in lines)
    assert any("did not redouble" in ln or "instead of doubling" in ln for ln in lines)


def test_lookups_ignore_accents_and_case_in_the_query_too(usbf: Path) -> None:
    """A name typed with accents the file does not have (or the other way round: the site and
    the terminal fold both sides, ddrank.text.search_key) finds the same player and event."""
    found = json.loads(ddrank("player", "MÁHMÖÓD", "--db", str(usbf), "--json").stdout)
    assert found["player"] == "Mahmood" and found["boards"] == 15
    done = ddrank("event", "Úsbf  sf", "--db", str(usbf))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "2010 USBF SF A: 30 results on 15 boards, 8 players"


def test_no_player_matches_is_one_error_line(usbf: Path) -> None:
    done = ddrank("player", "Nobody At All", "--db", str(usbf))
    assert done.returncode == 2
    assert done.stderr.strip() == "error: no player matches 'Nobody At All'"


def test_event_shows_the_stored_ranking(usbf: Path) -> None:
    done = ddrank("event", "usbf", "--db", str(usbf))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "2010 USBF SF A: 30 results on 15 boards, 8 players"
    ranking = query(usbf, "select team, imps_for - imps_against from team_matches order by 2 desc")
    assert ranking[0][0] in lines[3] and ranking[1][0] in lines[4]


WELWYN = ROOT.parent / "shared" / "data" / "events" / "usebio" / "welwyn-2025-04-09.usebio.xml"


@pytest.mark.skipif(not WELWYN.is_file(), reason="../shared is absent: the Welwyn USEBIO file may "
                    "not be bundled (no licence stated)")  # fmt: skip
def test_a_score_is_valued_in_matchpoints_as_the_scorer_published() -> None:
    """The valuer of a matchpoint board: a result's own score gives the matchpoints BriAn
    published for it (143 lines; the 144th is an adjusted score, which has nothing to compare
    with), and one more trick for declarer gives 2 per other result beaten and 1 per tie."""
    from ddrank.mistakes.costs import board_fields, board_valuer
    from ddrank.scoring.arithmetic.boards import field_key, field_sizes
    from ddrank.scoring.arithmetic.duplicate import duplicate_score
    from ddrank.scoring.score import chosen
    from ddrank.types import Contract, Seat
    from stages.scoring import load_files

    loaded = load_files([str(WELWYN)])
    ((event, facts),) = loaded.infos().items()
    info, choice = chosen(loaded.results, facts, loaded.standings)
    assert (info.scoring, choice.method, info.mp_top) == ("MP", "none", 2.0)
    sizes, fields = field_sizes(loaded.results, False), board_fields(loaded.results, info)
    agree, adjusted, checked = 0, 0, 0
    for r in loaded.results:
        value = board_valuer(r, fields[r.record_id], info, choice.method,
                             sizes.get(field_key(r, False)[:3]))  # fmt: skip
        if r.ns_score is None:
            adjusted += 1
            assert value(0) is None
            continue
        agree += value(r.ns_score) == pytest.approx(r.published_ns_mp)
        if r.tricks is not None and r.tricks < 13 and r.contract not in ("", "P"):
            declarer = Seat.parse(r.declarer)
            vul = r.ns_vulnerable if declarer.is_ns else r.ew_vulnerable
            more = duplicate_score(Contract.parse(r.contract, declarer=declarer), r.tricks + 1,
                                   bool(vul), r.year)  # fmt: skip
            more = more if declarer.is_ns else -more
            others = [o.ns_score for o in fields[r.record_id]
                      if o.record_id != r.record_id and o.ns_score is not None]  # fmt: skip
            hand = 2 * sum(more > o for o in others) + sum(more == o for o in others)
            assert value(more) == pytest.approx(hand), (r.board, r.ns_score, more, others)
            checked += 1
    assert (agree, adjusted) == (143, 1)
    assert checked > 100


def test_a_renamed_seat_keeps_its_mistakes_under_the_new_player(usbf: Path, tmp_path: Path) -> None:
    """Who sat where can change without the cards changing (a seat's name corrected, names matched
    again): the costs stage then skips the event, and its stored mistakes must follow the seat
    to its new player, not stay under the old key where no page or lookup finds them."""
    import shutil

    import duckdb

    from stages.mistakes import cost_mistakes
    from store import Store

    db = tmp_path / "renamed.duckdb"
    shutil.copy(usbf, db)
    con = duckdb.connect(str(db))
    (before,) = con.execute(
        "select count(*) from mistake_costs where player = 'Mahmood'"
    ).fetchone()
    assert before > 0
    for col in ("northname", "eastname", "southname", "westname"):
        con.execute(f"update boards set {col} = 'Zia Renamed' where {col} = 'Mahmood'")
    con.execute("delete from player_matches where raw_name = 'Mahmood'")
    con.execute("update player_board_stats set raw_name = 'Zia Renamed' where raw_name = 'Mahmood'")
    con.close()
    with Store(db) as store:
        done = cost_mistakes(store)
    assert done["events"] == 0 and done["players re-keyed"] == before  # re-keyed, not re-valued
    counts = dict(query(db, "select player, count(*) from mistake_costs group by player"))
    assert "Mahmood" not in counts
    renamed = [k for k in counts if "Renamed" in k]
    assert len(renamed) == 1 and counts[renamed[0]] == before
