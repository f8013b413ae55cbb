"""Solve units: the DD work of a run cut for the machine, not for the store.

A partition written at ingest is the unit of storage; its size says nothing about the DD work in
it (a partition of repeated deals needs few tables, one of fresh deals many). So the work is
planned from its own cost: each distinct deal needing a table and each play needing a trace,
weighted by what DDS takes for it in batches, spread over `units_per_worker` units per worker
(at least 3, so that the last unit to finish is small and no worker waits for another's big
one), each unit given the next item where its load is least (longest processing time first),
so no unit exceeds the mean by more than one item. Tiny runs are not cut below
`MIN_UNIT_SECONDS` of work: each unit starts a solver process and a task run (a tenth of a
second or more).
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from dataclasses import dataclass

from ddrank.dd.sandbox import SolveJob
from ddrank.dd.solver import TABLE_BATCH, TRACE_BATCH, TraceRequest

#: CPU seconds per DD table (all 5 strains) in CalcAllTables batches of 8: 0.13-0.20 s measured
#: (docs/performance.md; `bench/bench_dd.py` prints this machine's figure).
TABLE_SECONDS = 0.16
#: CPU seconds per play trace in AnalyseAllPlays batches: 11-16 ms measured.
TRACE_SECONDS = 0.013
UNITS_PER_WORKER = 4
MIN_UNIT_SECONDS = 1.0


@dataclass(frozen=True, slots=True)
class Unit:
    """One solve job and its estimated cost in CPU seconds."""

    index: int
    job: SolveJob
    cost: float


def job_cost(job: SolveJob) -> float:
    return len(job.tables) * TABLE_SECONDS + len(job.traces) * TRACE_SECONDS


def unit_count(total_cost: float, items: int, workers: int,
               units_per_worker: int = UNITS_PER_WORKER) -> int:  # fmt: skip
    """`units_per_worker` per worker, fewer only when the work is too small to be worth it."""
    if items == 0:
        return 0
    wanted = max(1, workers) * units_per_worker
    worth = max(1, math.floor(total_cost / MIN_UNIT_SECONDS))
    return max(1, min(wanted, worth, items))


def plan_units(
    tables: Sequence[tuple[str, str]],
    traces: Sequence[TraceRequest],
    workers: int,
    table_batch: int = TABLE_BATCH,
    trace_batch: int = TRACE_BATCH,
    units_per_worker: int = UNITS_PER_WORKER,
) -> list[Unit]:
    """Cut the tables and traces into units of near-equal cost, the heaviest unit first.

    Deterministic for the same work and worker count (items are taken in key order), so a
    rerun's units have the same content and a cached solve is found again."""
    items: list[tuple[float, str, object]] = [(TABLE_SECONDS, f"T{d}", (d, p)) for d, p in tables]
    items += [(TRACE_SECONDS, f"P{r.key}", r) for r in traces]
    total = sum(c for c, _, _ in items)
    n = unit_count(total, len(items), workers, units_per_worker)
    if n == 0:
        return []
    items.sort(key=lambda it: (-it[0], it[1]))  # costliest first, then by key
    heap = [(0.0, i) for i in range(n)]  # (load, unit): the least loaded unit on top
    bins: list[tuple[list, list]] = [([], []) for _ in range(n)]
    for cost, key, item in items:
        load, i = heapq.heappop(heap)
        (bins[i][0] if key[0] == "T" else bins[i][1]).append(item)
        heapq.heappush(heap, (load + cost, i))
    jobs = [SolveJob(tables=tuple(sorted(t)), traces=tuple(sorted(p, key=lambda r: r.key)),
                     table_batch=table_batch, trace_batch=trace_batch) for t, p in bins]  # fmt: skip
    jobs.sort(key=lambda j: (-job_cost(j), j.tables[:1], [r.key for r in j.traces[:1]]))
    return [Unit(i, job, job_cost(job)) for i, job in enumerate(jobs)]
