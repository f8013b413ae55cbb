"""`ddrank ingest`, `ddrank clean`, `ddrank audit` and `ddrank run`."""

from __future__ import annotations

from contextlib import nullcontext
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
)

from cli.options import JsonOpt, NewStoreOpt, StoreOpt
from cli.render import console, emit_json, friendly_errors, print_audit, tagged
from store.defaults import DEFAULT_DB


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
        db: NewStoreOpt = DEFAULT_DB,
        partition_size: Annotated[
            int,
            typer.Option(help="Table results (raw records) per partition, the unit of fan-out."),
        ] = 500,  # noqa: E501
        json: JsonOpt = False,
    ) -> None:
        """Read hand records into the store. Re-reading a file adds nothing; new records get new partitions."""  # noqa: E501
        from cli.inputs import require_readable
        from stages.ingest import ingest_paths
        from store import Store
        from store.inputs import expand_paths

        require_readable(paths)  # none readable: one line each, exit 2
        with friendly_errors():
            files = expand_paths(list(paths))
        with friendly_errors(), Store(db) as store:
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
                    part = ingest_paths(store, [f], partition_size).as_dict()
                    for k in counters:
                        total[k] += part[k]
                    for k in ("unreadable", "warnings", "per_file", "new_partitions"):
                        total[k] += part[k]
                    bar.advance(job)
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
        db: StoreOpt = DEFAULT_DB,
        workers: Annotated[
            int | None,
            typer.Option(
                help="Worker processes for large batches. Default: the number of CPUs.",
                show_default=False,
            ),
        ] = None,  # fmt: skip
        json: JsonOpt = False,
    ) -> None:
        """Judge every new raw record: a clean board, or an exclusion with its reason (Tables 5-7)."""  # noqa: E501
        from stages.audit import audit_tables
        from stages.clean import clean_pending
        from store import Store

        with friendly_errors(), Store(db) as store:
            with (
                console.status("cleaning new records", spinner="dots")
                if not json
                else nullcontext()
            ):
                summary = clean_pending(store, workers).as_dict()
            audit = audit_tables(store)
        if json:
            emit_json({**summary, "audit": audit})
            return
        console.print(f"cleaned {summary['cleaned']:,} new record(s): {summary['kept']:,} kept.")
        print_audit(audit)

    @app.command()
    def audit(db: StoreOpt = DEFAULT_DB, json: JsonOpt = False) -> None:
        """Show the exclusion tables (Tables 5-7 of the paper) for everything in the store."""
        from stages.audit import audit_tables
        from store import Store

        with friendly_errors(), Store(db, read_only=True) as store:  # it only reads
            result = audit_tables(store)
        emit_json(result) if json else print_audit(result)
