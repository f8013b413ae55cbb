"""The pages clubs and players expect (issue 30), in a real browser, checked against the store.

Stores are built in-process by the stages (tests/site_store.py) from real files:
* a club store, without DDS: the bundled Bridgemate game (`.bws` + its BridgeComposer hand record,
  "Not played" lines) and 2021 qualifier (teams, Butler), and from ../shared where present: Welwyn
  (BriAn USEBIO + its Bridgewebs hand record with DD tags), the Magic Contest FFB pairs (lead
  cards, A+/A-) and the Compscore session with artificial adjusted scores;
* a hand-record store: the Bridgemate game's hand-record PBN alone (deals, DD and par tags);
(the bundled BBO LIN's pages with DDS: tests/test_site_lin_browser.py).

Every new page is opened in Chromium at 1280 px and at 390 px (nothing may scroll sideways).
`DDRANK_SCREENSHOTS=docs/img` writes the pictures the README shows.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from site_browser import (
    PHONE,
    SUITS,
    board_pages,
    no_sideways_scroll,
    number,
    open_page,
    shot,
    visit,
)
from site_store import EVENTS, REPO, WELWYN, build, query

from ddrank.scoring.arithmetic.precision import round_half_away

pytestmark = pytest.mark.flow

BWS = [REPO / "tests" / "data" / "bridgemate" / "LBC-2026-01-26.bws",
       REPO / "tests" / "data" / "bridgemate" / "LBC-2026-01-26.pbn"]  # fmt: skip
QUALIFIER = REPO / "ddrank" / "data" / "sample" / "pbn" / "online-qualifier-2021-example2.pbn"
FFB = EVENTS / "magic-contest-pbn" / "ffb-national-pairs-final-session5.pbn"
ADJUSTED = EVENTS / "compscore-usebio" / "mp_pairs_mitchell_adjusted_02.xml"
NAMES = {"welwyn": "Wednesday AM Pairs", "bws": "Bridge game", "qualifier": "2021 Online Qual",
         "ffb": "Open /2 DN1", "adjusted": "EL Thu 1.00pm Open"}  # fmt: skip


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> dict:
    files = [*BWS, QUALIFIER] + [f for f in (*WELWYN, FFB, ADJUSTED) if f.is_file()]
    tmp = tmp_path_factory.mktemp("club")
    build(tmp / "store.duckdb", tmp / "out", files, dd=False)
    site = tmp / "out" / "site"
    index = (site / "index.html").read_text(encoding="utf-8")
    events = dict((name, site / href) for href, name in
                  re.findall(r'<tr><td><a href="(events/[^"]+)">([^<]+)</a>', index))  # fmt: skip
    return {"db": tmp / "store.duckdb", "site": site, "events": events}


def event(club: dict, key: str) -> Path:
    """The event page of one of the club store's events (a skip if its file is not here)."""
    for name, path in club["events"].items():
        if name.startswith(NAMES[key]):
            return path
    pytest.skip(f"{NAMES[key]}: its file is in ../shared/data/events, absent here (SOURCES.md)")


#: A ranking's lines that open a scorecard: (href, score, percentage or None), in one round trip.
RANKING_LINES_JS = """() => [...document.querySelectorAll('table.ranking tbody tr')].map(row => {
  const place = row.querySelector('td.place a');
  if (!place) return null;  // a teams (VP) line: its matches are listed, not a scorecard
  const pct = row.querySelector('td.pct');
  return [place.getAttribute('href'), row.querySelector('td.score').innerText,
          pct ? pct.innerText : null];
}).filter(line => line)"""

#: A scorecard page as the player reads it, in one round trip: its totals, its notes, and each
#: board's record, side and value.
SCORECARD_JS = """() => {
  const text = sel => { const e = document.querySelector(sel); return e ? e.innerText : null; };
  return {total: text('#card-total'), foot_total: text('tfoot td.total'), pct: text('#card-pct'),
          foot: text('#scorecard tfoot'), head: text('#scorecard thead'),
          rows: [...document.querySelectorAll('#scorecard tbody tr')].map(tr => [
            tr.getAttribute('data-record'), tr.querySelectorAll('td')[1].innerText,
            tr.querySelector('td.value').innerText])};
}"""


def test_every_scorecard_totals_its_ranking_line(club: dict, browser) -> None:
    """Each ranking line opens its pair's scorecard; the card's total (and percentage) is the
    ranking's, its boards are the ranking's, and each board's value is the store's."""
    scored = {rid: values for rid, *values in query(
        club["db"], "SELECT record_id, ns_mp, ew_mp, imps, butler FROM scored_results")}  # fmt: skip
    checked = 0
    for key in ("welwyn", "bws", "qualifier", "ffb", "adjusted"):
        try:
            path = event(club, key)
        except pytest.skip.Exception:
            continue
        page, errors = open_page(browser, path.as_uri())
        lines = page.evaluate(RANKING_LINES_JS)
        assert lines, key
        for k, (href, score, pct) in enumerate(lines):
            page.goto((path.parent / href).resolve().as_uri())
            card = page.evaluate(SCORECARD_JS)
            assert card["total"] == score, (key, href)
            # the printed total; where the file's boards do not add up to it, a note says what
            # they give (Compscore's adjusted session: 634.43, its boards give 636.43)
            total, *note = card["foot_total"].split("\n")
            assert total == score and all(n.startswith("its boards give ") for n in note)
            if pct is not None:
                assert card["pct"] == pct
            if k < 3:  # each board's value is the scoring stage's, for that pair's side
                mp = card["pct"] is not None
                # (rounded as the scorer prints it where its totals sum the printed values)
                printed = re.search(r"to (\d) decimal", card["foot"])
                for rid, side, value in card["rows"]:
                    ns_mp, ew_mp, imps, butler = scored[rid]
                    if mp:
                        want = ns_mp if side == "NS" else ew_mp
                    else:
                        v = butler if "Butler" in card["head"] else imps
                        want = None if v is None else (v if side == "NS" else -v)
                    # the value; where the file printed another, "printed X" under it
                    got, *note = value.split("\n")
                    assert all(n.startswith("printed ") for n in note), (key, rid, note)
                    if want is None:
                        continue  # an adjusted IMP line: each side's own adjustment
                    if printed:
                        want = round_half_away(want, int(printed.group(1)))
                    assert number(got) == pytest.approx(want, abs=0.005), (key, rid)
            checked += 1
        assert errors == []
        page.close()
    assert checked >= 20 + 56  # the Bridgemate game's 20 pairs and the qualifier's 56 at least


def test_scorecard_page_on_a_phone(club: dict, browser) -> None:
    path = event(club, "welwyn")
    page, _ = open_page(browser, path.as_uri())
    first = page.locator("table.ranking tbody tr td.place a").first.get_attribute("href")
    card = (path.parent / first).resolve().as_uri()
    page.close()
    for width, name in ((1280, "scorecard.png"), (PHONE, "scorecard-phone.png")):
        page, errors = open_page(browser, card, width)
        assert page.locator("#scorecard tbody tr").count() == int(page.inner_text("#card-boards"))
        if width == PHONE:
            assert no_sideways_scroll(page) == []
        shot(page, name)
        assert errors == []
        page.close()


#: What the frequency check reads from a board page, in one round trip to the browser: the
#: traveller's record ids and each frequency row's cells (innerText, as Playwright's inner_text).
FREQ_JS = """() => ({
  rids: Array.from(document.querySelectorAll('table.results tr.line')).map(r => r.id),
  rows: Array.from(document.querySelectorAll('#freq-table tbody tr')).map(tr => ({
    status: (tr.getAttribute('class') || '').includes('status'),
    score: tr.querySelector('td.score-ns')?.innerText ?? null,
    count: tr.querySelector('td.count')?.innerText ?? null,
    value: tr.querySelector('td.ns-value')?.innerText ?? null})),
  counts: Array.from(document.querySelectorAll('#freq-table tbody tr td.count')).map(c => c.innerText),
})"""


def test_frequency_tables_equal_the_store(club: dict, browser) -> None:
    """Each score once per board, with how many tables got it and the store's MPs or IMPs."""
    import duckdb

    con = duckdb.connect(str(club["db"]), read_only=True)
    page, errors = open_page(browser, "about:blank")
    checked = 0
    try:
        for key in ("welwyn", "qualifier", "bws"):
            try:
                path = event(club, key)
            except pytest.skip.Exception:
                continue
            for board in board_pages(path):
                visit(page, errors, board.as_uri())
                shown = page.evaluate(FREQ_JS)
                rids = [i.removeprefix("r-") for i in shown["rids"]]
                stored = con.execute(
                    "SELECT coalesce(s.ns_score, CASE WHEN b.contract = 'P' THEN 0 END), "
                    "b.adjusted, count(*), any_value(coalesce(ns_mp, butler, imps)) "
                    "FROM boards b LEFT JOIN scored_results s USING (record_id) "
                    "WHERE record_id IN (SELECT unnest(?)) GROUP BY ALL", [rids]).fetchall()  # fmt: skip
                played = {}
                for tr in shown["rows"]:
                    if tr["status"]:
                        continue
                    played[int(tr["score"])] = (int(tr["count"]), number(tr["value"]))
                want = {s: (n, v) for s, adj, n, v in stored if adj is None and s is not None}
                assert set(played) == set(want), board
                for s, (n, v) in want.items():
                    assert played[s][0] == n, board
                    assert played[s][1] == (None if v is None else pytest.approx(v, abs=0.005)), (
                        board
                    )
                assert sum(int(c) for c in shown["counts"]) == len(rids)
                assert errors == [], board
                checked += 1
        assert checked >= 150 + 27  # every board of the bundled qualifier and Bridgemate game
    finally:
        page.close()
        con.close()
    for width, name in ((1280, "frequencies.png"), (PHONE, "frequencies-phone.png")):
        page, _ = open_page(browser, board_pages(event(club, "welwyn"))[0].as_uri(), width)
        shot(page, name, page.locator("section.frequencies"))
        page.close()


def test_traveller_marks_not_played_and_adjusted_and_fits_a_phone(club: dict, browser) -> None:
    """The Bridgemate game's "Not played" lines and Compscore's artificial adjusted scores are
    named where the contract would be; at 390 px nothing scrolls sideways."""
    cases = [("bws", "contract IS NULL AND adjusted IS NULL", "not-played", "traveller-not-played")]
    if ADJUSTED.is_file():
        cases.append(("adjusted", "adjusted IS NOT NULL", "adjusted", "traveller-adjusted"))
    for key, where, cls, name in cases:
        path = event(club, key)
        boards = query(club["db"], f"SELECT board_no, count(*) FROM boards WHERE {where} "
                                   "AND event_id = (SELECT event_id FROM boards WHERE record_id "
                                   "IN (SELECT record_id FROM scored_results) AND event LIKE ? "
                                   "LIMIT 1) GROUP BY 1 ORDER BY 2 DESC, 1",
                       [NAMES[key] + "%"])  # fmt: skip
        assert boards, key
        for board_no, count in boards:
            page, errors = open_page(
                browser, (path.with_suffix("") / f"board-{board_no}.html").as_uri()
            )
            marked = page.locator(f"table.results td.status.{cls}")
            assert marked.count() == count, (key, board_no)
            if cls == "adjusted":
                texts = marked.all_inner_texts()
                for (adj,) in query(club["db"], f"SELECT adjusted FROM boards WHERE {where} AND "
                                                "board_no = ? AND event LIKE ?",
                                    [board_no, NAMES[key] + "%"]):  # fmt: skip
                    ns, ew = adj.split("/")
                    assert any(f"NS {ns}%" in t and f"EW {ew}%" in t for t in texts), texts
            else:
                assert set(marked.all_inner_texts()) == {"Not played"}
            assert errors == []
            page.close()
        first = (path.with_suffix("") / f"board-{boards[0][0]}.html").as_uri()
        for width, suffix in ((1280, ""), (PHONE, "-phone")):
            page, _ = open_page(browser, first, width)
            if width == PHONE:
                assert no_sideways_scroll(page) == [], (key, boards[0][0])
                assert page.locator("table.results tr.sub").first.is_visible()
            else:
                assert not page.locator("table.results tr.sub").first.is_visible()
            shot(page, f"{name}{suffix}.png", page.locator("section.traveller"))
            page.close()


def test_the_lead_card_is_the_files(club: dict, browser) -> None:
    """Magic Contest's ScoreTable gives the card led: the traveller shows it, not the seat."""
    path = event(club, "ffb")
    for board in board_pages(path)[:6]:
        page, errors = open_page(browser, board.as_uri())
        for tr in page.locator("table.results tr.line").all():
            rid = tr.get_attribute("id").removeprefix("r-")
            (lead,) = query(club["db"], "SELECT lead_card FROM boards WHERE record_id = ?", [rid])[
                0
            ]
            cells = tr.locator("td").all_inner_texts()
            if lead:
                assert SUITS[lead[0]] + lead[1:].replace("T", "10") in cells, (board, rid)
        assert errors == []
        page.close()


def test_a_printed_board_is_one_page(club: dict, browser, tmp_path: Path) -> None:
    """The board of the largest traveller (FFB final, else the qualifier) prints on one A4 page
    with its DD column; each table's auction and play (the qualifier's) follow on later pages."""
    key = "ffb" if FFB.is_file() else "qualifier"
    path = event(club, key)
    biggest = max(board_pages(path), key=lambda p: (p.read_text().count('class="line'),
                                                    'class="line adjusted' in p.read_text()))  # fmt: skip
    page, _ = open_page(browser, biggest.as_uri())
    pdf = tmp_path / "board.pdf"

    def printed_pages() -> int:
        page.pdf(path=str(pdf), format="A4", print_background=True)
        return len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf.read_bytes()))

    plays = page.locator("section.table-play").count()
    everything = printed_pages()
    page.add_style_tag(content="@media print { section.table-play { display: none; } }")
    assert printed_pages() == 1
    assert (everything == 1) if plays == 0 else (everything > 1), (plays, everything)
    page.emulate_media(media="print")
    assert page.locator("table.results th.c-dd").is_visible()
    assert not page.locator("header").is_visible()
    folder = os.environ.get("DDRANK_SCREENSHOTS")
    if folder and shutil.which("pdftoppm"):
        shutil.copy(pdf, Path(folder) / "printed-board.pdf")
        subprocess.run(["pdftoppm", "-png", "-r", "60", "-singlefile", str(pdf),
                        str(Path(folder) / "printed-board")], check=True)  # fmt: skip
    page.close()


def test_index_lists_events_latest_first_with_their_leaders(club: dict, browser) -> None:
    page, errors = open_page(browser, (club["site"] / "index.html").as_uri())
    dates = page.locator("#event-table tbody tr td:nth-child(2)").all_inner_texts()
    assert dates == sorted(dates, reverse=True) and len(dates) >= 2
    if WELWYN[0].is_file():  # its organiser is the only one named: the column is there
        assert "Welwyn Garden City Bridge Club" in page.inner_text("#event-table")
    for table in page.locator("section.front-event table.ranking").all():
        assert table.locator("tbody tr").count() <= 3  # the leaders; the rest on the event page
    assert errors == []
    page.close()


def test_player_search_ignores_accents_and_case(club: dict, browser) -> None:
    from ddrank.text import search_key

    if not FFB.is_file():
        pytest.skip("the FFB file (accented names) is in ../shared, absent here")
    names = [n for (n,) in query(club["db"], "SELECT DISTINCT coalesce(player, raw_name) FROM "
                                             "board_players WHERE raw_name <> ''")]  # fmt: skip
    accented = next(n for n in names if search_key(n) != n.casefold())  # e.g. "Rémi LEGRAS"
    plain = search_key(accented)
    want = sum(1 for n in names if plain in search_key(n))
    page, errors = open_page(browser, (club["site"] / "index.html").as_uri())
    for typed in (plain, plain.upper(), accented, accented.swapcase()):
        page.fill("#player-search", typed)
        assert page.locator("#player-table tbody tr:visible").count() == want, typed
    assert errors == []
    page.close()


@pytest.fixture(scope="module")
def hands(tmp_path_factory: pytest.TempPathFactory) -> dict:
    tmp = tmp_path_factory.mktemp("hands")
    build(tmp / "store.duckdb", tmp / "out", [BWS[1]], dd=False)
    return {"db": tmp / "store.duckdb", "site": tmp / "out" / "site"}


def file_tags(path: Path) -> dict[str, dict]:
    """Board -> its DoubleDummyTricks, OptimumResultTable lines and OptimumScore, read here from
    the file's text (independently of the readers)."""
    out: dict[str, dict] = {}
    for game in path.read_text(encoding="latin-1").split("\n\n"):
        board = re.search(r'\[Board "(\d+)"\]', game)
        if not board:
            continue
        table = re.findall(r"^([NESW])\s+(NT|[SHDC])\s+(\d+)\s*$", game, re.M)
        par = re.search(r'\[OptimumScore "(NS|EW) (-?\d+)"\]', game)  # Bridgewebs: none
        out[board.group(1)] = {
            "hex": re.search(r'\[DoubleDummyTricks "(\w+)"\]', game).group(1),
            "table": {(s, "N" if d == "NT" else d): int(t) for s, d, t in table},
            "par": par.groups() if par else None,
        }
    return out


def test_a_hand_record_file_alone_publishes_a_hand_record_site(hands: dict, browser) -> None:
    """BridgeComposer's hand record of the Bridgemate game, with no results: 36 boards, each with
    the deal, the DD table the file publishes (equal to its OptimumResultTable) and par; our par
    from that table equals the file's OptimumScore on every board. No DDS ran."""
    assert query(hands["db"], "SELECT count(*) FROM dd_tables")[0][0] == 0
    tags = file_tags(BWS[1])
    index, errors = open_page(browser, (hands["site"] / "index.html").as_uri())
    assert index.locator("#event-table tbody tr").count() == 1
    assert "Hand record" in index.inner_text("#event-table")
    index.click("#event-table a")
    assert "the file has no results" in index.inner_text("#hand-record-note")
    boards = index.locator(".boardlist a")
    assert boards.count() == len(tags) == 36
    shot(index, "hand-record-event.png")
    assert errors == []
    first = index.url.removesuffix(".html") + "/board-1.html"
    index.close()
    page, errs = open_page(browser, "about:blank")
    for number_, tag in tags.items():
        visit(page, errs, first.replace("board-1.html", f"board-{number_}.html"))
        got = page.evaluate(HAND_RECORD_JS)  # the page's cells in one round trip
        shown = {}
        for seats, cells in got["dd"]:
            (seat,) = seats  # one header cell per row
            for strain, td in zip("NSHDC", cells, strict=True):
                shown[(seat, strain)] = int(td)
        assert shown == tag["table"], number_
        assert got["source"] == "file"
        side, value = tag["par"]
        par = int(value) if side == "NS" else -int(value)
        assert got["par"][0] == f"{par:+d}", number_
        assert got["only"] == 1
        assert got["results"] == 0
        assert errs == []
        if number_ == "1":
            shot(page, "hand-record.png")
            phone, _ = open_page(browser, page.url, PHONE)
            assert no_sideways_scroll(phone) == []
            shot(phone, "hand-record-phone.png")
            phone.close()
    page.close()


#: A hand-record board page's DD table (seat, cells), its source, par and sections, read at once.
HAND_RECORD_JS = """() => ({
  dd: Array.from(document.querySelectorAll('#dd-table tbody tr')).map(tr =>
        [Array.from(tr.querySelectorAll('th')).map(th => th.innerText),
         Array.from(tr.querySelectorAll('td')).map(td => td.innerText)]),
  source: document.querySelector('#dd-table')?.getAttribute('data-source') ?? null,
  par: Array.from(document.querySelectorAll('.par-score')).map(e => e.innerText),
  only: document.querySelectorAll('#hand-record-only').length,
  results: document.querySelectorAll('table.results').length,
})"""


def test_results_site_shows_the_files_dd_table_and_par_without_dds(club: dict, browser) -> None:
    """Welwyn's Bridgewebs hand record publishes DoubleDummyTricks: the results site shows them,
    the traveller's DD column and par too, with no DD table solved."""
    if not WELWYN[1].is_file():
        pytest.skip("the Welwyn hand record is in ../shared, absent here")
    assert query(club["db"], "SELECT count(*) FROM dd_tables")[0][0] == 0
    tags = file_tags(WELWYN[1])
    path = event(club, "welwyn")
    for board in board_pages(path)[:8]:
        page, errors = open_page(browser, board.as_uri())
        number_ = board.stem.removeprefix("board-")
        seats = page.locator("#dd-table tbody tr th").all_inner_texts()
        assert seats == ["N", "S", "E", "W"]
        cells = {(tr.locator("th").inner_text(), s): int(v)
                 for tr in page.locator("#dd-table tbody tr").all()
                 for s, v in zip("NSHDC", tr.locator("td").all_inner_texts(), strict=True)}  # fmt: skip
        assert cells == tags[number_]["table"]
        assert page.locator(".par-score").count() == 1
        for tr in page.locator("table.results tr.line").all():
            rid = tr.get_attribute("id").removeprefix("r-")
            contract, declarer = query(club["db"], "SELECT contract, declarer FROM boards "
                                                   "WHERE record_id = ?", [rid])[0]  # fmt: skip
            if contract and contract != "P":
                dd = tr.locator("td.c-dd").inner_text().split()[0]
                assert int(dd) == cells[(declarer, contract[1])]
        assert errors == []
        page.close()
