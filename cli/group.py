"""The command group behind `ddrank`: every usage error in the documented one-line style, and a
closed pipe that ends the command quietly.

Typer prints a click usage error (a missing file, an unknown option) as a boxed panel, and a
closed standard output (`ddrank player X | head`) as exit status 1. The README promises one line
starting `error:` on stderr with exit status 2 for bad input, and a reader that stops reading is
no error. Both are handled here, once for every command (and for typer's test runner too, which
calls the same `main`).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import Any

import typer
from typer.core import TyperGroup


def usage_line(exc: typer.TyperException) -> str:
    """'error: <what is wrong> (see `ddrank cmd --help`)': one line, no panel."""
    ctx = getattr(exc, "ctx", None)
    hint = f" (see `{ctx.command_path} --help`)" if ctx is not None else ""
    return f"error: {exc.format_message()}{hint}"


def quiet_stdout() -> None:
    """The reader of our standard output went away: send what is left to /dev/null, so that
    neither the command's next line nor the interpreter's final flush fails again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # no real file behind stdout (a test runner's buffer)
        pass


def stdout_is_devnull() -> bool:
    """Is standard output /dev/null (where rich sends it once the pipe closed)?"""
    try:
        return os.path.samestat(os.fstat(sys.stdout.fileno()), os.stat(os.devnull))
    except (OSError, ValueError):
        return False


class DdrankGroup(TyperGroup):
    """`ddrank`'s group: usage errors as one `error:` line (exit 2), a closed pipe as exit 0."""

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            quiet_stdout()
            raise typer.Exit(0) from None

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        was_devnull = stdout_is_devnull()
        try:
            rv = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except SystemExit as exc:  # rich's console on a closed pipe (typer's help): exit 1
            if exc.code == 1 and stdout_is_devnull() and not was_devnull:
                sys.exit(0)
            raise
        except typer.TyperException as exc:  # typer's click: usage errors
            if not standalone_mode:
                raise
            if type(exc).__name__ != "NoArgsIsHelpError":  # `ddrank` alone: the help was shown
                sys.stderr.write(usage_line(exc) + "\n")
            sys.exit(exc.exit_code)
        except typer.Abort:
            if not standalone_mode:
                raise
            sys.stderr.write("aborted\n")
            sys.exit(1)
        if not standalone_mode:
            return rv
        try:
            sys.stdout.flush()
        except BrokenPipeError:
            quiet_stdout()
        sys.exit(rv if isinstance(rv, int) else 0)
