"""Every page of the site built from ../shared/data/events (each kind of results file the
project reads: ACBLscore, Bridgemate, BridgeComposer, Compscore and BriAn USEBIO, Ruter and
Magic Contest PBN, JFR, BBO LIN, the PBN standard's files) opened in Chromium at a phone's
390 px: no page scrolls sideways, and no table or block scrolls inside its own box.

The site is built once, in-process (tests/site_store.py), without DDS: the DD columns and each
table's analysis are on the pages of tests/test_site_pages_browser.py, checked at 390 px there.
"""

from __future__ import annotations

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


def test_no_page_scrolls_sideways_on_a_phone(events_site: Path, browser) -> None:
    pages = list(events_site.rglob("*.html"))
    assert len(pages) > 5000  # every event's page, boards, scorecards; every player's page
    bad = sideways_pages(browser, events_site, width=PHONE)
    assert bad == {}, (
        f"{len(bad)} of {len(pages)} pages scroll sideways at {PHONE} px: "
        + "; ".join(f"{page}: {', '.join(what)}" for page, what in list(bad.items())[:10])
    )
