"""The `ddrank` command line: thin typer wrappers over the Prefect flows and the pure package."""

from __future__ import annotations

import importlib
import os
import signal
import sys


def _stop_while_starting(signum: int, frame: object) -> None:
    """SIGINT or SIGTERM while the command is still being loaded, before `main` takes over: nothing
    has been opened or written yet, so one line and exit 130 (not an import traceback)."""
    sys.stderr.write(f"stopped by {signal.Signals(signum).name} while starting: nothing was done; "
                     "run the same command again.\n")  # fmt: skip
    os._exit(130)


# only as the command itself (the `ddrank` script, `python -m cli.main`), not when a program (a
# test) imports this module
if __name__ == "__main__" or os.path.basename(sys.argv[0]) == "ddrank":
    for _sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(_sig, _stop_while_starting)

# Offline machines: keep Prefect from trying to phone home (before prefect is imported).
os.environ.setdefault("DO_NOT_TRACK", "1")
os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")

import typer  # noqa: E402

from cli.group import DdrankGroup  # noqa: E402

app = typer.Typer(
    name="ddrank",
    cls=DdrankGroup,
    help=(
        "Turn bridge event files into results as the scorer publishes them, double-dummy "
        "analysis of every card and call, and ratings.\n\n"
        "New here? `ddrank run` analyses the bundled sample; `ddrank results FILES` scores a "
        "club's files and writes the results site.\n\n"
        "Exit codes: 0 done (or nothing to do); 1 an unexpected error; 2 bad input (a missing "
        "file or store, nothing readable, a store in use); 130 stopped by Ctrl-C or SIGTERM "
        "(run again to resume)."
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
)

# Each command group lives in its own module and exposes `register(app)`.
_COMMAND_MODULES = (
    "cli.run",  # run
    "cli.pipeline",  # ingest, clean, audit
    "cli.dd",  # dd, stats
    "cli.names",  # match-names
    "cli.regress",  # regress
    "cli.scoring",  # score, lehman, split
    "cli.estimate",  # dd-estimate
    "cli.ops",  # serve, watch
    "cli.site",  # report (the site), player, event
    "cli.rate",  # rate
    "cli.results",  # results (a director's: score and publish, no DD)
    "cli.check",  # check (every published value of every file, against ours)
)


#: `ddrank --help` groups the commands in these panels, in this order (`run` first).
PANELS = {
    "Start here": ("run", "results"),
    "Events: read, check, score, publish": ("ingest", "clean", "audit", "score", "check",
                                            "report",
                                            "player", "event"),
    "Analysis: double dummy, regression, ratings": ("dd", "stats", "match-names", "regress",
                                                    "split", "lehman", "rate", "dd-estimate"),
    "Operations": ("serve", "watch"),
}  # fmt: skip


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            typer.echo(f"ddrank {version('ddrank')}")
        except PackageNotFoundError:  # run from a source tree that was never installed
            typer.echo("ddrank (not installed)")
        raise typer.Exit()


@app.callback()
def _main(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """ddrank: bridge results, double-dummy analysis and ratings."""


def _command_name(info: typer.models.CommandInfo) -> str:
    return info.name or (info.callback.__name__ if info.callback else "").replace("_", "-")


def _arrange(app: typer.Typer) -> None:
    """Put each command in its panel and the panels in order."""
    order = [name for names in PANELS.values() for name in names]
    panel_of = {name: panel for panel, names in PANELS.items() for name in names}
    for info in app.registered_commands:
        info.rich_help_panel = panel_of.get(_command_name(info), "Other")
    for group in app.registered_groups:
        group.rich_help_panel = panel_of.get(group.name or "", "Other")
    rank = {name: k for k, name in enumerate(order)}
    app.registered_commands.sort(key=lambda i: rank.get(_command_name(i), len(order)))


for _name in _COMMAND_MODULES:
    importlib.import_module(_name).register(app)
_arrange(app)


_received: list[str] = []


def _note_stop(signum: int, frame: object) -> None:
    """Until a command installs its own stop handling (`ddrank run` does), SIGINT and SIGTERM
    interrupt it like Ctrl-C, and `main` says so."""
    from ddrank.processes import note_stop

    _received.append(signal.Signals(signum).name)
    note_stop(_received[-1])
    raise KeyboardInterrupt


def main() -> None:
    """The `ddrank` command: the typer app, plus one line when a signal stopped it."""
    try:  # a stop that arrives while the handlers are being installed is handled below too
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, _note_stop)
        app()
    except KeyboardInterrupt:  # a stop that reached here unconverted (before typer's own handling)
        _stopped_exit()
    except Exception as exc:  # a store that cannot be written or is locked: one line, any command
        store = sys.modules.get("store.store")  # loaded by whichever command opened a store
        if store is None or not isinstance(
            exc, store.StoreNotWritableError | store.StoreLockedError
        ):
            raise
        sys.stderr.write(f"error: {exc}\n")
        raise SystemExit(2) from None
    except SystemExit as exc:
        from ddrank.extras import MissingExtra

        if isinstance(exc, MissingExtra):  # an install to complete: bad input, not a bug
            sys.stderr.write(f"{exc.code}\n")
            raise SystemExit(2) from None
        if _received and exc.code == 130:
            _stopped_exit()
        raise


def _stopped_exit() -> None:
    """One line, then exit 130 at once. The stack has unwound (store closed, lock released, the
    temporary Prefect server stopped); what is left are exit hooks, and a stop signal arriving
    during them made Python report the interrupt as a kill by SIGINT (status -2) instead."""
    sys.stderr.write(f"stopped by {_received[0] if _received else 'SIGINT'}: whatever had "
                     "finished is kept; run the same command again to go on.\n")  # fmt: skip
    sys.stdout.flush()
    sys.stderr.flush()
    from ddrank.processes import release_pool_semaphores

    release_pool_semaphores()  # os._exit skips the shutdown that would
    os._exit(130)


if __name__ == "__main__":
    main()
