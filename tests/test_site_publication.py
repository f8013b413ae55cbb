"""What the built site publishes, read from its pages (issue 36, items 3 and 4, the page side).

One store is built in-process (tests/site_store.py, no DDS) from real files: the bundled Bridgemate
game (`LBC-2026-01-26.bws` + its hand record) and, from ../shared where present, an ACBLscore game
file (scores without contracts, strats and masterpoints) and a Compscore Butler session. Each
test reads the written HTML and compares it with the files' own values.
"""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest
from site_store import EVENTS, REPO, build

from ddrank.parsers.acblscore_layout import read_game_file

BWS = [REPO / "tests" / "data" / "bridgemate" / "LBC-2026-01-26.bws",
       REPO / "tests" / "data" / "bridgemate" / "LBC-2026-01-26.pbn"]  # fmt: skip
ACBL = EVENTS / "acblscore-game" / "750-club__170724.ACM"
BUTLER = EVENTS / "compscore-usebio" / "butler_howell.xml"
RUTER_BUTLER = EVENTS / "ruter-pbn" / "butler.pbn"
FFB = EVENTS / "magic-contest-pbn" / "ffb-national-pairs-final-session5.pbn"
LEAGUE = EVENTS / "ruter-pbn" / "team.pbn"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> dict:
    tmp = tmp_path_factory.mktemp("publication")
    files = BWS + [f for f in (ACBL, BUTLER, RUTER_BUTLER, FFB, LEAGUE) if f.is_file()]
    build(tmp / "store.duckdb", tmp / "out", files, dd=False)
    site = tmp / "out" / "site"
    index = (site / "index.html").read_text(encoding="utf-8")
    events = dict((unescape(name), site / href) for href, name in
                  re.findall(r'<tr><td><a href="(events/[^"]+)">([^<]+)</a>', index))  # fmt: skip
    return {"db": tmp / "store.duckdb", "site": site, "events": events, "files": files}


def event_page(site: dict, name: str) -> Path:
    for title, path in site["events"].items():
        if title.startswith(name):
            return path
    pytest.skip(f"{name}: its file is in ../shared/data/events, absent here (SOURCES.md)")


def text(html: str) -> str:
    """A page's visible words (tags dropped)."""
    return unescape(re.sub(r"<[^>]+>", " ", html))


def pages(site: dict) -> list[Path]:
    return sorted(site["site"].rglob("*.html"))


def test_pages_name_files_never_their_folders(site: dict) -> None:
    """The About page and the "left out" tables print each input's file name, never the folder
    it was read from (a club's disk layout on the web)."""
    about = (site["site"] / "about.html").read_text(encoding="utf-8")
    for f in site["files"]:
        assert f"<code>{f.name}</code>" in about
    for page in pages(site):
        html = page.read_text(encoding="utf-8")
        for f in site["files"]:
            assert str(f.parent) not in html, page


def test_pages_show_no_internal_player_ids(site: dict) -> None:
    """A player known to the file by name shows that name; one known only by a number shows the
    file's number, never the store's key ("id:7646884") nor an "identified as" line."""
    for page in pages(site):
        words = text(page.read_text(encoding="utf-8"))
        assert not re.search(r"\bid:\d", words), page
        assert "identified as" not in words, page


def test_acblscore_plain_scores_are_results_not_adjustments(site: dict) -> None:
    """An ACBLscore file records each table's score and no contract: the traveller shows the
    score as a result, and only the file's artificial scores as adjusted."""
    event = event_page(site, "Monday Morning Pairs")
    game = read_game_file(ACBL.read_bytes())
    by_board: dict[int, list[int]] = {}
    for sec in game.sections:
        for b in sec.boards:
            by_board.setdefault(b.number, []).extend(
                10 * s.ns_score for s in b.slots if s.ns_score < 900 and s.ew_score == -s.ns_score
            )
    shown: dict[int, list[int]] = {}
    for page in sorted(event.with_suffix("").glob("board-*.html")):  # a page per section's board
        html = page.read_text(encoding="utf-8")
        assert "assigned by the director" not in html.lower(), page
        number = int(page.stem.split("-")[1])
        shown.setdefault(number, []).extend(
            int(v) for v in re.findall(r'<td class="n c-score">(-?\d+)</td>', html)
        )
    # every played line shows its plain score, as the file stores it (tens of points)
    assert len(shown) == len(by_board) == 27
    for number, scores in by_board.items():
        assert sorted(shown[number]) == sorted(scores), number


GAMES = EVENTS / "acblscore-game"


@pytest.fixture(scope="module")
def acbl_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not GAMES.is_dir():
        pytest.skip("../shared/data/events/acblscore-game is absent (SOURCES.md: no licence)")
    tmp = tmp_path_factory.mktemp("acbl")
    build(tmp / "store.duckdb", tmp / "out", sorted(GAMES.iterdir()), dd=False)
    return tmp / "out" / "site"


def test_acblscore_strat_places_and_masterpoints_as_the_files_hold_them(acbl_site: Path) -> None:
    """On all 49 ACBLscore files: every pair's masterpoints (each amount in its colour) and its
    places in the lower strats and the overall ranking are on its event's page, as the files
    record them, and nothing else is."""
    from collections import Counter

    from ddrank.parsers.acblscore import parse_acblscore

    files = sorted(GAMES.iterdir())
    assert len(files) == 49
    awards: Counter[str] = Counter()
    places: Counter[str] = Counter()
    for f in files:
        for s in parse_acblscore(f.read_bytes(), f.name).standings:
            for part in filter(None, (a.strip() for a in s.award.split(";"))):
                awards[part] += 1
            if s.strat or s.overall:
                places[" ".join(x for x in ("overall" if s.overall else "", s.strat,
                                            s.published_place) if x)] += 1  # fmt: skip
    shown_awards: Counter[str] = Counter()
    shown_places: Counter[str] = Counter()
    for page in sorted((acbl_site / "events").glob("*.html")):
        html = page.read_text(encoding="utf-8")
        for colour, amount in re.findall(r'<span class="mp mp-(\w+)"[^>]*>([\d.]+) <span class="long">',
                                         html):  # fmt: skip
            shown_awards[f"{amount} {colour.lower()}"] += 1
        for cell in re.findall(r'<td class="strats">([^<]*)</td>', html):
            for p in filter(None, (x.strip() for x in cell.split("·"))):
                shown_places[p] += 1
    expected_awards = Counter({f"{a.split()[0]} {a.split()[1].lower()}": n
                               for a, n in awards.items()})  # fmt: skip
    assert sum(awards.values()) > 500
    assert shown_awards == expected_awards
    assert shown_places == places


def test_one_count_of_results_and_boards_in_every_output(site: dict) -> None:
    """LBC-2026-01-26.bws: 270 lines read, 6 of them a round not played. `ddrank event`, the
    event page and the About page say the same: 264 results on 27 boards, 6 not played."""
    import os
    import subprocess
    import sys

    exe = Path(sys.executable).with_name("ddrank")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "cli.main"]
    out = subprocess.run([*cmd, "event", "--db", str(site["db"]), "Bridge game", "--top", "1"],
                         capture_output=True, text=True, env={**os.environ, "COLUMNS": "200"},
                         cwd=REPO, check=True).stdout  # fmt: skip
    assert out.splitlines()[0] == "Bridge game, 2026-01-26: 264 results on 27 boards, 40 players"
    html = event_page(site, "Bridge game").read_text(encoding="utf-8")
    assert '<span id="event-boards">27</span> boards' in html
    assert '<span id="event-results">264</span> results' in html
    assert '<span id="event-not-played">6</span> not played' in html
    boards = sorted(event_page(site, "Bridge game").with_suffix("").glob("board-*.html"))
    assert len(boards) == 27
    # each traveller says which of its lines were not played
    assert sum(b.read_text(encoding="utf-8").count('class="line not-played"') for b in boards) == 6
    # the About page counts the whole site (every file here) as the event pages do
    from site_store import query

    kept = query(site["db"], "SELECT count(*) FROM boards")[0][0]
    results = missed = 0
    for page in site["events"].values():
        html = page.read_text(encoding="utf-8")
        counted = re.search(r'<span id="event-results">(\d+)</span>', html)
        results += int(counted.group(1)) if counted else 0  # a league: matches, no results
        m = re.search(r'<span id="event-not-played">(\d+)</span>', html)
        missed += int(m.group(1)) if m else 0
    assert results + missed == kept
    about = (site["site"] / "about.html").read_text(encoding="utf-8")
    assert (f'<b id="kept-boards">{kept:,}</b> kept (<b id="played-results">{results:,}</b> '
            f'results and <b id="not-played">{missed:,}</b> lines not played)') in about  # fmt: skip


def test_butler_split_names_are_the_players_shown_everywhere(tmp_path: Path) -> None:
    """The bundled USBF vugraph (IMPs): each pair in the bid/play split table links both its
    players to their pages, by the names those pages (and the ranking) show."""
    lin = REPO / "ddrank" / "data" / "sample" / "lin" / "usbf-2010-sf-14502.lin"
    build(tmp_path / "store.duckdb", tmp_path / "out", [lin], dd=False)
    site = tmp_path / "out" / "site"
    page = next((site / "events").glob("*.html"))
    html = page.read_text(encoding="utf-8")
    table = html[html.index('id="split-table"') :]
    table = table[: table.index("</table>")]
    cells = re.findall(r"<tr><td class=\"n\">\d+</td><td>(.*?)</td>", table)
    assert len(cells) == 4  # two pairs a side in a 4-player-a-team vugraph
    for cell in cells:
        links = re.findall(r'<a href="\.\./(players/[^"]+)">([^<]+)</a>', cell)
        assert len(links) == 2, cell
        for href, name in links:
            shown = (site / href).read_text(encoding="utf-8")
            assert f'<h1 id="player-name">{name}</h1>' in shown


def test_compscore_lead_cards_and_butler_datums_as_the_file_gives_them(site: dict) -> None:
    """Compscore's USEBIO gives each line's lead card rank first (`<LEAD>KD`) and each board's
    Butler datum (`BOARD_AVERAGE`): every traveller shows the card led and the datum."""
    event = event_page(site, "Monday Afternoon - Butler")
    xml = BUTLER.read_text(encoding="latin-1")
    suits = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
    blocks = re.findall(r"<BOARD_NUMBER>(\d+)</BOARD_NUMBER>\s*<BOARD_AVERAGE>(-?\d+)"
                        r"</BOARD_AVERAGE>(.*?)</BOARD>", xml, re.S)  # fmt: skip
    assert len(blocks) == 35
    for number_text, datum, block in blocks:
        number = int(number_text)
        leads = sorted(re.findall(r"<LEAD>(\w+)</LEAD>", block))
        html = (event.with_suffix("") / f"board-{number}.html").read_text(encoding="utf-8")
        assert f'<b id="butler-datum">NS {datum}</b>' in html
        shown = sorted(f"{rank}{suit}" for suit, rank in re.findall(
            r'<td><span class="(?:red|black)">([♠♥♦♣])</span>(10|[2-9TJQKA])</td>', html))  # fmt: skip
        expected = sorted(f"{lead[:-1].replace('T', '10')}{suits[lead[-1]]}" for lead in leads)
        assert shown == expected, number


def test_ruter_datum_and_site_from_the_file(site: dict) -> None:
    """A Ruter Butler file: the event page names the site its PBN gives (`[Site]`), each board
    page the `ButlerDatum` of its ScoreTable."""
    event = event_page(site, "H6 20.8.2013")
    html = event.read_text(encoding="utf-8")
    pbn = RUTER_BUTLER.read_text(encoding="latin-1")
    site_tag = re.search(r'\[Site "([^"]+)"\]', pbn).group(1)
    assert site_tag == "SBL 0301 H6, Turku"
    assert re.search(r'<p class="facts">[^<]*· SBL 0301 H6, Turku ·', html)
    board1 = (event.with_suffix("") / "board-1.html").read_text(encoding="utf-8")
    table = pbn[pbn.index('[Board "1"]') :]
    table = table[table.index("[ScoreTable") :]
    first_row = table.splitlines()[1].split()
    assert f'<b id="butler-datum">NS {first_row[-1]}</b>' in board1


def test_ffb_session_file_publishes_the_cumulative_standings(site: dict) -> None:
    """The FFB's session-5 file ranks every pair over the 144 boards so far (`TotalScoreTable`:
    Rank, TotalScoreMP, TotalPercentage, NrBoards) beside the session's 28: the event page shows
    that ranking line for line as printed, with each pair's carry-over (total less session)."""
    event = event_page(site, "Open /2 DN1")
    html = event.read_text(encoding="utf-8")
    assert '<h2 id="cumulative">Standings after this session (144 boards)</h2>' in html
    pbn = FFB.read_text(encoding="latin-1")
    table = pbn[pbn.index("[TotalScoreTable") :]
    rows = []
    for line in table.splitlines()[1:]:
        if not line.strip() or line.startswith("["):
            break
        f = re.findall(r'"[^"]*"|\S+', line)
        rows.append((f[0], f[1], f[4], f[5], f[9]))  # Rank, PairId, TotalScoreMP, TotalPct, Session
    assert len(rows) > 40
    shown = re.findall(r'<tr><td class="n place">([^<]*)</td><td class="pair">([^<]*) <span'
                       r'.*?<td class="n carry">([^<]*)</td><td class="n c-session">([^<]*)</td>'
                       r'<td class="n total">([^<]*)</td><td class="n pct">([^<]*)</td>', html)  # fmt: skip
    assert len(shown) == len(rows)
    for (place, pair, total, pct, session), (p, q, carry, sess, t, c) in zip(
        rows, shown, strict=True
    ):
        assert (p, q, t, c, sess) == (place, pair, total, pct, session)
        decimals = len(total.split(".")[1]) if "." in total else 0
        assert carry == f"{float(total) - float(session):.{decimals}f}"


def test_ruter_teams_league_has_its_table_and_matches(site: dict) -> None:
    """A Ruter teams league file (match scores and the table, no table results): the index lists
    it, and its page shows the league table (place, team, name, roster, VPs) and every match
    (round, teams, IMPs, VPs) as the file publishes them."""
    event = event_page(site, "Salo joukkuekilpailu")
    html = event.read_text(encoding="utf-8")
    pbn = LEAGUE.read_text(encoding="latin-1")

    def table(tag: str) -> list[list[str]]:
        body = pbn[pbn.index(f"[{tag} ") :].splitlines()[1:]
        rows = []
        for line in body:
            if not line.strip() or line.startswith("["):
                break
            rows.append([f.strip('"') for f in re.findall(r'"[^"]*"|\S+', line)])
        return rows

    league = table("TotalScoreTable")  # Rank;TeamId;Table;Direction;TotalScoreVP;TeamName;...
    assert len(league) == 10
    ranking = html[html.index('data-heading="Teams"') :]
    ranking = ranking[: ranking.index("</table>")]
    shown = re.findall(r'<td class="n place">(\d+)</td><td class="pair">(\d+) <b class="team-name">'
                       r'([^<]+)</b>.*?<td class="n score">([\d.]+)</td>', ranking)  # fmt: skip
    assert shown == [(r[0], r[1], unescape_name(r[5]), r[4]) for r in league]
    matches = table("ScoreTable")  # Round;Table;TeamId_Home;TeamId_Away;MatchDetails;VP_Home;...
    assert len(matches) == 30
    names = {r[1]: unescape_name(r[5]) for r in league}
    for rnd, _table, home, away, details, vp_home, vp_away, *_ in matches:
        imps = details.split(",")[-2:]
        # each match once, either team first, with its own IMPs and VPs first
        sides = [(home, away, imps[0], imps[1], vp_home, vp_away),
                 (away, home, imps[1], imps[0], vp_away, vp_home)]  # fmt: skip
        rows = [f'<tr><td>{rnd}</td><td class="match">{a} {names[a]} v {b} {names[b]}</td>'
                f'<td class="n">8</td><td class="n">{ia}–{ib}</td><td class="n">{va}–{vb}</td>'
                "</tr>" for a, b, ia, ib, va, vb in sides]  # fmt: skip
        assert sum(html.count(r) for r in rows) == 1, rows[0]


def unescape_name(name: str) -> str:
    """A name as the page escapes it."""
    from html import escape

    return escape(name)
