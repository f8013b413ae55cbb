"""Input files checked before any stage starts: each one no reader takes is named, with why."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import typer

from cli.render import err_console


def require_readable(inputs: Sequence[str | Path], limits: Any = None) -> list[Path]:
    """The readable input files. Each other file (unreadable, or over one of the input `limits`
    by its size or a SQLite view) gets one line saying why; when none is readable the command
    stops with exit code 2 before anything is written."""
    return check_inputs(inputs, limits)[0]


def check_inputs(inputs: Sequence[str | Path], limits: Any = None, skip: Sequence[str | Path] = ()
                 ) -> tuple[list[Path], dict[Path, str]]:  # fmt: skip
    """`require_readable`, and the files refused by an input limit (never to be read), with why.
    `skip`: the output folder (`store.inputs.files.walk`)."""
    from ddrank.limits import DEFAULT_LIMITS
    from store.inputs.read import unreadable_inputs

    try:
        readable, refused = unreadable_inputs(list(inputs), limits or DEFAULT_LIMITS, skip)
    except FileNotFoundError as exc:
        err_console.print(f"error: {exc}", markup=False, highlight=False, soft_wrap=True)
        raise typer.Exit(2) from None
    tag = "skipped" if readable else "error"
    for path, why in refused:
        err_console.print(f"{tag}: {path}: {why}", markup=False, highlight=False, soft_wrap=True)
    if not readable:
        if not refused:
            err_console.print(f"error: no event files in {', '.join(map(str, inputs))}",
                              markup=False, highlight=False, soft_wrap=True)  # fmt: skip
        raise typer.Exit(2)
    return readable, {path: why for path, why in refused if why.startswith("refused:")}


def nothing_scored(scored: int, read: int, left_out: int, deals: int, ranked: int = 0) -> str:
    """Why a run that scored nothing the files held fails, in one line; '' when it scored
    something (table results, or `ranked` events a file ranks from its match list alone), or
    when the files held hand records only (those are published, not scored)."""
    if scored or ranked or (not read and deals):
        return ""
    if not read:
        return "nothing to score: the files hold no table result and no hand record"
    return (f"nothing scored: {read} table result(s) read and every one left out "
            f"({left_out} listed with why in errors.csv)")  # fmt: skip


def require_scored(scored: int, read: int, left_out: int, deals: int, ranked: int = 0) -> None:
    """Exit 2 with one line when a run scored nothing that its files held (`nothing_scored`)."""
    why = nothing_scored(scored, read, left_out, deals, ranked)
    if why:
        err_console.print(f"error: {why}", markup=False, highlight=False, soft_wrap=True)
        raise typer.Exit(2)
