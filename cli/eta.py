"""The time left of a stage that knows its size, saying no more than the work done so far shows.

The DD stage finishes its work in steps: a unit of tables and traces at a time, one per worker at
once, after workers that may take a minute to start. Its line once said "about 1 min 52 s left"
and "done" in the same second; later, on the bundled sample, its estimate grew after a fast first
wave and it said "finishing the last N" for minutes. So:

* the work is measured in estimated CPU seconds when the stage reports them
  (`stages.progress.work_of`): a DD table costs about twelve traces, so a unit of cheap traces
  counts for what it costs, not for its many items (by count, the first units of traces made
  the pace look fast, and a step of 800 traces made 500 tables look like "the last" ones);
  otherwise by count;
* the pace is the work finished since the first step over the time that took: the workers'
  start-up is not counted as work;
* until `MIN_STEPS` steps have come it says "estimating the time left";
* the time left counts down from the last step at that pace; once it has run out with work still
  to do, it is the remaining work at the pace measured up to now (slower: it took longer);
* when what remains is no more than the largest step seen, the next step may end it at any
  moment, so it says "finishing the last N" instead of a time that only a steady flow would keep;
* the time is rounded to what an estimate can claim (5 s under a minute, half minutes under ten),
  and it is nothing once the work is done: it reaches zero with the work, never before.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

#: Steps (a report that more work is done) needed before a time is given.
MIN_STEPS = 3
ESTIMATING = "estimating the time left"


def rough(seconds: float) -> str:
    """'about 40 s', 'about 2 min 30 s', 'about 25 min', 'about 1 h 05 min': an estimate."""
    fives = max(5, 5 * math.ceil(seconds / 5))
    if fives < 60:
        return f"about {fives} s"
    if seconds < 600:
        minutes, half = divmod(max(2, math.floor(seconds / 30 + 0.5)), 2)
        return f"about {minutes} min" + (" 30 s" if half else "")
    minutes = math.floor(seconds / 60 + 0.5)
    if minutes < 60:
        return f"about {minutes} min"
    hours, minutes = divmod(5 * math.floor(minutes / 5 + 0.5), 60)
    return f"about {hours} h {minutes:02d} min"


@dataclass
class Eta:
    """What is known of one stage's pace: call `step` on every report, `text` for the line."""

    last_done: int = 0
    steps: int = 0
    largest: float = 0.0  # the largest step, in the work paced (cost when reported, else count)
    base: tuple[float, float] | None = None  # (when, work done) at the first step
    last_at: float = 0.0  # when the last step came
    work: tuple[float, float] | None = None  # (done, total) in estimated CPU seconds, if reported
    last_work: float | None = None  # the work done at the last report

    def step(self, now: float, done: int, work: tuple[float, float] | None = None) -> None:
        """A report: `done` items, and the same in estimated CPU seconds when the stage gives it."""
        self.work = work
        amount = float(done) if work is None else work[0]
        previous = self.last_work if self.last_work is not None else float(self.last_done)
        self.last_work = amount
        if done <= self.last_done:
            return
        self.largest = max(self.largest, amount - previous)
        self.last_done, self.last_at = done, now
        self.steps += 1
        if self.base is None:
            self.base = (now, amount)

    def _amounts(self, done: int, total: int) -> tuple[float, float]:
        return (float(done), float(total)) if self.work is None else self.work

    def _countdown(self, now: float, done: int, total: int) -> float | None:
        """Seconds left counted down from the last step at the pace so far (may be <= 0)."""
        if total <= 0 or done >= total or self.base is None or self.steps < MIN_STEPS:
            return None
        since, base = self.base
        finished, size = self._amounts(done, total)
        if finished <= base or self.last_at <= since:
            return None
        pace = (finished - base) / (self.last_at - since)
        return (size - finished) / pace - (now - self.last_at)

    def left(self, now: float, done: int, total: int) -> float | None:
        """Seconds left, or None when the steps so far cannot tell (or nothing is left)."""
        left = self._countdown(now, done, total)
        if left is None or left > 0:
            return left
        since, base = self.base or (now, 0.0)
        finished, size = self._amounts(done, total)
        return (size - finished) * max(now - since, 1e-9) / (finished - base)  # late: pace till now

    def text(self, now: float, done: int, total: int, unit: str = "") -> str:
        """'about 3 min left', 'finishing the last 40 boards', 'estimating the time left', or ''
        when the work is done or has no size."""
        if total <= 0 or done >= total:
            return ""
        finished, size = self._amounts(done, total)
        if self.steps >= MIN_STEPS and size - finished <= self.largest + 1e-9:
            return f"finishing the last {total - done:,}{unit}"
        left = self.left(now, done, total)
        return ESTIMATING if left is None else f"{rough(left)} left"
