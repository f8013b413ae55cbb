"""The `ddrank` command line: thin typer wrappers over the Prefect flows and the pure package."""

from __future__ import annotations

import importlib
import os

# Offline machines: keep Prefect from trying to phone home (before prefect is imported).
os.environ.setdefault("DO_NOT_TRACK", "1")
os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")

import typer  # noqa: E402

app = typer.Typer(
    name="ddrank",
    help=(
        "Turn contract-bridge hand records into audited per-player double-dummy measures, "
        "regressions and ratings."
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
)


@app.callback()
def _main() -> None:
    """ddrank: audited double-dummy performance measures and ratings from hand records."""


for _name in _COMMAND_MODULES:
    importlib.import_module(_name).register(app)


if __name__ == "__main__":
    app()
