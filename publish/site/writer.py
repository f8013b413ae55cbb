"""Write the static site under one folder: pages, CSS and script, rating charts, regression report.

The pages come from `ddrank.site.render.SitePages` (pure); this module writes each page, copies
the static files and the regression report and draws the charts, all in a folder beside the site
that replaces the older site only once it is complete (`publish.atomic.staged_folder`): a build
that fails halfway leaves the last good site as it was, and raises.

A rebuild renders only what changed: the site keeps a build record (`.build.json`: each event's
and player's content fingerprint and the pages it made, `ddrank.site.fingerprint`), and a page
whose fingerprint is the same as last time is hard-linked from the old site into the new one, not
rendered; a page rendered again with the same bytes is linked too. So adding one event to an
archive renders that event's pages, the pages that list it (index, about, ratings) and the
players whose pages changed, and leaves every other file as it was (same inode, same time).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import time
from pathlib import Path
from typing import Any

from jinja2 import FileSystemBytecodeCache
from jinja2.bccache import Bucket

import ddrank.site
from ddrank.site.data import SiteData
from ddrank.site.render import SitePages
from publish.atomic import staged_folder

STATIC = Path(ddrank.site.__file__).resolve().parent / "static"
#: Files of the regression report copied next to the model page, so the site stands alone.
REGRESSION_SUFFIXES = (".md", ".html", ".png", ".svg", ".csv", ".json")


class TemplateCache(FileSystemBytecodeCache):
    """Compiled templates kept between runs, like Python's own bytecode: a cache that cannot be
    written (a read-only home, a full disk) only costs the compile, never the site."""

    def dump_bytecode(self, bucket: Bucket) -> None:
        with contextlib.suppress(OSError):
            super().dump_bytecode(bucket)


def template_cache() -> TemplateCache | None:
    """The user's cache folder for compiled templates: $DDRANK_CACHE_DIR, else
    $XDG_CACHE_HOME/ddrank, else ~/.cache/ddrank (its `templates/`); None when none can be made.
    Jinja keys each entry on the template's source, so an upgrade never reads a stale one."""
    base = os.environ.get("DDRANK_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"),
        "ddrank",
    )
    folder = Path(base) / "templates"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return TemplateCache(str(folder))


#: The build record kept in the site folder (hidden: not a page).
RECORD = ".build.json"


def previous_build(site_dir: Path) -> dict[str, Any] | None:
    """The last build's record, when its site is there: entries whose files are gone are
    dropped (they are rendered again)."""
    try:
        record = json.loads((site_dir / RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict):
        return None
    for kind in ("events", "players", "lists"):
        entries = record.get(kind)
        if not isinstance(entries, dict):
            record[kind] = {}
            continue
        record[kind] = {k: v for k, v in entries.items()
                        if all((site_dir / rel).is_file() for rel in v[1])}  # fmt: skip
    return record


def write_site(data: SiteData, site_dir: Path, incremental: bool = True) -> dict[str, Any]:
    """Write the whole site as `site_dir` (replacing an older one when complete); a summary.
    With `incremental`, pages the last build made from the same content are kept, not
    rendered again."""
    t0 = time.perf_counter()
    previous = previous_build(site_dir) if incremental else None
    with staged_folder(site_dir) as new:
        pages, charts, written = _write_pages(data, new, site_dir if previous else None, previous)
        record = new / RECORD
        record.write_text(json.dumps(pages.built), encoding="utf-8")
        _copy(record, record, site_dir / RECORD if previous else None)
    summary = pages.summary()
    return {
        "site": str(site_dir / "index.html"),
        "events": summary["events"],
        "players": summary["players"],
        "players_30_boards": summary["players_30_boards"],
        "event_pages": summary["event_pages"],
        "charts": charts,
        "verdict": summary["verdict"],
        "ratings": summary["ratings"],
        "rated": summary["rated"],
        "min_boards_listed": summary["min_boards_listed"],
        "seconds_render": round(time.perf_counter() - t0, 3),
        "pages_rendered": pages.rendered,
        "pages_reused": pages.reused,
        "pages_written": written,
        "events_read": pages.events_read,
    }


def _copy(src: Path, dest: Path, old: Path | None) -> None:
    """Copy `src` to `dest`, or link the old site's `old` when it holds the same bytes."""
    with contextlib.suppress(OSError):
        if old is not None and old.read_bytes() == src.read_bytes():
            dest.unlink(missing_ok=True)
            _keep(old, dest)
            return
    if src != dest:
        shutil.copy2(src, dest)


def _keep(old: Path, new: Path) -> None:
    """The old site's file as the new site's: a hard link (same bytes, same time), or a copy
    where the file system has no links."""
    try:
        os.link(old, new)
    except OSError:
        shutil.copy2(old, new)


def _write_pages(data: SiteData, site_dir: Path, old_site: Path | None = None,
                 previous: dict[str, Any] | None = None) -> tuple[SitePages, int, int]:  # fmt: skip
    """Every file of the site under the (new, empty) folder `site_dir`; pages of `old_site` the
    `previous` build record says are unchanged are linked from it. Also how many pages were
    written new (not linked)."""
    for sub in ("events", "players", "players/img", "static"):
        (site_dir / sub).mkdir(parents=True, exist_ok=True)
    for f in STATIC.iterdir():
        _copy(f, site_dir / "static" / f.name, old_site and old_site / "static" / f.name)
    copied = copy_regression(data.regression_dir, site_dir / "model") if data.regression else []
    pages = SitePages(data, copied, template_cache(), previous=previous)
    written = 0
    for rel, html in pages:
        path = site_dir / rel
        if not path.parent.is_dir():  # an event's board pages have their own folder
            path.parent.mkdir(parents=True)
        if old_site is not None:
            old = old_site / rel
            if html is None:
                _keep(old, path)
                continue
            pages.rendered += 1
            body = html.encode("utf-8")
            with contextlib.suppress(OSError):
                if old.stat().st_size == len(body) and old.read_bytes() == body:
                    _keep(old, path)
                    continue
        else:
            pages.rendered += 1
            body = html.encode("utf-8")
        path.write_bytes(body)
        written += 1
    charts = 0
    if pages.charts:
        from publish.site.charts import rating_charts

        jobs = [(name, history, str(site_dir / rel)) for name, history, rel in pages.charts]
        charts = rating_charts(jobs)
        written += charts
    return pages, charts, written


def copy_regression(src: Path | None, dest: Path) -> list[str]:
    """Copy the regression report next to the model page so the site stands alone."""
    if src is None or not src.is_dir():
        return []
    copied = []
    dest.mkdir(parents=True, exist_ok=True)
    for f in sorted(src.iterdir()):
        if f.is_file() and f.suffix in REGRESSION_SUFFIXES:
            shutil.copy(f, dest / f.name)
            copied.append(f.name)
    return copied
