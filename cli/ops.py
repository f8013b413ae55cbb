"""`ddrank serve` and `ddrank watch`: served deployments and the inbox watcher."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer

from cli.render import console, err_console, friendly_errors
from store.defaults import DEFAULT_DB

InboxOpt = Annotated[
    Path | None,
    typer.Option("--inbox", help="Folder of new hand records (default: DDRANK_INBOX)."),
]
DbOpt = Annotated[
    Path | None,
    typer.Option("--db", show_default=False,
                 help=f"The store (a DuckDB file) the served runs write; created when missing. "
                      f"Default: $DDRANK_DB, else {DEFAULT_DB} under the current folder."),
]  # fmt: skip
ConfigOpt = Annotated[Path | None, typer.Option(help="TOML settings file (\\[ddrank] table).")]


@contextmanager
def _loading_prefect() -> Iterator[None]:
    """'load Prefect: started', a line every 10 s, 'done': importing the flows takes 20-30 s on
    2 busy cores (more at load 20), and `serve`/`watch` said nothing until it ended."""
    from cli.progress import stage_progress
    from stages.progress import stage

    with stage_progress(), stage("prefect-import", heartbeat=1.0, after=0.3):
        yield


def register(app: typer.Typer) -> None:
    @app.command()
    def serve(
        interval: Annotated[
            float, typer.Option(help="Seconds between scheduled looks at the inbox.", min=1)
        ] = 3600,
        inbox: InboxOpt = None,
        db: DbOpt = None,
        config: ConfigOpt = None,
        on_event: Annotated[
            bool,
            typer.Option(
                "--on-event/--no-on-event",
                help="Also serve ddrank-inbox-on-event, run by `ddrank watch` events.",
            ),
        ] = True,
        limit: Annotated[int, typer.Option(help="Flow runs at once in this process.")] = 1,
    ) -> None:
        """Serve the inbox deployments (hourly + on event) and the pipeline from this process.

        Runs until stopped (Ctrl-C pauses the schedule). Start `prefect server start` first and export PREFECT_API_URL to watch runs in the UI; without it Prefect uses a temporary server that lives only as long as this command.

        Trigger a run now with `prefect deployment run inbox-rerun/ddrank-inbox-hourly`.
        """
        from stages.settings import load_settings

        with _loading_prefect():  # up to minutes on a busy machine: said from the first second
            from flows.inbox import served_deployments
        with friendly_errors():
            settings = load_settings(config, inbox=str(inbox) if inbox else None,
                                     db=str(db) if db else None)  # fmt: skip
            if not settings.inbox:
                raise ValueError("no inbox folder: pass --inbox or set DDRANK_INBOX")
            Path(settings.inbox).mkdir(parents=True, exist_ok=True)
            # Served runs are child processes: they read the same settings from the environment.
            os.environ["DDRANK_INBOX"] = str(Path(settings.inbox).resolve())
            os.environ["DDRANK_DB"] = str(Path(settings.db).resolve())
            if config:
                os.environ["DDRANK_CONFIG"] = str(config.resolve())
        if not os.environ.get("PREFECT_API_URL"):
            err_console.print(
                "[yellow]PREFECT_API_URL is not set:[/] serving against a temporary server; "
                "run `prefect server start` and export PREFECT_API_URL to use the UI."
            )
        console.print(
            f"serving inbox {os.environ['DDRANK_INBOX']} every {interval:g} s"
            f"{' and on ddrank.inbox.file-arrived events' if on_event else ''}; "
            f"store {os.environ['DDRANK_DB']}"
        )
        from prefect import serve as prefect_serve

        prefect_serve(*served_deployments(interval, on_event), limit=limit)

    @app.command()
    def watch(
        inbox: InboxOpt = None,
        db: DbOpt = None,
        once: Annotated[bool, typer.Option("--once", help="Look once and exit.")] = False,
        poll: Annotated[float, typer.Option(help="Seconds between looks.", min=0.1)] = 10.0,
        settle: Annotated[
            float, typer.Option(help="Ignore files modified in the last N seconds.", min=0)
        ] = 5.0,
    ) -> None:
        """Announce new inbox files as `ddrank.inbox.file-arrived` Prefect events.

        A file is new when the store has no file with the same SHA-1. The event's resource is `ddrank.inbox.<path>`; the ddrank-inbox-on-event deployment (prefect.yaml or `ddrank serve`) matches it and processes only the new records.

        Needs PREFECT_API_URL (the server that runs the deployment).
        """
        from stages.settings import load_settings

        if not os.environ.get("PREFECT_API_URL"):
            err_console.print(
                "[bold red]error:[/] PREFECT_API_URL is not set; events need the Prefect server "
                "that runs ddrank-inbox-on-event (e.g. http://127.0.0.1:4200/api)."
            )
            raise typer.Exit(2)
        with _loading_prefect():
            from flows.inbox import InboxFile, watch_inbox

        def show(f: InboxFile) -> None:
            console.print(f"[green]arrived[/] {f.path} (sha1 {f.sha1[:12]}) → {f.resource_id}")

        with friendly_errors():
            settings = load_settings(inbox=str(inbox) if inbox else None,
                                     db=str(db) if db else None)  # fmt: skip
            if not settings.inbox:
                raise ValueError("no inbox folder: pass --inbox or set DDRANK_INBOX")
            folder = Path(settings.inbox).resolve()
            if not once:
                console.print(f"watching {folder} every {poll:g} s (Ctrl-C to stop)")
            try:
                sent = watch_inbox(folder, settings.db, once=once, poll_seconds=poll,
                                   settle_seconds=settle, on_arrival=show)  # fmt: skip
            except KeyboardInterrupt:
                return
        console.print(f"{sent} event(s) emitted")
