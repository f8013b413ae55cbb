"""Progress of the stages' reports (stages/progress.py) on the console: rich bars on a terminal,
plain timestamped lines at intervals otherwise (a log file, a pipe, a CI job).

The pure core and the stages only call `stages.progress.report`; the CLI decides whether and how
to show it, here. Without a terminal a live bar shows nothing until the end, so a piped
`ddrank run` would print nothing for the half hour of its DD stage: `PlainProgress` writes each
stage's start and end and, from a timer, a line every `DDRANK_PROGRESS_EVERY` seconds (default
10) while it runs, whether or not a unit of it finished: the count and the time left (cli.eta)
for a stage that knows its size, the time so far for one that does not.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    SpinnerColumn,
    Task,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)
from rich.text import Text

from cli.eta import Eta

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
    "prefect-flow": "start the flow run",
    "inputs": "check the inputs (what is new)",
    "scoring": "scoring",
    "skill ratings": "ddrank skill ratings",
}
#: What a stage counts, where its label does not say it ("ingest: done, 2 files, 1.2 s").
STAGE_UNITS = {"ingest": "files", "tally": "boards"}
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
    done: int = 0
    total: int = 0
    finished: bool = False
    eta: Eta = field(default_factory=Eta)
    unit: str = ""  # " boards": what the count counts


def _work_of(stage: str) -> tuple[float, float] | None:
    """The stage's progress in estimated CPU seconds (stages.progress), for the time left."""
    from stages.progress import work_of  # lazily, as `reporting`: the first line comes first

    return work_of(stage)


class PlainProgress:
    """A progress hook that writes plain lines: `HH:MM:SS label: started`, a line every `every`
    seconds while the stage runs (`tick`, from the `beating` timer: also when no unit finished,
    so a log is never silent for longer), and `HH:MM:SS label: done ... in 4.2 s`.

    A sized stage's line says the count, the time so far and what `cli.eta` can honestly say of
    the time left; a stage of unknown size says it is still under way. Thread-safe: the stages
    report from the main thread (or a heartbeat thread), the timer writes from its own."""

    def __init__(self, write: Callable[[str], None], labels: Mapping[str, str] | None = None,
                 every: float | None = None, clock: Callable[[], float] = time.monotonic,
                 unit: str = "") -> None:  # fmt: skip
        self.write, self.labels, self.clock = write, labels or {}, clock
        self.every = every_seconds() if every is None else every
        self.unit = f" {unit}" if unit else ""
        self.seen: dict[str, _Seen] = {}
        self._lock = threading.Lock()

    def line(self, text: str) -> None:
        self.write(f"{time.strftime('%H:%M:%S')} {text}")

    def __call__(self, stage: str, done: int, total: int) -> None:
        with self._lock:
            now = self.clock()
            st = self.seen.get(stage)
            if st is None:
                unit = self.unit or (f" {STAGE_UNITS[stage]}" if stage in STAGE_UNITS else "")
                st = self.seen[stage] = _Seen(self.labels.get(stage, stage), now, now, unit=unit)
                self.line(f"{st.label}: started" + (f", {total:,}{st.unit} to do" if total else ""))
                st.eta.last_done = done
            elif st.finished:
                if total <= st.total:
                    return
                st.finished = False  # more work came (the next wave of a large run)
                st.last_line = now
                self.line(f"{st.label}: {total - st.total:,}{st.unit} more to do")
            if total and not st.total:
                st.eta.last_done = done  # the work before the size was known is no step
            st.done, st.total = done, total
            if total:
                st.eta.step(now, done, _work_of(stage))
            if total and done >= total:
                st.finished = True
                count = f"{done:,}{st.unit}, " if total > 1 else ""
                self.line(f"{st.label}: done, {count}{duration(now - st.started)}")
            elif now - st.last_line >= self.every:
                self._beat(st, now)

    def tick(self) -> None:
        """One line for each stage under way whose last line is `every` seconds old."""
        with self._lock:
            now = self.clock()
            for st in self.seen.values():
                if not st.finished and now - st.last_line >= self.every:
                    self._beat(st, now)

    def _beat(self, st: _Seen, now: float) -> None:
        st.last_line = now
        so_far = duration(now - st.started)
        if not st.total:
            self.line(f"{st.label}: still under way, {so_far}")
            return
        left = st.eta.text(now, st.done, st.total, st.unit)
        self.line(f"{st.label}: {st.done:,} of {st.total:,}{st.unit} "
                  f"({100 * st.done / st.total:.0f}%) after {so_far}, {left}")  # fmt: skip

    @contextmanager
    def beating(self) -> Iterator[PlainProgress]:
        """While open, `tick` runs on a timer (a daemon thread): every stage under way writes a
        line every `every` seconds, even while no unit of it finishes."""
        if self.every <= 0:  # a line on every report already
            yield self
            return
        stop = threading.Event()
        wait = min(1.0, max(0.05, self.every / 4))

        def run() -> None:
            while not stop.wait(wait):
                try:
                    self.tick()
                except Exception:  # a display's trouble never stops the work
                    return

        thread = threading.Thread(target=run, name="progress lines", daemon=True)
        thread.start()
        try:
            yield self
        finally:
            stop.set()
            thread.join(timeout=1)


@contextmanager
def _plain(console: Console, labels: Mapping[str, str] | None,
           unit: str = "") -> Iterator[PlainProgress]:  # fmt: skip
    def write(text: str) -> None:
        console.print(text, markup=False, highlight=False, soft_wrap=True)
        console.file.flush()

    with PlainProgress(write, labels, unit=unit).beating() as plain:
        yield plain


class EtaColumn(ProgressColumn):
    """The bar's time left, from the row's `cli.eta.Eta` (the same words as the plain lines)."""

    def render(self, task: Task) -> Text:
        eta = task.fields.get("eta")
        if eta is None or not task.total:
            return Text("")
        left = eta.text(time.monotonic(), int(task.completed), int(task.total))
        return Text(left, style="progress.remaining")


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
        with _plain(console, STAGE_LABELS) as plain, reporting(plain):
            yield
        return
    columns = (SpinnerColumn(), TextColumn("[bold]{task.description}"), BarColumn(),
               MofNCompleteColumn(), TimeElapsedColumn(), EtaColumn())  # fmt: skip
    with Progress(*columns, console=console) as bar:
        rows: dict[str, TaskID] = {}
        etas: dict[str, Eta] = {}

        def hook(stage: str, done: int, total: int) -> None:
            if stage not in rows:
                etas[stage] = Eta(last_done=done)
                rows[stage] = bar.add_task(STAGE_LABELS.get(stage, stage), total=None,
                                           eta=etas[stage])  # fmt: skip
            if total:
                etas[stage].step(time.monotonic(), done, _work_of(stage))
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
        with _plain(console, labels, rate_unit or "") as plain, reporting(plain):
            yield
        return
    columns: list[ProgressColumn] = [
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn()
    ]  # fmt: skip
    if rate_unit:
        columns.append(TextColumn(f"{{task.fields[rate]:>7.1f}} {rate_unit}/s"))
    columns += [TimeElapsedColumn(), EtaColumn()]

    started = time.perf_counter()
    with Progress(*columns, console=console, transient=transient) as bar:
        handles: dict[str, TaskID] = {}
        etas: dict[str, Eta] = {}
        first_done: dict[str, int] = {}

        def hook(stage: str, done: int, total: int) -> None:
            if stage not in handles:
                label = (labels or {}).get(stage, stage)
                etas[stage] = Eta(last_done=done)
                handles[stage] = bar.add_task(label, total=max(total, 1), rate=0.0,
                                              eta=etas[stage])  # fmt: skip
                first_done[stage] = done
            if total:
                etas[stage].step(time.monotonic(), done, _work_of(stage))
            elapsed = max(time.perf_counter() - started, 1e-6)
            rate = (done - first_done[stage]) / elapsed
            bar.update(handles[stage], completed=done, total=max(total, 1), rate=rate)

        with reporting(hook):
            yield
