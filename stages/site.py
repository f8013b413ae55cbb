"""Site stage: read everything the results-and-players site shows from the store, then publish it.

The site renders from what the store has: the event model (`events`, boards' session/section),
scoring (`scored_results`, `rankings`, `ratings`, `rating_history`) and Bayesian ratings
(`skill_ratings`) are used when present, and each page says plainly when one is absent. The event
list with its counts and each player's events and partners are counted in SQL; each batch of
events' rows is read when the site renders it (`stages.site_reader`), so memory holds one batch,
not the archive. Queries: sql/queries/site.sql, sql/queries/site_events.sql.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from ddrank.site.costly import TOP as COSTLY_LISTED
from ddrank.site.data import ByEvent, SiteData
from publish.site import write_site
from stages.audit import audit_tables
from stages.dd import compute_par
from stages.dd_explain import fill_card_alternatives
from stages.mistakes import cost_mistakes
from stages.seats import read_who
from stages.site_reader import BY_EVENT, SiteReader
from store import Store
from store.store import StoreNotWritableError

Row = dict[str, Any]
#: Tables other stages write, shown when present.
OPTIONAL_TABLES = ("events", "rankings", "ratings", "rating_history", "skill_ratings",
                   "published_standings", "team_matches", "player_results",
                   "scoring_errors")  # fmt: skip


#: Optional tables with rows per player, read for the player pages a chunk of players at a
#: time (`PlayerRows`), not whole: they grow with the archive's players and periods.
PER_PLAYER = {"rating_history": "site_rating_history_of", "skill_ratings": "site_skill_ratings_of"}


class PlayerRows:
    """An optional table's rows of each player (in the table's order), read from the store
    `chunk` players at a time in the order the pages ask for them (`plan`), so memory holds one
    chunk's rows, not the table. `get(name, default)` as a dict's."""

    def __init__(self, store: Store, query: str, chunk: int = 2_000) -> None:
        self.store, self.query, self.chunk = store, query, chunk
        self.order: list[str] = []
        self.position: dict[str, int] = {}
        self.loaded: set[str] = set()
        self.rows: dict[str, list[Row]] = {}

    def plan(self, names: list[str]) -> None:
        """The players in the order their pages are written."""
        self.order = list(names)
        self.position = {n: i for i, n in enumerate(self.order)}

    def get(self, name: str, default: Any = None) -> Any:
        if name not in self.loaded:
            at = self.position.get(name)
            names = [name] if at is None else self.order[at : at + self.chunk]
            self.rows = {}
            for row in self.store.rows(self.query, players=names):
                self.rows.setdefault(row["player"], []).append(row)
            self.loaded = set(names)
        return self.rows.get(name, default)


def read_optional(store: Store) -> dict[str, Any]:
    """The tables other stages write, when present: rankings, ratings, history, skill ratings
    (those of `PER_PLAYER` as `PlayerRows`; those naming an event, `BY_EVENT`, and the players'
    own results are read with each batch of events (`SiteReader.load`), `ByEvent` here)."""
    tables = {name for (name,) in store.tuples("site_table_names")}
    return {
        name: PlayerRows(store, PER_PLAYER[name]) if name in PER_PLAYER
        else ByEvent(name) if name in BY_EVENT or name == "player_results"
        else store.rows("site_table_rows", table=name)
        for name in OPTIONAL_TABLES
        if name in tables
    }  # fmt: skip


def read_regression(out_dir: Path) -> Row | None:
    """The regression report's numbers (OUT/regression/report.json), when it was written."""
    path = out_dir / "regression" / "report.json"
    if not path.is_file():
        return None
    try:
        return json.loads(path.read_text())
    except (OSError, json.JSONDecodeError):
        return None


def load_site_data(store: Store, out_dir: Path, audit: dict[str, Any]) -> SiteData:
    """What the site shows that is not one event's: the event list and the players' counts come
    from SQL, each event's rows when it is rendered (`SiteData.reader`, on this open store).

    `audit` is the clean stage's audit (Tables 5-7), computed by the caller from the same store.
    """
    t0 = time.perf_counter()
    labels = read_who(store)
    tables = {name for (name,) in store.tuples("site_table_names")}
    data = SiteData(
        audit=audit,
        sources=store.rows("site_sources"),
        results=[],
        dd_tables={},
        seats=[],
        player_totals={r["player"]: r for r in store.rows("site_player_totals")},
        optional=read_optional(store),
        regression=read_regression(out_dir),
        regression_dir=out_dir / "regression",
        labels=labels,
        hand_deals=store.rows("site_hand_deals") if "deals" in tables else [],
        mistake_costs=(
            store.rows("site_costly_mistakes", top=COSTLY_LISTED)
            if "mistake_costs" in tables
            else []
        ),
        reader=SiteReader(store, tables),
    )
    data.seconds_read = time.perf_counter() - t0
    return data


def site_data_of(store: Store, out: str | Path, fill_par: bool = False) -> tuple[SiteData, int]:
    """The site's data from an open store (a pipeline run's), and how many deals got their par
    first (stores built before par existed). With `fill_par` the DD-best cards at each costly
    card are found first too (within `stages.dd_explain.DEFAULT_BUDGET` seconds), and the
    mistakes' costs in the events' units (`stages.mistakes`). The data reads the store while the
    site is rendered: keep it open until then."""
    par_rows = compute_par(store) if fill_par else 0
    if fill_par:
        fill_card_alternatives(store)
        cost_mistakes(store)  # what each mistake cost, for the player pages
    return load_site_data(store, Path(out), audit_tables(store)), par_rows


def _build(store: Store, out: str | Path, fill_par: bool) -> Row:
    data, par_rows = site_data_of(store, out, fill_par)
    summary = write_site(data, Path(out) / "site")
    summary["par_filled"] = par_rows
    summary["seconds_read"] = round(data.seconds_read, 3)
    return summary


def build_site(db: str | Path | Store, out: str | Path, fill_par: bool = True) -> Row:
    """The stage's entry point: write `out/site/` from the store (a run's open `Store`, or the
    file `db`: read-only unless `fill_par`); return where it went and what it holds. A store
    that cannot be written is read as it is: par, DD-best cards and costs it lacks stay missing,
    and the pages say so."""
    if isinstance(db, Store):
        return _build(db, out, fill_par)
    if fill_par:
        try:
            with Store(db) as store:
                return _build(store, out, fill_par)
        except StoreNotWritableError:
            pass
    with Store(db, read_only=True) as store:
        return _build(store, out, False)
