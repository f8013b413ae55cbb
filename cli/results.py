"""`ddrank results FILES... --out DIR`: a director's results, scored as the scorer did, in seconds.

The stage list of `ddrank run` (`stages.pipeline.STAGES`), with the research stages off unless
asked (no double dummy, no name matching, no regression, no ratings): ingest → clean → score →
site. It runs in this process, without Prefect: starting Prefect's API and its flow took 8-33 s,
for a club night that scores in under a second. `ddrank run` and the deployments run the same
list through Prefect, with the same settings model, so they give the same numbers. Every run
option works here too (`--mp-method`, `--mp-top`, `--double-dummy` ...). It prints each event's
ranking per section and direction, how the event was scored and how many of the values its
source published that reproduces.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer

from cli.inputs import check_inputs, require_scored
from cli.render import console, emit_json, friendly_errors
from cli.run_options import ANALYSIS, DIRECTOR, EXPERT_RUN, REGRESSION, with_settings_options
from ddrank.parsers.registry import EVENT_FORMATS


def results(
    files: Annotated[
        list[Path],
        typer.Argument(
            help=f"Event files or folders: {EVENT_FORMATS} (told by content).",
            show_default=False,
        ),
    ],  # fmt: skip
    out: Annotated[
        Path,
        typer.Option(
            "--out",
            help="Output folder: the site (OUT/site/index.html), the CSV files, the store.",
            rich_help_panel=DIRECTOR,
        ),
    ] = Path("results"),  # fmt: skip
    db: Annotated[
        str | None,
        typer.Option(
            help="DuckDB store (default: OUT/results.duckdb).", rich_help_panel=EXPERT_RUN
        ),
    ] = None,
    double_dummy: Annotated[
        bool,
        typer.Option(
            "--double-dummy",
            help="Also publish the double-dummy analysis (slow on big files).",
            rich_help_panel=DIRECTOR,
        ),
    ] = False,  # fmt: skip
    regression: Annotated[
        bool,
        typer.Option(
            "--regression",
            help="Also write the regression report (needs --double-dummy).",
            rich_help_panel=REGRESSION,
        ),
    ] = False,  # fmt: skip
    ratings: Annotated[
        bool,
        typer.Option(
            "--ratings",
            help="Also publish the Lehman and skill ratings and the bid/play split.",
            rich_help_panel=DIRECTOR,
        ),
    ] = False,  # fmt: skip
    names_scope: Annotated[
        str,
        typer.Option(
            help="Match players to the ranking list: none, covered (events the list covers) or all.",
            rich_help_panel=ANALYSIS,
        ),
    ] = "none",  # fmt: skip
    config: Annotated[
        Path | None,
        typer.Option(
            help="TOML settings file (a \\[ddrank] table or top-level keys).",
            rich_help_panel=EXPERT_RUN,
        ),
    ] = None,
    verbose: Annotated[
        bool,
        typer.Option(
            "--verbose", "-v", help="Also print the stages' log lines.", rich_help_panel=DIRECTOR
        ),
    ] = False,
    json: Annotated[
        bool, typer.Option("--json", help="Print the rankings as JSON.", rich_help_panel=DIRECTOR)
    ] = False,
    **fields: Any,
) -> None:
    """Score event files as their scorer did and publish the results site (no double dummy, ratings or regression unless asked).

    Example: `ddrank results last-night.bws --out results`, then open results/site/index.html.
    """
    from stages.run import freshness_of, open_run
    from stages.settings import limits_of, load_settings

    with friendly_errors():
        settings = load_settings(
            config, inputs=[str(f) for f in files], out=str(out),
            db=db or str(out / "results.duckdb"), double_dummy=double_dummy,
            regression=regression, ratings=ratings, names_scope=names_scope, **fields,
        )  # fmt: skip
        readable_files, said = check_inputs(files, limits_of(settings), [settings.out])
        readable = {str(p) for p in readable_files}  # the others are named once, here
        out.mkdir(parents=True, exist_ok=True)
        with open_run(settings) as run:  # the run's one Store, its inputs hashed once
            result: dict[str, Any] = freshness_of(run).as_dict()
            if not result.get("nothing_new"):
                from cli.progress import stage_progress
                from stages.pipeline import run_stages

                with stage_progress(disable=json), stage_log(verbose):
                    result = run_stages(run)  # the stage list, in this process: no Prefect
        events = (result.get("scoring") or {}).get("rankings")
        if events is None:  # nothing new since the last run: the store's rankings
            events = stored_rankings(settings.db)
    site = (result.get("site") or {}).get("site") or str(out / "site" / "index.html")
    scoring = result.get("scoring") or {}
    if json:
        emit_json({"events": events, "site": site, "db": settings.db})
    else:
        from publish.rankings import ranking_text

        if events:  # (hand records only: no ranking, and no blank line for it)
            console.print(ranking_text(events), markup=False, highlight=False, soft_wrap=True)
        for u in (result.get("ingest") or {}).get("unreadable", []):  # text that is no record
            if str(u["file"]) in readable:  # (a whole file no reader takes was named at the start)
                console.print(f"unreadable {u['file']}:{u['line']}: {u['error']} (errors.csv)",
                              markup=False, soft_wrap=True)  # fmt: skip
        print_warnings((result.get("ingest") or {}).get("warnings") or [])
        if scoring.get("errors"):
            console.print(f"{scoring['errors']} record(s) left out: {out / 'errors.csv'}",
                          markup=False)  # fmt: skip
            for why in scoring.get("left_out_why") or []:
                console.print(f"  {why}", markup=False, soft_wrap=True)
        if scoring.get("missing_lines"):
            console.print(f"{scoring['missing_lines']} traveller line(s) missing against the "
                          f"movement: {out / 'errors.csv'}", markup=False)  # fmt: skip
    failed = (result.get("site") or {}).get("failed")
    if failed:  # the last good site is as it was (publishing is atomic)
        from cli.render import err_console

        err_console.print(f"error: the site was not written ({failed}); {out / 'site'} is the "
                          "last good one, unchanged", markup=False, highlight=False,
                          soft_wrap=True)  # fmt: skip
        raise typer.Exit(1)
    if not json:
        if not events and (result.get("ingest") or {}).get("hand_record_deals"):
            console.print(hand_records_line(settings.db), markup=False, soft_wrap=True)
        if result.get("nothing_new"):  # the ranking above is the store's, from the last run
            since = str(result.get("since") or "").replace("T", " ").replace("+00:00", " UTC")
            console.print(f"nothing new since {since}: {result.get('files', 0)} file(s) "
                          "unchanged, so nothing was scored again (--force scores them again)",
                          markup=False, soft_wrap=True)  # fmt: skip
        console.print(f"site: {site} (open it in a browser)", markup=False, soft_wrap=True)
    from cli.run import refused_inputs

    refused_inputs(result, said)  # the good files are published; the refused ones, exit 2
    ingest = result.get("ingest")
    if isinstance(ingest, dict) and scoring:  # a run, not "nothing new since the last run"
        require_scored(scoring.get("results", 0), ingest.get("records_read", 0),
                       scoring.get("errors", 0), ingest.get("hand_record_deals", 0),
                       len(scoring.get("rankings") or []))  # fmt: skip


#: Reading warnings printed after the ranking; the rest are counted.
SHOWN_WARNINGS = 10


def print_warnings(warnings: list[dict[str, Any]]) -> None:
    """What the readers tolerated and said so (records kept: a file that departs from its
    format's standard, a vugraph table that contradicts its header), one line each."""
    for w in warnings[:SHOWN_WARNINGS]:
        console.print(f"warning {w['file']}:{w['line']}: {w['warning']}", markup=False,
                      highlight=False, soft_wrap=True)  # fmt: skip
    if len(warnings) > SHOWN_WARNINGS:
        console.print(f"... and {len(warnings) - SHOWN_WARNINGS} more warning(s) (records kept)",
                      markup=False)  # fmt: skip


@contextmanager
def stage_log(verbose: bool) -> Iterator[None]:
    """The stages' own log lines (logger `ddrank.pipeline`) on stderr with --verbose; without
    it only their warnings (a failed site, a skipped regression) reach the terminal."""
    import logging

    log = logging.getLogger("ddrank.pipeline")
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(levelname)s %(message)s"))
    level = log.level
    log.addHandler(handler)
    log.setLevel(logging.INFO if verbose else logging.WARNING)
    try:
        yield
    finally:
        log.removeHandler(handler)
        log.setLevel(level)


def hand_records_line(db: str) -> str:
    """A file of hand records only: no ranking to print, so say what the site shows instead
    ("hand records only: 36 deals, DD from the file")."""
    from store import Store

    with Store(db, read_only=True) as store:
        (row,) = store.rows("hand_record_dd")
    deals, with_dd = int(row["deals"]), int(row["with_dd"])
    dd = ("DD from the file" if with_dd == deals else
          f"DD from the file for {with_dd:,}" if with_dd else "no DD in the file (--double-dummy "
          "computes it)")  # fmt: skip
    return f"hand records only: {deals:,} deals, {dd}; no table result to score"


def stored_rankings(db: str) -> list[dict[str, Any]]:
    """Every scored event's ranking as the store has it (no flow needed to read it)."""
    from stages.rankings import ranking_summary
    from store import Store

    with Store(db, read_only=True) as store:
        return ranking_summary(store)


#: After the options in `--help`: what the command does and leaves, for whoever reads that far.
EPILOG = (
    "It runs the stages of `ddrank run` in this process, without Prefect (ingest, clean, scoring, "
    "the site), into its own store in OUT, and prints the ranking per event, section and "
    "direction with the agreement against the values the file published. Its last line says "
    "where the site is: `site: OUT/site/index.html (open it in a browser)`; records left out are "
    "listed with why in OUT/errors.csv. Run it again on the same files and it says at once that "
    "nothing is new. Afterwards `ddrank event NAME --db OUT/results.duckdb` and `ddrank player "
    "NAME --db OUT/results.duckdb` answer from that store."
)


def register(app: typer.Typer) -> None:
    app.command("results", epilog=EPILOG)(with_settings_options(results))
