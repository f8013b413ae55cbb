"""Options shared by the commands, defined once: one name means one thing on every command.

`--db` is always the store (a DuckDB file). Only `ingest`, `run` and `results` create one; every
other command refuses a path where no store is, so a typo never leaves an empty store behind.
`--out` is always an output folder; a single output file gets its own option name (`--csv`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cli.render import err_console
from store.defaults import DEFAULT_DB

#: Boards a player or pair needs to appear in a command's top list (score, split, lehman, rate).
MIN_BOARDS = 30


def _refuse(message: str) -> None:
    err_console.print(f"error: {message}", markup=False, highlight=False, soft_wrap=True)
    raise typer.Exit(2)


def existing_store(value: Path | None) -> Path | None:
    """Refuse a `--db` where no store is (naming it, and how to make one); never create it."""
    if value is not None and not Path(value).is_file():
        _refuse(f"{value}: no such store. Create it with `ddrank ingest FILES --db {value}` "
                f"or `ddrank run FILES --db {value}`.")  # fmt: skip
    return value


def store_folder(value: Path) -> Path:
    """A new store's folder must exist (a typo must not make a tree of folders)."""
    parent = Path(value).parent
    if not parent.is_dir():
        if Path(value) == DEFAULT_DB:
            parent.mkdir(parents=True, exist_ok=True)
        else:
            _refuse(f"{parent}: no such folder for the store {value} (create it first)")
    return value


STORE_HELP = (f"The store (a DuckDB file, default {DEFAULT_DB} under the current folder). "
              "It must exist: `ddrank ingest` or `ddrank run` create it.")  # fmt: skip
StoreOpt = Annotated[
    Path, typer.Option("--db", help=STORE_HELP, callback=existing_store, show_default=False)
]
MaybeStoreOpt = Annotated[
    Path | None, typer.Option("--db", help=STORE_HELP, callback=existing_store, show_default=False)
]
NewStoreOpt = Annotated[
    Path,
    typer.Option("--db", callback=store_folder, show_default=False,
                 help=f"The store (a DuckDB file, default {DEFAULT_DB} under the current "
                      "folder), created when missing; its folder must exist."),
]  # fmt: skip
JsonOpt = Annotated[bool, typer.Option("--json", help="Print a machine-readable summary.")]
MinBoardsOpt = Annotated[
    int, typer.Option(help="Boards a player or pair needs to appear in the top list.")
]


def stop_if_empty(db: Path | None, verb: str) -> None:
    """An empty store is nothing to do, not an error: say so in one line and exit 0."""
    from cli.render import console
    from stages.freshness import store_counts

    path = Path(db or DEFAULT_DB)
    counts = store_counts(path)
    if counts is not None and not counts.get("raw_records"):
        console.print(f"nothing to {verb}: {path} holds no records yet. Add event files with "
                      f"`ddrank ingest FILES --db {path}` or `ddrank run FILES --db {path}`.",
                      highlight=False, soft_wrap=True)  # fmt: skip
        raise typer.Exit(0)
