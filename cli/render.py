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

__all__ = ["audit_table", "console", "emit_json", "err_console", "friendly_errors",
           "print_audit", "tagged"]  # fmt: skip


def emit_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2, default=str) + "\n")


@contextmanager
def friendly_errors() -> Iterator[None]:
    """Turn expected failures (missing file, locked store) into one clear line and exit 2."""
    from store import StoreLockedError
    from store.store import describe_failure

    try:
        yield
    except (FileNotFoundError, StoreLockedError, ValueError) as exc:
        err_console.print(tagged("error:", "bold red", exc), soft_wrap=True)
        raise typer.Exit(2) from None
    except Exception as exc:  # a full disk or a damaged store: one line, not a traceback
        message = describe_failure(exc)
        if message is None:
            raise
        err_console.print(tagged("error:", "bold red", message), soft_wrap=True)
        raise typer.Exit(2) from None
