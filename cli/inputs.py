"""Input files checked before any stage starts: each one no reader takes is named, with why."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import typer

from cli.render import err_console


def require_readable(inputs: Sequence[str | Path]) -> list[Path]:
    """The readable input files. Each other file gets one line saying why; when none is
    readable the command stops with exit code 2 before anything is written."""
    from store.inputs.read import unreadable_inputs

    try:
        readable, refused = unreadable_inputs(list(inputs))
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
    return readable
