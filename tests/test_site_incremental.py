"""The site updates by the event (issue 37): adding an event to a store renders that event's pages
and the pages that list it, keeps every other page as it was (the same file: same inode, same
time), and gives exactly the site a build from scratch gives, byte for byte.

Real events: three Ruter PBN files of ../shared/data/events (two in the store first, the third
added as a club adds last night's file). The index shows the leaders of the latest event only here
(`FRONT_EVENTS` 1, not 3), so that a rebuild has events it need not read at all: their
fingerprints come from the store's hashes and the build record, and so do the player pages' links
into them.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from site_store import EVENTS, build

RUTER = EVENTS / "ruter-pbn"
FIRST = [RUTER / "butler.pbn", RUTER / "impcross.pbn"]
ADDED = RUTER / "sm2.pbn"

pytestmark = pytest.mark.skipif(
    not ADDED.is_file(), reason="../shared/data/events/ruter-pbn is absent (may not be bundled)"
)


def files_of(site: Path) -> dict[str, tuple[str, int, int]]:
    """Every file of a site: (sha1, inode, mtime_ns)."""
    return {str(p.relative_to(site)): (hashlib.sha1(p.read_bytes()).hexdigest(),
                                       p.stat().st_ino, p.stat().st_mtime_ns)
            for p in sorted(site.rglob("*")) if p.is_file()}  # fmt: skip


@pytest.fixture(scope="module")
def grown(tmp_path_factory: pytest.TempPathFactory) -> dict:
    from ddrank.site import render
    from stages.site import build_site

    tmp = tmp_path_factory.mktemp("incremental")
    db, out = tmp / "s.duckdb", tmp / "out"
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(render, "FRONT_EVENTS", 1)
        first = build(db, out, FIRST, dd=True)
        before = files_of(out / "site")
        again = build(db, out, FIRST, dd=True)  # nothing new
        same = files_of(out / "site")
        added = build(db, out, [*FIRST, ADDED], dd=True)
        after = files_of(out / "site")
        record = json.loads((out / "site" / ".build.json").read_text())
        fresh = build_site(db, tmp / "fresh")  # the same store, from scratch
    return {"first": first, "again": again, "added": added, "fresh": fresh, "before": before,
            "same": same, "after": after, "fresh_files": files_of(tmp / "fresh" / "site"),
            "record": record}  # fmt: skip


def test_a_rebuild_with_nothing_new_renders_no_event_and_writes_nothing(grown: dict) -> None:
    assert grown["first"]["pages_written"] == grown["first"]["pages_rendered"] > 100
    assert grown["again"]["pages_written"] == 0
    assert grown["again"]["pages_rendered"] <= 3  # index, about, ratings: compared, kept
    assert grown["same"] == grown["before"]  # every file the same inode and time


def test_adding_an_event_renders_its_pages_and_keeps_the_others(grown: dict) -> None:
    before, after = grown["before"], grown["after"]
    touched = {p for p, f in after.items() if before.get(p) != f}
    new_event = [p for p in after if p.startswith("events/") and p not in before]
    assert new_event and set(new_event) <= touched
    kept_events = [p for p in before if p.startswith("events/") and p in after]
    assert kept_events and not touched & set(
        kept_events
    )  # the first two events' pages as they were
    assert "index.html" in touched  # the index lists the new event
    added = grown["added"]
    assert added["pages_reused"] >= len(kept_events)
    assert added["pages_written"] == len(touched - {".build.json"})  # what it wrote, it counts


def test_the_grown_site_is_the_site_built_from_scratch(grown: dict) -> None:
    after = {p: f[0] for p, f in grown["after"].items()}
    fresh = {p: f[0] for p, f in grown["fresh_files"].items()}
    assert after == fresh
    assert grown["fresh"]["pages_reused"] == 0


def test_a_rebuild_reads_only_the_events_it_renders_and_the_latest(grown: dict) -> None:
    """Nothing new: only the latest event is read (the index shows its leaders); one event
    added: that event and the latest. The grown site is still the fresh one (the test above).
    (These files' tables have no DD mistakes: the player pages' links kept in the build record
    are tests/test_site_record.py's.)"""
    assert grown["first"]["events_read"] == grown["first"]["events"] == 2
    assert grown["again"]["events_read"] == 1
    assert grown["added"]["events"] == 3
    assert grown["added"]["events_read"] <= 2
    assert len(grown["record"]["events"]) == 3
