"""``ddrank score``, ``ddrank split`` and ``ddrank lehman``: tournament results and ratings."""

from __future__ import annotations

import json
import logging
import math
import os
from collections.abc import Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table
from rich.text import Text

from cli.options import MIN_BOARDS, MaybeStoreOpt, MinBoardsOpt, stop_if_empty
from ddrank.parsers.registry import FORMATS_READ
from ddrank.scoring.rulebooks import own_methods, rulebooks
from publish.console import PipeConsole as Console
from store.defaults import DEFAULT_DB

console = Console()
err = Console(stderr=True)


ValetOpt = Annotated[
    Path | None,
    typer.Option(
        "--valet",
        help="Valet directory with scores.txt (round, board, N, E, S, W, contract, declarer, "
        "tricks, lead; split by |), names.txt (id|NAME) and optionally hands/roundN.pbn. Without it the DuckDB store is read.",
        file_okay=False,
    ),
]
DbOpt = MaybeStoreOpt
EventOpt = Annotated[
    str | None, typer.Option(help="Only this event of the store (ignored with --valet).")
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print the run summary as JSON.")]
FlowOpt = Annotated[
    bool,
    typer.Option(
        "--flow", help="Run as the Prefect flow `field-measures` (records a flow run; slower)."
    ),
]


#: auto, the board arithmetic's lifts, and each producer's own arithmetic (its rulebook's).
MpMethod = StrEnum("MpMethod", [(m, m) for m in ("auto", "neuberg", "none", "mitchell1",  # type: ignore[misc]
                                                 "mitchell1_bis", "ascherman", *own_methods())])  # fmt: skip
#: The producers' own methods in words, for --mp-method's help.
OWN_METHODS_HELP = ", ".join(f"{b.method} ({b.name}'s arithmetic: {b.method_help})"
                             for b in rulebooks() if b.score_board)  # fmt: skip


class DivideBy(StrEnum):
    results = "results"
    comparisons = "comparisons"


class Scale(StrEnum):
    imps = "imps"
    mp = "mp"


def _source(valet: Path | None, db: Path | None) -> tuple[str | None, str | None]:
    if valet is not None and db is not None:
        err.print("[red]give either --valet or --db, not both[/red]")
        raise typer.Exit(2)
    if valet is not None:
        return str(valet), None
    return None, str(db or DEFAULT_DB)


def _run(measure: str, valet: Path | None, db: Path | None, event: str | None, out: Path,
         via_flow: bool, flow_kwargs: dict[str, Any], direct) -> dict[str, Any]:  # fmt: skip
    """Call the task body directly (fast), or the `ratings` flow with the same parameters."""
    from store import StoreLockedError

    valet_dir, db_path = _source(valet, db)
    if valet_dir is None:
        stop_if_empty(db, "rate" if measure == "lehman" else "split")
    try:
        if via_flow:
            os.environ.setdefault("DO_NOT_TRACK", "1")
            from flows.field_measures import field_measures

            summary = field_measures(valet_dir=valet_dir, db_path=db_path, event=event,
                              out_dir=str(out), measures=[measure], **flow_kwargs)  # fmt: skip
            return summary[measure]
        from stages.field import load_field

        with _quiet("ddrank.scoring"):  # its warnings repeat the records listed just below
            loaded = load_field(valet_dir, db_path, event)
        for e in loaded.errors[:10]:
            err.print(Text.assemble(("left out ", "yellow"), str(e)), soft_wrap=True)
        if len(loaded.errors) > 10:
            err.print(f"... and {len(loaded.errors) - 10} more in {out / 'errors.csv'}")
        return direct(loaded)
    except (FileNotFoundError, StoreLockedError, ValueError) as exc:
        err.print(Text.assemble(("error:", "bold red"), f" {exc}"), soft_wrap=True)
        raise typer.Exit(2) from None


@contextmanager
def _quiet(logger_name: str) -> Iterator[None]:
    """Keep a logger's records off the terminal while the CLI reports the same facts itself."""
    log = logging.getLogger(logger_name)
    saved, null = log.propagate, logging.NullHandler()
    log.propagate = False
    log.addHandler(null)
    try:
        yield
    finally:
        log.removeHandler(null)
        log.propagate = saved


def _show(summary: dict[str, Any], as_json: bool, title: str, csv_name: str,
          columns: list[str], min_boards: int = 0) -> None:  # fmt: skip
    if as_json:
        print(json.dumps(summary, indent=2, default=str))
        return
    path = next((Path(f) for f in summary["files"] if f.endswith(csv_name)), None)
    if path is not None and path.is_file():
        import csv

        with path.open() as fh:
            rows = list(csv.DictReader(fh))
        key = columns[2] if len(columns) > 2 else columns[-1]
        rows = [r for r in rows if r.get(key) not in ("", None)]
        rows.sort(key=lambda r: -float(r[key]))
        enough = [r for r in rows if int(r.get("boards") or 0) >= min_boards]
        note = f", {min_boards}+ boards" if enough and min_boards else ""
        rows = enough or rows  # as the report does: nobody qualifies, so show everyone
        table = Table(title=f"{title}: top 10 by {key}{note}", title_justify="left")
        for c in columns:
            table.add_column(c, justify="left" if c in ("players", "player", "period") else "right")
        for r in rows[:10]:
            table.add_row(*[_cell(r.get(c, "")) for c in columns])
        console.print(table)
    for f in summary["files"]:
        console.print(Text.assemble(("wrote", "dim"), f" {f}"))
    if summary.get("errors"):
        console.print(f"[yellow]{summary['errors']} record(s) left out, see errors.csv[/yellow]")


def _cell(v: str) -> str:
    try:
        x = float(v)
    except ValueError:
        return v
    return v if x.is_integer() and "." not in v else ("" if math.isnan(x) else f"{x:.2f}")


def _score_valet(valet: Path, db: Path | None, event: str | None, out: Path, mp_method: MpMethod,
                 divide_by: DivideBy, drop_count: int, drop_percent: float | None,
                 min_boards: int, as_json: bool, via_flow: bool) -> None:  # fmt: skip
    """The Valet layout (one field of rounds): per-table and per-player MP, cross-IMPs, Butler."""
    from ddrank.scoring.tournament import ScoringOptions
    from stages.field import run_score

    method = "neuberg" if mp_method.value in ("none", "auto") else mp_method.value
    frac = drop_percent / 100 if drop_percent is not None else None
    opts = ScoringOptions(method, divide_by.value, drop_count, frac)  # type: ignore[arg-type]
    kwargs = {"mp_method": method, "cross_imps_divide_by": divide_by.value,
              "drop_count": drop_count, "drop_fraction": frac, "min_boards": min_boards}  # fmt: skip
    summary = _run("score", valet, db, event, out, via_flow, kwargs,
                   lambda loaded: run_score(loaded, out, opts, min_boards))  # fmt: skip
    _show(summary, as_json, "Players", "score_players.csv",
          ["players", "boards", "mp_pct", "cross_imps", "butler", "bastille"], min_boards)  # fmt: skip


def _show_events(summary: dict[str, Any]) -> None:
    """The winners of each event, the published-value checks, and the files written."""
    for ev in summary.get("top", []):
        table = Table(title=f"{ev['event']} ({ev['scoring']})", title_justify="left")
        for c in ("rank", "direction", "pair", "players", "boards", "score", "pct"):
            table.add_column(
                c, justify="left" if c in ("pair", "players", "direction") else "right"
            )
        for r in ev["lines"]:
            table.add_row(
                r["place"],
                r["direction"],
                str(r["pair"]),
                r["players"],
                str(r["boards"]),
                r["score_text"],
                r["pct_text"],
            )  # as printed, kept
        console.print(table)
    from publish.rankings import method_words

    if summary.get("cleaned_first"):
        console.print(f"cleaned {summary['cleaned_first']:,} ingested record(s) first "
                      "(as `ddrank clean` would)")  # fmt: skip
    if summary.get("hand_record_deals") and not summary.get("records_read"):
        console.print(f"no table result to score: the files hold hand records only "
                      f"({summary['hand_record_deals']} deals; `ddrank results` publishes them)")  # fmt: skip
    elif not summary.get("results") and not summary.get("records_read"):
        console.print("[yellow]no table result to score: give event files (`ddrank score FILE`), "
                      "or ingest them first (`ddrank ingest FILE`, then `ddrank score --db`)[/yellow]")  # fmt: skip
    for m in summary.get("methods", []):
        console.print(f"{m['event']}: {method_words(m)}", markup=False, soft_wrap=True)
    for c in summary.get("published", []):
        console.print(f"published {c['what']}: {c['agree']} of {c['compared']} agree"
                      + (f", [red]{c['disagree']} differ[/red]" if c["disagree"] else ""))  # fmt: skip
    console.print(f"{summary['results']:,} table results in {summary['events']} events scored; "
                  f"{summary['errors']} records left out (errors.csv), "
                  f"{summary['duplicate_tables']} as duplicate tables; "
                  f"{summary['fouled_boards']} fouled boards")  # fmt: skip
    for why in summary.get("left_out_why") or []:
        console.print(f"  {why}", markup=False, soft_wrap=True)
    if summary.get("missing_lines"):
        console.print(f"[yellow]{summary['missing_lines']} traveller line(s) missing against the "
                      "movement (errors.csv)[/yellow]")  # fmt: skip
    if "rescored" in summary:
        console.print(f"rescored {len(summary['rescored'])} event(s), "
                      f"{len(summary['unchanged'])} unchanged")  # fmt: skip
    if summary.get("ratings"):
        r = summary["ratings"]
        console.print(f"ratings: {r.get('players', 0)} players over {r.get('periods', 0)} periods"
                      + (f", re-rated from {r['rerated_from']}" if r.get("rerated_from") else ""))  # fmt: skip
    for f in summary["files"]:
        console.print(Text.assemble(("wrote", "dim"), f" {f}"))


def register(app: typer.Typer) -> None:
    @app.command("score")
    def score(
        files: Annotated[list[Path] | None, typer.Argument(help=f"Event files to score directly, without a store ({FORMATS_READ}: read as `ddrank ingest` reads them). Folders are read recursively.", show_default=False)] = None,
        db: DbOpt = None,
        valet: ValetOpt = None,
        event: EventOpt = None,
        out: Annotated[Path, typer.Option(help="Directory for results.csv, ranking.csv, teams.csv, errors.csv and report.md.")] = Path("out/score"),
        mp_method: Annotated[MpMethod, typer.Option(help="How a board played fewer times than the field (missing tables, adjusted scores, fouled groups) reaches the field's top: auto (as the event's scorer did: the method that reproduces the published values, else what the source's program and federation say), neuberg, mitchell1, mitchell1_bis, ascherman, none (each board on its own top, as some club scorers publish), or a scorer's own: " + OWN_METHODS_HELP + ".")] = MpMethod.auto,
        cross_imps_divide_by: Annotated[DivideBy, typer.Option("--divide-by", help="--valet only: cross-IMPs per result (B) or per comparison (A).")] = DivideBy.results,
        butler_drop_count: Annotated[int, typer.Option("--drop-count", help="--valet only: Butler/Bastille datum, results dropped at each end.")] = 1,
        butler_drop_percent: Annotated[float | None, typer.Option("--drop-percent", help="--valet only: drop this percentage at each end instead (De Wael's fractional rule).")] = None,
        mp_top: Annotated[float | None, typer.Option(help="Matchpoints per result beaten, overriding what the events say: 2, or 1 as some federations score. Not with --valet.")] = None,
        min_boards: MinBoardsOpt = MIN_BOARDS,
        as_json: JsonOpt = False,
        via_flow: FlowOpt = False,
    ) -> None:  # fmt: skip
        """Score events as their directors publish them, and compare with what they published.

        Reads the store (--db, the default) or FILE... directly. Each event is scored by its own
        rules: matchpoints (top 2 per result beaten, or 1, as its scorer) with percentages per
        session and event and NS/EW rankings for two-winner Mitchells, cross-IMP or Butler pairs,
        or teams (IMPs against the other room, WBF 20-VP scale, Butler for the pairs). Writes
        results.csv (one row per table result), ranking.csv, teams.csv and butler.csv (teams
        events), errors.csv and report.md, which says how many of our values agree with every
        published matchpoint, IMP, percentage and place. With --db the scores and the Lehman
        ratings (ratings.csv) are also kept in the store; only changed events are rescored.
        """
        if valet is not None:
            _score_valet(valet, db, event, out, mp_method, cross_imps_divide_by, butler_drop_count,
                         butler_drop_percent,
                         min_boards, as_json, via_flow)  # fmt: skip
            return
        from store import StoreLockedError

        try:
            if files:
                if db is not None:
                    err.print("give either FILE... or --db, not both", markup=False)
                    raise typer.Exit(2)
                from cli.inputs import require_readable
                from stages.scoring import score_files

                require_readable(files)  # none readable: one line each, exit 2
                summary = score_files([str(f) for f in files], str(out), mp_method.value, mp_top)
            else:
                from stages.scoring_stage import score_store
                from store import Store

                stop_if_empty(db, "score")

                path = db or DEFAULT_DB
                if not path.is_file():
                    raise FileNotFoundError(f"DuckDB file not found: {path}")
                with Store(path) as store:
                    summary = score_store(store, str(out), mp_method.value, event, None, mp_top)
        except (FileNotFoundError, StoreLockedError, ValueError) as exc:
            err.print(f"error: {exc}", markup=False, soft_wrap=True)
            raise typer.Exit(2) from None
        if as_json:
            print(json.dumps(summary, indent=2, default=str))
        else:
            _show_events(summary)
        from cli.inputs import require_scored

        read = summary.get("records_read", summary["results"] + summary["errors"])
        if files or read:  # an empty store is nothing to do; files that score nothing fail
            require_scored(summary["results"], read, summary["errors"],
                           summary.get("hand_record_deals", 0), summary.get("events", 0))  # fmt: skip

    @app.command("split")
    def split(
        valet: ValetOpt = None,
        db: DbOpt = None,
        event: EventOpt = None,
        out: Annotated[Path, typer.Option(help="Directory for pairs.csv, players.csv and split_report.md.")] = Path("out/split"),
        min_boards: MinBoardsOpt = MIN_BOARDS,
        as_json: JsonOpt = False,
        via_flow: FlowOpt = False,
    ) -> None:  # fmt: skip
        """Split each table's Butler score into bid, declarer play, defence and luck (Cammarata 2015).

        Checks Theorem 1 (Butler_jk = Bid_jk + Play_j + Play_k) on every pair of tables and writes
        pairs.csv and players.csv with players, boards, butler, bid, play, defence, luck in IMPs
        per board, errors.csv and split_report.md with the top 20 by each measure.
        """
        from stages.split import run_split

        summary = _run("split", valet, db, event, out, via_flow, {"min_boards": min_boards},
                       lambda loaded: run_split(loaded, out, min_boards))  # fmt: skip
        _show(
            summary,
            as_json,
            "Players",
            "players.csv",
            ["players", "boards", "butler", "bid", "play", "defence", "luck"],
            min_boards,
        )
        if not as_json:
            console.print(
                f"Theorem 1 max residual over all pairs of tables: {summary['max_residual']:.2e} IMPs"
            )

    @app.command("lehman")
    def lehman(
        valet: ValetOpt = None,
        db: DbOpt = None,
        event: EventOpt = None,
        out: Annotated[Path, typer.Option(help="Directory for ratings.csv and lehman_report.md.")] = Path("out/lehman"),
        lehman_scale: Annotated[Scale, typer.Option("--scale", help="Rate on matchpoint % (mp) or cross-IMPs mapped to % (imps).")] = Scale.imps,
        lehman_start_rating: Annotated[float, typer.Option("--start-rating", help="Rating of a new player (%).")] = 50.0,
        lehman_start_weight: Annotated[float, typer.Option("--start-weight", help="Boards' worth of belief in the start rating: lower moves new players faster.")] = 10.0,
        lehman_history_weight: Annotated[float, typer.Option("--history-weight", help="Per-period discount of past boards (1 = no discount).")] = 0.9,
        lehman_max_weight: Annotated[float, typer.Option("--max-weight", help="Cap on the backlog weight (boards), so established players still move.")] = 1000.0,
        lehman_imp_top: Annotated[float, typer.Option("--imp-top", help="IMPs per board that count as 100% on the IMP scale.")] = 12.0,
        min_boards: MinBoardsOpt = MIN_BOARDS,
        as_json: JsonOpt = False,
        via_flow: FlowOpt = False,
    ) -> None:  # fmt: skip
        """Lehman ratings, updated period by period (Valet rounds, or events in the store).

        Writes ratings.csv (player, rating, boards, std_error, period, effective_boards; one row
        per player and period played), errors.csv and lehman_report.md with the top 20.
        """
        from ddrank.ratings.lehman import LehmanParams
        from stages.field import run_lehman

        scale = lehman_scale
        overrides = {"start_rating": lehman_start_rating, "start_weight": lehman_start_weight,
                     "history_weight": lehman_history_weight, "max_weight": lehman_max_weight,
                     "imp_top": lehman_imp_top}  # fmt: skip
        try:
            params = LehmanParams(**overrides)
        except ValueError as exc:
            err.print(Text.assemble(("error:", "bold red"), f" {exc}"), soft_wrap=True)
            raise typer.Exit(2) from None
        summary = _run("lehman", valet, db, event, out, via_flow,
                       {"scale": scale.value, "lehman": overrides, "min_boards": min_boards},
                       lambda loaded: run_lehman(loaded, out, scale.value, params, None, min_boards))  # type: ignore[arg-type]  # fmt: skip
        if as_json:
            print(json.dumps(summary, indent=2, default=str))
            return
        table = Table(title=f"Lehman ratings ({scale.value}): top 5", title_justify="left")
        for c in ("player", "rating", "boards", "std_error", "period"):
            table.add_column(c)
        for r in summary["top"]:
            table.add_row(
                r["player"],
                f"{r['rating']:.2f}",
                str(r["boards"]),
                f"{r['std_error']:.2f}",
                r["period"],
            )
        console.print(table)
        for f in summary["files"]:
            console.print(Text.assemble(("wrote", "dim"), f" {f}"))
