"""The site's commands: `ddrank report` writes the static site (the command keeps its name: users
type it), `ddrank player NAME` and `ddrank event NAME` show its pages in the terminal."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer

from cli.options import JsonOpt, StoreOpt, stop_if_empty
from cli.render import console, emit_json, err_console, friendly_errors
from store.defaults import DEFAULT_DB

OutOpt = Annotated[
    Path,
    typer.Option("--out", help="Output folder: the site goes to OUT/site/, the regression "
                 "report is read from OUT/regression/."),
]  # fmt: skip


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


@contextmanager
def _stored(db: Path) -> Iterator[Any]:
    """The store at `db`, read-only, for a lookup (`ddrank player`, `ddrank event`); a missing file
    is one clear error, not DuckDB's."""
    from store import Store

    if not db.is_file():
        raise FileNotFoundError(f"{db}: no such store (run `ddrank run` first, or pass --db)")
    with Store(db, read_only=True) as store:
        yield store


def _f(v: Any, digits: int = 2) -> str:
    """A number or a name as a table cell; names are escaped (rich would read '[x]' as markup)."""
    from rich.markup import escape

    from ddrank.site.stats import fmt_num

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
            # a progress line (a spinner on a terminal; in a log, a line every 10 s): the site of a
            # big store takes minutes, and `console.status` showed nothing in a pipe
            from cli.progress import stage_progress
            from stages.progress import stage

            with stage_progress(disable=json), stage("site"):
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
        name: Annotated[
            str,
            typer.Argument(
                help="Player name, or a unique part of it (accents and case do not matter)."
            ),
        ],
        db: StoreOpt = DEFAULT_DB,
        top: Annotated[int, typer.Option(help="Costliest mistakes to show.")] = 5,
        json: JsonOpt = False,
    ) -> None:
        """One player's profile from the store: boards, rating, DD mistake rates with percentiles, partners, and the costliest mistakes in each event's own units."""
        from stages.lookup import pick, player_profile, players

        with friendly_errors(), _stored(db) as store:
            by_label = players(store)
            who = by_label[pick(name, list(by_label), "player")]
            found = player_profile(store, who, by_label, top)
        show_player(found, json)

    @app.command()
    def event(
        name: Annotated[
            str,
            typer.Argument(
                help="Event name, or a unique part of it (accents and case do not matter)."
            ),
        ],
        db: StoreOpt = DEFAULT_DB,
        top: Annotated[int, typer.Option(help="Lines of each ranking to show.")] = 20,
        json: JsonOpt = False,
    ) -> None:
        """An event's ranking per section and direction, as the scoring stage stored it, with how it was scored and its agreement with the published values."""
        from stages.lookup import event_names, event_summary, pick

        with friendly_errors(), _stored(db) as store:
            names = event_names(store)
            if not names:
                raise ValueError(f"no scored event in {db}: `ddrank score --db {db}` scores "
                                 "its events")  # fmt: skip
            found = event_summary(store, names[pick(name, list(names), "event")])
        show_event(found, top, json)


def show_player(found: dict[str, Any], as_json: bool) -> None:
    """A player's profile on the terminal (or as JSON)."""
    from rich.table import Table

    from ddrank.site.profile import profile

    lines = profile(found["totals"], found["field"])
    rating = found["rating"]
    if as_json:
        emit_json({
            "player": found["name"], "identity": found["player"], "boards": found["boards"],
            "analysed_boards": found["totals"].get("analysed_boards", 0),
            "events": found["events"], "rating": rating,
            "profile": [{"category": ln.category.key, "mistakes": ln.mistakes,
                         "opportunities": ln.opportunities, "rate": ln.rate,
                         "rate_interval": [ln.rate_low, ln.rate_high],
                         "percentile": ln.percentile,
                         "percentile_interval": [ln.percentile_low, ln.percentile_high],
                         "too_few": ln.too_few} for ln in lines],
            "partners": found["partners"],
            "costliest": [{k: m[k] for k in MISTAKE_FIELDS} for m in found["costliest"] or []],
        })  # fmt: skip
        return
    head = f"{found['name']}: {found['boards']:,} boards in {len(found['events'])} event(s)"
    if rating:
        se = rating.get("std_error")
        head += f"; Lehman rating {_f(rating.get('rating'))}" + (f" ± {_f(se)}" if se else "")
    console.print(head, markup=False, style="bold")
    for ev, n in list(found["events"].items())[:10]:
        console.print(f"  {ev}: {n:,} boards", markup=False, soft_wrap=True)
    if not found["totals"].get("analysed_boards"):  # no DD analysis: every rate would be 0 / 0
        console.print("Double-dummy mistake profile: none yet (the double-dummy analysis of this "
                      "player's boards has not run: `ddrank run`, or `ddrank results "
                      "--double-dummy`)", markup=False, soft_wrap=True)  # fmt: skip
    else:
        _profile_table(lines)
    p = Table(title="Partners", title_justify="left")
    p.add_column("partner")
    p.add_column("boards", justify="right")
    for partner, n in found["partners"][:5]:
        p.add_row(_f(partner), str(n))
    console.print(p)
    show_costliest(found["costliest"], found["names"])


def _profile_table(lines: list[Any]) -> None:
    """The DD mistake profile: rate, interval and percentile per category."""
    from rich.table import Table

    from ddrank.site.profile import count_text

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


#: What `ddrank player --json` gives of each costly mistake (sql/mistakes_schema.sql).
MISTAKE_FIELDS = ("rank", "event", "board", "seat", "kind", "trick", "position", "card", "call",
                  "what", "instead", "tricks", "dd_points", "cost", "unit", "basis")  # fmt: skip


def show_costliest(rows: list[dict[str, Any]] | None, names: dict[str, str]) -> None:
    """The costliest mistakes: where (trick and card, or call), what, what DD would have done,
    and the cost in the event's units; hypothetical costs labelled, after the real ones."""
    from rich.table import Table

    from ddrank.mistakes.words import cost_words, where_words

    if rows is None:
        console.print("Costliest mistakes: not valued yet in this store (`ddrank report` values "
                      "them)", markup=False)  # fmt: skip
        return
    if not rows:
        console.print("Costliest mistakes: none analysed (the double-dummy analysis of this "
                      "player's boards has not run: `ddrank run`, or `ddrank results "
                      "--double-dummy`)", markup=False, soft_wrap=True)  # fmt: skip
        return
    c = Table(title="Costliest mistakes (in each event's units; hypothetical costs last)",
              title_justify="left")  # fmt: skip
    for col in ("event", "board", "where", "mistake", "double dummy", "cost"):
        c.add_column(col, justify="right" if col == "cost" else "left", overflow="fold")
    for m in rows:
        c.add_row(_f(names.get(m["event"], m["event"])), _f(m["board"]), _f(where_words(m)),
                  _f(m["what"]), _f(m["instead"]), _f(cost_words(m)))  # fmt: skip
    console.print(c)


def show_event(found: dict[str, Any], top: int, as_json: bool) -> None:
    """An event's header line and its ranking per section and direction."""
    from publish.rankings import event_title, ranking_text

    ranking = found.get("ranking")
    if as_json:
        emit_json(found)
        return
    title = event_title(ranking) if ranking else found["event"]
    console.print(f"{title}: {found.get('results', 0):,} results on {found.get('boards', 0):,} "
                  f"boards, {found.get('players', 0):,} players", markup=False, style="bold")  # fmt: skip
    if ranking is None:
        err_console.print("no ranking stored for this event", markup=False)
        return
    console.print(ranking_text([ranking], top=top), markup=False, highlight=False, soft_wrap=True)
