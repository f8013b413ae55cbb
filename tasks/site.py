"""Read everything the results-and-players site shows from the store, in a few batched queries.

The site renders from what the store has: the event model (`events`, boards' session/section),
scoring (`scored_results`, `rankings`, `ratings`, `rating_history`) and Bayesian ratings
(`skill_ratings`) are used when present, and each page says plainly when one is absent. Every query
reads the whole store at once (no query per player or per event), so a report of the bundled
sample takes seconds.
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import duckdb
from prefect import task
from prefect.cache_policies import NO_CACHE

from ddrank.mistakes.variables import VARIABLES
from ddrank.scoring.duplicate import duplicate_score
from ddrank.site.data import SiteData
from ddrank.types import Contract, DomainError, Seat
from tasks.report import audit_tables

Row = dict[str, Any]

#: The player at a seat: the matched ranking name, else the name as written in the record.
_WHO = """
SELECT record_id, CAST(seat AS INTEGER) AS seat,
       coalesce(player, nullif(trim(raw_name), '')) AS player
FROM board_players
WHERE coalesce(player, nullif(trim(raw_name), '')) IS NOT NULL
"""


def _rows(con: duckdb.DuckDBPyConnection, query: str, params: list | None = None) -> list[Row]:
    cur = con.cursor()
    try:
        cur.execute(query, params or [])
        names = [d[0] for d in cur.description]
        return [dict(zip(names, r, strict=True)) for r in cur.fetchall()]
    finally:
        cur.close()


def _tables(con: duckdb.DuckDBPyConnection) -> set[str]:
    return {
        r[0] for r in con.execute("SELECT table_name FROM information_schema.tables").fetchall()
    }


def _columns(con: duckdb.DuckDBPyConnection, table: str) -> set[str]:
    return {
        r[0]
        for r in con.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_name = ?", [table]
        ).fetchall()
    }


def _col(cols: set[str], name: str, alias: str | None = None, prefix: str = "b.") -> str:
    """`b.name AS alias` when the column exists, else a NULL of that name."""
    return f"{prefix}{name} AS {alias or name}" if name in cols else f"NULL AS {alias or name}"


def _event_key(board_cols: set[str]) -> str:
    """The event a board belongs to, as the scoring stage names it (`event_label`): the store's
    event_id, else 'name (year)' (the name alone when it already holds the year)."""
    named = (
        "CASE WHEN coalesce(b.year, 0) > 0 AND strpos(coalesce(b.event, ''), "
        "CAST(b.year AS VARCHAR)) = 0 THEN coalesce(b.event, '') || ' (' || "
        "CAST(b.year AS VARCHAR) || ')' ELSE coalesce(b.event, '') END"
    )
    if "event_id" in board_cols:
        return f"coalesce(nullif(CAST(b.event_id AS VARCHAR), ''), {named})"
    return named


def read_results(con: duckdb.DuckDBPyConnection, tables: set[str]) -> list[Row]:
    """Every kept table result with its DD tricks for the contract played and the deal's par."""
    cols = _columns(con, "boards")
    raw_cols = _columns(con, "raw_records")
    extra = [
        _col(cols, c)
        for c in ("session", "section", "round", "table_no", "ns_pair", "ew_pair", "ns_score",
                  "adjusted", "phantom", "published_ns_mp", "published_ew_mp",
                  "published_ns_pct", "published_ew_pct", "published_imps", "date")
    ]  # fmt: skip
    # before the event model, the PBN [Stage]/[Round] and [Scoring] tags live in raw_records
    if "session" not in cols and "stage" in raw_cols:
        extra[0] = "nullif(r.stage, '') AS session"
    scoring = "NULL AS scoring"
    if "scoring" in cols:
        scoring = "nullif(b.scoring, '') AS scoring"
    elif "scoring" in raw_cols:
        scoring = "nullif(r.scoring, '') AS scoring"
    # the par a source published (boards.par_* in the event model), shown beside ours
    for c in ("par_score", "par_contract"):
        extra.append(_col(cols, c, f"published_{c}"))
    par_cols, par_join = "NULL AS par_score, NULL AS par_contract", ""
    if "dd_par" in tables:
        par_cols = "p.par_score, p.par_contract"
        par_join = """LEFT JOIN dd_par p ON p.deal_id = b.deal_id AND p.dealer = b.dealer
         AND p.vulnerable = CASE WHEN b.ns_vulnerable AND b.ew_vulnerable THEN 'All'
              WHEN b.ns_vulnerable THEN 'NS' WHEN b.ew_vulnerable THEN 'EW' ELSE 'None' END"""
    query = f"""
    SELECT b.record_id, {_event_key(cols)} AS event_id, b.event, b.year, b.board_no, b.room,
           b.home_team, b.visit_team, b.northname, b.eastname, b.southname, b.westname,
           b.deal_id, b.deal, b.dealer, b.ns_vulnerable, b.ew_vulnerable, b.contract, b.declarer,
           b.result, b.claim_tricks, b.opening_leader, b.auction, b.bidstart,
           r.source_file, r.source_line, {scoring}, {", ".join(extra)},
           t.tricks AS dd_tricks, {par_cols}
    FROM boards b
    LEFT JOIN raw_records r USING (record_id)
    LEFT JOIN dd_tables t ON t.deal_id = b.deal_id AND t.declarer = b.declarer
         AND t.strain = substr(b.contract, 2, 1)
    {par_join}
    ORDER BY event_id, session NULLS FIRST, section NULLS FIRST,
             try_cast(b.board_no AS INTEGER) NULLS LAST, b.board_no, b.deal_id, b.room,
             try_cast(table_no AS INTEGER) NULLS LAST, b.record_id
    """
    rows = _rows(con, query)
    scored: dict[str, Row] = {}
    if "scored_results" in tables:
        scored = {r["record_id"]: r for r in _rows(con, "SELECT * FROM scored_results")}
    for row in rows:
        row["ns_points"] = ns_points(row)
        row["scored"] = scored.get(row["record_id"], {})
    return rows


def ns_points(row: Row) -> int | None:
    """North-South's score of a result (None when the contract or tricks are unknown)."""
    contract, declarer, tricks = row.get("contract"), row.get("declarer"), row.get("result")
    if contract == "P":
        return 0
    if not contract or not declarer or tricks is None:
        return None
    try:
        seat = Seat.parse(declarer)
        c = Contract.parse(contract, declarer=seat)
        vul = row["ns_vulnerable"] if seat.is_ns else row["ew_vulnerable"]
        points = duplicate_score(c, int(tricks), bool(vul), int(row.get("year") or 0))
    except DomainError:
        return None
    return points if seat.is_ns else -points


def read_dd_tables(con: duckdb.DuckDBPyConnection) -> dict[str, dict[tuple[str, str], int]]:
    out: dict[str, dict[tuple[str, str], int]] = defaultdict(dict)
    for deal_id, strain, declarer, tricks in con.execute(
        "SELECT deal_id, strain, declarer, tricks FROM dd_tables "
        "WHERE deal_id IN (SELECT deal_id FROM boards)"
    ).fetchall():
        out[deal_id][(strain, declarer)] = tricks
    return dict(out)


def read_seats(con: duckdb.DuckDBPyConnection) -> list[Row]:
    """Who sat where, with that seat's DD mistakes on the board (0 when not analysed)."""
    weighted = " + ".join(f"s.{v}" for v in VARIABLES if v.startswith("weighted_"))
    auction = " + ".join(
        f"s.{v}"
        for v in VARIABLES
        if v.startswith(("defender_missed", "defender_erron", "declarer_", "passed_"))
    )
    return _rows(
        con,
        f"""
        SELECT w.record_id, w.seat, w.player, s.record_id IS NOT NULL AS analysed,
               coalesce(s.play_mistakes_as_declarer, 0) AS declarer_mistakes,
               coalesce(s.play_mistakes_as_defender, 0) AS defence_mistakes,
               coalesce(s.lead_mistakes, 0) AS lead_mistakes,
               coalesce(s.claim_mistakes, 0) AS claim_mistakes,
               coalesce({auction}, 0) AS auction_mistakes,
               coalesce({weighted}, 0) AS cost
        FROM ({_WHO}) w
        LEFT JOIN player_board_stats s ON s.record_id = w.record_id AND s.seat = w.seat
        """,
    )


def read_player_totals(con: duckdb.DuckDBPyConnection) -> dict[str, Row]:
    """The 33 counters summed per player, and boards played (analysed or not)."""
    sums = ", ".join(f"sum(coalesce(s.{v}, 0)) AS {v}" for v in VARIABLES)
    rows = _rows(
        con,
        f"""
        SELECT w.player, count(*) AS boards, count(s.record_id) AS analysed_boards, {sums}
        FROM ({_WHO}) w
        LEFT JOIN player_board_stats s ON s.record_id = w.record_id AND s.seat = w.seat
        GROUP BY w.player
        """,
    )
    return {r["player"]: r for r in rows}


def read_optional(con: duckdb.DuckDBPyConnection, tables: set[str]) -> dict[str, list[Row]]:
    """The tables other stages write, when present: rankings, ratings, history, skill ratings."""
    out: dict[str, list[Row]] = {}
    for name in ("events", "rankings", "ratings", "rating_history", "skill_ratings",
                 "published_standings", "team_matches"):  # fmt: skip
        if name in tables:
            out[name] = _rows(con, f"SELECT * FROM {name}")
    return out


def read_regression(out_dir: Path) -> Row | None:
    path = out_dir / "regression" / "report.json"
    if not path.is_file():
        return None
    try:
        return json.loads(path.read_text())
    except (OSError, json.JSONDecodeError):
        return None


def load_site_data(con: duckdb.DuckDBPyConnection, out_dir: Path) -> SiteData:
    """Everything the site shows, read in one pass over the store."""
    t0 = time.perf_counter()
    tables = _tables(con)
    data = SiteData(
        audit=audit_tables(con),
        sources=_rows(
            con,
            "SELECT path, format, records, new_records, CAST(ingested_at AS "
            "VARCHAR) AS ingested_at FROM source_files ORDER BY path",
        ),  # fmt: skip
        results=read_results(con, tables),
        dd_tables=read_dd_tables(con),
        seats=read_seats(con),
        player_totals=read_player_totals(con),
        optional=read_optional(con, tables),
        regression=read_regression(out_dir),
        regression_dir=out_dir / "regression",
    )
    data.seconds_read = time.perf_counter() - t0
    return data


def build_site(db: str | Path, out: str | Path, fill_par: bool = True) -> Row:
    """Write `out/site/` from the store `db`; returns where it went and what it holds."""
    from ddrank.site.render import write_site
    from tasks.db import connect
    from tasks.dd import compute_par

    out_dir = Path(out)
    con = connect(db, read_only=not fill_par)
    try:
        par_rows = compute_par(con) if fill_par else 0  # stores built before par existed
        data = load_site_data(con, out_dir)
    finally:
        con.close()
    summary = write_site(data, out_dir / "site")
    summary["par_filled"] = par_rows
    summary["seconds_read"] = round(data.seconds_read, 3)
    return summary


site_task = task(name="site", cache_policy=NO_CACHE)(build_site)
