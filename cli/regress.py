"""``ddrank regress``: the paper's regression and ranking model as a report."""

from __future__ import annotations

import json
import logging
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from cli.options import existing_store, stop_if_empty
from cli.render import err_console
from ddrank.regression.defaults import DEFAULT_CV_SEED, TABLE9_MINIMA, regress_flags
from publish.console import PipeConsole as Console


class Response(StrEnum):
    pp = "pp"
    mp = "mp"


class VariableSet(StrEnum):
    unweighted = "unweighted"
    weighted = "weighted"


def regress(
    input_path: Annotated[
        Path | None,
        typer.Option(
            "--input",
            help="Per-player CSV: either 14 rates (like 200_*_results.csv) or the 33 counters "
            "(dds_final_results.csv layout; thresholds and rates are then applied first).",
        ),
    ] = None,
    db: Annotated[
        Path | None,
        typer.Option(
            "--db",
            callback=existing_store,
            help="Read the players from this store instead of a CSV.",
        ),
    ] = None,  # fmt: skip
    table: Annotated[str, typer.Option(help="DuckDB table to read with --db.")] = "player_stats",
    response: Annotated[
        Response, typer.Option(help="Response: pp = WBF open placing points, mp = masterpoints.")
    ] = Response.pp,
    variables: Annotated[
        VariableSet, typer.Option(help="Predictor set: the 14 unweighted or 14 weighted rates.")
    ] = VariableSet.unweighted,
    out: Annotated[
        Path,
        typer.Option(
            help="Directory of the regression report: report.md/.html/.json, plots and CSVs."
        ),
    ] = Path("out/regression"),
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the regression report's numbers as JSON.")
    ] = False,
    log_response: Annotated[
        bool,
        typer.Option(
            "--log-response", help="Model log(1+points) instead of points (beyond the paper)."
        ),
    ] = False,
    min_claims: Annotated[float, typer.Option(help="Table 9 minimum claims.")] = TABLE9_MINIMA[
        "claims"
    ],
    min_leads: Annotated[float, typer.Option(help="Table 9 minimum leads.")] = TABLE9_MINIMA[
        "leads"
    ],
    min_cards_declarer: Annotated[
        float, typer.Option(help="Table 9 minimum cards played as declarer.")
    ] = TABLE9_MINIMA["cards_played_as_declarer"],
    min_cards_defender: Annotated[
        float, typer.Option(help="Table 9 minimum cards played as defender.")
    ] = TABLE9_MINIMA["cards_played_as_defender"],
    min_auctions: Annotated[
        float, typer.Option(help="Table 9 minimum auctions analysed.")
    ] = TABLE9_MINIMA["auctions_analyzed"],
    vif_limit: Annotated[
        float, typer.Option(help="Remove predictors with VIF above this, one at a time.")
    ] = 5.0,
    forward_slentry: Annotated[
        float, typer.Option(help="Forward selection SLENTRY (SAS default).")
    ] = 0.50,
    backward_slstay: Annotated[
        float, typer.Option(help="Backward elimination SLSTAY (SAS default).")
    ] = 0.10,
    stepwise_slentry: Annotated[float, typer.Option(help="Stepwise SLENTRY (SAS default).")] = 0.15,
    stepwise_slstay: Annotated[float, typer.Option(help="Stepwise SLSTAY (SAS default).")] = 0.15,
    significance: Annotated[
        float, typer.Option(help="Significance used when choosing the final, all-negative model.")
    ] = 0.05,
    final_variable: Annotated[
        list[str] | None,
        typer.Option(
            "--final-variable",
            help="Use these Table 4 variables as the ranking model instead of the automatic "
            "choice (repeat the option).",
        ),
    ] = None,
    cv_folds: Annotated[int, typer.Option(help="Folds of the cross-validated R².")] = 10,
    cv_seed: Annotated[
        int, typer.Option(help="Seed of the cross-validation folds.")
    ] = DEFAULT_CV_SEED,
    via_flow: Annotated[
        bool,
        typer.Option(
            "--flow", help="Run as the Prefect flow regression_report (records a flow run; slower)."
        ),
    ] = False,
) -> None:
    """Reproduce the paper's Tables 9-16 and Figures 1-2 for one dataset: the regression report.

    Writes report.md, report.html and report.json, the residual and QQ plots, the predicted-points ranking of every player (ranking.csv) and every excluded player with its reason (excluded_players.csv). Use --input dds_final_results.csv to start from the 33 counters (Table 9 thresholds applied) or --input 200_unweighted_results.csv for the paper's filtered rates.
    """
    console = Console(stderr=True)
    if (input_path is None) == (db is None):
        console.print("give exactly one of --input CSV or --db DUCKDB", style="red", soft_wrap=True)
        raise typer.Exit(2)
    thresholds = {
        "claims": min_claims,
        "leads": min_leads,
        "cards_played_as_declarer": min_cards_declarer,
        "cards_played_as_defender": min_cards_defender,
        "auctions_analyzed": min_auctions,
    }
    settings = {
        "vif_limit": vif_limit,
        "forward_slentry": forward_slentry,
        "backward_slstay": backward_slstay,
        "stepwise_slentry": stepwise_slentry,
        "stepwise_slstay": stepwise_slstay,
        "significance": significance,
    }
    params = {
        "input_path": str(input_path) if input_path else None,
        "db_path": str(db) if db else None,
        "table": table,
        "response": response.value,
        "variables": variables.value,
        "out_dir": str(out),
        "thresholds": thresholds,
        "settings": settings,
        "log_response": log_response,
        "final_variables": list(final_variable) if final_variable else None,
        "cv_folds": cv_folds,
        "cv_seed": cv_seed,
    }
    if db is not None:
        stop_if_empty(db, "regress")
    if not as_json:
        logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s")
    try:
        if via_flow:
            from flows.regression import regression_report

            regression_report(**params)
        else:
            from stages.regression import RegressionRequest, run_regression_report

            run_regression_report(RegressionRequest(**params))
    except (ValueError, FileNotFoundError, RuntimeError) as exc:
        err_console.print(f"error: {exc}", style="red", markup=False, soft_wrap=True)
        if "players left" in str(exc):
            err_console.print(_too_few_players_hint(db), markup=False, soft_wrap=True)
        raise typer.Exit(2) from None

    payload = json.loads((out / "report.json").read_text(encoding="utf-8"))
    if as_json:
        typer.echo(json.dumps(payload, indent=2))
        return
    _print_summary(payload, out)


def _too_few_players_hint(db: Path | None) -> str:
    """Table 9's minima suit the paper's 190,622 boards; a smaller store needs lower ones."""
    flags = "--min-claims, --min-leads, --min-cards-declarer, --min-cards-defender, --min-auctions"
    hint = f"hint: lower the opportunity thresholds with {flags}."
    if db is None:
        return hint
    from stages.regression_gate import scaled_thresholds
    from stages.settings import PipelineSettings
    from store import Store

    try:  # best effort: the hint must never hide the error it explains
        with Store(db, read_only=True) as store:
            boards = store.scalar("regression_board_count")
            scaled = scaled_thresholds(store, PipelineSettings())
    except Exception:  # noqa: BLE001
        return hint
    return (
        f"{hint} Scaled to this store's {boards:,} boards as `ddrank run` does: "
        f"ddrank regress --db {db} {regress_flags(scaled)}"
    )


def _print_summary(payload: dict, out: Path) -> None:
    """A Table 12-like summary and the final model on the terminal."""
    console = Console()
    table = Table(
        title=f"Model selection: {payload['dataset']} ({payload['players_analysed']} players)"
    )
    for column in ("Procedure", "Variables", "Model p", "Adj. R²", "Sign rule"):
        table.add_column(column, overflow="fold")
    for procedure in payload["procedures"]:
        model = procedure["model"]
        if model is None:
            table.add_row(procedure["procedure"], "None", "None", "None", "n/a")
            continue
        table.add_row(
            procedure["procedure"],
            "\n".join(model["variables"]),
            f"{model['model_p_value']:.4f}" if model["model_p_value"] >= 1e-4 else "<0.0001",
            f"{model['adj_r_squared']:.4f}",
            "ok" if model["satisfies_sign_rule"] else "violated",
        )
    console.print(table)
    final = payload["final"]
    if final:
        console.print(f"Final model: [bold]{final['model']['equation']}[/bold]")
        console.print(f"  adjusted R² {final['model']['adj_r_squared']:.4f}; {final['rule']}")
    console.print(f"Report: {out / 'report.md'} and {out / 'report.html'}")


def register(app: typer.Typer) -> None:
    """Add ``ddrank regress`` to the main application."""
    app.command(name="regress")(regress)
