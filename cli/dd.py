"""`ddrank dd` (double-dummy analysis) and `ddrank stats` (per-player table) commands."""

from __future__ import annotations

import json
import time
from pathlib import Path

import typer

from cli.options import StoreOpt, stop_if_empty
from store.defaults import DEFAULT_DB

RUNNERS = ("process", "thread", "dask")


def register(app: typer.Typer) -> None:
    app.command("dd")(dd_command)
    app.command("stats")(stats_command)


def dd_command(
    db: StoreOpt = DEFAULT_DB,
    workers: int | None = typer.Option(
        None, "--workers", "-w", help="Solver processes. Default: one per core."
    ),
    runner: str = typer.Option(
        "thread", "--runner", help="Task runner: thread (default), process or dask."
    ),
    dds_threads: int | None = typer.Option(
        None, "--dds-threads", help="DDS threads per worker. Default: cores / workers."
    ),
    partitions: list[int] = typer.Option(
        None, "--partition", help="Only these partition ids (repeatable). Default: all."
    ),
    table_batch: int = typer.Option(8, help="Deals per DDS CalcAllTables call (1-40)."),
    trace_batch: int = typer.Option(200, help="Boards per DDS AnalyseAllPlays call (1-200)."),
    dask_address: str = typer.Option(
        None, "--dask-address", help="With --runner dask: scheduler of an existing cluster."
    ),
    refresh_cache: bool = typer.Option(
        False, "--refresh-cache", help="Recompute partitions even if a cached result exists."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the run summary as JSON."),
) -> None:
    """Compute DD tables (one per distinct deal), play traces and the 33 per-player counters for every board that has none yet, then rebuild `player_stats`.

    Finished work is never redone: a rerun only solves boards added since. A board that crashes the solver is quarantined in `exclusions` (reason solver_crash) and everything else finishes.
    """  # noqa: E501
    if runner not in RUNNERS:
        raise typer.BadParameter(f"--runner must be one of {', '.join(RUNNERS)}")
    stop_if_empty(db, "analyse")  # before starting Prefect for nothing
    if not refresh_cache and not partitions and _nothing_left(db):
        typer.echo(f"nothing to analyse: every board of {db} has its DD analysis")
        return
    from store import Store

    with Store(db):  # a store that cannot be written is one line now, not a flow's traceback
        pass
    from cli.progress import progress_bars
    from flows.dd_analysis import dd_analysis, prefect_api
    from publish.console import PipeConsole as Console
    from store import StoreLockedError

    console = Console(stderr=True)
    started = time.perf_counter()
    labels = {"solve": "DD solve (tables + traces)", "tally": "tally (boards)"}
    with progress_bars(labels, console=console, transient=as_json, rate_unit="items"):
        try:
            with prefect_api():
                summary = dd_analysis(
                    db=str(db),
                    workers=workers or None,
                    runner=runner,
                    dds_threads=dds_threads or None,
                    partitions=list(partitions or []) or None,
                    table_batch=table_batch,
                    trace_batch=trace_batch,
                    refresh_cache=refresh_cache,
                    dask_address=dask_address,
                )
        except StoreLockedError as exc:
            console.print(str(exc), style="red", markup=False, soft_wrap=True)
            raise typer.Exit(2) from exc
    summary["seconds_total"] = round(time.perf_counter() - started, 3)
    if as_json:
        typer.echo(json.dumps(summary, indent=2))
        return
    console.print(
        f"{summary['boards_tallied']} boards analysed, {summary['tables_computed']} DD tables and "
        f"{summary['traces_computed']} play traces computed, {summary['players']} players; "
        f"{len(summary['quarantined'])} boards quarantined (solver_crash)."
    )


def _nothing_left(db: Path) -> bool:
    from stages.dd import dd_work_left
    from store import Store, StoreLockedError

    try:
        with Store(db, read_only=True) as store:
            return dd_work_left(store) == 0
    except StoreLockedError:
        return False  # let the command report the lock as it always has


def stats_command(
    db: StoreOpt = DEFAULT_DB,
    out: Path = typer.Option(..., "--csv", help="CSV file to write."),
    as_json: bool = typer.Option(False, "--json", help="Print a JSON summary instead of text."),
) -> None:
    """Write the per-player table in the layout of the paper's dds_final_results.csv: name, mp, pp (empty until names are matched to the ranking list), then the 33 variables of Table 3.

    Rebuilds `player_stats` first (the 33 sums and the 28 Table 4 rates, NULL for 0/0).
    """  # noqa: E501
    from ddrank.mistakes import VARIABLES
    from stages.stats import write_player_stats
    from store import Store, StoreLockedError

    stop_if_empty(db, "tabulate")
    try:
        with Store(db) as store:
            players = write_player_stats(store, out)
    except StoreLockedError as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(2) from exc
    if as_json:
        typer.echo(json.dumps({"players": players, "out": str(out), "columns": 3 + len(VARIABLES)}))
    else:
        typer.echo(f"wrote {players} players to {out}")
