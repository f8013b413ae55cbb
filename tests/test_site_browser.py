"""The static site in a real browser: Debian's chromium, driven by Playwright (system browser only).

One small real store is built by `ddrank run` on the bundled BBO vugraph LIN (2010 USBF semi-final,
30 table results, 8 players): the session's run (tests/conftest.py `lin_pipeline`; this file is in
its share), copied. To check escaping, the test then renames ONE real player of that
store, Jeff Meckstroth (raw name "Meckstroth"), to a name holding ', " and <, and writes the site
with `ddrank report`. The pages must load with no console error, the search must filter, and the
numbers on the pages must equal the store's.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
from site_browser import open_page, shot

from ddrank.scoring.arithmetic.precision import agrees_printed, round_half_away

REPO = Path(__file__).resolve().parents[1]
#: The renamed player: quotes, an apostrophe and a tag-like '<' that must show as text.
ODD_NAME = 'Jeff "Meck" O\'Meckstroth <b>&amp;'
RENAMED = "Meckstroth"

pytestmark = pytest.mark.flow


def ddrank(*args: str, **extra: str) -> subprocess.CompletedProcess:
    exe = Path(sys.executable).with_name("ddrank")
    cmd = [str(exe), *args] if exe.exists() else [sys.executable, "-m", "cli.main", *args]
    env = {**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "400", **extra}
    proc = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return proc


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, lin_pipeline) -> dict:  # noqa: ANN001
    """A copy of the session's `ddrank run` over the LIN (its store and outputs), with one player
    renamed and the site written again by `ddrank report`."""
    ran, run = lin_pipeline
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    tmp = tmp_path_factory.mktemp("site")
    db, out = tmp / "store.duckdb", tmp / "out"
    shutil.copy2(ran, db)
    shutil.copytree(ran.parent / "full-out", out)
    con = duckdb.connect(str(db))
    for col in ("northname", "eastname", "southname", "westname"):
        con.execute(f"UPDATE boards SET {col} = ? WHERE {col} = ?", [ODD_NAME, RENAMED])
    con.execute("DELETE FROM player_matches WHERE raw_name = ?", [RENAMED])
    con.execute(
        "UPDATE player_board_stats SET raw_name = ? WHERE raw_name = ?", [ODD_NAME, RENAMED]
    )
    con.close()
    ddrank("report", "--db", str(db), "--out", str(out))
    return {"db": db, "site": out / "site", "tmp": tmp, "run": run,
            "run_site": ran.parent / "full-out" / "site"}  # fmt: skip


def q(db: Path, sql: str, params: list | None = None) -> list:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql, params or []).fetchall()
    finally:
        con.close()


PLAYERS_SQL = """SELECT coalesce(player, nullif(trim(raw_name), '')) AS p, count(*)
FROM board_players GROUP BY p HAVING p IS NOT NULL"""


def test_index_search_and_provenance(site: dict, browser) -> None:
    page, errors = open_page(browser, (site["site"] / "index.html").as_uri())
    players = dict(q(site["db"], PLAYERS_SQL))
    rows = page.locator("#player-table tbody tr")
    assert rows.count() == len(players) == 8
    assert ODD_NAME in players
    # the search filters: one row for a part of the odd name, all rows again when cleared
    page.fill("#player-search", "o'meck")
    visible = page.locator("#player-table tbody tr:visible")
    assert visible.count() == 1
    assert visible.locator("td").first.inner_text() == ODD_NAME
    assert page.inner_text("#player-count") == f"1 of {len(players)} shown"
    page.fill("#player-search", "zzz-no-such-player")
    assert page.locator("#player-table tbody tr:visible").count() == 0
    page.fill("#player-search", "")
    assert page.locator("#player-table tbody tr:visible").count() == len(players)
    assert page.locator("#event-table tbody tr").count() == 1
    assert errors == []
    page.close()
    # provenance has its own page, linked from every page
    page, errors = open_page(browser, (site["site"] / "about.html").as_uri())
    raw, kept, excluded = q(
        site["db"],
        "SELECT (SELECT count(*) FROM raw_records), (SELECT count(*) FROM boards), "
        "(SELECT count(*) FROM exclusions)",
    )[0]
    assert page.inner_text("#raw-records") == f"{raw:,}"
    assert page.inner_text("#kept-boards") == f"{kept:,}"
    assert page.inner_text("#excluded") == f"{excluded:,}"
    assert errors == []
    page.close()


def test_event_page_and_traveller_equal_the_store(site: dict, browser) -> None:
    index, _ = open_page(browser, (site["site"] / "index.html").as_uri())
    index.click("#event-table a")
    page_errors: list[str] = []
    index.on("pageerror", lambda e: page_errors.append(str(e)))
    results = q(site["db"], "SELECT count(*), count(DISTINCT deal_id) FROM boards")[0]
    assert index.inner_text("#event-results") == str(results[0])
    assert index.inner_text("#event-boards") == str(results[1])
    assert index.locator("#split-table tbody tr").count() > 0  # IMP event: bid/play split
    # the first board's traveller: par, DD table and each result's DD tricks
    index.click(".boardlist a >> nth=0")
    index.wait_for_load_state("load")
    section = index.locator("section.traveller").first
    deal_id = index.locator("h1[id^=b-]").get_attribute("id").removeprefix("b-")
    par = q(site["db"],
            "SELECT p.par_contract, p.par_score FROM boards b JOIN dd_par p USING (deal_id) "
            "WHERE b.deal_id = ? AND p.dealer = b.dealer LIMIT 1", [deal_id])  # fmt: skip
    assert par, "the DD stage stored no par for this deal"
    # the deal's par and DD table stand above the traveller
    assert index.locator(".par-contract").get_attribute("data-par") == par[0][0]
    assert index.locator(".par-score").inner_text() == f"{par[0][1]:+d}"
    dd = dict(
        ((s, d), t)
        for s, d, t in q(
            site["db"],
            "SELECT strain, declarer, tricks FROM dd_tables WHERE deal_id = ?",
            [deal_id],
        )  # fmt: skip
    )
    north_nt = index.locator("table.dd tbody tr").first.locator("td").first.inner_text()
    assert int(north_nt) == dd[("N", "N")]
    rows = section.locator("table.results tbody tr.line")  # (each with a phone's sub-line)
    stored = q(site["db"], "SELECT count(*) FROM boards WHERE deal_id = ?", [deal_id])[0][0]
    assert rows.count() == stored
    assert page_errors == []
    index.close()


def test_player_page_with_quotes_and_angle_bracket(site: dict, browser) -> None:
    index, _ = open_page(browser, (site["site"] / "index.html").as_uri())
    index.fill("#player-search", "o'meck")
    href = index.locator("#player-table tbody tr:visible a").get_attribute("href")
    page, errors = open_page(browser, (site["site"] / href).as_uri())
    # the name shows exactly as stored: no tag was injected, nothing double-escaped
    assert page.inner_text("#player-name") == ODD_NAME
    assert ODD_NAME in page.title()
    assert page.locator("#player-name b").count() == 0
    boards = dict(q(site["db"], PLAYERS_SQL))[ODD_NAME]
    assert page.inner_text("#player-boards") == str(boards)
    mistakes, cards = q(
        site["db"],
        "SELECT sum(s.play_mistakes_as_declarer), sum(s.cards_played_as_declarer) "
        "FROM player_board_stats s JOIN board_players w USING (record_id, seat) "
        "WHERE w.raw_name = ?",
        [ODD_NAME],
    )[0]
    cell = page.locator("#profile tr[data-category=declarer] td").nth(1).inner_text()
    assert cell == f"{mistakes:.0f} / {cards:.0f} cards"
    if mistakes:
        assert page.locator("#profile tr[data-category=declarer] .rate").inner_text() == (
            f"{100 * mistakes / cards:.2f}%"
        )
    # partners link back to real player pages, and a costliest board opens its traveller
    assert page.locator("#partners tbody tr").count() >= 1
    shot(page, "site-player.png")
    if page.locator("#costly a.mistake-link").count():
        anchor = page.locator("#costly a.mistake-link").first.get_attribute("data-anchor")
        page.click("#costly a.mistake-link >> nth=0")
        page.wait_for_load_state("load")
        # the link lands on the very card or call, marked as the mistake
        assert page.locator(":target").get_attribute("id") == anchor
        assert "mistake-at" in (page.locator(":target").get_attribute("class") or "")
    assert errors == []
    page.close()


def test_site_pages_load_nothing_from_another_host(site: dict) -> None:
    """No CDN, no remote font or script: every src and stylesheet is a relative path."""
    pages = list(site["site"].glob("*.html")) + list(site["site"].glob("[ep]*/*.html"))
    assert len(pages) >= 4
    for html in pages:
        text = html.read_text()
        for attr in ('src="http', 'src="//', 'href="http', 'href="//'):
            assert attr not in text, f"{html}: {attr}"


@pytest.fixture(scope="module")
def welwyn(tmp_path_factory: pytest.TempPathFactory) -> dict:
    from site_store import WELWYN, build

    if not all(f.is_file() for f in WELWYN):
        pytest.skip("../shared/data/events (the Welwyn USEBIO file) is absent")
    tmp = tmp_path_factory.mktemp("welwyn")
    build(tmp / "store.duckdb", tmp / "out", WELWYN)
    return {"db": tmp / "store.duckdb", "site": tmp / "out" / "site"}


def test_director_page_for_welwyn_one_ranking_equal_to_the_store(welwyn: dict, browser) -> None:
    index, errors = open_page(browser, (welwyn["site"] / "index.html").as_uri())
    index.click("#event-table a")
    index.wait_for_load_state("load")
    assert index.inner_text("h1") == "Wednesday AM Pairs"
    tables = index.locator("table.ranking")
    assert tables.count() == 1
    headings = [h.strip() for h in index.locator("main h2").all_inner_texts()]
    assert headings == ["Ranking", "Boards"]  # no model, ratings, sources or "computed here"
    stored = q(welwyn["db"], "SELECT pair, score_text, pct_text, pct FROM rankings ORDER BY rank")
    rows = tables.locator("tbody tr")
    assert rows.count() == len(stored)
    published = dict(q(welwyn["db"], "SELECT pair, published_pct FROM published_standings"))
    by_pair = {rows.nth(k).locator("td.pair").inner_text(): rows.nth(k) for k in range(len(stored))}
    for pair, score, pct, ours in stored:
        row = by_pair[pair]
        assert row.locator("td.score").inner_text() == score  # as the scorer printed it (stored)
        assert row.locator("td.pct").inner_text() == pct == published[pair]  # its own digits
        # what the file's own numbers give beside it exactly where the two differ
        shown = row.locator("td.own").inner_text() if row.locator("td.own").count() else ""
        differs = not agrees_printed(ours, pct)
        assert (f"{round_half_away(ours, 2):.2f}%" in shown) == differs
    shot(index, "director-welwyn.png")
    # on a phone the page fits its width (tables scroll inside their own box)
    phone, phone_errors = open_page(browser, index.url, width=390)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    shot(phone, "director-welwyn-phone.png")
    # printed, the navigation goes and the ranking stays
    phone.emulate_media(media="print")
    assert phone.locator("header").is_hidden() and phone.locator("table.ranking").is_visible()
    assert errors == [] and phone_errors == []
    phone.close()
    index.close()


def test_board_page_shows_auction_play_and_marked_mistakes(site: dict, browser) -> None:
    rid, points = q(site["db"],
                    "SELECT record_id, weighted_play_mistakes_as_declarer + weighted_lead_mistakes "
                    "+ weighted_play_mistakes_as_defender AS p FROM player_board_stats "
                    "ORDER BY p DESC, record_id LIMIT 1")[0]  # fmt: skip
    event = next((site["site"] / "events").glob("*.html"))
    board = next(p for p in event.with_suffix("").glob("board-*.html")
                 if f'id="r-{rid}"' in p.read_text())  # fmt: skip
    page, errors = open_page(browser, board.as_uri())
    key = page.locator(f"#r-{rid} td.c-tbl a").get_attribute("href").removeprefix("#")
    section = page.locator(f"section#{key}")
    auction, play_len = q(site["db"], "SELECT auction, len(play) FROM boards WHERE record_id = ?",
                          [rid])[0]  # fmt: skip
    calls = section.locator("table.auction tbody td[id]")
    assert calls.count() == len(auction.split())
    assert section.locator("table.play tbody tr").count() == -(-play_len // 4)
    marked = section.locator("table.play td.mistake-at")
    assert marked.count() >= 1
    notes = section.locator("table.marks tbody tr")
    total = sum(float(n.locator("td.cost").get_attribute("data-points"))
                for n in notes.all() if "mark-auction" not in (n.get_attribute("class") or ""))  # fmt: skip
    # each side's card mistakes together cost what the store's counters say
    seats_total = q(site["db"],
                    "SELECT sum(weighted_play_mistakes_as_declarer + weighted_lead_mistakes + "
                    "weighted_play_mistakes_as_defender + weighted_claim_mistakes) FROM "
                    "player_board_stats WHERE record_id = ?", [rid])[0][0]  # fmt: skip
    claims = sum(float(n.locator("td.cost").get_attribute("data-points")) * (len(
        n.locator("td").nth(1).inner_text()) - 1) for n in notes.all()
        if "mark-claim" in (n.get_attribute("class") or ""))  # fmt: skip
    assert total + claims == pytest.approx(seats_total)
    # the note's link goes to the marked card
    first = marked.first.get_attribute("id")
    page.click(f'a[href="#{first}"]')
    assert page.locator(":target").get_attribute("id") == first
    section.scroll_into_view_if_needed()
    shot(page, "player-board.png")
    assert errors == []
    page.close()


def test_the_run_talks_from_its_first_second(site: dict) -> None:
    """The run's own output, piped (a log): its first line is the start-up's, before Prefect is
    loaded; every stage says when it starts and how long it took; and while one runs, a line
    comes every DDRANK_PROGRESS_EVERY seconds (1 here) even when nothing of it finished: at
    least half as many as its seconds (counted against the stage's own reported time, so the
    machine's load does not matter), for the Prefect API's start and the DD stage alike."""
    import re

    # (piped, no terminal: plain progress lines, one a second: DDRANK_PROGRESS_EVERY=1)
    lines = site["run"].stdout.splitlines()
    # the run's last lines point to the site
    assert f"{site['run_site'] / 'index.html'}" in site["run"].stdout.replace("\n", "")
    progress = [m.groups() for m in map(re.compile(r"^\d\d:\d\d:\d\d ([^:]+): (.*)$").match,
                                       lines) if m]  # fmt: skip
    assert lines[0] == lines[0].strip() and progress, lines[:5]
    first_label, first_text = progress[0]
    assert first_label in ("check the inputs (what is new)", "load Prefect"), lines[:3]
    assert first_text == "started" and re.match(r"^\d\d:\d\d:\d\d ", lines[0])
    done = {label: float(m.group(1)) * (60 if m.group(2) == "min" else 1)
            for label, text in progress
            if (m := re.search(r"(?:^|, )([\d.]+) (min|s)[^,]*$", text)) and text.startswith("done")}  # fmt: skip
    for label in ("load Prefect", "start Prefect API", "DD solve (tables + traces)"):
        assert label in done, (label, progress)
    for label, seconds in done.items():
        beats = [t for lb, t in progress if lb == label and not t.startswith(("started", "done"))]
        if seconds >= 3:
            assert len(beats) >= seconds / 2 - 1, (label, seconds, beats)
    solve = [t for lb, t in progress if lb == "DD solve (tables + traces)"]
    middle = solve[1:-1]
    assert all(re.search(r"estimating the time left|about .+ left|finishing the last"
                         r"|still under way", t) for t in middle), middle  # fmt: skip
