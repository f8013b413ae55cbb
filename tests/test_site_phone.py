"""The site built from ../shared/data/events (each kind of results file the project reads:
ACBLscore, Bridgemate, BridgeComposer, Compscore and BriAn USEBIO, Ruter and Magic Contest PBN,
JFR, BBO LIN, the PBN standard's files) opened in Chromium at a phone's 390 px: no page scrolls
sideways, and no table or block scrolls inside its own box.

Two tests over one site. The default suite opens a sample that holds every kind of page of every
event: each event's own pages, and of each kind of page under an event (boards, scorecards, ...)
the first and the largest files (the most rows and the longest names, where a page is widest),
plus the site's top pages and its largest player pages: a few hundred pages, about 20 s. The
sweep of every page (more than 5,000, about 5 minutes of Chromium) is marked `slow`, and runs
with `pytest -m slow tests/test_site_phone.py` (docs/performance.md; run it before landing a
change to the site's pages or stylesheet).

The site is built once, in-process (tests/site_store.py), without DDS: the DD columns and each
table's analysis are on the pages of tests/test_site_pages_browser.py, checked at 390 px there.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import pytest
from site_browser import PHONE, sideways_pages
from site_store import EVENTS, build

pytestmark = pytest.mark.flow


@pytest.fixture(scope="session")
def events_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not EVENTS.is_dir():
        pytest.skip("../shared/data/events is absent (SOURCES.md: most files may not be bundled)")
    tmp = tmp_path_factory.mktemp("events-site")
    build(tmp / "store.duckdb", tmp / "out", [EVENTS], dd=False)
    return tmp / "out" / "site"


def _kind(page: str) -> str:
    """A page's kind: its folder and its name without the numbers and ids that tell pages of
    one kind apart (`events/e-1a2b/board-7.html` -> `events/*/board-`)."""
    parts = page.split("/")
    name = re.sub(r"[-_][0-9a-z]*[0-9][0-9a-z]*(?=[-_.]|$)", "-", parts[-1]).removesuffix(".html")
    folder = "/".join(parts[:-1])
    return f"{re.sub(r'^events/[^/]+', 'events/*', folder)}/{name}"


def phone_sample(site: Path, per_kind: int = 2, players: int = 40) -> list[str]:
    """The pages the default suite opens: every page that is neither a player's page nor under an
    event's folder (every event's page, the index, ratings, teams, about, ...);
    under each event, of each kind, the first page and the `per_kind` largest; the `players`
    largest player pages."""
    groups: dict[tuple[str, str], list[Path]] = defaultdict(list)
    for p in site.rglob("*.html"):
        rel = p.relative_to(site).as_posix()
        groups[(str(Path(rel).parent), _kind(rel))].append(p)
    chosen: set[Path] = set()
    for (folder, _), files in groups.items():
        if folder == "players":
            chosen.update(sorted(files, key=lambda f: -f.stat().st_size)[:players])
        elif folder.count("/") != 1 or len(files) <= per_kind + 1:  # not under an event
            chosen.update(files)
        else:
            chosen.add(min(files))
            chosen.update(sorted(files, key=lambda f: -f.stat().st_size)[:per_kind])
    return sorted(p.relative_to(site).as_posix() for p in chosen)


def _report(bad: dict[str, list[str]], n: int) -> str:
    return f"{len(bad)} of {n} pages scroll sideways at {PHONE} px: " + "; ".join(
        f"{page}: {', '.join(what)}" for page, what in list(bad.items())[:10])  # fmt: skip


def test_no_page_of_any_kind_scrolls_sideways_on_a_phone(events_site: Path, browser) -> None:
    """The default suite's share: every kind of page of every event (see phone_sample)."""
    sample = phone_sample(events_site)
    events = {d.name for d in (events_site / "events").iterdir() if d.is_dir()}
    sampled = {p.split("/")[1] for p in sample if p.startswith("events/") and p.count("/") == 2}
    assert len(events) > 20 and sampled == events  # the pages under every event
    assert any(p.startswith("players/") for p in sample)
    assert 100 < len(sample) < 1500
    bad = sideways_pages(browser, events_site, width=PHONE, pages=sample)
    assert bad == {}, _report(bad, len(sample))


@pytest.mark.slow
def test_no_page_scrolls_sideways_on_a_phone(events_site: Path, browser) -> None:
    """Every page of the site (issue 36's acceptance: a browser test over every page)."""
    pages = list(events_site.rglob("*.html"))
    assert len(pages) > 5000  # every event's page, boards, scorecards; every player's page
    bad = sideways_pages(browser, events_site, width=PHONE)
    assert bad == {}, _report(bad, len(pages))
