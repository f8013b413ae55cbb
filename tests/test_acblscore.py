"""ACBLscore game files (`.ACA`, `.ACM`, `.ACE`): the 49 real club files of ../shared, read and
scored as ACBLscore published them. The files may not be bundled (SOURCES.md: no licence), so
these tests skip where ../shared is absent; tests/test_acblscore_layout.py checks the decoder on
bytes built here."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from ddrank.parsers.acblscore import parse_acblscore
from ddrank.parsers.acblscore_layout import read_game_file
from ddrank.parsers.registry import sniff
from ddrank.scoring.verification.published import compare_published
from stages.scoring import load_files, score_events

REPO = Path(__file__).resolve().parent.parent
GAMES = REPO.parent / "shared" / "data" / "events" / "acblscore-game"
needs_games = pytest.mark.skipif(
    not GAMES.is_dir(),
    reason="../shared/data/events/acblscore-game is absent; ACBLscore game files may not be "
    "bundled: no licence (SOURCES.md)",
)


def game(name: str) -> Path:
    return GAMES / name


def parsed(name: str):  # noqa: ANN201 - a ParsedFile
    return parse_acblscore(game(name).read_bytes(), name)


@needs_games
def test_every_game_file_is_read_whole() -> None:
    """All 49 files: told by content, no record left unread; the totals of what they hold."""
    files = sorted(GAMES.iterdir())
    assert len(files) == 49
    counts: Counter[str] = Counter()
    for f in files:
        data = f.read_bytes()
        assert sniff(data[:65536]) == "acblscore", f.name
        p = parse_acblscore(data, f.name)
        assert not [r for r in p.records if r.parse_error], f.name
        counts["records"] += len(p.records)
        counts["standings"] += len(p.standings)
        counts["events"] += len(p.events)
        counts["split"] += sum(1 for r in p.records if r.ew_score)
        counts["artificial"] += sum(1 for r in p.records if r.adjusted)
        counts["repeat"] += sum(1 for r in p.records if r.repeat)
    assert counts == {"records": 15982, "standings": 2907, "events": 66, "split": 5,
                      "artificial": 33, "repeat": 6}  # fmt: skip


@needs_games
def test_each_pair_total_is_the_sum_of_its_stored_matchpoints() -> None:
    """The decoder's offsets hold: every pair entry's matchpoints as played equal the sum of the
    matchpoints its traveller lines store (its second play of a board aside), over the boards it
    is said to have played; and its percentage is its session score over the maximum score."""
    pairs = 0
    for f in sorted(GAMES.iterdir()):
        g = read_game_file(f.read_bytes())
        for sec in g.sections:
            sums: Counter[tuple[int, int]] = Counter()
            played: Counter[tuple[int, int]] = Counter()
            for board in sec.boards:
                seen: set[tuple[int, int]] = set()
                for s in sorted(board.slots, key=lambda x: x.round):
                    for code, pair, mp, lst in ((s.ns_score, s.ns_pair, s.ns_mp, 1),
                                                (s.ew_score, s.ew_pair, s.ew_mp, 2)):  # fmt: skip
                        if abs(code) >= 900 and not 2000 <= code <= 2100:
                            continue
                        who = sec.pair_map.get(pair, (0, 0)) if sec.howell else (lst, pair)
                        if who not in seen:
                            sums[who] += mp
                            played[who] += 1
                        seen.add(who)
            for lst, entries in enumerate(sec.lists, start=1):
                for e in entries:
                    if e is None:
                        continue
                    pairs += 1
                    assert sums[(lst, e.index)] == e.unscaled, (f.name, sec.letter, lst, e.index)
                    assert played[(lst, e.index)] == e.boards, (f.name, sec.letter, lst, e.index)
                    pct = (e.session * 10000 + sec.max_score * 50) // (sec.max_score * 100)
                    assert pct == e.percentage, (f.name, sec.letter, lst, e.index)
    assert pairs == 1310


@needs_games
def test_every_published_value_is_reproduced() -> None:
    """Scored by ACBLscore's rule, chosen by default: every matchpoint, percentage, place, strat
    place and overall place the 49 files publish (the overall places of a second session on the
    total with its carry-over)."""
    loaded = load_files([GAMES])
    scores = score_events(loaded)
    assert {sc.method for sc in scores.values()} == {"acbl"}
    got = {c.what: (c.compared, c.agree) for c in compare_published(scores, loaded.standings)}
    assert got == {"matchpoints per line": (15982, 15982), "final percentage": (1310, 1310),
                   "total matchpoints": (1310, 1310),
                   "place": (1310, 1310), "strat place": (998, 998),
                   "overall place": (599, 599)}  # fmt: skip
    assert not [e for e in loaded.errors if e.kind == "left out"]
    # Four meetings played part of their board set (a board not reached, factored by ACBLscore as
    # the published matchpoints show): reported as missing traveller lines, nothing left out.
    missing = sorted((Path(e.source).name, e.section, e.round, e.table, e.board)
                     for e in loaded.errors)  # fmt: skip
    assert missing == [
        ("beverly-hills-bridge-club__170731.ACA", "C", "7", "10", "16"),
        ("downeywhittier__170705.ACM", "O", "7", "5", "24"),
        ("long-beach-bridge__170812.ACA", "WW", "1", "1", "1"),
        ("long-beach-bridge__170812.ACA", "WW", "6", "4", "5"),
    ]


@needs_games
def test_a_mitchell_pair_as_published() -> None:
    """Beverly Hills, Tuesday evening: North-South 1 (Ursini - Beraldo) 72.40, 60.33%, first;
    East-West 2 played 20 of 24 boards: 43.80 factored to 52.56."""
    p = parsed("beverly-hills-bridge-club__170808.ACE")
    ns1 = next(s for s in p.standings if (s.direction, s.pair, s.strat, s.overall)
               == ("NS", "1", "", False))  # fmt: skip
    assert (ns1.players, ns1.player_ids) == ("Amedeo Ursini - Elisabetta Beraldo",
                                             "7408927 - 8914389")  # fmt: skip
    assert (ns1.published_mp, ns1.published_pct, ns1.published_place) == ("72.40", "60.33", "1")
    ew2 = next(s for s in p.standings if (s.direction, s.pair, s.strat) == ("EW", "2", ""))
    assert (ew2.published_mp, ew2.published_pct) == ("52.56", "43.80")
    # overall (both directions): NS 1 60.33% first, EW 7 58.10% second, NS 2 56.87% third
    overall = sorted((s.published_place, s.direction, s.pair) for s in p.standings
                     if s.overall and not s.strat)  # fmt: skip
    assert overall[:3] == [("1", "NS", "1"), ("2", "EW", "7"), ("3", "NS", "2")]
    (event,) = p.events
    assert (event.event, event.organiser, event.date_start, event.scorer, event.mp_top,
            event.movement, event.max_score) == ("Tues Eve Open Strat Pairs",
            "Beverly Hills Bridge Club", "2017-08-08", "ACBLscore", "1", "mitchell", "120")  # fmt: skip
    # board 28: North-South 2 v East-West 4 did not play it (code 900): no record
    b28 = [r for r in p.records if r.board_no == "28"]
    assert sorted((r.ns_pair, r.ew_pair, r.ns_score, r.published_ns_mp) for r in b28) == [
        ("3", "6", "100", "0.25"), ("4", "1", "170", "4.00"), ("5", "3", "140", "1.75"),
        ("6", "5", "170", "4.00")]  # fmt: skip


@needs_games
def test_split_and_artificial_scores() -> None:
    """A director's split score keeps each side's own (+50 for North-South, +980 for East-West,
    each matchpointed in its own direction: 12.00 and 10.50 on a top of 12); average-plus and
    average-minus are 60% and 40% of the top (4.20 and 2.80 of 7)."""
    split = [r for r in parsed("long-beach-bridge__170724.ACA").records if r.ew_score]
    assert [(r.section, r.board_no, r.ns_score, r.ew_score, r.published_ns_mp, r.published_ew_mp)
            for r in split] == [("BB", "24", "50", "980", "12.00", "10.50")]  # fmt: skip
    adj = [r for r in parsed("750-club__170724.ACE").records if r.adjusted and r.board_no == "6"]
    assert [(r.adjusted, r.published_ns_mp, r.published_ew_mp) for r in adj] == [
        ("60/40", "4.20", "2.80")
    ]


@needs_games
def test_howell_pairs_by_the_pair_map() -> None:
    """A 3-table Howell stores its pairs in two lists; the section's map says which is which:
    pair 3 (Roberts - Walsh) scored 19.00 of 32, 59.38%, first."""
    p = parsed("long-beach-bridge__170724.ACE")
    (ev,) = p.events
    assert ev.movement == "howell"
    pair3 = next(s for s in p.standings if s.pair == "3" and not s.strat and not s.overall)
    assert (pair3.direction, pair3.players, pair3.published_mp, pair3.published_pct,
            pair3.published_place) == ("", "Joyce Roberts - Bonny Walsh", "19.00", "59.38", "1")  # fmt: skip


@needs_games
def test_sections_joined_and_apart() -> None:
    """750 Club, Thursday morning: A and B matchpointed and ranked as one field, C apart."""
    (ev,) = parsed("750-club__170727.ACM").events
    assert (ev.fields, ev.rankings, ev.across_field) == ("A+B;C", "A+B;C", False)
    (ev, _) = parsed("long-beach-bridge__170616.ACA").events
    assert (ev.fields, ev.rankings, ev.across_field) == ("BB+WW", "BB;WW", True)


@needs_games
def test_director_inputs_kept_with_the_pair() -> None:
    """An adjustment (-12.00: 64.00 played, 52.00 published), a pair not eligible (ranked last
    though it scored most), and a carry-over from the morning session."""
    p = parsed("agile-bridge-club__170602.ACM")
    ns3 = next(s for s in p.standings if (s.section, s.direction, s.pair, s.strat, s.overall)
               == ("A", "NS", "3", "", False))  # fmt: skip
    assert (ns3.adjustment, ns3.published_mp, ns3.published_place) == ("-12.00", "52.00", "5=")
    ns4 = next(s for s in p.standings if (s.section, s.direction, s.pair, s.strat, s.overall)
               == ("C", "NS", "4", "", False))  # fmt: skip
    assert (ns4.eligible, ns4.published_pct, ns4.published_place) == (False, "66.74", "5")
    uf = parsed("2017-unit-finals__171015.ACA")
    first = next(s for s in uf.standings if (s.section, s.direction, s.pair, s.overall)
                 == ("B", "NS", "1", False))  # fmt: skip
    assert (first.carryover, first.published_mp) == ("105.43", "109.71")


@needs_games
def test_a_truncated_game_file_is_one_clear_error(tmp_path: Path) -> None:
    """Cut short, a game file is refused whole, naming the file's own length; nothing is kept."""
    data = game("beverly-hills-bridge-club__170808.ACE").read_bytes()
    p = parse_acblscore(data[:9000], "cut.ACE")
    assert (p.records, p.standings, p.events) == ([], [], [])
    assert p.refused == (
        "corrupt ACBLscore game file: header: the file says it is 14,424 bytes long, it is "
        "9,000 (truncated or corrupt)"
    )


@needs_games
def test_a_corrupt_game_file_stores_nothing_but_its_error(tmp_path: Path) -> None:
    """Ingested, a game file cut short is refused whole, naming the file and the structure; no
    event, ranking line or table result of it reaches the store."""
    from stages.ingest import ingest_paths
    from store import Store

    cut = tmp_path / "170808.ACE"
    cut.write_bytes(game("beverly-hills-bridge-club__170808.ACE").read_bytes()[:9000])
    with Store(tmp_path / "s.duckdb") as store:
        summary = ingest_paths(store, [cut]).as_dict()
        assert summary["unreadable"] == []
        assert [r["reason"] for r in summary["refused"]] == [
            "corrupt ACBLscore game file: header: the file says it is 14,424 bytes long, it is "
            "9,000 (truncated or corrupt)"]  # fmt: skip
        assert store.table_count("raw_records") == 0
        assert (store.table_count("events"), store.table_count("published_standings")) == (0, 0)
