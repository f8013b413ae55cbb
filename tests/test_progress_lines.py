"""Progress without a terminal (a log, a pipe, CI): a line every `DDRANK_PROGRESS_EVERY` seconds
while a stage runs, also when no unit of it finished, and a time left that says no more than the
work done shows (cli/progress.py, cli/eta.py).

The lines are driven here by a clock the test moves (`PlainProgress(clock=...)`, `tick()` as the
timer calls it), so no assertion depends on this machine's speed. A real `ddrank run` on the
bundled LIN, with its lines, is checked in tests/test_site_browser.py (its run is shared).
"""

from __future__ import annotations

import threading

from cli.eta import Eta, rough
from cli.progress import PlainProgress


def _plain(now: list[float], every: float = 10) -> tuple[PlainProgress, list[str]]:
    out: list[str] = []
    hook = PlainProgress(out.append, {"solve": "DD solve", "prefect-api": "start Prefect API"},
                         every=every, clock=lambda: now[0], unit="boards")  # fmt: skip
    return hook, out


def _texts(out: list[str]) -> list[str]:
    return [line.split(" ", 1)[1] for line in out]  # without the clock time


def test_a_stage_with_nothing_finished_still_writes_a_line_every_interval() -> None:
    """The timer's `tick` writes a line for a stage under way every `every` seconds, whether or
    not a unit finished: the DD stage of a big run was silent for minutes between units."""
    now = [0.0]
    hook, out = _plain(now)
    hook("prefect-api", 0, 0)
    for t in (4, 9.9, 10, 15, 20.5, 29, 31):  # the timer wakes more often than it writes
        now[0] = t
        hook.tick()
    hook("prefect-api", 1, 1)
    now[0] = 40
    hook("solve", 0, 1000)
    for t in (45, 50, 55, 60, 70):
        now[0] = t
        hook.tick()
    assert _texts(out) == [
        "start Prefect API: started",
        "start Prefect API: still under way, 10.0 s",
        "start Prefect API: still under way, 20.5 s",
        "start Prefect API: still under way, 31.0 s",
        "start Prefect API: done, 31.0 s",
        "DD solve: started, 1,000 boards to do",
        "DD solve: 0 of 1,000 boards (0%) after 10.0 s, estimating the time left",
        "DD solve: 0 of 1,000 boards (0%) after 20.0 s, estimating the time left",
        "DD solve: 0 of 1,000 boards (0%) after 30.0 s, estimating the time left",
    ]


def test_the_time_left_of_units_finished_in_pairs_reaches_zero_with_the_work() -> None:
    """Two workers, eight units of 125 boards each, a minute apiece after 50 s of start-up:
    boards finish two units at a time. The time left is given once three steps are known,
    from the work finished since the first one, and the last unit is 'finishing', never 'about
    N s left' in the second before 'done' (what issue 38 saw)."""
    now = [0.0]
    hook, out = _plain(now)
    hook("solve", 0, 0)  # planning: size unknown
    hook("solve", 0, 1000)
    finished = {110: 125, 111: 250, 170: 375, 171: 500, 230: 625, 231: 750, 290: 875, 291: 1000}
    for t in range(1, 292):
        now[0] = t
        if t in finished:
            hook("solve", finished[t], 1000)
        hook.tick()
    texts = _texts(out)
    assert texts[0] == "DD solve: started"
    assert texts[-1] == "DD solve: done, 1,000 boards, 4 min 51 s"
    by_time = {line.split(" after ")[1].split(",")[0]: line.split(", ", 1)[1]
               for line in texts[1:-1]}  # fmt: skip
    assert by_time["1 min 40 s"] == "estimating the time left"  # nothing finished yet
    assert by_time["2 min 00 s"] == "estimating the time left"  # two steps: not enough
    assert by_time["2 min 50 s"] == "about 2 min 30 s left"  # the truth: 2 min 01 s
    assert by_time["3 min 20 s"] == "about 55 s left"  # counting down (the truth: 91 s)
    assert by_time["4 min 00 s"] == "about 40 s left"  # the truth: 51 s
    assert by_time["4 min 30 s"] == "about 10 s left"
    assert by_time["4 min 40 s"] == "about 1 min left"  # late: the pace until now
    assert texts[-2] == ("DD solve: 875 of 1,000 boards (88%) after 4 min 50 s, finishing the "
                         "last 125 boards")  # fmt: skip


def test_eta_words() -> None:
    assert [rough(s) for s in (0.4, 38, 57, 89, 150, 599, 3599, 7400)] == [
        "about 5 s", "about 40 s", "about 1 min", "about 1 min 30 s", "about 2 min 30 s",
        "about 10 min", "about 1 h 00 min", "about 2 h 05 min",
    ]  # fmt: skip
    eta = Eta()
    assert eta.text(0, 0, 100) == "estimating the time left"
    for t, done in ((10, 10), (20, 20), (30, 30)):
        eta.step(t, done)
    assert eta.left(30, 30, 100) == 70.0  # 20 done in the 20 s since the first step
    assert eta.left(40, 30, 100) == 60.0  # counting down
    assert eta.text(40, 30, 100) == "about 1 min left"
    assert eta.left(100, 30, 100) == 315.0  # late: 20 done in 90 s, 70 to do
    assert eta.text(100, 30, 100) == "about 5 min 30 s left"
    assert eta.text(100, 100, 100) == ""  # done: nothing left to say


def test_more_work_after_done_reopens_the_stage() -> None:
    """A run over 50,000 boards solves in waves: the first wave's end is not the stage's."""
    now = [0.0]
    hook, out = _plain(now)
    hook("solve", 0, 100)
    now[0] = 5
    hook("solve", 100, 100)
    now[0] = 6
    hook("solve", 100, 250)
    now[0] = 20
    hook.tick()
    now[0] = 30
    hook("solve", 250, 250)
    assert _texts(out) == [
        "DD solve: started, 100 boards to do",
        "DD solve: done, 100 boards, 5.0 s",
        "DD solve: 150 boards more to do",
        "DD solve: 100 of 250 boards (40%) after 20.0 s, estimating the time left",
        "DD solve: done, 250 boards, 30.0 s",
    ]


def test_a_quick_start_up_check_says_nothing_and_a_slow_one_says_so() -> None:
    """`stage(name, after=...)`: 'what is new' says nothing when it is quick (a rerun with
    nothing new stays one line) and is a started/done pair with heartbeats when it is not."""
    from stages.progress import reporting, stage

    heard: list[tuple[str, int, int]] = []
    with reporting(lambda *a: heard.append(a)), stage("inputs", heartbeat=0.01, after=60):
        pass
    assert heard == []
    started = threading.Event()

    def hook(name: str, done: int, total: int) -> None:
        heard.append((name, done, total))
        if len(heard) >= 3:  # started, then two heartbeats
            started.set()

    with reporting(hook), stage("inputs", heartbeat=0.01, after=0.01):
        assert started.wait(30)
    assert heard[0] == ("inputs", 0, 0) and heard[-1] == ("inputs", 1, 1)
    assert set(heard[1:-1]) == {("inputs", 0, 0)}


def test_the_timer_writes_while_the_main_thread_is_busy() -> None:
    """`beating()` runs `tick` on its own thread: lines come while the stage's own thread
    reports nothing (the wait is on an event the lines set, not on a clock)."""
    out: list[str] = []
    enough = threading.Event()

    def write(text: str) -> None:
        out.append(text)
        if len(out) >= 4:
            enough.set()

    with PlainProgress(write, every=0.01).beating() as hook:
        hook("solve", 0, 40)
        assert enough.wait(30)
    assert out[0].endswith("solve: started, 40 to do")
    assert all(" of 40 (0%) after " in line for line in out[1:4])


#: A real sequence: `ddrank dd` over 3 partitions of the bundled 2012 sample (1,423 boards; 374
#: tables and 1,409 traces in 8 units, est. 78 CPU-s, 2 workers) at load 18, 2026-12-07: each
#: unit's finish in seconds after "DD solve: started" (from the run's log lines "unit N: ...
#: tables, ... traces"), its items and its estimated CPU seconds; planning ended at 25.2 s.
RECORDED_PLAN = 25.2
RECORDED_UNITS = [
    (421.8, 220, 9.77),
    (428.6, 232, 9.78),
    (605.1, 220, 9.77),
    (630.6, 220, 9.77),
    (727.4, 220, 9.77),
    (770.7, 220, 9.77),
    (882.1, 220, 9.77),
    (896.3, 231, 9.77),
]


def _replay(units: list[tuple[float, int, float]], plan: float,
            with_work: bool = True) -> list[tuple[float, str]]:  # fmt: skip
    """(clock, text) of each line when the DD stage reports `units` as stages/dd_run.py does:
    the plan's size, then each unit's items (and its estimated CPU seconds) as it finishes."""
    from stages.progress import report, reporting

    now = [0.0]
    hook, out = _plain(now)
    total, cost = sum(u[1] for u in units), sum(u[2] for u in units)
    events = {round(plan * 10): (0, 0.0)}
    done, work = 0, 0.0
    for at, items, est in units:
        done, work = done + items, work + est
        events[round(at * 10)] = (done, work)
    lines = []
    with reporting(hook):
        report("solve", 0, 0)
        for k in range(max(events) + 1):
            now[0] = k / 10
            if k in events:
                d, w = events[k]
                report("solve", d, total, work=(w, cost) if with_work else None)
            if k % 10 == 0:
                hook.tick()
            lines += [(now[0], text) for text in _texts(out[len(lines) :])]
    return lines


def _seconds(text: str) -> float:
    """'about 4 min 30 s left' -> 270."""
    words = text.removeprefix("about ").removesuffix(" left").split()
    units = {"h": 3600, "min": 60, "s": 1}
    return sum(float(n) * units[u] for n, u in zip(words[::2], words[1::2], strict=True))


def test_the_time_left_of_a_real_dd_run_reaches_zero_with_the_work() -> None:
    """The recorded run: every time it gives is within a factor of two of the truth (or 1 min),
    "finishing" comes only in the last unit's span (14 s here), and it ends at "done" with the
    work."""
    lines = _replay(RECORDED_UNITS, RECORDED_PLAN)
    end = RECORDED_UNITS[-1][0]
    assert lines[-1][1] == "DD solve: done, 1,783 boards, 14 min 56 s"
    timed = [(at, text.rsplit(", ", 1)[1]) for at, text in lines if text.endswith(" left")
             and "estimating" not in text]  # fmt: skip
    assert len(timed) >= 10
    for at, text in timed:
        truth, said = end - at, _seconds(text)
        assert truth / 2 - 60 <= said <= 2 * truth + 60, (at, text, truth)
    finishing = [at for at, text in lines if "finishing the last" in text]
    assert finishing and min(finishing) >= RECORDED_UNITS[-2][0], finishing


def test_cheap_items_do_not_make_the_pace_look_fast() -> None:
    """A first wave of tables (0.16 CPU-s each), then a wave of traces (0.013 s each: a unit holds
    twelve times more of them), as the bundled sample's later waves are (its deals repeat across
    events, so their tables are done): by count, the trace units made the pace look twelve times
    faster (here "about 10 s left" for 35 s of work). Paced on the estimated cost the stage
    reports, the time left is the truth."""
    from ddrank.dd.units import TABLE_SECONDS, TRACE_SECONDS

    per_unit = 10.0  # CPU-s of a unit, as ddrank.dd.units cuts them
    tables, traces = round(per_unit / TABLE_SECONDS), round(per_unit / TRACE_SECONDS)
    # two workers, a unit every 10 s apiece: the traces first, then the tables
    units = [(20.0 + 10 * (k // 2), traces if k < 6 else tables, per_unit) for k in range(12)]
    units = [(at + 0.5 * (k % 2), n, c) for k, (at, n, c) in enumerate(units)]
    by_cost = dict(_replay(units, 5.0))
    by_count = dict(_replay(units, 5.0, with_work=False))
    assert by_cost[40.0].endswith("about 35 s left")  # the truth: 35.5 s
    assert by_count[40.0].endswith("about 10 s left")  # what the count said: a third of it


def test_watch_talks_while_it_loads_prefect(tmp_path) -> None:  # noqa: ANN001 - pytest's Path
    """`ddrank watch` (and `serve`) import the flows, Prefect with them: 20-30 s on 2 busy cores,
    two minutes at load 20, where the fresh-clone walk of docs/operations.md saw `serve` print
    nothing for 90 s. The real command, piped: its first line is the load's "started", and it
    says when it is done (an empty inbox, looked at once: no event, no server needed)."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    (tmp_path / "inbox").mkdir()
    env = {**os.environ, "DDRANK_PROGRESS_EVERY": "1", "PREFECT_API_URL": "http://127.0.0.1:9/api",
           "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}  # fmt: skip
    done = subprocess.run([sys.executable, "-m", "cli.main", "watch", "--once", "--inbox", "inbox"],
                          cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=600)  # fmt: skip
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    lines = [ln.split(" ", 1)[1] for ln in done.stdout.splitlines() if ln[:2].isdigit()]
    assert lines[0] == "load Prefect: started", done.stdout[-2000:]
    assert lines[-1].startswith("load Prefect: done, "), done.stdout[-2000:]
    assert done.stdout.rstrip().endswith("0 event(s) emitted")
