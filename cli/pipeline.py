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
from cli.render import console, emit_json, err_console, friendly_errors, print_audit, tagged
from ddrank.parsers.registry import FORMATS_READ
from store.defaults import DEFAULT_DB

LimitOpt = Annotated[
    int | None,
    typer.Option(help="Input limit (see ddrank run --help, Input limits). Default: the settings'.",
                 rich_help_panel="Input limits", show_default=False),
]  # fmt: skip


def print_ingest(total: dict) -> None:
    """What an ingest read and stored; each refused or unreadable file and each warning."""
    console.print(
        f"{total['files']} file(s): {total['records_read']:,} records read, "
        f"[bold]{total['new']:,} new[/], {total['duplicate']:,} already in the store; "
        f"hand-record deals: {total['hand_record_deals']:,} ({total['new_deals']:,} new); "
        f"events: {total['new_events']:,} new; published ranking lines: "
        f"{total['new_standings']:,} new."
    )
    for r in total.get("refused", []):
        if not r.get("before_reading"):  # else said already
            err_console.print(tagged("error:", "bold red", f"{r['file']}: {r['reason']}"),
                              soft_wrap=True)  # fmt: skip
    for u in total["unreadable"][:20]:
        console.print(tagged("unreadable", "yellow", f"{u['file']}:{u['line']}: {u['error']}"))
    if len(total["unreadable"]) > 20:
        console.print(f"... and {len(total['unreadable']) - 20} more (see `ddrank audit`)")
    if total["warnings"]:  # records kept; the file departs from its format's standard
        console.print(f"{len(total['warnings']):,} warning(s) reading the files (records kept):")
    for w in total["warnings"][:10]:
        console.print(tagged("warning", "yellow", f"{w['file']}:{w['line']}: {w['warning']}"))
    if len(total["warnings"]) > 10:
        console.print(f"... and {len(total['warnings']) - 10} more (see `ddrank ingest --json`)")


def register(app: typer.Typer) -> None:
    @app.command()
    def ingest(
        paths: Annotated[
            list[Path],
            typer.Argument(
                help=f"Hand-record and results files ({FORMATS_READ}, CSV, SQLite), or folders "
                "of them. The format is told by content, not by the extension."
            ),
        ],  # noqa: E501
        db: NewStoreOpt = DEFAULT_DB,
        partition_size: Annotated[
            int,
            typer.Option(help="Table results (raw records) per partition, the unit of fan-out."),
        ] = 500,  # noqa: E501
        json: JsonOpt = False,
        max_file_bytes: LimitOpt = None,
        max_rows: LimitOpt = None,
        max_xml_depth: LimitOpt = None,
        max_xml_elements: LimitOpt = None,
        max_value_chars: LimitOpt = None,
    ) -> None:
        """Read hand records into the store. Re-reading a file adds nothing; new records get new partitions."""  # noqa: E501
        from cli.inputs import check_inputs
        from stages.ingest import ingest_paths
        from stages.progress import reporting
        from stages.settings import limits_of, load_settings
        from store import Store
        from store.inputs import expand_paths

        with friendly_errors():  # the input limits: these flags, else DDRANK_* or DDRANK_CONFIG
            limits = limits_of(load_settings(max_file_bytes=max_file_bytes, max_rows=max_rows,
                                             max_xml_depth=max_xml_depth,
                                             max_xml_elements=max_xml_elements,
                                             max_value_chars=max_value_chars))  # fmt: skip
        _, over = check_inputs(paths, limits)  # none readable: one line each, exit 2
        with friendly_errors():  # the unreadable ones too: each is one record saying why
            files = [f for f in expand_paths(list(paths)) if f not in over]
        bar = Progress(
            TextColumn("[bold]ingest"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=console,
            disable=json,
            transient=True,
        )
        with friendly_errors(), Store(db) as store, bar:
            job = bar.add_task("", total=len(files))
            with reporting(lambda _stage, done, n: bar.update(job, completed=done, total=n)):
                total = ingest_paths(store, files, partition_size, limits=limits).as_dict()
        if over:  # refused before reading: said above, stored nothing
            total["refused"] += [{"file": str(f), "reason": why, "before_reading": True}
                                 for f, why in over.items()]  # fmt: skip
        if json:
            emit_json(total)
        else:
            print_ingest(total)
        if total["refused"]:  # stored is stored; the refused files are the user's to decide
            raise typer.Exit(2)

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
