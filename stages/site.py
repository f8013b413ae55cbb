"""Site stage: read everything the results-and-players site shows from the store, then publish it.

The site renders from what the store has: the event model (`events`, boards' session/section),
scoring (`scored_results`, `rankings`, `ratings`, `rating_history`) and Bayesian ratings
(`skill_ratings`) are used when present, and each page says plainly when one is absent. Every query
reads the whole store at once (no query per player or per event), so the site of the bundled
sample takes seconds. Queries: sql/queries/site.sql.
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from ddrank.scoring.arithmetic.duplicate import duplicate_score
from ddrank.scoring.intake.records import event_label
from ddrank.site.costly import TOP as COSTLY_LISTED
from ddrank.site.data import SiteData
from ddrank.site.handrecord import dd_cells
from ddrank.types import Contract, DomainError, Seat
from publish.site import write_site
from stages.audit import audit_tables
from stages.dd import compute_par
from stages.dd_explain import fill_card_alternatives
from stages.mistakes import cost_mistakes
from stages.seats import read_who
from store import Store
from store.store import StoreNotWritableError

Row = dict[str, Any]
#: Tables other stages write, shown when present.
OPTIONAL_TABLES = ("events", "rankings", "ratings", "rating_history", "skill_ratings",
                   "published_standings", "team_matches", "player_results",
                   "scoring_errors")  # fmt: skip


def read_results(store: Store) -> list[Row]:
    """Every kept table result with its DD tricks for the contract played and the deal's par."""
    rows = sorted(store.rows("site_results"), key=_traveller_order)
    scored = {r["record_id"]: r for r in store.rows("site_scored_results")}
    for row in rows:
        row["model_event_id"] = row.get("event_id")  # the event model's id (events, standings)
        row["event_id"] = event_label(row)  # as the scoring stage names the event
        row["ns_points"] = ns_points(row)
        row["scored"] = scored.get(row["record_id"], {})
    return rows


def _int_or(v: Any, default: int = 10**9) -> int:
    try:
        return int(str(v).strip())
    except (TypeError, ValueError):
        return default


def _traveller_order(r: Row) -> tuple:
    """Session, section, board number, deal, room or table: the order of a results booklet."""
    return (str(r.get("session") or ""), str(r.get("section") or ""), _int_or(r.get("board_no")),
            str(r.get("board_no") or ""), str(r.get("deal_id") or ""), str(r.get("room") or ""),
            _int_or(r.get("table_no")), r["record_id"])  # fmt: skip


def ns_points(row: Row) -> int | None:
    """North-South's score of a result (None when the contract or tricks are unknown)."""
    contract, declarer, tricks = row.get("contract"), row.get("declarer"), row.get("result")
    if contract == "P":
        return 0
    if not contract:
        return _plain_score(row)
    if not declarer or tricks is None:
        return None
    try:
        seat = Seat.parse(declarer)
        c = Contract.parse(contract, declarer=seat)
        vul = row["ns_vulnerable"] if seat.is_ns else row["ew_vulnerable"]
        points = duplicate_score(c, int(tricks), bool(vul), int(row.get("year") or 0))
    except DomainError:
        return None
    return points if seat.is_ns else -points


def _plain_score(row: Row) -> int | None:
    """The score a score-only line records (no contract: a game file, an XML file without contracts),
    North-South's; None for an adjusted or unplayed line."""
    if row.get("adjusted"):
        return None
    try:
        return int(float(str(row.get("ns_score")).strip()))
    except (TypeError, ValueError):
        return None


def read_dd_tables(store: Store) -> dict[str, dict[tuple[str, str], int]]:
    out: dict[str, dict[tuple[str, str], int]] = defaultdict(dict)
    for deal_id, strain, declarer, tricks in store.tuples("site_dd_tables"):
        out[deal_id][(strain, declarer)] = tricks
    return dict(out)


def read_optional(store: Store) -> dict[str, list[Row]]:
    """The tables other stages write, when present: rankings, ratings, history, skill ratings."""
    tables = {name for (name,) in store.tuples("site_table_names")}
    return {
        name: store.rows("site_table_rows", table=name)
        for name in OPTIONAL_TABLES
        if name in tables
    }


def read_alternatives(store: Store, tables: set[str]) -> tuple[dict[tuple[str, int], str],
                                                                dict[tuple[str, int], str]]:  # fmt: skip
    """(record_id, card index) -> the DD-best cards there, and -> every legal card's DD tricks
    ('SA:4 S2:3'), when the store has them."""
    if "dd_card_alternatives" not in tables:
        return {}, {}
    best, values = {}, {}
    for r in store.rows("site_card_alternatives"):
        key = (r["record_id"], int(r["card_index"]))
        best[key] = r["best_cards"]
        if r.get("card_values"):
            values[key] = r["card_values"]
    return best, values


def read_published_dd(store: Store, tables: set[str]) -> dict[str, dict[tuple[str, str], int]]:
    """deal_id -> the DD table a file published for it (hand records' too, by their deal)."""
    out: dict[str, dict[tuple[str, str], int]] = {}
    if "published_dd" in tables:
        for deal_id, digits in store.tuples("site_published_dd"):
            if cells := dd_cells(digits):
                out[deal_id] = cells
    return out


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
    """Everything the site shows, read in one pass over the store.

    `audit` is the clean stage's audit (Tables 5-7), computed by the caller from the same store.
    """
    t0 = time.perf_counter()
    labels = read_who(store)
    tables = {name for (name,) in store.tuples("site_table_names")}
    alternatives, card_values = read_alternatives(store, tables)
    data = SiteData(
        audit=audit,
        sources=store.rows("site_sources"),
        results=read_results(store),
        dd_tables=read_dd_tables(store),
        seats=store.rows("site_seats"),
        player_totals={r["player"]: r for r in store.rows("site_player_totals")},
        optional=read_optional(store),
        regression=read_regression(out_dir),
        regression_dir=out_dir / "regression",
        labels=labels,
        alternatives=alternatives,
        card_values=card_values,
        published_dd=read_published_dd(store, tables),
        hand_deals=store.rows("site_hand_deals") if "deals" in tables else [],
        mistake_costs=(
            store.rows("site_costly_mistakes", top=COSTLY_LISTED)
            if "mistake_costs" in tables
            else []
        ),
        table_costs=store.rows("site_table_costs") if "mistake_costs" in tables else [],
    )
    data.seconds_read = time.perf_counter() - t0
    return data


def read_site_data(db: str | Path, out: str | Path, fill_par: bool = False) -> tuple[SiteData, int]:
    """The site's data from the store `db` (read-only unless `fill_par`), and how many deals got
    their par first (stores built before par existed). With `fill_par` the DD-best cards at each
    costly card are found first too (within `stages.dd_explain.DEFAULT_BUDGET` seconds), and the
    mistakes' costs in the events' units (`stages.mistakes`). A store that cannot be written is
    read as it is: par, DD-best cards and costs it lacks stay missing, and the pages say so."""
    if fill_par:
        try:
            with Store(db) as store:
                return site_data_of(store, out, fill_par)
        except StoreNotWritableError:
            pass
    with Store(db, read_only=True) as store:
        return site_data_of(store, out)


def site_data_of(store: Store, out: str | Path, fill_par: bool = False) -> tuple[SiteData, int]:
    """`read_site_data` from an open store (a pipeline run's)."""
    par_rows = compute_par(store) if fill_par else 0
    if fill_par:
        fill_card_alternatives(store)
        cost_mistakes(store)  # what each mistake cost, for the player pages
    return load_site_data(store, Path(out), audit_tables(store)), par_rows


def build_site(db: str | Path | Store, out: str | Path, fill_par: bool = True) -> Row:
    """The stage's entry point: write `out/site/` from the store (a run's open `Store`, or the
    file `db`); return where it went and what it holds."""
    if isinstance(db, Store):
        data, par_rows = site_data_of(db, out, fill_par)
    else:
        data, par_rows = read_site_data(db, out, fill_par)
    summary = write_site(data, Path(out) / "site")
    summary["par_filled"] = par_rows
    summary["seconds_read"] = round(data.seconds_read, 3)
    return summary
