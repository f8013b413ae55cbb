"""`ddrank match-names`: resolve raw player names against a ranking list."""

from __future__ import annotations

import sys
from contextlib import nullcontext
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from cli.options import MaybeStoreOpt, existing_store
from cli.render import console, emit_json, friendly_errors
from store.defaults import DEFAULT_DB

STRATEGY_HELP = (
    "fuzzy (default): accents, name orders, initials, nicknames, rapidfuzz, context. "
    "seed: the paper's tuple algorithm, exactly."
)


def register(app: typer.Typer) -> None:
    @app.command("match-names")
    def match_names(
        rankings: Annotated[
            Path,
            typer.Option(
                "--rankings",
                help="Ranking list CSV: name,masterpoints,placing_points, or the WBF layout "
                "code,first,last,country,mp,pp.",
            ),
        ],
        db: MaybeStoreOpt = None,
        names: Annotated[
            Path | None,
            typer.Option(
                "--names", help="Match these raw names instead (one per line); no store needed."
            ),
        ] = None,
        csv_path: Annotated[
            Path | None,
            typer.Option(
                "--csv",
                help="With --names: CSV file to write (raw_name, ranking_name, method, score, ...).",
            ),
        ] = None,
        aliases: Annotated[
            Path | None,
            typer.Option(
                "--aliases",
                help="CSV raw_name,ranking_name that always wins; an empty ranking_name forbids a match.",
            ),
        ] = None,
        names_strategy: Annotated[str, typer.Option("--strategy", help=STRATEGY_HELP)] = "fuzzy",
        review: Annotated[
            bool, typer.Option("--review", help="List ambiguous and low-score cases.")
        ] = False,
        json: Annotated[
            bool, typer.Option("--json", help="Print a machine-readable summary.")
        ] = False,
    ) -> None:
        """Match raw player names to the ranking list.

        Without --names, every seat name of the boards in the store is resolved per event
        (stored in player_matches; the board_players view joins them to the boards). With
        --names FILE, each line is matched on its own and written as CSV to --csv (or stdout).
        Ambiguous names stay unmatched; --review lists them with their best candidates.
        """
        from ddrank.names import STRATEGIES, parse_name_lines
        from stages.names import (
            board_count,
            decisions_csv,
            load_aliases,
            load_rankings,
            match_board_names,
            match_name_list,
            read_text,
            review_rows,
            summarize,
        )
        from store import Store

        strategy = names_strategy
        if strategy not in STRATEGIES:
            raise typer.BadParameter(f"use one of {', '.join(STRATEGIES)}", param_hint="--strategy")
        if csv_path is not None and names is None:
            raise typer.BadParameter("--csv goes with --names", param_hint="--csv")
        with friendly_errors():
            entries = load_rankings(rankings)
            alias_table = load_aliases(aliases)
            if names is not None:
                raw = parse_name_lines(read_text(names))
                decisions = match_name_list(raw, entries, alias_table, strategy)
                csv_text = decisions_csv(decisions)
                if csv_path is not None:
                    csv_path.write_text(csv_text, encoding="utf-8")
                elif not json:
                    sys.stdout.write(csv_text)
            else:
                with Store(db or existing_store(DEFAULT_DB)) as store:
                    if board_count(store) == 0:
                        raise ValueError(
                            f"{db} has no boards: run `ddrank ingest` and `ddrank clean` first"
                        )
                    with (
                        console.status("matching names", spinner="dots")
                        if not json
                        else nullcontext()
                    ):
                        decisions = match_board_names(store, entries, alias_table, strategy)
        summary: dict[str, Any] = {
            "strategy": strategy,
            "rankings": len(entries),
            **summarize(decisions),
        }
        cases = review_rows(decisions) if review else []
        if json:
            emit_json({**summary, "review_cases": cases} if review else summary)
            return
        target = console if (names is None or csv_path is not None) else _stderr_console()
        target.print(
            f"[bold]{summary['matched']:,}[/] of {summary['names']:,} names matched "
            f"({strategy}, {len(entries):,} ranking entries); {summary['review']:,} to review."
        )
        target.print("methods: " + ", ".join(f"{k} {v:,}" for k, v in summary["methods"].items()))
        if review:
            target.print(_review_table(cases))


def _review_table(cases: list[dict[str, Any]]) -> Table:
    table = Table(title="Names to review (ambiguous or low score)", title_justify="left")
    for col in (
        "raw name",
        "context",
        "decision",
        "score",
        "tied candidates / runner-up",
        "score ",
    ):
        table.add_column(col, justify="right" if col.startswith("score") else "left")
    for c in cases:
        table.add_row(
            c["raw_name"],
            c["context"] or "",
            c["ranking_name"] or c["method"],
            f"{c['score']:.1f}",
            c["runner_up"] or "",
            "" if c["runner_up_score"] is None else f"{c['runner_up_score']:.1f}",
        )
    return table


def _stderr_console():  # CSV goes to stdout; the summary must not mix with it
    from cli.render import err_console

    return err_console
