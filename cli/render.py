"""Shared terminal rendering for the CLI: rich tables, JSON output, friendly errors."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

console = Console()
err_console = Console(stderr=True)


def tagged(tag: str, style: str, message: object) -> Text:
    """`tag` in `style`, then the message as plain text: file names, records and exception texts
    may hold brackets, which rich would read as markup (and print raw or swallow)."""
    return Text.assemble((tag, style), " ", str(message))


def emit_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2, default=str) + "\n")


@contextmanager
def friendly_errors() -> Iterator[None]:
    """Turn expected failures (missing file, locked store) into one clear line and exit 2."""
    from tasks.db import StoreLockedError

    try:
        yield
    except (FileNotFoundError, StoreLockedError, ValueError) as exc:
        err_console.print(tagged("error:", "bold red", exc), soft_wrap=True)
        raise typer.Exit(2) from None


def audit_table(title: str, rows: list[dict[str, Any]], count_label: str) -> Table:
    table = Table(title=title, title_justify="left", show_lines=False)
    table.add_column("Reason")
    table.add_column(count_label, justify="right")
    for row in rows:
        style = "bold" if row["reason"] in ("total", "no_error") else None
        if row["count"] or row["reason"] in ("total", "no_error"):
            table.add_row(row["description"], f"{row['count']:,}", style=style)
    return table


def print_audit(audit: dict[str, Any]) -> None:
    console.print(
        audit_table(
            "Table 5: reasons for board exclusion", audit["table5_exclusions"], "Boards excluded"
        )  # fmt: skip
    )
    console.print(
        audit_table(
            "Table 6: reasons for auction exclusion (kept boards)",
            audit["table6_auction"],
            "Auctions excluded",
        )  # fmt: skip
    )
    console.print(
        audit_table(
            "Table 7: reasons for play exclusion (kept boards)",
            audit["table7_play"],
            "Plays excluded",
        )  # fmt: skip
    )
    if audit.get("stages"):
        stages = Table(title="Which stage can use which kept result", title_justify="left")
        stages.add_column("Stage")
        stages.add_column("Results", justify="right")
        for row in audit["stages"]:
            note = row["stage"].startswith("note:")
            stages.add_row(("Note: " if note else "") + row["description"], f"{row['count']:,}",
                           style="dim" if note else None)  # fmt: skip
        console.print(stages)
    if audit.get("repairs"):
        rep = ", ".join(f"{k}: {v:,}" for k, v in audit["repairs"].items())
        console.print(f"Documented repairs applied while cleaning: {rep}")
    mark = "[green]✓[/]" if audit["balanced"] else "[red]✗[/]"
    console.print(
        f"{mark} raw records {audit['raw_records']:,} = clean boards {audit['boards']:,}"
        f" + excluded {audit['excluded']:,}"
    )
