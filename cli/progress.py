"""Progress of the stages' reports (stages/progress.py) on the console: rich bars on a terminal,
plain timestamped lines at intervals otherwise (a log file, a pipe, a CI job).

The pure core and the stages only call `stages.progress.report`; the CLI decides whether and how
to show it, here. Without a terminal a live bar shows nothing until the end, so a piped
`ddrank run` would print nothing for the half hour of its DD stage: `PlainProgress` writes each
stage's start and end, and for a stage that knows its size a line every
`DDRANK_PROGRESS_EVERY` seconds (default 10) with the count, the rate and the time left.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    SpinnerColumn,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

#: Labels of the pipeline's stages on the console; a stage not listed shows its own name.
STAGE_LABELS = {
    "ingest": "ingest",
    "clean": "clean",
    "names": "match names",
    "solve": "DD solve (tables + traces)",
    "tally": "DD tally (boards)",
    "regression": "regression report",
    "prefect-api": "start Prefect API",
    "prefect-import": "load Prefect",
    "inputs": "check the inputs (what is new)",
    "scoring": "scoring",
    "skill ratings": "ddrank skill ratings",
}
#: Seconds between two plain progress lines of one stage (DDRANK_PROGRESS_EVERY overrides).
DEFAULT_EVERY = 10.0


def every_seconds() -> float:
    try:
        return max(0.0, float(os.environ.get("DDRANK_PROGRESS_EVERY", DEFAULT_EVERY)))
    except ValueError:
        return DEFAULT_EVERY


def duration(seconds: float) -> str:
    """'4.2 s', '3 min 05 s', '1 h 02 min': short, for a log line."""
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, secs = divmod(int(round(seconds)), 60)
    if minutes < 60:
        return f"{minutes} min {secs:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


@dataclass
class _Seen:
    label: str
    started: float
    last_line: float
    first_done: int
    finished: bool = False
    first_progress: tuple[float, int] | None = None  # (when, done) at the first unit finished


class PlainProgress:
    """A progress hook that writes plain lines: `HH:MM:SS label: started`, a count line at most
    every `every` seconds while a sized stage runs, and `HH:MM:SS label: done ... in 4.2 s`."""

    def __init__(self, write: Callable[[str], None], labels: Mapping[str, str] | None = None,
                 every: float | None = None, clock: Callable[[], float] = time.monotonic,
                 unit: str = "") -> None:  # fmt: skip
        self.write, self.labels, self.clock = write, labels or {}, clock
        self.every = every_seconds() if every is None else every
        self.unit = f" {unit}" if unit else ""
        self.seen: dict[str, _Seen] = {}

    def line(self, text: str) -> None:
        self.write(f"{time.strftime('%H:%M:%S')} {text}")

    def __call__(self, stage: str, done: int, total: int) -> None:
        now = self.clock()
        st = self.seen.get(stage)
        if st is None:
            st = self.seen[stage] = _Seen(self.labels.get(stage, stage), now, now, done)
            self.line(f"{st.label}: started" + (f", {total:,}{self.unit} to do" if total else ""))
        if st.finished:
            return
        if total and done >= total:
            st.finished = True
            count = f"{done:,}{self.unit}, " if total > 1 else ""
            self.line(f"{st.label}: done, {count}{duration(now - st.started)}")
        elif not total and now - st.last_line >= self.every:  # a heartbeat of a long wait
            st.last_line = now
            self.line(f"{st.label}: still under way, {duration(now - st.started)}")
        elif total and done > st.first_done and st.first_progress is None:
            st.first_progress = (now, done)  # the rate counts from here: not the start-up
        elif total and now - st.last_line >= self.every:
            st.last_line = now
            since, base = st.first_progress or (st.started, st.first_done)
            rate = (done - base) / max(now - since, 1e-9)
            left = f", about {duration((total - done) / rate)} left" if rate > 0 else ""
            self.line(f"{st.label}: {done:,} of {total:,}{self.unit} ({100 * done / total:.0f}%)"
                      f"{left}")  # fmt: skip


def _plain(console: Console, labels: Mapping[str, str] | None, unit: str = "") -> PlainProgress:
    def write(text: str) -> None:
        console.print(text, markup=False, highlight=False, soft_wrap=True)
        console.file.flush()

    return PlainProgress(write, labels, unit=unit)


@contextmanager
def stage_progress(console: Console | None = None, disable: bool = False) -> Iterator[None]:
    """One progress line per stage the pipeline reports: on a terminal a rich bar when the stage
    knows its size (DD boards) and a spinner with the elapsed time otherwise; elsewhere plain
    lines (`PlainProgress`)."""
    from publish.console import console as default_console
    from stages.progress import reporting

    console = console or default_console
    if disable:
        yield
        return
    if not console.is_terminal:
        with reporting(_plain(console, STAGE_LABELS)):
            yield
        return
    columns = (SpinnerColumn(), TextColumn("[bold]{task.description}"), BarColumn(),
               MofNCompleteColumn(), TimeElapsedColumn(), TextColumn("ETA"),
               TimeRemainingColumn())  # fmt: skip
    with Progress(*columns, console=console) as bar:
        rows: dict[str, TaskID] = {}

        def hook(stage: str, done: int, total: int) -> None:
            if stage not in rows:
                rows[stage] = bar.add_task(STAGE_LABELS.get(stage, stage), total=None)
            if total:
                bar.update(rows[stage], completed=done, total=total)
            if total and done >= total:
                bar.stop_task(rows[stage])

        with reporting(hook):
            yield


@contextmanager
def progress_bars(
    labels: Mapping[str, str] | None = None,
    console: Console | None = None,
    transient: bool = False,
    rate_unit: str | None = None,
) -> Iterator[None]:
    """Show a bar for every stage reported while the context is open (plain lines without a
    terminal).

    `labels` renames stages; `rate_unit` ("boards") adds a rate column and an ETA label. A stage
    of unknown size (total 0) gets a bar of one step, completed when it finishes.
    """
    from stages.progress import reporting

    if console is not None and not console.is_terminal:
        with reporting(_plain(console, labels, rate_unit or "")):
            yield
        return
    columns: list[ProgressColumn] = [
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn()
    ]  # fmt: skip
    if rate_unit:
        columns.append(TextColumn(f"{{task.fields[rate]:>7.1f}} {rate_unit}/s"))
    columns.append(TimeElapsedColumn())
    if rate_unit:
        columns.append(TextColumn("ETA"))
    columns.append(TimeRemainingColumn())

    started = time.perf_counter()
    with Progress(*columns, console=console, transient=transient) as bar:
        handles: dict[str, int] = {}
        first_done: dict[str, int] = {}

        def hook(stage: str, done: int, total: int) -> None:
            if stage not in handles:
                label = (labels or {}).get(stage, stage)
                handles[stage] = bar.add_task(label, total=max(total, 1), rate=0.0)
                first_done[stage] = done
            elapsed = max(time.perf_counter() - started, 1e-6)
            rate = (done - first_done[stage]) / elapsed
            bar.update(handles[stage], completed=done, total=max(total, 1), rate=rate)

        with reporting(hook):
            yield
