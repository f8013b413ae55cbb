"""Console summaries for people: the run's audit tables (the paper's Tables 5-7) and the shared
rich consoles. The CLI and the pipeline's closing summary both print through here.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.console import Console
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

from publish.encoding import terminal_text


class SafeConsole(Console):
    """A rich console that prints no control character or escape sequence from the text it shows
    (a name from a file may hold ESC/OSC codes that set the window title, write the clipboard or
    clear the screen). It cleans the text of every segment just before rendering, whatever
    printed it (a string, a table, a progress line); rich's own colours and cursor moves are
    added after, from styles and control segments, and stay. Strings are cleaned as they become
    rich text too, so a sequence goes whole (rich alone would drop ESC and print the rest)."""

    def render_str(self, text: str, **kwargs: Any) -> Text:
        return super().render_str(terminal_text(text), **kwargs)

    def _render_buffer(self, buffer: Iterable[Segment]) -> str:
        return super()._render_buffer(
            seg if seg.control else Segment(terminal_text(seg.text), seg.style, seg.control)
            for seg in buffer
        )


class PipeConsole(SafeConsole):
    """A console whose reader may go away (`ddrank player X | head`): the rest of the output is
    dropped and the command goes on to its end (a site still gets written) and exits 0. Rich's
    own reaction is exit status 1 at once. Like every console of ddrank, it prints no control
    character or escape sequence from the text it shows (`SafeConsole`)."""

    def on_broken_pipe(self) -> None:
        import os

        self.quiet = True
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, self.file.fileno())
            os.close(devnull)
        except (OSError, ValueError):  # no real file behind it (a test runner's buffer)
            pass


console = PipeConsole()
err_console = PipeConsole(stderr=True)


def tagged(tag: str, style: str, message: object) -> Text:
    """`tag` in `style`, then the message as plain text: file names, records and exception texts
    may hold brackets, which rich would read as markup (and print raw or swallow)."""
    return Text.assemble((tag, style), " ", terminal_text(str(message)))


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
