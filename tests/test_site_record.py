"""A rebuild that reads no event (issue 37): the player pages' links to their costliest mistakes
in events not read come from the build record (`.build.json`), and give the same pages.

Real data: the bundled LIN with DD (`site_store.lin_store`: its real DD mistakes and their costs).
The index is set to show no event's leaders (`FRONT_EVENTS` 0), so that a rebuild with nothing new
reads no event at all; the player pages are made to render again (their entries taken out of the
record), from the links the record kept.
"""

from __future__ import annotations

import json

import pytest
from site_store import lin_store
from test_site_incremental import files_of


@pytest.fixture(scope="module")
def rebuilt(tmp_path_factory: pytest.TempPathFactory) -> dict:
    from ddrank.site import render
    from stages.site import build_site

    base = lin_store(tmp_path_factory)
    db, out = base / "store.duckdb", base / "out"
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(render, "FRONT_EVENTS", 0)
        first = build_site(db, out, fill_par=False)
        before = files_of(out / "site")
        path = out / "site" / ".build.json"
        record = json.loads(path.read_text())
        record["players"] = {}  # every player page rendered again
        path.write_text(json.dumps(record))
        again = build_site(db, out, fill_par=False)
        after = files_of(out / "site")
    return {"first": first, "again": again, "before": before, "after": after, "record": record,
            "site": out / "site"}  # fmt: skip


def test_no_event_is_read_and_the_player_pages_are_the_same(rebuilt: dict) -> None:
    assert rebuilt["first"]["events"] == 1
    assert rebuilt["again"]["events_read"] == 0
    assert rebuilt["again"]["pages_rendered"] >= rebuilt["first"]["players"] == 8
    assert {p: f[0] for p, f in rebuilt["after"].items()} == {
        p: f[0] for p, f in rebuilt["before"].items()
    }


def test_the_record_keeps_the_links_the_player_pages_show(rebuilt: dict) -> None:
    (kept,) = [entry[3] for entry in rebuilt["record"]["events"].values()]
    assert kept and all(k.split("|")[1] in ("card", "call", "claim") for k in kept)
    pages = [p for p in rebuilt["after"] if p.startswith("players/p-")]
    linked = [p for p in pages if 'class="mistake-link"' in (rebuilt["site"] / p).read_text()]
    assert linked  # the pages rendered from the record link real mistakes
    hrefs = {e["$t"][0]["$d"][3][1] for e in kept.values()}  # each link's board page and anchor
    shown = "".join((rebuilt["site"] / p).read_text() for p in linked)
    assert all(f'href="../{h}"' in shown for h in hrefs)
