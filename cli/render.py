"""Shared terminal rendering for the CLI: JSON output and friendly errors; the consoles, tagged
messages and audit tables live in `publish.console` (the pipeline's summary prints them too)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import typer

from publish.console import audit_table, console, err_console, print_audit, tagged

__all__ = ["a_stop_is_under_way", "audit_table", "console", "emit_json", "err_console",
           "friendly_errors", "print_audit", "tagged"]  # fmt: skip


def emit_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2, default=str) + "\n")


def a_stop_is_under_way() -> bool:
    """Has SIGINT or SIGTERM reached this command (`cli.main`'s handler, or the pipeline's)?"""
    from ddrank.processes import stop_requested

    return stop_requested() is not None


def problem(exc: BaseException) -> str:
    """The error in the documented words: a file the system could not find is named, with
    'no such file or folder' (not Python's "[Errno 2] ..."); anything else as it says."""
    if isinstance(exc, FileNotFoundError) and exc.filename is not None:
        return f"{exc.filename}: no such file or folder"
    return str(exc)


@contextmanager
def friendly_errors() -> Iterator[None]:
    """Turn expected failures (missing file, locked store) into one clear line and exit 2."""
    from store import StoreLockedError
    from store.store import describe_failure

    try:
        yield
    except (FileNotFoundError, StoreLockedError, ValueError) as exc:
        if a_stop_is_under_way():  # an interrupt a library wrapped in its own error
            raise KeyboardInterrupt from exc
        err_console.print(tagged("error:", "bold red", problem(exc)), soft_wrap=True)
        raise typer.Exit(2) from None
    except Exception as exc:  # a full disk or a damaged store: one line, not a traceback
        if a_stop_is_under_way():
            raise KeyboardInterrupt from exc
        message = describe_failure(exc)
        if message is None:
            raise
        err_console.print(tagged("error:", "bold red", message), soft_wrap=True)
        raise typer.Exit(2) from None
