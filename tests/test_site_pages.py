"""The site's pages from real stores, read as HTML (the browser checks are in test_site_browser.py).

* A director's page for the Welwyn club night (USEBIO, BriAn): one ranking, no research sections,
  every number equal to the store's.
* A player's board pages for the 2010 USBF semi-final (BBO LIN with the whole play): the auction
  in a 4-column grid, the play trick by trick, and every DD mistake marked at its card or call
  with the points the store's counters give it.
"""

from __future__ import annotations

import html
import re
from collections import defaultdict

import pytest
from site_store import WELWYN, build, lin_store, query

pytestmark = pytest.mark.flow

AUCTION_COUNTERS = (
    "defender_missed_current_double", "defender_erroneously_doubled",
    "defender_missed_higher_contract", "declarer_missed_higher_contract",
    "declarer_missed_doubling_opponents_last_bid", "declarer_missed_opponents_last_redouble",
    "declarer_missed_redoubling_opponents_erroneous_double", "declarer_missed_opponents_last_bid",
    "declarer_erroneous_redouble", "passed_higher_contract",
)  # fmt: skip
KIND_COUNTER = {"declarer": "weighted_play_mistakes_as_declarer", "lead": "weighted_lead_mistakes",
                "defence": "weighted_play_mistakes_as_defender",
                "claim": "weighted_claim_mistakes"}  # fmt: skip


def text(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment)).strip()


@pytest.fixture(scope="module")
def welwyn(tmp_path_factory: pytest.TempPathFactory) -> dict:
    if not all(f.is_file() for f in WELWYN):
        pytest.skip("../shared/data/events (the Welwyn USEBIO file) is absent")
    tmp = tmp_path_factory.mktemp("welwyn")
    build(tmp / "store.duckdb", tmp / "out", WELWYN)
    site = tmp / "out" / "site"
    (event,) = sorted((site / "events").glob("*.html"))
    return {"db": tmp / "store.duckdb", "site": site, "event": event}


@pytest.fixture(scope="module")
def lin(tmp_path_factory: pytest.TempPathFactory) -> dict:
    tmp = lin_store(tmp_path_factory)
    site = tmp / "out" / "site"
    (event,) = sorted((site / "events").glob("*.html"))
    return {"db": tmp / "store.duckdb", "site": site, "event": event,
            "boards": sorted(event.with_suffix("").glob("board-*.html"))}  # fmt: skip


# ------------------------------------------------------------------ the director's page


def test_welwyn_event_page_has_one_ranking_and_no_research(welwyn: dict) -> None:
    page = welwyn["event"].read_text()
    assert "<h1>Wednesday AM Pairs</h1>" in page  # the name the file gives, not "Bridge game"
    assert page.count('class="data ranking"') == 1
    assert '<h2 class="ranking-heading">Ranking</h2>' in page
    for research in ("computed here", "Model", "regression", "Rating table", "Source:",
                     "/work/", "Bid / play", "Butler", "Cammarata", "DD mistakes"):  # fmt: skip
        assert research not in page, research
    stored = query(welwyn["db"], "SELECT pair, score_text, pct_text FROM rankings ORDER BY rank")
    rows = re.findall(r'<td class="n place">(?:<a [^>]*>)?([^<]*)(?:</a>)?</td>'
                      r'<td class="pair">(?:<a [^>]*>)?([^<]*)(?:</a>)?</td>.*?'
                      r'<td class="n score">([^<]*)</td><td class="n pct">([^<]*)</td>', page)  # fmt: skip
    assert len(rows) == len(stored) == 13
    for (_place, pair, score, pct), (s_pair, s_score, s_pct) in zip(rows, stored, strict=True):
        assert (pair, score, pct) == (s_pair, s_score, s_pct)  # as kept, never reformatted
    # as BriAn printed them: <PERCENTAGE>62.01923</PERCENTAGE> of the winners, 53.846153 of 3rd
    assert rows[0][3] == "62.01923" and rows[2][3] == "53.846153"
    # ties share a place: a place is "k=" exactly when another line has the same percentage
    pcts = [p for *_, p in rows]
    assert [pl.endswith("=") for pl, *_ in rows] == [pcts.count(p) > 1 for p in pcts]


def test_welwyn_index_opens_with_the_event_and_hides_empty_research(welwyn: dict) -> None:
    index = (welwyn["site"] / "index.html").read_text()
    assert index.index("Wednesday AM Pairs") < index.index('id="players"')
    assert index.count('class="data ranking"') == 1  # the event's ranking, on the front page
    for research in ("Model:", "No regression", "Rating table", "0 players", "/work/", "Source"):
        assert research not in index, research
    assert not (welwyn["site"] / "model").exists()  # no regression report: no model page
    about = (welwyn["site"] / "about.html").read_text()
    assert "welwyn-2025-04-09.usebio.xml" in about  # provenance has its own page


def test_welwyn_traveller_has_numbers_and_the_lead_card(welwyn: dict) -> None:
    board1 = (welwyn["event"].with_suffix("") / "board-1.html").read_text()
    rows = {
        rid: cells
        for rid, cells in re.findall(r'<tr id="r-(\w+)" class="line[^"]*">(.*?)</tr>', board1)
    }
    stored = query(welwyn["db"],
                   "SELECT b.record_id, b.lead_card, s.ns_mp, s.ew_mp, b.published_ns_mp, "
                   "b.published_ew_mp FROM boards b JOIN scored_results s USING (record_id) "
                   "WHERE b.board_no = '1'")  # fmt: skip
    assert len(rows) == len(stored) == 6
    suits = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
    for rid, lead, ns_mp, _ew_mp, pub_ns, pub_ew in stored:
        cells = [text(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", rows[rid])]
        assert suits[lead[0]] + lead[1:].replace("T", "10") in cells  # the card, not the seat
        assert f"{pub_ns:g}" in cells and f"{pub_ew:g}" in cells  # the scorer's, as printed
        assert "ns_mp" not in rows[rid] and "ns_score" not in rows[rid]
        # what the file's own scores give beside it only where they give another number
        assert any(c.startswith(f"{ns_mp:.0f} / ") for c in cells) == (abs(pub_ns - ns_mp) > 0.5)
    assert "DD mistakes" not in board1  # no play, no auction: nothing claimed to be analysed


# ------------------------------------------------------------------ the player's board page


def board_marks(page: str) -> dict[str, list[tuple[str, str, str, float]]]:
    """record_id -> [(anchor, kind, seats, points)] of one board page."""
    keys = dict(
        re.findall(
            r'<tr id="r-(\w+)" class="line[^"]*"><td class="c-tbl"><a href="#([^"]+)">', page
        )
    )
    marks: dict[str, list] = defaultdict(list)
    for anchor, kind, seats, points in re.findall(
        r'<tr id="([^"]+)-note" class="mark-(\w+)"><td>.*?</td><td>([NESW]+)</td>.*?'
        r'data-points="([^"]+)"', page):  # fmt: skip
        rid = next(r for r, k in keys.items() if anchor.startswith(k + "-"))
        marks[rid].append((anchor, kind, seats, float(points)))
    return marks


def test_every_dd_mistake_is_marked_at_its_card_with_the_stores_points(lin: dict) -> None:
    traces = {rid: (list(t), list(p), list(s), dec) for rid, t, p, s, dec in query(
        lin["db"], "SELECT record_id, trace, play, play_seats, declarer FROM play_traces "
        "JOIN boards USING (record_id)")}  # fmt: skip
    counters = {(rid, seat): row for rid, seat, *row in query(
        lin["db"], "SELECT record_id, seat, weighted_play_mistakes_as_declarer, "
        "weighted_lead_mistakes, weighted_play_mistakes_as_defender, weighted_claim_mistakes, "
        + " + ".join(f"weighted_{c}" for c in AUCTION_COUNTERS) + " FROM player_board_stats")}  # fmt: skip
    best = {(rid, k): cards for rid, k, cards in query(
        lin["db"], "SELECT record_id, card_index, best_cards FROM dd_card_alternatives")}  # fmt: skip
    seen, cards_marked = set(), 0
    for path in lin["boards"]:
        page = path.read_text()
        for rid, marks in board_marks(page).items():
            seen.add(rid)
            trace, play, seats, declarer = traces[rid]
            # the cards that changed the DD result against their side, from the stored trace
            dec_side = {"NESW".index(declarer), ("NESW".index(declarer) + 2) % 4}
            expected = {k for k in range(len(play))
                        if (trace[k + 1] < trace[k] if seats[k] in dec_side
                            else trace[k + 1] > trace[k])}  # fmt: skip
            card_marks = {a: m for a, *m in marks if "-trick-" in a}
            assert {(int(a.split("-trick-")[1].split("-")[0]) - 1) * 4
                    + int(a.rsplit("-", 1)[1]) - 1 for a in card_marks} == expected  # fmt: skip
            cards_marked += len(card_marks)
            for a in card_marks:  # the card cell carries the mark, and DD's alternative is shown
                assert re.search(rf'<td id="{a}" class="mistake-at">', page), a
                k = (
                    (int(a.split("-trick-")[1].split("-")[0]) - 1) * 4
                    + int(a.rsplit("-", 1)[1])
                    - 1
                )
                note = re.search(rf'<tr id="{a}-note".*?</tr>', page).group()
                for card in best[(rid, k)].split():
                    suit = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[card[0]]
                    assert suit + card[1:].replace("T", "10") in text(note)
            # per seat and kind, the marks add up to the store's weighted counters
            got: dict[tuple[int, str], float] = defaultdict(float)
            for _a, kind, who, points in marks:
                for seat in who:
                    got[("NESW".index(seat), kind)] += points
            for seat in range(4):
                dec, lead, defence, claim, auction = counters[(rid, seat)]
                assert got[(seat, "declarer")] == pytest.approx(dec)
                assert got[(seat, "lead")] == pytest.approx(lead)
                assert got[(seat, "defence")] == pytest.approx(defence)
                assert got[(seat, "claim")] == pytest.approx(claim)
                assert got[(seat, "auction")] == pytest.approx(auction)
    with_costs = {rid for (rid, _s), row in counters.items() if any(row)}
    assert seen == with_costs and cards_marked >= 10


def test_board_page_shows_the_auction_grid_and_every_trick(lin: dict) -> None:
    rows = query(lin["db"], "SELECT record_id, auction, bidstart, len(play) FROM boards")
    pages = {p: p.read_text() for p in lin["boards"]}
    for rid, auction, bidstart, cards in rows:
        page = next(t for t in pages.values() if f'<tr id="r-{rid}" ' in t)
        key = re.search(
            rf'<tr id="r-{rid}" class="line[^"]*"><td class="c-tbl"><a href="#([^"]+)">', page
        ).group(1)
        section = re.search(rf'<section class="table-play" id="{key}">.*?</section>', page,
                            re.S).group()  # fmt: skip
        calls = auction.split()
        assert len(re.findall(rf'<td id="{key}-call-\d+"', section)) == len(calls)
        first = re.search(r"<table class=\"auction\">.*?<tbody>\s*<tr>(.*?)</tr>", section,
                          re.S).group(1)  # fmt: skip
        assert first.startswith("<td></td>" * "WNES".index(bidstart))  # under its seat
        assert len(re.findall(rf'<tr id="{key}-trick-\d+">', section)) == -(-cards // 4)
        assert len(re.findall(rf'<td id="{key}-trick-\d+-card-\d"', section)) == cards


def test_player_page_links_each_costly_mistake_to_its_spot(lin: dict) -> None:
    players = sorted((lin["site"] / "players").glob("*.html"))
    links = 0
    for path in players:
        page = path.read_text()
        for href, anchor in re.findall(
            r'<a href="\.\./([^"#]+#[^"]+)" class="mistake-link" data-anchor="([^"]+)"', page
        ):
            target, frag = href.split("#")
            assert frag == anchor
            board = (lin["site"] / target).read_text()
            assert f'id="{anchor}"' in board and f'id="{anchor}-note"' in board
            links += 1
    assert links >= 10


def test_a_par_score_published_without_its_contract_renders() -> None:
    """The 2012 sample has boards with [OptimumScore] and no par contract: the board page of the
    whole bundled run failed on them (found by the installed-wheel acceptance run)."""
    from ddrank.site.board import suited

    assert str(suited(None)) == ""
    assert "&#9829;" in str(suited("4H")) or "♥" in str(suited("4H"))


# ------------------------------------------------------------------ teams event pages


@pytest.mark.parametrize(
    ("name", "kind", "total", "boards", "first"),
    [("multiple-teams.usebio.xml", "Teams: IMPs and VPs", "VPs", 30, ("10", "119")),
     ("point-a-board.usebio.xml", "Point-a-board", "Board points", 42, ("5", "55"))],
)  # fmt: skip
def test_a_teams_event_page_puts_the_ranking_first_in_its_own_units(
    tmp_path, name: str, kind: str, total: str, boards: int, first: tuple[str, str]
) -> None:
    """The EBU's teams samples: the scoring named, the ranking before the 40 or 28 matches, the
    team totals in VPs or board points (the published TOTAL_SCORE), teams in number order."""
    path = WELWYN[0].parent / "ebu-samples" / name
    if not path.is_file():
        pytest.skip(
            "../shared/data/events is absent; the EBU samples may not be bundled (SOURCES.md)"
        )
    build(tmp_path / "store.duckdb", tmp_path / "out", [path], dd=False)
    (event,) = sorted((tmp_path / "out" / "site" / "events").glob("*.html"))
    page = event.read_text(encoding="utf-8")
    facts = text(re.search(r'<p class="facts">(.*?)</p>', page, re.S).group(1))
    assert f"· {kind} ·" in facts and f"{boards} boards" in facts, facts
    heading = '<h2 class="ranking-heading">Teams</h2>'
    assert page.index(heading) < page.index("<h2>Matches</h2>")
    teams = page[page.index(heading) : page.index('<h2 class="ranking-heading">Pairs')]
    assert f"<th>{total}</th>" in teams.replace(' class="n"', "")
    cells = [text(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", teams, re.S)]
    assert (cells[1], cells[3]) == first  # place 1: the team and its TOTAL_SCORE as printed
    matches = page[page.index('id="matches"') :]
    teams_in_order = [text(c) for c in re.findall(r"<tr><td>(.*?)</td>", matches, re.S)]
    numbers = [int(t) for t in teams_in_order]
    assert numbers == sorted(numbers)  # 1, 2, ..., 10, not 1, 10, 2
    assert ('<th class="n">IMPs</th>' in matches) == (total == "VPs")
