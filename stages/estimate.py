"""The learned double-dummy estimator's stage: DDS-labelled training states, training, scoring.

DDS runs through the DD engine (crash-isolated sandbox, one thread); every file is read and
written by `store.estimator`; `ddrank.estimate` stays pure. Long DDS work reports its progress
through `stages.progress` (the CLI shows it as bars).
"""

from __future__ import annotations

import hashlib
import json
import random
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from ddrank.data import bundled
from stages.progress import report
from store import Store
from store.estimator import (
    CACHE_DIR,
    MODELS_DIR,
    SHARD_DEALS,
    cached_traces,
    save_dataset,
    save_model,
    save_traces,
    shard_path,
    write_parquet_atomic,
)

SAMPLE_PBN = (
    bundled("sample", "pbn", "worldclass-2012-example3.pbn"),
    bundled("sample", "pbn", "online-qualifier-2021-example2.pbn"),
)
PLAY_BATCH = 200  # analyse_all_plays accepts up to 200 boards per call
DDS_BATCH = 40  # calc_all_tables accepts at most 40 deals with all five strains
TABLE_COLUMNS = [f"dd_{s}{p}" for s in "CDHSN" for p in "NESW"]  # tricks by strain x declarer
RANDOM_TABLES = "DDS tables of random deals"  # progress stage


def _dds_single_thread() -> None:
    """Keep DDS on one thread: the machine is shared, and batches are solved serially anyway."""
    from ddrank.dd.solver import set_dds_threads

    set_dds_threads(1)


def random_deal_pbns(seed: int, start: int, count: int) -> list[str]:
    """Deterministic random deals from endplay's dealer: deal k is seeded with seed*10^7 + k."""
    from endplay.dealer import generate_deal

    return [generate_deal(seed=seed * 10_000_000 + k).to_pbn() for k in range(start, start + count)]


def dd_tables(deal_pbns: list[str]) -> list[list[int]]:
    """DD tables of full deals (the DD engine's solver), in TABLE_COLUMNS order."""
    from ddrank.dd.solver import solve_tables

    return [list(t.cells) for t in solve_tables(deal_pbns, batch=DDS_BATCH)]


def solve_random_deals(n_deals: int = 5000, seed: int = 1, cache_dir: Path = CACHE_DIR
                       ) -> pl.DataFrame:  # fmt: skip
    """DD tables of `n_deals` random deals, solved once and cached in parquet shards.

    Resumable: a shard already on disk is read, not solved again, so an interrupted run loses at
    most one shard. Deal k is the same deal whatever n_deals is, so growing n_deals reuses work.
    """
    from ddrank.types import Deal

    _dds_single_thread()
    size = min(SHARD_DEALS, max(n_deals, 1))  # small trials solve only what they use
    n_shards = -(-n_deals // size)
    todo = [i for i in range(n_shards) if not shard_path(cache_dir, seed, i, size).exists()]
    total = n_shards * size
    done = (n_shards - len(todo)) * size
    report(RANDOM_TABLES, done, total)
    for index in todo:
        pbns = random_deal_pbns(seed, index * size, size)
        rows: list[list[int]] = []
        for j in range(0, len(pbns), DDS_BATCH):
            rows += dd_tables(pbns[j : j + DDS_BATCH])
            done += len(pbns[j : j + DDS_BATCH])
            report(RANDOM_TABLES, done, total)
        frame = pl.DataFrame(
            {
                "deal": pbns,
                "deal_id": [Deal.from_pbn(p).deal_id for p in pbns],
                **{c: [r[k] for r in rows] for k, c in enumerate(TABLE_COLUMNS)},
            },
            schema_overrides={c: pl.Int8 for c in TABLE_COLUMNS},
        )
        write_parquet_atomic(frame, shard_path(cache_dir, seed, index, size))
    frames = [pl.read_parquet(shard_path(cache_dir, seed, i, size)) for i in range(n_shards)]
    if not frames:
        return pl.DataFrame(
            schema={"deal": pl.String, "deal_id": pl.String} | {c: pl.Int8 for c in TABLE_COLUMNS}
        )
    return pl.concat(frames).head(n_deals)


# ------------------------------------------------------------------ 13-card states of random deals
def random_table_states(solved: pl.DataFrame) -> pl.DataFrame:
    """20 opening states per solved random deal (5 strains x 4 declarers)."""
    from ddrank.estimate.dataset import rows_to_columns, table_states
    from ddrank.types import Deal

    rows = []
    for r in solved.iter_rows(named=True):
        rows += table_states(Deal.from_pbn(r["deal"]), [r[c] for c in TABLE_COLUMNS], "random")
    return _frame(rows_to_columns(rows))


def _frame(columns: dict[str, list]) -> pl.DataFrame:
    return pl.DataFrame(
        columns,
        schema={
            "deal_id": pl.String,
            "source": pl.String,
            "owners": pl.String,
            "hand_size": pl.Int8,
            "strain": pl.Int8,
            "leader": pl.Int8,
            "ns_tricks": pl.Int8,
        },
    )


# ------------------------------------------------------------------ DDS play traces
def play_traces(
    items: Sequence[tuple[str, int, int, list[str]]], cache_dir: Path, label: str
) -> list[list[int] | None]:
    """Declarer's DD total after every card of (deal pbn, strain, declarer, cards) plays.

    Solved by the DD engine's crash-isolated sandbox (one DDS thread), 200 boards per job, and
    cached per job under `<cache_dir>/traces/` by a hash of its content: a re-run, or one that
    was interrupted, reuses every job already solved. A play that kills DDS yields None."""
    from ddrank.dd.sandbox import SolveJob, run_isolated, solve_with_bisection
    from ddrank.dd.solver import TRACE_BATCH, TraceRequest
    from ddrank.types import Seat, Strain

    out: list[list[int] | None] = []
    stage = f"DDS play traces ({label})"
    report(stage, 0, len(items))
    for i in range(0, len(items), TRACE_BATCH):
        batch = list(items[i : i + TRACE_BATCH])
        key = hashlib.sha1(json.dumps(batch).encode()).hexdigest()[:20]
        traces = cached_traces(cache_dir, key)
        if traces is None:
            requests = tuple(
                TraceRequest(str(j), pbn, Strain(strain), Seat(declarer).lho, tuple(cards))
                for j, (pbn, strain, declarer, cards) in enumerate(batch)
            )
            solved = solve_with_bisection(
                SolveJob(traces=requests), run=lambda job: run_isolated(job, threads=1)
            )
            found = [solved.traces.get(str(j)) for j in range(len(batch))]
            traces = [list(t) if t is not None else None for t in found]
            save_traces(cache_dir, key, traces)
        out += traces
        report(stage, len(out), len(items))
    return out


# ------------------------------------------------------------------ mid-hand states
def random_play_states(
    solved: pl.DataFrame, seed: int = 1, cache_dir: Path = CACHE_DIR
) -> pl.DataFrame:
    """Each solved random deal played out by `playout`'s policy in a contract its owners would
    choose, then traced by DDS: one state per trick, hand sizes 13 down to 1."""
    from ddrank.estimate.dataset import play_states, rows_to_columns
    from ddrank.estimate.playout import choose_contract, play_out
    from ddrank.types import Deal

    items, meta = [], []
    for k, r in enumerate(solved.iter_rows(named=True)):
        rng = random.Random(seed * 1_000_003 + k)
        deal = Deal.from_pbn(r["deal"])
        strain, declarer = choose_contract([r[c] for c in TABLE_COLUMNS], rng)
        cards, seats = play_out(deal, strain, declarer, rng)
        items.append((r["deal"], int(strain), int(declarer), [str(c) for c in cards]))
        meta.append((deal, cards, seats, strain, declarer))
    traces = play_traces(items, cache_dir, "random deals")
    rows = []
    for (deal, cards, seats, strain, declarer), trace in zip(meta, traces, strict=True):
        if trace is not None:
            states = play_states(deal, cards, seats, strain, declarer, trace, "random_play")
            rows += states[1:]  # the opening state is already among the 20 table states
    return _frame(rows_to_columns(rows))


@contextmanager
def boards_store(db: str | Path | None) -> Iterator[Store | None]:
    """The store whose boards the estimator learns from, read-only; None when there is none."""
    if db is None or not Path(db).exists():
        yield None
        return
    with Store(db, read_only=True) as store:
        yield store


def load_played_boards(store: Store | None, limit: int | None = None) -> list[dict[str, Any]]:
    """`boards` rows with a contract and play, each with its stored DD trace when the DD
    analysis has run (else `trace` is None). Without a store (or with no such boards), the
    bundled PBN sample is read and cleaned here with the ingest rules (ddrank.parsers,
    ddrank.cleaning). `limit` keeps the first boards only (quick trials and tests)."""
    if store is not None:
        # tuples, not scalar: a result left unfetched would block `frame` (DuckDB 2)
        ((has_traces,),) = store.tuples("has_table", name="play_traces")
        query = "played_boards_with_traces" if has_traces else "played_boards"
        frame = store.frame(query, limit=limit)
        if frame.height:
            return frame.to_dicts()
    from dataclasses import asdict

    from ddrank.cleaning import clean_record
    from ddrank.parsers.pbn import parse_pbn

    boards = []
    for path in SAMPLE_PBN:
        for rec in parse_pbn(path.read_text(), str(path)):
            board = clean_record(rec).board
            if board and board.play and len(board.play) >= 4 and board.declarer:
                boards.append(asdict(board) | {"trace": None})
                if limit is not None and len(boards) >= limit:
                    return boards
    return boards


def real_play_states(boards: Iterable[dict[str, Any]], cache_dir: Path = CACHE_DIR) -> pl.DataFrame:
    """States after every completed trick of real boards, labelled by their DDS play traces
    (stored ones when the DD analysis has run, else solved here by the DD engine)."""
    from ddrank.dd.boards import board_from_row, trace_request
    from ddrank.estimate.dataset import play_states, rows_to_columns
    from ddrank.types import DomainError

    todo, meta = [], []
    for row in boards:
        try:
            board = board_from_row(row)
            request = trace_request(board)  # the DD engine's legality checks
        except (DomainError, ValueError, KeyError):
            continue
        assert board.play is not None and board.contract is not None
        declarer = request.leader.rho
        item = (request.deal_pbn, int(request.trump), int(declarer), list(request.cards))
        meta.append((board, declarer, row.get("trace"), item))
        if row.get("trace") is None:
            todo.append(item)
    solved = iter(play_traces(todo, cache_dir, "real boards"))
    rows = []
    for board, declarer, stored, _item in meta:
        trace = stored if stored is not None else next(solved)
        if trace is None:
            continue
        play = board.play
        assert play is not None and board.contract is not None
        whole = len(play.cards) - len(play.cards) % 4
        rows += play_states(
            board.deal,
            play.cards[:whole],
            play.seats[:whole],
            board.contract.strain,
            declarer,
            list(trace),
            "play",
        )
    return _frame(rows_to_columns(rows))


# ------------------------------------------------------------------ dataset
def build_dataset(
    n_random: int = 5000,
    seed: int = 1,
    store: Store | None = None,
    cache_dir: Path = CACHE_DIR,
    random_play: bool = True,
    max_boards: int | None = None,
) -> pl.DataFrame:
    """All training states with their split, written to `<cache_dir>/states.parquet`.

    Real boards with play (every trick), random deals' DD tables (20 opening states each) and,
    with `random_play`, their played-out traces. Split by deal: 20% of deals are held out."""
    from ddrank.estimate.dataset import is_test_deal

    solved = solve_random_deals(n_random, seed, cache_dir)
    parts = [
        real_play_states(load_played_boards(store, max_boards), cache_dir),
        random_table_states(solved),
    ]
    if random_play:
        parts.append(random_play_states(solved, seed, cache_dir))
    states = pl.concat(parts)
    split = [("test" if is_test_deal(d) else "train") for d in states["deal_id"]]
    states = states.with_columns(pl.Series("split", split))
    save_dataset(states, cache_dir)
    return states


def arrays(states: pl.DataFrame) -> dict[str, np.ndarray]:
    from ddrank.estimate.state import owners_from_texts

    return {
        "owners": owners_from_texts(states["owners"].to_list()),
        "strains": states["strain"].to_numpy().astype(np.int64),
        "leaders": states["leader"].to_numpy().astype(np.int64),
        "ns_tricks": states["ns_tricks"].to_numpy().astype(np.int64),
        "sizes": states["hand_size"].to_numpy().astype(np.int64),
        "deal_ids": states["deal_id"].to_numpy(),
    }


# ------------------------------------------------------------------ models
def train_model(states: pl.DataFrame, spec: Any) -> Any:
    """Fit one model family/feature set on the training split."""
    from threadpoolctl import threadpool_limits

    from ddrank.estimate.models import REAL_PLAY_WEIGHT, fit_trick_model

    train = states.filter(pl.col("split") == "train")
    a = arrays(train)
    weights = np.where(train["source"].to_numpy() == "play", REAL_PLAY_WEIGHT, 1.0)
    with threadpool_limits(1):  # BLAS/OpenMP on one core: the machine is shared
        return fit_trick_model(
            spec, a["owners"], a["strains"], a["leaders"], a["ns_tricks"], a["deal_ids"], weights
        )


def evaluate_model(model: Any, states: pl.DataFrame, sources: Sequence[str] = ()) -> list[dict]:
    """Per-hand-size scores on the held-out deals (optionally one state source only)."""
    from threadpoolctl import threadpool_limits

    from ddrank.estimate.metrics import score_by_size

    test = states.filter(pl.col("split") == "test")
    if sources:
        test = test.filter(pl.col("source").is_in(list(sources)))
    a = arrays(test)
    with threadpool_limits(1):
        _, dist = model.predict(a["owners"], a["strains"], a["leaders"])
    return score_by_size(model.name, dist, a["ns_tricks"], a["sizes"], a["strains"] == 4)


def train_all(
    states: pl.DataFrame,
    specs: Sequence[Any],
    models_dir: Path = MODELS_DIR,
    log: Any = print,
) -> list[Any]:
    """Train, score on the held-out split, and save every spec; returns the models."""
    models = []
    for spec in specs:
        t0 = time.perf_counter()
        model = train_model(states, spec)
        model.metrics = evaluate_model(model, states)
        n_train = int((states["split"] == "train").sum())
        save_model(model, models_dir, {"train_states": n_train})
        log(f"{model.name}: trained in {time.perf_counter() - t0:.1f} s")
        models.append(model)
    return models


if __name__ == "__main__":  # `nice -n 15 python -m stages.estimate 5000` pre-solves the cache
    import sys

    solved = solve_random_deals(int(sys.argv[1]) if len(sys.argv) > 1 else 5000)
    print(f"{solved.height} random deals solved and cached under {CACHE_DIR}")
