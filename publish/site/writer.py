"""Write the static site under one folder: pages, CSS and script, rating charts, regression report.

The pages come from `ddrank.site.render.SitePages` (pure); this module writes each page, copies
the static files and the regression report and draws the charts, all in a folder beside the site
that replaces the older site only once it is complete (`publish.atomic.staged_folder`): a build
that fails halfway leaves the last good site as it was, and raises.
"""

from __future__ import annotations

import contextlib
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


def write_site(data: SiteData, site_dir: Path) -> dict[str, Any]:
    """Write the whole site as `site_dir` (replacing an older one when complete); a summary."""
    t0 = time.perf_counter()
    with staged_folder(site_dir) as new:
        pages, charts = _write_pages(data, new)
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
    }


def _write_pages(data: SiteData, site_dir: Path) -> tuple[SitePages, int]:
    """Every file of the site under the (new, empty) folder `site_dir`."""
    for sub in ("events", "players", "players/img", "static"):
        (site_dir / sub).mkdir(parents=True, exist_ok=True)
    for f in STATIC.iterdir():
        shutil.copy(f, site_dir / "static" / f.name)
    copied = copy_regression(data.regression_dir, site_dir / "model") if data.regression else []
    pages = SitePages(data, copied, template_cache())
    for rel, html in pages:
        path = site_dir / rel
        if not path.parent.is_dir():  # an event's board pages have their own folder
            path.parent.mkdir(parents=True)
        path.write_text(html, encoding="utf-8")
    charts = 0
    if pages.charts:
        from publish.site.charts import rating_charts

        jobs = [(name, history, str(site_dir / rel)) for name, history, rel in pages.charts]
        charts = rating_charts(jobs)
    return pages, charts


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
