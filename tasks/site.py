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

from ddrank.mistakes.variables import VARIABLES
from ddrank.scoring.duplicate import duplicate_score
from ddrank.scoring.records import event_label
from ddrank.site.data import SiteData
from ddrank.types import Contract, DomainError, Seat
from tasks.report import audit_tables

Row = dict[str, Any]

#: The player at each seat (registered from `read_who` before the queries that use it).
_WHO = "SELECT record_id, seat, player FROM site_who"


def _rows(con: duckdb.DuckDBPyConnection, query: str, params: list | None = None) -> list[Row]:
    """Rows as dicts, fetched at once (on the connection itself: it holds `site_who`)."""
    res = con.execute(query, params or [])
    names = [d[0] for d in res.description]
    return [dict(zip(names, r, strict=True)) for r in res.fetchall()]


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
    SELECT b.record_id, {_col(cols, "event_id")}, b.event, b.year, b.board_no, b.room,
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
"""
    rows = sorted(_rows(con, query), key=_traveller_order)
    scored: dict[str, Row] = {}
    if "scored_results" in tables:
        scored = {r["record_id"]: r for r in _rows(con, "SELECT * FROM scored_results")}
    for row in rows:
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


def read_who(con: duckdb.DuckDBPyConnection) -> dict[str, str]:
    """Register `site_who(record_id, seat, player)` and return player -> name to show.

    A seat's player is identified as the scoring stage identifies it (`ddrank.scoring.records`),
    so that ratings join: the matched ranking name, else `id:<source id>` when the source gives
    one (`Markus Knob#39415` -> `id:39415`), else the name as written. The page shows the name.
    """
    import polars as pl

    from ddrank.scoring.records import split_name_id

    cols = _columns(con, "boards")
    ids = [f"b.{s}_id" if f"{s}_id" in cols else "NULL" for s in ("north", "east", "south", "west")]
    seat_id = "CASE w.seat " + " ".join(f"WHEN {k} THEN {c}" for k, c in enumerate(ids)) + " END"
    rows = con.execute(
        f"SELECT w.record_id, CAST(w.seat AS INTEGER), w.player, w.raw_name, {seat_id} "
        "FROM board_players w JOIN boards b USING (record_id)"
    ).fetchall()
    who: dict[str, list] = {"record_id": [], "seat": [], "player": []}
    labels: dict[str, str] = {}
    for record_id, seat, matched, raw, sid in rows:
        name, pid = split_name_id((raw or "").strip(), str(sid or "").strip())
        player = matched or (f"id:{pid}" if pid else name)
        if not player:
            continue
        who["record_id"].append(record_id)
        who["seat"].append(seat)
        who["player"].append(player)
        labels.setdefault(player, matched or name or player)
    frame = pl.DataFrame(
        who, schema={"record_id": pl.String, "seat": pl.Int32, "player": pl.String}
    )
    con.register("site_who", frame.to_arrow())
    return labels


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
    labels = read_who(con)
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
        labels=labels,
    )
    data.seconds_read = time.perf_counter() - t0
    return data


def build_site(db: str | Path, out: str | Path, fill_par: bool = True) -> Row:
    """Write `out/site/` from the store `db`; returns where it went and what it holds."""
    from ddrank.site.render import write_site
    from stages.dd import compute_par
    from store import Store
    from tasks.db import connect

    out_dir = Path(out)
    con = connect(db, read_only=not fill_par)
    try:
        par_rows = compute_par(Store(con=con)) if fill_par else 0  # stores made before par
        data = load_site_data(con, out_dir)
    finally:
        con.close()
    summary = write_site(data, out_dir / "site")
    summary["par_filled"] = par_rows
    summary["seconds_read"] = round(data.seconds_read, 3)
    return summary
