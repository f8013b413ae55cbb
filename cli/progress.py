"""Rich progress bars for the stages' progress reports (stages/progress.py), one bar per stage.

The pure core and the stages only call `stages.progress.report`; the CLI decides whether and how
to show it, here.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)


@contextmanager
def progress_bars(
    labels: Mapping[str, str] | None = None,
    console: Console | None = None,
    transient: bool = False,
    rate_unit: str | None = None,
) -> Iterator[None]:
    """Show a bar for every stage reported while the context is open.

    `labels` renames stages; `rate_unit` ("boards") adds a rate column and an ETA label. A stage
    of unknown size (total 0) gets a bar of one step, completed when it finishes.
    """
    columns: list[ProgressColumn] = [
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn()
    ]  # fmt: skip
    if rate_unit:
        columns.append(TextColumn(f"{{task.fields[rate]:>7.1f}} {rate_unit}/s"))
    columns.append(TimeElapsedColumn())
    if rate_unit:
        columns.append(TextColumn("ETA"))
    columns.append(TimeRemainingColumn())
    from stages.progress import reporting

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
