"""Paged listings (issue 37): the events, the players and the ratings on pages of a fixed size, so
adding one event re-renders the pages that list it and keeps the others (`ddrank.site.listing`).

Real events: the three Ruter PBN files of ../shared/data/events (two first, the third added), with
the page sizes made small (one event, ten players, five ratings a page) so that these few events
and their players fill many pages. Each event is read as a batch of its own, so the builds render
the events in two forked processes (`publish.site.writer.site_workers`); the fresh build renders
them in its own process, and the grown site must be byte for byte the same.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest
from site_store import build
from test_site_incremental import ADDED, FIRST, files_of

pytestmark = pytest.mark.skipif(
    not ADDED.is_file(), reason="../shared/data/events/ruter-pbn is absent (may not be bundled)"
)
NAME = re.compile(
    r'<tr data-name="[^"]*"><td><a href="\.\./(players/p-[0-9a-f]+\.html)">([^<]*)</a>'
)


def rated(db: Path, out: Path, workers: int = 2) -> tuple[dict, dict]:
    """Rate (Lehman, as `ddrank run` does after scoring) and build the site in `out`: the
    build's summary and the site's files."""
    from stages.ratings import update_ratings
    from stages.site import build_site
    from store import Store

    with Store(db) as store:
        update_ratings(store)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("DDRANK_SITE_WORKERS", str(workers))
        summary = build_site(db, out)
    return summary, files_of(out / "site")


@pytest.fixture(scope="module")
def paged(tmp_path_factory: pytest.TempPathFactory) -> dict:
    from ddrank.site import listing, render

    tmp = tmp_path_factory.mktemp("paging")
    db, out = tmp / "s.duckdb", tmp / "out"
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(listing, "EVENTS_PER_PAGE", 1)
        mp.setattr(listing, "PLAYERS_PER_PAGE", 10)
        mp.setattr(listing, "RATINGS_PER_PAGE", 5)
        mp.setattr(render, "BATCH_RESULTS", 1)
        build(db, tmp / "scratch", FIRST, dd=False)  # stores the files (a site of its own)
        _, before = rated(db, out)
        build(db, tmp / "scratch", [*FIRST, ADDED], dd=False)
        added, after = rated(db, out)
        fresh, fresh_files = rated(db, tmp / "fresh", workers=1)
    return {"before": before, "after": after, "added": added, "fresh": fresh,
            "fresh_files": fresh_files, "site": tmp / "fresh" / "site"}  # fmt: skip


def pages(files: dict, prefix: str) -> list[str]:
    found = [p for p in files if re.fullmatch(rf"{prefix}-\d+\.html", p)]
    return sorted(found, key=lambda p: int(re.findall(r"\d+", p)[-1]))


def test_the_grown_paged_site_is_the_site_built_from_scratch(paged: dict) -> None:
    assert paged["added"]["render_processes"] == 2  # its events rendered in two processes
    assert paged["fresh"]["render_processes"] == 1
    assert {p: f[0] for p, f in paged["after"].items()} == {
        p: f[0] for p, f in paged["fresh_files"].items()
    }


def test_each_event_is_on_one_page_and_a_new_event_changes_only_the_pages_from_its_own(
    paged: dict,
) -> None:
    site = paged["site"]
    index = (site / "index.html").read_text()
    listed = pages(paged["after"], "events/page")
    assert paged["added"]["pages_reused"] > 0
    assert len(listed) == paged["fresh"]["events"] == 3  # one event a page
    assert all(f'href="{p}"' in index for p in listed)  # the index links every page
    on_pages = [re.findall(r'<a href="\.\./(events/e-[0-9a-f]+\.html)">', (site / p).read_text())
                for p in listed]  # fmt: skip
    assert all(len(found) == 1 for found in on_pages)
    events = [found[0] for found in on_pages]
    assert len(set(events)) == 3 and all((site / e).is_file() for e in events)
    # the page of the added event and those after it changed; the pages before it did not
    new = next(k for k, e in enumerate(events) if e not in paged["before"])
    old_count = len(pages(paged["before"], "events/page"))
    touched = [k for k, p in enumerate(listed) if paged["before"].get(p) != paged["after"][p]]
    assert touched == list(range(min(new, old_count - 1), len(listed)))


def test_every_player_is_on_one_page_a_to_z(paged: dict) -> None:
    site = paged["site"]
    listed = pages(paged["fresh_files"], "players/page")
    rows = [NAME.findall((site / p).read_text()) for p in listed]
    players = [r for page in rows for r in page]
    assert len(listed) == math.ceil(paged["fresh"]["players"] / 10) > 1
    assert all(len(page) == 10 for page in rows[:-1])
    assert len(players) == len({p for p, _ in players}) == paged["fresh"]["players"]
    names = [n for _, n in players]
    assert [n.casefold() for n in names] == sorted(n.casefold() for n in names)
    index = (site / "index.html").read_text()
    assert all(f'href="{p}"' in index for p in listed)
    # a players page the added event did not change lists no player whose page it changed
    before, after = paged["before"], paged["after"]
    for p, page in zip(listed, rows, strict=True):
        if before.get(p) == after[p]:
            assert all(before.get(q) == after[q] for q, _ in page), p


def test_ratings_are_paged_best_first_and_numbered_on(paged: dict) -> None:
    site = paged["site"]
    listed = pages(paged["fresh_files"], "ratings")
    first = (site / "ratings.html").read_text()
    shown = int(re.search(r"for the (\d+) players with at least", first).group(1))
    assert len(listed) + 1 == math.ceil(shown / 5) > 1  # ratings.html, ratings-2.html, ...
    numbers, values = [], []
    for p in ["ratings.html", *listed]:
        text = (site / p).read_text()
        for n, v in re.findall(r'<tr><td class="n">(\d+)</td><td><a [^>]*>[^<]*</a></td>'
                               r'<td class="n">(-?[\d.]+)</td>', text):  # fmt: skip
            numbers.append(int(n))
            values.append(float(v))
    assert numbers == list(range(1, shown + 1))
    assert values == sorted(values, reverse=True)
