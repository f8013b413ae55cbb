"""DD work is planned for the machine, not for the store's partitions (issue 31).

The bundled 2012 world-class PBN (7,632 table results, 2,298 distinct deals) ingested at the
default partition size (500 records: 16 partitions) and cleaned; the plan for 16 workers must
cut its tables and traces into at least 3 units per worker that shrink toward the end (workers
take them from one queue, so they finish within a small unit of each other: guided
self-scheduling, `ddrank.dd.units`), partition by partition, with every missing deal solved once
and every valid play traced.
"""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import pytest

from ddrank.dd.units import (
    MIN_UNIT_SECONDS,
    TABLE_SECONDS,
    TRACE_SECONDS,
    UNITS_PER_WORKER,
    job_cost,
    plan_units,
    unit_sizes,
)
from stages.clean import clean_pending
from stages.dd import plan_dd_work
from stages.ingest import DEFAULT_PARTITION_SIZE, ingest_paths
from store import Store

ROOT = Path(__file__).resolve().parent.parent
WORLDCLASS = ROOT / "ddrank" / "data" / "sample" / "pbn" / "worldclass-2012-example3.pbn"


@pytest.fixture(scope="module")
def worldclass(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("units") / "store.duckdb"
    with Store(db) as store:
        summary = ingest_paths(store, [WORLDCLASS], DEFAULT_PARTITION_SIZE)
        assert summary.new == 7632 and len(summary.partitions) == 16
        clean_pending(store, workers=1)
    return db


def follows_sizes(costs: list[float], workers: int) -> None:
    """The units' costs add up, unit by unit, to `unit_sizes` within half a table: the first
    ones a quarter of a worker's share, the last ones (one per worker) the smallest."""
    sizes = unit_sizes(sum(costs), workers)
    assert len(costs) == len(sizes)
    done = target = 0.0
    for cost, size in zip(costs, sizes, strict=True):
        done, target = done + cost, target + size
        assert abs(done - target) <= TABLE_SECONDS / 2 + 1e-9, (done, target)
    cap = max(MIN_UNIT_SECONDS, sum(costs) / (workers * UNITS_PER_WORKER))
    assert max(costs) <= cap + TABLE_SECONDS
    last = 1.5 * MIN_UNIT_SECONDS + TABLE_SECONDS  # a rest under half the smallest joins one
    assert all(c <= last for c in costs[-workers:]), costs[-workers:]


def test_plan_for_16_workers_on_the_2012_file(worldclass: Path) -> None:
    with Store(worldclass, read_only=True) as store:
        plan = plan_dd_work(store, workers=16)
        boards = store.table_count("boards")
    costs = [u.cost for u in plan.units]
    assert len(plan.partitions) == 16  # the unit of storage ...
    assert len(plan.units) >= 48  # ... is not the unit of work
    follows_sizes(costs, 16)
    deals = [d for u in plan.units for d, _ in u.job.tables]
    traces = [r.key for u in plan.units for r in u.job.traces]
    assert len(deals) == len(set(deals)) == 2298  # each distinct deal needs one table, once
    assert len(traces) == len(set(traces)) and 0 < len(traces) <= boards
    assert plan.pending_boards == boards
    assert len({u.content_hash for u in plan.units}) == len(plan.units)
    # partition by partition: a partition's plays are traced in units before the next one's,
    # so the first partitions are tallied while the workers solve the rest
    partition_of = {key[2:]: pid for pid, keys in plan.needs.items() for key in keys
                    if key.startswith("P|")}  # fmt: skip
    units_of: dict[int, list[int]] = {}
    for u in plan.units:
        for r in u.job.traces:
            units_of.setdefault(partition_of[r.key], []).append(u.index)
    assert sorted(units_of) == plan.partitions
    spans = [(min(units_of[p]), max(units_of[p])) for p in plan.partitions]
    assert all(a[1] <= b[0] for a, b in pairwise(spans)), spans


def test_the_same_work_gives_the_same_units(worldclass: Path) -> None:
    """Cached solves are keyed on a unit's content: planning must not depend on row order."""
    with Store(worldclass, read_only=True) as store:
        a, b = plan_dd_work(store, workers=4), plan_dd_work(store, workers=4)
    assert [u.content_hash for u in a.units] == [u.content_hash for u in b.units]
    follows_sizes([u.cost for u in a.units], 4)


def test_unit_sizes_shrink_toward_the_end() -> None:
    """66 CPU-s (the DD work of bench_dd.py's 1,200 results) on 2 workers: 4 units of 8.25 s
    (half the work), then per round one unit per worker of a quarter of what is left, down to
    the smallest; a rest under half the smallest joins the last unit. Work under the smallest
    unit is one unit."""
    sizes = unit_sizes(66.0, 2)
    assert sum(sizes) == pytest.approx(66.0)
    assert [round(s, 2) for s in sizes] == [8.25, 8.25, 8.25, 8.25, 8.25, 8.25, 4.12, 4.12, 2.06,
                                            2.06, 1.03, 1.03, 0.52, 0.52, 0.26, 0.26, 0.25,
                                            0.27]  # fmt: skip
    assert unit_sizes(0.3, 2) == [0.3]
    assert unit_sizes(0.0, 2) == []


def test_small_work_is_not_cut_below_the_minimum() -> None:
    """15 deals and 30 plays (the vugraph file's DD work) on 16 workers: a unit per
    `MIN_UNIT_SECONDS` of work, not 64 units of a fraction of it each."""
    from ddrank.dd.solver import TraceRequest
    from ddrank.types import Seat, Strain

    tables = [(f"d{i:02d}", "N:...") for i in range(15)]
    traces = [TraceRequest(f"r{i:02d}", "N:...", Strain.parse("S"), Seat.parse("W"), ("SA",))
              for i in range(30)]  # fmt: skip
    units = plan_units(tables, traces, workers=16)
    total = 15 * TABLE_SECONDS + 30 * TRACE_SECONDS
    assert len(units) == len(unit_sizes(total, 16)) == 13  # 12 of 0.25 s, the rest 0.21 s
    assert sum(u.cost for u in units) == pytest.approx(total)
    assert all(u.cost == pytest.approx(job_cost(u.job)) for u in units)
    assert all(u.job.tables and u.job.traces for u in units)  # tables and traces mixed
    many = plan_units(tables * 10, traces * 10, workers=2)
    follows_sizes([u.cost for u in many], 2)


def test_waves_bound_what_one_plan_holds(worldclass: Path) -> None:
    """The DD stage plans, solves and tallies a wave of partitions at a time (memory holds one
    wave, not the store): waves of at most 2,000 boards over the 2012 file's 16 partitions cover
    each partition once, in order, and their plans together hold every pending board."""
    from stages.dd import plan_waves

    with Store(worldclass, read_only=True) as store:
        waves, pending = plan_waves(store, size=2000)
        plans = [plan_dd_work(store, wave, workers=2) for wave in waves]
        boards = store.table_count("boards")
        whole, _ = plan_waves(store)
    assert pending == boards and whole == [list(range(min(whole[0]), min(whole[0]) + 16))]
    assert [p for w in waves for p in w] == whole[0]
    assert len(waves) >= 4
    assert all(p.pending_boards <= 2000 for p in plans)
    assert sum(p.pending_boards for p in plans) == boards
    assert [p.partitions for p in plans] == waves
