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
import multiprocessing
import os
import shutil
import time
from collections import deque
from concurrent.futures import ProcessPoolExecutor
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
        write_counts = {"processes": pages.processes}
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
        "render_processes": write_counts["processes"],
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


class PageWriter:
    """Writes each page under the new site folder, or links the old site's file when the page was
    kept (`html` None) or rendered with the same bytes; counts what it did."""

    def __init__(self, site_dir: Path, old_site: Path | None) -> None:
        self.site_dir, self.old_site = site_dir, old_site
        self.rendered = self.reused = self.written = 0
        self.processes = 1  # that rendered the events' pages

    def __call__(self, rel: str, html: str | None) -> None:
        path = self.site_dir / rel
        if not path.parent.is_dir():  # an event's board pages have their own folder
            path.parent.mkdir(parents=True, exist_ok=True)
        if self.old_site is not None:
            old = self.old_site / rel
            if html is None:
                self.reused += 1
                _keep(old, path)
                return
            self.rendered += 1
            body = html.encode("utf-8")
            with contextlib.suppress(OSError):
                if old.stat().st_size == len(body) and old.read_bytes() == body:
                    _keep(old, path)
                    return
        else:
            self.rendered += 1
            body = (html or "").encode("utf-8")
        path.write_bytes(body)
        self.written += 1

    def counts(self) -> tuple[int, int, int]:
        return self.rendered, self.reused, self.written


def site_workers() -> int:
    """Processes that render a full build's events (`DDRANK_SITE_WORKERS`, else up to 2 of the
    machine's cores; 1: this process alone). They are forked, so they start with the build's
    state and read nothing: the run's process reads each batch of events and hands it over."""
    text = os.environ.get("DDRANK_SITE_WORKERS", "")
    if text.strip().isdigit():
        return max(1, int(text))
    return max(1, min(2, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
                      else os.cpu_count() or 1))  # fmt: skip


#: The build a forked worker renders for (set before the workers start).
_BUILD: dict[str, Any] = {}


def _render_job(job: Any) -> tuple[list[tuple[str, dict[str, Any]]], tuple[int, int, int]]:
    """In a worker: a batch of events read by the run's process, analysed, rendered and written;
    what the build record keeps of each, and what was written."""
    pages, write = _BUILD["pages"], _BUILD["write"]
    start = write.counts()
    out = []
    for ev, full, boards, sub in pages.read_events(job):
        done: dict[str, Any] = {}
        for rel, html in pages.event_done(ev, full, boards, sub, done):
            write(rel, html)
        out.append((ev.event_id, done))
    return out, tuple(n - k for n, k in zip(write.counts(), start, strict=True))  # type: ignore[return-value]


def _pool_mapper(workers: int, write: PageWriter) -> Any:
    """`mapper(fn, jobs)` over `workers` forked processes: at most two jobs a worker queued
    (memory holds a few batches), results in order; the workers' counts added to `write`'s."""

    def mapper(fn: Any, jobs: Any) -> Any:
        write.processes = workers
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
            queued: deque[Any] = deque()
            for job in jobs:
                queued.append(pool.submit(fn, job))
                while len(queued) >= 2 * workers or (queued and queued[0].done()):
                    yield take(queued.popleft().result())
            while queued:
                yield take(queued.popleft().result())

    def take(result: Any) -> Any:
        out, (rendered, reused, written) = result
        write.rendered += rendered
        write.reused += reused
        write.written += written
        return out

    return mapper


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
    write = PageWriter(site_dir, old_site)
    workers = site_workers()
    if workers > 1 and "fork" in multiprocessing.get_all_start_methods():
        _BUILD.update(pages=pages, write=write)
        pages.parallel = (_pool_mapper(workers, write), _render_job)
    try:
        for rel, html in pages:
            write(rel, html)
    finally:
        _BUILD.clear()
    pages.rendered, pages.reused = write.rendered, write.reused
    pages.processes = write.processes
    written = write.written
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
