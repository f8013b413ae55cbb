"""`ddrank ingest`, `ddrank clean`, `ddrank audit` and `ddrank run`."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from cli.render import console, emit_json, friendly_errors, print_audit, tagged

DbOpt = Annotated[Path, typer.Option("--db", help="DuckDB store to read and write.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print a machine-readable summary.")]


def register(app: typer.Typer) -> None:
    @app.command()
    def ingest(
        paths: Annotated[
            list[Path],
            typer.Argument(
                help="Hand-record and results files (PBN, BBO LIN, USEBIO XML, Bridgemate .bws, "
                "the paper's dump, CSV, SQLite), or folders of them. The format is told by "
                "content, not by the extension."
            ),
        ],  # noqa: E501
        db: DbOpt = Path("data/ddrank.duckdb"),
        partition_size: Annotated[
            int, typer.Option(help="Records per partition (unit of parallel work).")
        ] = 500,  # noqa: E501
        json: JsonOpt = False,
    ) -> None:
        """Read hand records into the store. Re-reading a file adds nothing; new records get new partitions."""  # noqa: E501
        from tasks.db import connect
        from tasks.ingest import expand_paths, ingest_paths

        with friendly_errors():
            files = expand_paths(list(paths))
            con = connect(db)
            counters = ("files", "records_read", "new", "duplicate", "hand_record_deals",
                        "new_deals", "new_events", "new_standings")  # fmt: skip
            total: dict = {k: 0 for k in counters}
            total.update({"unreadable": [], "warnings": [], "per_file": [], "new_partitions": []})
            with Progress(TextColumn("[bold]ingest"), BarColumn(), MofNCompleteColumn(),
                          TextColumn("{task.description}"), TimeElapsedColumn(),
                          console=console, disable=json, transient=True) as bar:  # fmt: skip
                job = bar.add_task("", total=len(files))
                for f in files:
                    bar.update(job, description=f.name)
                    part = ingest_paths(con, [f], partition_size).as_dict()
                    for k in counters:
                        total[k] += part[k]
                    for k in ("unreadable", "warnings", "per_file", "new_partitions"):
                        total[k] += part[k]
                    bar.advance(job)
            con.close()
        if json:
            emit_json(total)
            return
        console.print(
            f"{total['files']} file(s): {total['records_read']:,} records read, "
            f"[bold]{total['new']:,} new[/], {total['duplicate']:,} already in the store; "
            f"hand-record deals: {total['hand_record_deals']:,} ({total['new_deals']:,} new); "
            f"events: {total['new_events']:,} new; published ranking lines: "
            f"{total['new_standings']:,} new."
        )
        for u in total["unreadable"][:20]:
            console.print(tagged("unreadable", "yellow", f"{u['file']}:{u['line']}: {u['error']}"))
        if len(total["unreadable"]) > 20:
            console.print(f"... and {len(total['unreadable']) - 20} more (see `ddrank audit`)")
        if total["warnings"]:  # records kept; the file departs from its format's standard
            console.print(f"{len(total['warnings']):,} conformance warning(s) (records kept):")
        for w in total["warnings"][:10]:
            console.print(tagged("warning", "yellow", f"{w['file']}:{w['line']}: {w['warning']}"))
        if len(total["warnings"]) > 10:
            console.print(
                f"... and {len(total['warnings']) - 10} more (see `ddrank ingest --json`)"
            )

    @app.command()
    def clean(
        db: DbOpt = Path("data/ddrank.duckdb"),
        workers: Annotated[int, typer.Option(help="Processes for large batches.")] = 2,
        json: JsonOpt = False,
    ) -> None:
        """Judge every new raw record: a clean board, or an exclusion with its reason (Tables 5-7)."""  # noqa: E501
        from tasks.clean import clean_pending
        from tasks.db import connect
        from tasks.report import audit_tables

        with friendly_errors():
            con = connect(db)
            with (
                console.status("cleaning new records", spinner="dots")
                if not json
                else nullcontext()
            ):
                summary = clean_pending(con, workers).as_dict()
            audit = audit_tables(con)
            con.close()
        if json:
            emit_json({**summary, "audit": audit})
            return
        console.print(f"cleaned {summary['cleaned']:,} new record(s): {summary['kept']:,} kept.")
        print_audit(audit)

    @app.command()
    def audit(db: DbOpt = Path("data/ddrank.duckdb"), json: JsonOpt = False) -> None:
        """Show the exclusion tables (Tables 5-7 of the paper) for everything in the store."""
        from tasks.db import connect
        from tasks.report import audit_tables

        with friendly_errors():
            con = connect(db)
            result = audit_tables(con)
            con.close()
        emit_json(result) if json else print_audit(result)

    @app.command()
    def run(
        inputs: Annotated[
            list[str] | None,
            typer.Argument(
                help="Files or folders (default: the bundled real sample in data/sample)."
            ),
        ] = None,  # noqa: E501
        db: Annotated[Path | None, typer.Option("--db", help="DuckDB store.")] = None,
        config: Annotated[
            Path | None,
            typer.Option(help="TOML settings file (a \\[ddrank] table or top-level keys)."),
        ] = None,  # noqa: E501
        out: Annotated[Path | None, typer.Option(help="Folder for reports.")] = None,
        workers: Annotated[
            int | None, typer.Option(help="Worker processes for DD analysis.")
        ] = None,  # noqa: E501
        runner: Annotated[str | None, typer.Option(help="process | thread | dask")] = None,
        dask_address: Annotated[
            str | None, typer.Option(help="Dask scheduler, tcp://host:port.")
        ] = None,  # noqa: E501
        partition_size: Annotated[int | None, typer.Option(help="Boards per partition.")] = None,
        force: Annotated[
            bool,
            typer.Option(
                "--force",
                help="Run every stage even when nothing is new since the last finished run.",
            ),
        ] = False,
        verbose: Annotated[
            bool, typer.Option("--verbose", "-v", help="Also print Prefect's log lines.")
        ] = False,
        json: JsonOpt = False,
    ) -> None:
        """Run the whole pipeline as a Prefect flow: ingest → clean → names → DD → stats → report.

        When the inputs, the store, the settings and the outputs are the same as after the last finished run (recorded in OUT/.ddrank-run.json), it says so at once and starts nothing.
        """  # noqa: E501
        from flows.settings import load_settings
        from tasks import freshness

        with friendly_errors():
            settings = load_settings(
                config, inputs=inputs or None, db=str(db) if db else None,
                out=str(out) if out else None, workers=workers, runner=runner,
                dask_address=dask_address, partition_size=partition_size,
                force=force or None,
            )  # fmt: skip
            fresh = freshness.check(settings)  # before Prefect is even imported
            if fresh.nothing_new:
                if json:
                    emit_json(fresh.as_dict())
                else:
                    console.print(fresh.message(settings.out), highlight=False, soft_wrap=True)
                return
            # The console shows progress bars and the summary; Prefect's own log lines (and its
            # copy of any error, which friendly_errors prints once) go to the Prefect UI.
            if not verbose:
                os.environ.setdefault("PREFECT_LOGGING_HANDLERS_CONSOLE_LEVEL", "CRITICAL")
            from flows.pipeline import run_pipeline

            with stage_progress(disable=json):
                result = run_pipeline(settings, show=False)
        if json:
            emit_json(result)
        else:
            from flows.pipeline import show_summary

            show_summary(result, settings)


#: Labels of the pipeline's stages on the console; a stage not listed shows its own name.
STAGE_LABELS = {
    "ingest": "ingest",
    "clean": "clean",
    "names": "match names",
    "solve": "DD solve (boards)",
    "tally": "DD tally (boards)",
    "regression": "regression report",
    "prefect-api": "start Prefect API",
    "scoring": "score, Lehman ratings, bid/play split",
    "skill ratings": "ddrank skill ratings",
}


@contextmanager
def stage_progress(disable: bool = False) -> Iterator[None]:
    """One rich progress line per stage the flow reports (stages.progress): a bar when the stage
    knows its size (DD boards), a spinner with the elapsed time otherwise."""
    from stages.progress import reporting

    columns = (SpinnerColumn(), TextColumn("[bold]{task.description}"), BarColumn(),
               MofNCompleteColumn(), TimeElapsedColumn(), TextColumn("ETA"),
               TimeRemainingColumn())  # fmt: skip
    with Progress(*columns, console=console, disable=disable) as bar:
        rows: dict[str, TaskID] = {}

        def hook(stage: str, done: int, total: int) -> None:
            if stage not in rows:
                rows[stage] = bar.add_task(STAGE_LABELS.get(stage, stage), total=None)
            if total:
                bar.update(rows[stage], completed=done, total=total)
            if total and done >= total:
                bar.stop_task(rows[stage])

        with reporting(hook):
            yield
