"""Solve units: the DD work of a run cut for the machine, not for the store.

A partition written at ingest is the unit of storage; its size says nothing about the DD work in
it (a partition of repeated deals needs few tables, one of fresh deals many). So the work is
planned from its own cost: each distinct deal needing a table and each play needing a trace,
weighted by what DDS takes for it in batches.

Workers take units from one queue, the next unit as soon as they finish one (dynamic
scheduling), and the units shrink toward the end (guided self-scheduling): the first half of the
work goes in units of 1/`units_per_worker` of a worker's share, then each unit is 1/(2 x
workers) of the work still left, down to `MIN_UNIT_SECONDS`. The cost of a deal's table varies
by a factor of two or more, so units of equal estimated cost finish at different times; with
units of equal size the last worker to finish ran up to one whole unit after the others idled
(measured at 2 workers: 8 units of 8.2 s estimated ran 9-14.6 s). With shrinking units the
workers finish within about one small unit of each other.

Each unit mixes tables and traces in proportion (an error in the estimated cost of one kind does
not unbalance the units), and the units follow the order the work is given in (the plan gives it
partition by partition), so the first partitions are complete early and tallied while the
workers solve the rest.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ddrank.dd.sandbox import SolveJob
from ddrank.dd.solver import TABLE_BATCH, TRACE_BATCH, TraceRequest

#: CPU seconds per DD table (all 5 strains) in CalcAllTables batches of 8, on one DDS thread:
#: 0.169-0.179 s measured on the 2012 file's first 1,200 results (the solver reports its CPU
#: seconds; `bench/bench_dd.py` prints this machine's figure; docs/performance.md).
TABLE_SECONDS = 0.18
#: CPU seconds per play trace in AnalyseAllPlays batches, on one DDS thread: 17.2-17.4 ms
#: measured there (18.8 ms in batches of 20); 13 ms was assumed before, so trace-only units ran
#: a third longer than planned.
TRACE_SECONDS = 0.017
#: Units per worker in the first half of the work (the largest units: a tenth of a second of
#: fixed cost, a task run and a round trip to the worker's solver process, each).
UNITS_PER_WORKER = 4
#: The smallest unit, in estimated CPU seconds: how far apart the workers may finish.
MIN_UNIT_SECONDS = 0.25


@dataclass(frozen=True, slots=True)
class Unit:
    """One solve job and its estimated cost in CPU seconds."""

    index: int
    job: SolveJob
    cost: float


def job_cost(job: SolveJob) -> float:
    return len(job.tables) * TABLE_SECONDS + len(job.traces) * TRACE_SECONDS


def unit_sizes(total: float, workers: int, units_per_worker: int = UNITS_PER_WORKER,
               smallest: float = MIN_UNIT_SECONDS) -> list[float]:  # fmt: skip
    """Target costs of the units, in order: units of a worker's share / `units_per_worker` for
    the first half of the work; then rounds of one unit per worker, each 1/(2 x workers) of what
    is left (the rest halves each round), never below `smallest`. A last rest under half of
    `smallest` joins the unit before it."""
    workers = max(1, workers)
    cap = max(smallest, total / (workers * units_per_worker))
    tiny = 1e-9 * max(1.0, total)  # float noise: the same work must give the same sizes
    sizes: list[float] = []
    left = total
    while cap > 0 and left - cap >= total / 2 - tiny:
        sizes.append(cap)
        left -= cap
    while left > tiny:
        size = max(smallest, min(cap, left / (2 * workers)))
        for _ in range(workers):
            if left <= tiny:
                break
            if sizes and left < smallest / 2:
                sizes[-1] += left
                left = 0.0
                break
            sizes.append(min(size, left))
            left -= sizes[-1]
    return sizes


def in_proportion(
    tables: Sequence[tuple[str, str]], traces: Sequence[TraceRequest],
    groups: tuple[Sequence[int], Sequence[int]] | None,
) -> list[tuple[float, object]]:  # fmt: skip
    """(cost, item) of every table and trace: group by group (in the order of the groups' first
    items), each group's tables and traces interleaved evenly, in the order given."""
    t_groups, p_groups = groups or ([0] * len(tables), [0] * len(traces))
    members: dict[int, tuple[list, list]] = {}
    for g, item in zip(t_groups, tables, strict=True):
        members.setdefault(g, ([], []))[0].append(item)
    for g, item in zip(p_groups, traces, strict=True):
        members.setdefault(g, ([], []))[1].append(item)
    out: list[tuple[float, object]] = []
    for g_tables, g_traces in members.values():
        keyed = [((i + 0.5) / len(g_tables), 0, i, TABLE_SECONDS, t)
                 for i, t in enumerate(g_tables)]  # fmt: skip
        keyed += [((j + 0.5) / len(g_traces), 1, j, TRACE_SECONDS, r)
                  for j, r in enumerate(g_traces)]  # fmt: skip
        keyed.sort(key=lambda k: k[:3])
        out += [(cost, item) for _, _, _, cost, item in keyed]
    return out


def plan_units(
    tables: Sequence[tuple[str, str]],
    traces: Sequence[TraceRequest],
    workers: int,
    table_batch: int = TABLE_BATCH,
    trace_batch: int = TRACE_BATCH,
    units_per_worker: int = UNITS_PER_WORKER,
    groups: tuple[Sequence[int], Sequence[int]] | None = None,
) -> list[Unit]:
    """Cut the tables and traces into units that shrink toward the end (`unit_sizes`), in the
    order given; `groups`: the group (partition) of each table and of each trace, taken in turn.

    Deterministic for the same work, order and worker count, so a rerun's units have the same
    content and a cached solve is found again."""
    items = in_proportion(tables, traces, groups)
    if not items:
        return []
    sizes = unit_sizes(sum(c for c, _ in items), workers, units_per_worker)
    bins: list[tuple[list, list]] = []
    target = load = 0.0
    for cost, item in items:
        # a new unit once this one holds its share (the item goes where it overshoots least)
        if not bins or (load + cost / 2 > target and len(bins) < len(sizes)):
            target += sizes[len(bins)]
            bins.append(([], []))
        (bins[-1][0] if isinstance(item, tuple) else bins[-1][1]).append(item)
        load += cost
    jobs = [SolveJob(tables=tuple(sorted(t)), traces=tuple(sorted(p, key=lambda r: r.key)),
                     table_batch=table_batch, trace_batch=trace_batch)
            for t, p in bins if t or p]  # fmt: skip
    return [Unit(i, job, job_cost(job)) for i, job in enumerate(jobs)]
