"""`ddrank run`: the whole pipeline flow, with every option of the stage commands."""

from __future__ import annotations

import os
from collections.abc import Iterable
from contextlib import ExitStack
from pathlib import Path
from typing import Annotated, Any

import typer

from cli.inputs import check_inputs, require_scored
from cli.options import store_folder
from cli.progress import stage_progress
from cli.render import a_stop_is_under_way, console, emit_json, friendly_errors
from cli.run_options import DIRECTOR, EXPERT_RUN, with_settings_options

#: Seconds the start of `ddrank run` (settings, inputs, the store) may take before it says so.
STARTUP_QUIET = 0.3


def run(
    inputs: Annotated[
        list[str] | None,
        typer.Argument(
            help="Files or folders (default: the bundled real sample in ddrank/data/sample).",
            show_default=False,
        ),
    ] = None,  # fmt: skip
    config: Annotated[
        Path | None,
        typer.Option(
            help="TOML settings file (a \\[ddrank] table or top-level keys).",
            rich_help_panel=EXPERT_RUN,
        ),
    ] = None,  # fmt: skip
    verbose: Annotated[
        bool,
        typer.Option(
            "--verbose", "-v", help="Also print Prefect's log lines.", rich_help_panel=DIRECTOR
        ),
    ] = False,
    json: Annotated[
        bool,
        typer.Option("--json", help="Print a machine-readable summary.", rich_help_panel=DIRECTOR),
    ] = False,
    **fields: Any,
) -> None:
    """Run the whole pipeline as one Prefect flow: ingest → clean → match names → double dummy (and par) → per-player stats → regression report → scoring, Lehman and skill ratings → site.

    Every option below is a field of the run settings, so a deployment parameter, a DDRANK_* environment variable or a --config file can set it too. When the inputs, the store, the settings and the outputs are the same as after the last finished run (recorded in OUT/.ddrank-run.json), it says so at once and starts nothing. It ends with each stage's wall time (also in --json, under "timings").
    """
    # A line within the first second, before anything slow is imported: checking what is new
    # (settings, inputs hashed, the store opened) says so when it takes more than a moment, then
    # Prefect's import and its API's start are each a progress line with a heartbeat.
    progress = stack_progress(json)
    settings = None
    with friendly_errors():
        try:
            with ExitStack() as held:
                with progress("inputs", after=STARTUP_QUIET):
                    from stages.run import freshness_of, open_run
                    from stages.settings import limits_of, load_settings

                    settings = load_settings(config, inputs=inputs or None, **fields)
                    _, said = check_inputs(
                        settings.inputs, limits_of(settings), [settings.out]
                    )  # each named once
                    store_folder(Path(settings.db))  # a new store, never in a folder made up
                    # the run's one Store and its inputs hashed once, before Prefect is imported
                    # (about a second per GB of input)
                    run = held.enter_context(open_run(settings))
                    fresh = freshness_of(run)
                if fresh.nothing_new:
                    if json:
                        emit_json(fresh.as_dict())
                    else:
                        console.print(fresh.message(settings.out), highlight=False,
                                      soft_wrap=True)  # fmt: skip
                    return
                # The console shows progress bars and the summary; Prefect's own log lines (and
                # its copy of any error, which friendly_errors prints once) go to the Prefect UI.
                if not verbose:
                    os.environ.setdefault("PREFECT_LOGGING_HANDLERS_CONSOLE_LEVEL", "CRITICAL")
                if not os.environ.get("PREFECT_API_URL"):  # its start overlaps the import below
                    from flows.server import TemporaryServer

                    TemporaryServer().launch()
                with progress("prefect-import"):
                    from flows.pipeline import run_pipeline

                if a_stop_is_under_way():  # a Ctrl-C during that import, swallowed by a library
                    raise KeyboardInterrupt
                with stage_progress(disable=json):
                    result = run_pipeline(settings, run)
        except BaseException as exc:
            from flows.interrupts import is_stop

            # a library may wrap the interrupt in its own error (pydantic: "Error calling
            # function `_ser_model`: KeyboardInterrupt"): once a stop signal came, it is the stop.
            # The store is closed and unlocked by now.
            if settings is not None and (is_stop(exc) or a_stop_is_under_way()):
                stopped(settings)
            raise
    if json:
        emit_json(result)
    else:
        from cli.run_summary import show_summary

        show_summary(result, settings)
    refused_inputs(result, said)
    failed = sorted(k for k, v in result.items() if isinstance(v, dict) and "failed" in v)
    if failed:  # the other stages' results are kept; the next run does the failed ones again
        from cli.render import err_console

        err_console.print(f"error: stage(s) failed: {', '.join(failed)} (see above); the rest is "
                          "kept, and the same command runs the failed ones again",
                          markup=False, highlight=False, soft_wrap=True)  # fmt: skip
        raise typer.Exit(1)
    ingest, scoring = result.get("ingest"), result.get("scoring")
    if isinstance(ingest, dict) and isinstance(scoring, dict):  # not "nothing new"
        require_scored(scoring.get("results", 0), ingest.get("records_read", 0),
                       scoring.get("errors", 0), ingest.get("hand_record_deals", 0),
                       len(scoring.get("rankings") or []))  # fmt: skip


def stack_progress(disable: bool) -> Any:
    """`progress(name)`: a context that shows one stage of the run's start-up as a progress line
    (started, a heartbeat while it lasts, done), the same lines the pipeline's stages print."""
    from contextlib import contextmanager

    from stages.progress import stage

    @contextmanager
    def progress(name: str, after: float = 0.0) -> Any:
        if disable:
            yield
            return
        with stage_progress(), stage(name, heartbeat=1.0, after=after):
            yield

    return progress


def refused_inputs(result: dict[str, Any], said: Iterable[Path] = ()) -> None:
    """One line per input file refused by a limit (nothing of it stored), then exit 2; the
    files `said` were named already (`check_inputs`, before the run): each is named once."""
    refused = (result.get("ingest") or {}).get("refused") or []
    told = {str(p) for p in said}
    if refused or told:  # also when nothing was new: the refused files are still refused
        from cli.render import err_console

        for r in refused:
            if r["file"] not in told:
                err_console.print(f"error: {r['file']}: {r['reason']}", markup=False,
                                  highlight=False, soft_wrap=True)  # fmt: skip
        raise typer.Exit(2)


def stopped(settings: Any) -> None:
    """One line on what an interrupted run kept, then exit 130 at once: the store is closed and
    unlocked by now, and Prefect's exit hooks would only retry a server that has stopped."""
    from cli.main import _received
    from ddrank.processes import release_pool_semaphores, stop_requested
    from flows.interrupts import EXIT_INTERRUPTED, stopping
    from stages.freshness import store_counts

    counts = store_counts(settings.db) or {}
    kept = (f"{counts.get('boards', 0)} clean boards, {counts.get('dd_tables', 0) // 20} DD tables"
            f" and {counts.get('play_traces', 0)} play traces are saved in {settings.db}")  # fmt: skip
    console.print(
        f"stopped by {stopping() or stop_requested() or next(iter(_received), 'an interrupt')}: "
        f"{kept}. "
        "Run the same command again to resume; it redoes only what is missing.",
        highlight=False, soft_wrap=True,
    )  # fmt: skip
    console.file.flush()
    release_pool_semaphores()  # os._exit skips the shutdown that would (else: "leaked semaphore")
    os._exit(EXIT_INTERRUPTED)


def register(app: typer.Typer) -> None:
    app.command("run")(with_settings_options(run))
