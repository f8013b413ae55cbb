"""The site's commands: `ddrank report` writes the static site (the command keeps its name: users
type it), `ddrank player NAME` and `ddrank event NAME` show its pages in the terminal."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from cli.options import JsonOpt, StoreOpt, stop_if_empty
from cli.render import console, emit_json, err_console, friendly_errors
from store.defaults import DEFAULT_DB

ReportsOpt = Annotated[
    Path,
    typer.Option("--reports", help="The output folder of the run that made the store (its "
                 "--out), where the regression report is read from (REPORTS/regression/)."),
]  # fmt: skip
OutOpt = Annotated[
    Path,
    typer.Option("--out", help="Output folder: the site goes to OUT/site/, the regression "
                 "report is read from OUT/regression/."),
]  # fmt: skip


def _load(db: Path, out: Path) -> tuple[Any, Any, list[Any]]:
    """Site data, players and events of a store (read-only: never blocks a writer's data)."""
    from ddrank.site.data import build_events
    from ddrank.site.render import Players
    from stages.site import read_site_data

    if not db.is_file():
        raise FileNotFoundError(f"{db}: no such store (run `ddrank run` first, or pass --db)")
    data, _ = read_site_data(db, out)
    events = build_events(data)
    return data, Players(data, events), events


def _pick(query: str, names: list[str], what: str) -> str:
    """The one name matching `query`: exact, else case-insensitive, else a unique substring."""
    if query in names:
        return query
    low = query.casefold()
    exact = [n for n in names if n.casefold() == low]
    if len(exact) == 1:
        return exact[0]
    hits = [n for n in names if low in n.casefold()]
    if len(hits) == 1:
        return hits[0]
    if not hits:
        raise ValueError(f"no {what} matches {query!r}")
    shown = "; ".join(hits[:10]) + (f"; ... ({len(hits) - 10} more)" if len(hits) > 10 else "")
    raise ValueError(f"{len(hits)} {what}s match {query!r}: {shown}. Be more specific.")


def _build(build_site: Any, db: Path, out: Path) -> dict[str, Any]:
    """The site, or one line and exit 1 when it could not be written (the last good site stays:
    publishing is atomic); a disk full or read-only is `friendly_errors`' one line and exit 2."""
    from store.store import describe_failure

    try:
        return build_site(db, out)
    except OSError as exc:
        if describe_failure(exc) is not None:
            raise
        err_console.print(
            f"error: the site was not written ({exc}); {out / 'site'} is the last "
            "good one, unchanged",
            markup=False,
            highlight=False,
            soft_wrap=True,
        )
        raise typer.Exit(1) from None


def _f(v: Any, digits: int = 2) -> str:
    """A number or a name as a table cell; names are escaped (rich would read '[x]' as markup)."""
    from rich.markup import escape

    from ddrank.site.data import fmt_num

    return escape(fmt_num(v, digits))


def register(app: typer.Typer) -> None:
    @app.command("report")
    def site(
        db: StoreOpt = DEFAULT_DB,
        out: OutOpt = Path("out"),
        json: JsonOpt = False,
    ) -> None:
        """Write the static results-and-players site to OUT/site/ (open OUT/site/index.html).

        Index (events, players with a search box, rating table, sources and exclusions), one page
        per event (rankings, bid/play split, travellers with DD table and par), one page per
        player (rating chart, DD mistake profile with percentiles, partners, costliest boards),
        and a model page with the regression verdict. Works from file:// with no server.
        """
        from stages.site import build_site

        stop_if_empty(db, "publish")
        with friendly_errors():
            if not db.is_file():
                raise FileNotFoundError(f"{db}: no such store (run `ddrank run` first)")
            with console.status("writing the site", spinner="dots") if not json else _null():
                summary = _build(build_site, db, out)
        if json:
            emit_json(summary)
            return
        console.print(
            f"site: [bold]{summary['site']}[/] — {summary['events']} events, "
            f"{summary['players']:,} players ({summary['players_30_boards']:,} with 30+ boards), "
            f"{summary['seconds_read'] + summary['seconds_render']:.1f} s"
        )
        console.print(f"model: {summary['verdict']}", markup=False)

    @app.command()
    def player(
        name: Annotated[str, typer.Argument(help="Player name, or a unique part of it.")],
        db: StoreOpt = DEFAULT_DB,
        reports: ReportsOpt = Path("out"),
        json: JsonOpt = False,
    ) -> None:
        """One player's profile: boards, rating, DD mistake rates with percentiles, partners."""
        from rich.table import Table

        from ddrank.site.profile import profile
        from ddrank.site.render import count_text

        with friendly_errors():
            data, players, events = _load(db, reports)
            by_label: dict[str, str] = {}
            for key in players.names:
                by_label.setdefault(players.label(key), key)
            who = by_label[_pick(name, list(by_label), "player")]
        lines = profile(players.totals.get(who, {}), players.field)
        rating = players.ratings.get(who)
        costly = sorted(players.costly[who], key=lambda c: -c["cost"])[:5]
        if json:
            emit_json({
                "player": players.label(who), "identity": who, "boards": players.boards(who),
                "analysed_boards": players.totals.get(who, {}).get("analysed_boards", 0),
                "events": {e.name: players.events[who][e.event_id] for e in events
                           if e.event_id in players.events[who]},
                "rating": rating,
                "profile": [{"category": ln.category.key, "mistakes": ln.mistakes,
                             "opportunities": ln.opportunities, "rate": ln.rate,
                             "rate_interval": [ln.rate_low, ln.rate_high],
                             "percentile": ln.percentile,
                             "percentile_interval": [ln.percentile_low, ln.percentile_high],
                             "too_few": ln.too_few} for ln in lines],
                "partners": [(players.label(p), n) for p, n in players.partners[who].most_common(10)],
                "costliest": [{"event": c["event"].name, "board": c["board"], "seat": c["seat"],
                               "points": c["cost"]} for c in costly],
            })  # fmt: skip
            return
        head = f"{players.label(who)}: {players.boards(who):,} boards in {len(players.events[who])} event(s)"
        if rating:
            se = rating.get("se", rating.get("std_error"))
            head += f"; Lehman rating {_f(rating.get('rating'))}" + (f" ± {_f(se)}" if se else "")
        console.print(head, markup=False, style="bold")
        t = Table(title="Double-dummy mistake profile", title_justify="left")
        for col, just in (("category", "left"), ("mistakes / chances", "right"),
                          ("rate", "right"), ("95% interval", "right"),
                          ("percentile (100 = best)", "right")):  # fmt: skip
            t.add_column(col, justify=just)  # type: ignore[arg-type]
        for ln in lines:
            label = ln.category.label.replace("Auction, defending:", "auction (defending):")
            label = label.replace("Auction, declaring:", "auction (declaring):")
            if ln.rate is None:
                t.add_row(label, f"0 / 0 {ln.category.unit}", "", "", "no chance")
                continue
            pct = (
                f"too few (< {ln.category.min_opportunities})"
                if ln.percentile is None
                else f"{ln.percentile:.0f} ({ln.percentile_low:.0f}–{ln.percentile_high:.0f})"
            )
            t.add_row(label, f"{count_text(ln.mistakes)} / {ln.opportunities:.0f} "
                      f"{ln.category.unit}", f"{100 * ln.rate:.2f}%",
                      f"{100 * ln.rate_low:.2f}–{100 * ln.rate_high:.2f}%", pct)  # fmt: skip
        console.print(t)
        p = Table(title="Partners", title_justify="left")
        p.add_column("partner")
        p.add_column("boards", justify="right")
        for partner, n in players.partners[who].most_common(5):
            p.add_row(_f(players.label(partner)), str(n))
        console.print(p)
        if costly:
            c = Table(title="Costliest mistakes", title_justify="left")
            for col in ("event", "board", "seat", "points lost"):
                c.add_column(col, justify="right" if col == "points lost" else "left")
            for row in costly:
                c.add_row(
                    _f(row["event"].name), _f(row["board"]), row["seat"], f"{row['cost']:.0f}"
                )
            console.print(c)

    @app.command()
    def event(
        name: Annotated[str, typer.Argument(help="Event name, or a unique part of it.")],
        db: StoreOpt = DEFAULT_DB,
        reports: ReportsOpt = Path("out"),
        top: Annotated[int, typer.Option(help="Lines of the ranking to show.")] = 20,
        json: JsonOpt = False,
    ) -> None:
        """An event's ranking: the store's rankings when present, else pairs by the result
        computed from the travellers (Butler IMPs with the bid/play split, or MP %)."""
        from rich.table import Table

        from ddrank.site.data import pair_matchpoints, pair_split

        with friendly_errors():
            data, _players, events = _load(db, reports)
            labels = [f"{e.name} ({e.year})" if e.year else e.name for e in events]
            chosen = _pick(name, labels, "event")
        ev = events[labels.index(chosen)]
        from ddrank.site.render import RANKING_COLUMNS, event_of, group_rankings

        stored = [
            {k: r.get(k) for k in RANKING_COLUMNS if k in r}
            for r in data.optional.get("rankings", [])
            if event_of(r) == ev.event_id
        ]
        if stored:  # one ranking per kind/session/section, each in rank order
            stored = [{"ranking": g, **r} for g, rows in group_rankings(stored) for r in rows]
            source, rows = "rankings table", stored
        elif ev.scoring == "IMP":
            source, rows = "Butler IMPs per board computed from the travellers", pair_split(ev)
        else:
            source, rows = "matchpoint % computed from the travellers", pair_matchpoints(ev)
        if json:
            emit_json({"event": ev.name, "year": ev.year, "scoring": ev.scoring,
                       "results": len(ev.results), "boards": ev.deals, "source": source,
                       "ranking": rows})  # fmt: skip
            return
        console.print(
            f"{ev.name}: {len(ev.results):,} results on {ev.deals} boards, "
            f"{len(ev.players)} players, {ev.scoring}",
            markup=False, style="bold",
        )  # fmt: skip
        if not rows:
            err_console.print("no ranking: no board of this event was played at two tables")
            return
        t = Table(title=f"Ranking ({source})", title_justify="left")
        cols = [k for k in rows[0] if k not in ("event_id",)]
        t.add_column("#", justify="right")
        for k in cols:
            t.add_column(
                k, justify="left" if k in ("players", "player", "pair", "name") else "right"
            )
        for i, r in enumerate(rows[:top], 1):
            t.add_row(str(i), *(_f(r[k]) for k in cols))
        console.print(t)
        if len(rows) > top:
            console.print(f"... {len(rows) - top} more (--top N)")


def _null() -> Any:
    from contextlib import nullcontext

    return nullcontext()
