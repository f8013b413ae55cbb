"""A Ctrl-C whose KeyboardInterrupt a library swallowed still stops the run.

Seen in CI: SIGINT at 3 s reached `ddrank run` while it imported Prefect; the interrupt was lost
and the run went on to finish. The handlers also record the stop (`ddrank.processes.note_stop`),
and the next progress report raises it again (tests/test_faults.py sends the real signals).
"""

from __future__ import annotations

import pytest

from ddrank import processes
from stages.progress import report, reporting


@pytest.fixture
def stop(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(processes, "STOPS", [])
    try:  # a library's bare `except` around an optional import
        processes.note_stop("SIGINT")
        raise KeyboardInterrupt
    except BaseException:  # noqa: S110 - what the library does
        pass


def test_the_next_progress_report_raises_a_swallowed_stop(stop: None) -> None:
    seen: list[tuple[str, int, int]] = []
    with reporting(lambda *a: seen.append(a)), pytest.raises(KeyboardInterrupt, match="SIGINT"):
        report("ingest", 0, 0)
    assert seen == []  # the stage never started


def test_no_second_interrupt_while_the_stop_unwinds(stop: None) -> None:
    seen: list[tuple[str, int, int]] = []
    with reporting(lambda *a: seen.append(a)):
        try:
            raise KeyboardInterrupt("SIGINT")
        except KeyboardInterrupt:
            report("site", 1, 1)  # a cleanup that reports progress is left to finish
    assert seen == [("site", 1, 1)]


def test_without_a_stop_reports_reach_the_hooks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(processes, "STOPS", [])
    seen: list[tuple[str, int, int]] = []
    with reporting(lambda *a: seen.append(a)):
        report("dd", 3, 10)
    assert seen == [("dd", 3, 10)]
