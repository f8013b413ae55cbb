"""``ddrank rate``: ddrank's skill ratings, with a standard error per component."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cli.options import MIN_BOARDS, StoreOpt, stop_if_empty
from store.defaults import DEFAULT_DB


def register(app: typer.Typer) -> None:
    @app.command("rate")
    def rate_command(
        valet: Annotated[Path | None, typer.Option("--valet", file_okay=False, help="Rate a Valet directory (scores.txt, names.txt; DD facts from dd_tables.csv/dd_leads.csv when present) instead of the store; nothing is written.")] = None,
        db: StoreOpt = DEFAULT_DB,
        event: Annotated[str | None, typer.Option(help="Only this event of the store.")] = None,
        skill_full: Annotated[bool, typer.Option("--full", help="Forget the stored ratings and rate every period again (default: from the first period an added or changed event touches).")] = False,
        skill_component: Annotated[str, typer.Option("--component", help="Component shown: bidding, declarer, defence, opening_lead or partnership.")] = "bidding",
        top: Annotated[int, typer.Option(help="Rows shown.")] = 15,
        skill_min_boards: Annotated[int, typer.Option("--min-boards", help="Shown players need this many boards.")] = MIN_BOARDS,
        as_json: Annotated[bool, typer.Option("--json", help="Print every rating row as JSON.")] = False,
    ) -> None:  # fmt: skip
        """Rate players on bidding, declarer play, defence and opening lead (IMPs or tricks per
        board, each with a standard error), from board results and double-dummy evidence.

        The store keeps them in skill_ratings; a later run rates from the first period an added or changed event touches.
        With --valet a tournament directory is rated round by round.
        """
        from cli.render import console, emit_json, friendly_errors

        full, component, min_boards = skill_full, skill_component, skill_min_boards
        from ddrank.ratings import skill as sk

        comps = (*sk.COMPONENTS, sk.PARTNERSHIP)
        if component not in comps:
            from cli.render import err_console

            err_console.print(f"error: --component must be one of {', '.join(comps)}", markup=False)
            raise typer.Exit(2)
        if valet is None:
            stop_if_empty(db, "rate")
        with friendly_errors():
            if valet is not None:
                from stages.skill import rate_rows, valet_skill_rows

                rows = valet_skill_rows(valet)
                states, rated, params = rate_rows(rows)
                summary = {"periods_rated": rated, "boards": len(rows),
                           "imps_per_trick": params.imps_per_trick}  # fmt: skip
                table_rows = sk.player_rows(states)
            else:
                from stages.scoring import load_store, score_and_save
                from stages.skill import rate_store, skill_table
                from store import Store

                if not Path(db).is_file():
                    raise FileNotFoundError(f"{db} not found: run `ddrank run` (or ingest) first")
                with Store(db) as store:
                    score_and_save(store, load_store(store))  # events not scored yet, if any
                    summary = rate_store(store, event, full)
                    table_rows = skill_table(store)
        if as_json:
            emit_json({"summary": summary, "ratings": table_rows})
            return
        from rich.table import Table

        shown = [r for r in table_rows if r["component"] == component and r["boards"] >= min_boards]
        shown.sort(key=lambda r: -float(r["rating"]))
        unit = "IMPs/board" if component in ("bidding", "partnership") else "tricks/board"
        t = Table(title=f"{component} ({unit}): top {top} with >= {min_boards} boards",
                  title_justify="left")  # fmt: skip
        for c in ("player", "rating", "se", "boards"):
            t.add_column(c, justify="left" if c == "player" else "right")
        for r in shown[:top]:
            t.add_row(str(r["player"]), f"{r['rating']:+.3f}", f"{r['se']:.3f}", str(r["boards"]))
        console.print(t)
        console.print(f"{len(summary['periods_rated'])} period(s) rated from {summary['boards']:,} "
                      f"table results; one trick = {summary['imps_per_trick']:.2f} IMPs")  # fmt: skip
