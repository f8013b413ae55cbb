"""Prefect tasks of tournament scoring, the Cammarata split and Lehman ratings.

Thin I/O around the pure package: read table results from a Valet directory or from the DuckDB
`boards` table, call `ddrank.scoring` / `ddrank.split` / `ddrank.ratings`, write CSV files and a
Markdown report. Every `run_*` body is a plain function, so the CLI can call it without starting a
Prefect server; the `*_task` objects wrap the same bodies for the `ratings` flow.
"""

from __future__ import annotations

import csv
import logging
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from prefect import get_run_logger, task
from prefect.cache_policies import NO_CACHE
from prefect.exceptions import MissingContextError

from ddrank.ratings.lehman import LehmanParams, boards_by_period, rate_periods
from ddrank.scoring.results import RecordError, TableResult, group_boards, make_result
from ddrank.scoring.tournament import ScoringOptions, aggregate_scores, score_field
from ddrank.split import aggregate_splits, split_field
from ddrank.valet import parse_hands, parse_names, parse_scores, round_of_hands_file, table_results

Row = dict[str, Any]


def _logger() -> logging.Logger | logging.LoggerAdapter:
    try:
        return get_run_logger()
    except MissingContextError:
        return logging.getLogger("ddrank.scoring")


@dataclass
class LoadedField:
    """Table results ready to compare, and every record that could not be used (with why)."""

    source: str
    results: list[TableResult]
    errors: list[RecordError] = field(default_factory=list)
    boards: dict[str, list[list[TableResult]]] = field(default_factory=dict)

    @property
    def tables(self) -> int:
        return sum(len(g) for gs in self.boards.values() for g in gs)


def read_valet_dir(path: str | Path, event: str = "", year: int = 0) -> LoadedField:
    """Read scores.txt, names.txt and (when present) hands/roundN.pbn of one Valet directory."""
    d = Path(path)
    scores_path, names_path = d / "scores.txt", d / "names.txt"
    for p in (scores_path, names_path):
        if not p.is_file():
            raise FileNotFoundError(
                f"{p} not found (a Valet directory has scores.txt and names.txt)"
            )
    names, errors = parse_names(names_path.read_text(), str(names_path))
    scores, score_errors = parse_scores(scores_path.read_text(), str(scores_path))
    errors += score_errors
    hands = {}
    if (d / "hands").is_dir():
        for f in sorted((d / "hands").glob("*.pbn")):
            rnd = round_of_hands_file(f.name)
            if rnd is None:
                errors.append(RecordError(str(f), None, "not named roundN.pbn: skipped"))
                continue
            found, hand_errors = parse_hands(f.read_text(), rnd, str(f))
            errors += hand_errors
            hands.update({(h.round, h.board): h for h in found})
    results, result_errors = table_results(scores, names, hands, event, year)
    errors += result_errors
    return _grouped(LoadedField(str(d), results, errors))


#: Columns of `boards` the scorers read; the event-model ones may be absent from an older store.
_DB_COLUMNS = (
    "record_id", "deal_id", "deal", "event", "year", "board_no", "northname", "eastname", "southname",
    "westname", "ns_vulnerable", "ew_vulnerable", "contract", "declarer", "result", "dealer",
    "home_team", "visit_team", "room", "event_id", "session", "section", "ns_pair", "ew_pair",
    "north_id", "east_id", "south_id", "west_id", "ns_score", "adjusted", "phantom",
    "published_ns_mp", "published_ew_mp", "published_ns_pct", "published_ew_pct",
    "published_imps", "date", "stage", "source_file", "source_line",
)  # fmt: skip


def board_rows(con: Any, event: str | None = None) -> list[dict[str, Any]]:
    """Every `boards` row as a dict of the columns the store has (missing ones are None)."""
    have = {r[0] for r in con.sql("select column_name from information_schema.columns "
                                  "where table_name = 'boards'").fetchall()}  # fmt: skip
    if not have:
        raise ValueError("the store has no boards table yet: run `ddrank ingest` first")
    cols = [c for c in _DB_COLUMNS if c in have]
    where = ""
    params: dict[str, Any] = {}
    if event is not None:
        where = "where event = $event" + (" or event_id = $event" if "event_id" in have else "")
        params = {"event": event}
    order = ", ".join(c for c in ("year", "event", "session", "section", "board_no", "record_id")
                      if c in have)  # fmt: skip
    rows = con.sql(f"select {', '.join(cols)} from boards {where} order by {order}",
                   params=params).fetchall()  # fmt: skip
    return [dict(zip(cols, values, strict=True)) for values in rows]


def period_date(row: Mapping[str, Any]) -> str:
    """A row's date in sortable form; undated rows use the year they carry."""
    from ddrank.ratings.lehman import sortable_date

    return sortable_date(str(row.get("date") or row.get("year") or ""))


def read_db_boards(db_path: str | Path, event: str | None = None) -> LoadedField:
    """Read the `boards` table (read-only) for the split and the Lehman ratings.

    A board is the director's: event, session, section, match (teams) and board number; tables
    under one such key that played different cards, dealer or vulnerability are a fouled board.
    """
    from ddrank.scoring.records import event_label, played_key, result_from_row
    from ddrank.scoring.results import RecordError as _RecordError
    from tasks.db import connect

    path = Path(db_path)
    if not path.is_file():
        raise FileNotFoundError(f"DuckDB file not found: {path}")
    con = connect(path, read_only=True)
    try:
        rows = board_rows(con, event)
        if any(not r.get("date") for r in rows):
            dates = dict(con.sql("select record_id, date from raw_records").fetchall())
            for r in rows:  # a store cleaned before boards had dates: the raw record has it
                r["date"] = r.get("date") or dates.get(r["record_id"], "")
    finally:
        con.close()
    results: list[TableResult] = []
    errors: list[RecordError] = []
    for k, row in enumerate(rows):
        ev = event_label(row)
        checked = result_from_row(row, k)
        if isinstance(checked, _RecordError):
            errors.append(RecordError(f"{path}:boards[{row['record_id']}]", None, checked.message))
            continue
        if checked.phantom:
            continue  # a phantom table is not a result
        match = " v ".join(sorted(x for x in (row.get("home_team"), row.get("visit_team")) if x))
        board = "|".join([ev, checked.session, checked.section, match, str(row["board_no"])])
        made = make_result(
            board=board,
            deal=played_key(row, (row["ns_vulnerable"], row["ew_vulnerable"]))
            if row.get("ns_vulnerable") is not None else row["deal_id"],
            table=row["record_id"],
            names=(row["northname"] or "", row["eastname"] or "", row["southname"] or "",
                   row["westname"] or ""),
            contract_text=row["contract"],
            declarer_text=row["declarer"],
            tricks=row["result"],
            ns_vulnerable=row["ns_vulnerable"],
            ew_vulnerable=row["ew_vulnerable"],
            period=f"{period_date(row)} {ev}",  # periods sort by date, then name
            year=int(row["year"] or 0),
            source=f"{path}:boards[{row['record_id']}]",
        )  # fmt: skip
        (errors if isinstance(made, RecordError) else results).append(made)  # type: ignore[arg-type]
    return _grouped(LoadedField(str(path), results, errors))


def _grouped(loaded: LoadedField) -> LoadedField:
    boards, dup_errors = group_boards(loaded.results)
    loaded.boards = boards
    loaded.errors += dup_errors
    return loaded


def load_field(
    valet_dir: str | None = None, db_path: str | None = None, event: str | None = None
) -> LoadedField:
    """Exactly one source: a Valet directory or a DuckDB store."""
    if (valet_dir is None) == (db_path is None):
        raise ValueError("give exactly one of a Valet directory (--valet) or a DuckDB store (--db)")
    loaded = read_valet_dir(valet_dir) if valet_dir else read_db_boards(db_path, event)  # type: ignore[arg-type]
    log = _logger()
    log.info("%s: %d tables on %d boards, %d records left out", loaded.source, loaded.tables,
             len(loaded.boards), len(loaded.errors))  # fmt: skip
    for e in loaded.errors[:20]:
        log.warning("%s", e)
    return loaded


# ---------------------------------------------------------------- writing


def write_csv(path: Path, rows: Sequence[Row], columns: Sequence[str]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(columns), extrasaction="ignore")
        w.writeheader()
        for r in rows:
            w.writerow({k: _fmt(r.get(k)) for k in columns})
    return path


def _fmt(v: Any) -> Any:
    if isinstance(v, float):
        return "" if math.isnan(v) else round(v, 6)
    return v


def write_errors(out: Path, errors: Iterable[RecordError]) -> Path:
    rows = [{"source": e.source, "line": e.line, "message": e.message} for e in errors]
    return write_csv(out / "errors.csv", rows, ["source", "line", "message"])


def top_table(rows: Sequence[Row], measure: str, label: str, n: int = 20, digits: int = 2) -> str:
    """A Markdown table of the n best rows by `measure` (descending)."""
    ranked = sorted(rows, key=lambda r: (-float(r[measure]), str(r[label])))[:n]
    lines = [f"| # | {label} | boards | {measure} |", "|---:|---|---:|---:|"]
    for i, r in enumerate(ranked, 1):
        lines.append(f"| {i} | {r[label]} | {r['boards']} | {float(r[measure]):.{digits}f} |")
    return "\n".join(lines)


def _eligible(rows: Sequence[Row], min_boards: int) -> tuple[list[Row], int]:
    """Rows with enough boards to rank; if nobody qualifies, everyone (threshold reported as 0)."""
    kept = [r for r in rows if int(r["boards"]) >= min_boards]
    return (kept, min_boards) if kept else (list(rows), 0)


def _report_header(title: str, loaded: LoadedField, extra: Sequence[str] = ()) -> list[str]:
    lines = [
        f"# {title}",
        "",
        f"- source: `{loaded.source}`",
        f"- tables scored: {loaded.tables} on {len(loaded.boards)} boards",
        f"- records left out: {len(loaded.errors)} (listed in errors.csv)",
        *[f"- {x}" for x in extra],
        "",
    ]
    for e in loaded.errors[:10]:
        lines.insert(-1, f"  - {e}")
    return lines


# ---------------------------------------------------------------- score

SCORE_COLUMNS = ["players", "boards", "mp_pct", "cross_imps", "butler", "bastille"]
TABLE_COLUMNS = [
    "board", "table", "north", "east", "south", "west", "contract", "declarer", "tricks",
    "ns_points", "field", "group", "mp", "mp_pct", "cross_imps", "butler", "bastille",
]  # fmt: skip


def run_score(
    loaded: LoadedField,
    out_dir: str | Path,
    opts: ScoringOptions | None = None,
    min_boards: int = 30,
) -> Row:
    """Matchpoints, cross-IMPs, Butler and Bastille per table, pair and player."""
    opts = opts or ScoringOptions()
    out = Path(out_dir)
    scores = score_field(loaded.boards, opts)
    table_rows = [
        {
            "board": s.result.board, "table": s.result.table,
            "north": s.result.names[0], "east": s.result.names[1],
            "south": s.result.names[2], "west": s.result.names[3],
            "contract": str(s.result.contract) if s.result.contract else "P",
            "declarer": s.result.declarer.letter if s.result.declarer is not None else "",
            "tricks": s.result.tricks, "ns_points": s.result.ns_score, "field": s.field,
            "group": s.group, "mp": s.mp, "mp_pct": s.mp_pct, "cross_imps": s.cross_imps,
            "butler": s.butler, "bastille": s.bastille,
        }
        for s in scores
    ]  # fmt: skip
    pairs, players = aggregate_scores(scores)
    files = [
        write_csv(out / "score_tables.csv", table_rows, TABLE_COLUMNS),
        write_csv(out / "score_pairs.csv", pairs, SCORE_COLUMNS),
        write_csv(out / "score_players.csv", players, SCORE_COLUMNS),
        write_errors(out, loaded.errors),
    ]
    drop = f"{opts.drop_fraction:.0%} each side (fractional)" if opts.drop_fraction is not None \
        else f"{opts.drop_count} each side"  # fmt: skip
    lines = _report_header(
        "Tournament scores",
        loaded,
        [
            f"matchpoints: {opts.mp_method} for fouled boards; cross-IMPs divided by "
            f"{opts.cross_imps_divide_by}; Butler/Bastille datum drops {drop}",
            "per board: mp_pct in %, cross_imps/butler in IMPs, bastille in points",
        ],
    )
    lines += _top_sections(
        pairs, players, ["mp_pct", "cross_imps", "butler", "bastille"], min_boards
    )
    files.append(_write_md(out / "score_report.md", lines))
    return {"tables": len(scores), "pairs": len(pairs), "players": len(players),
            "errors": len(loaded.errors), "files": [str(f) for f in files]}  # fmt: skip


def _top_sections(
    pairs: Sequence[Row], players: Sequence[Row], measures: Sequence[str], min_boards: int
) -> list[str]:
    lines: list[str] = []
    for what, rows in (("players", players), ("pairs", pairs)):
        kept, used = _eligible(rows, min_boards)
        for m in measures:
            lines += [f"## Top 20 {what} by {m} (at least {used} boards)", "",
                      top_table(kept, m, "players"), ""]  # fmt: skip
    return lines


def _write_md(path: Path, lines: Sequence[str]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n")
    return path


# ---------------------------------------------------------------- split

SPLIT_COLUMNS = ["players", "boards", "butler", "bid", "play", "defence", "luck"]


def run_split(loaded: LoadedField, out_dir: str | Path, min_boards: int = 30) -> Row:
    """Cammarata split of every board; pairs.csv and players.csv in IMPs per board."""
    out = Path(out_dir)
    groups = [g for gs in loaded.boards.values() for g in gs]
    splits, residual = split_field(groups)
    if residual > 1e-9:
        raise ArithmeticError(f"Theorem 1 violated by {residual:g} IMPs: a bug, please report")
    pairs, players = aggregate_splits(splits)
    files = [
        write_csv(out / "pairs.csv", pairs, SPLIT_COLUMNS),
        write_csv(out / "players.csv", players, SPLIT_COLUMNS),
        write_errors(out, loaded.errors),
    ]
    lines = _report_header(
        "Cammarata split of the Butler score",
        loaded,
        [
            f"Theorem 1 (Butler_jk = Bid_jk + Play_j + Play_k) holds on every pair of tables: "
            f"max residual {residual:.2e} IMPs",
            "columns in IMPs per board; butler = bid + play + defence + luck",
        ],
    )
    lines += _top_sections(pairs, players, SPLIT_COLUMNS[2:], min_boards)
    files.append(_write_md(out / "split_report.md", lines))
    return {"tables": len(splits), "pairs": len(pairs), "players": len(players),
            "max_residual": residual, "errors": len(loaded.errors),
            "files": [str(f) for f in files]}  # fmt: skip


# ---------------------------------------------------------------- lehman

RATING_COLUMNS = ["player", "rating", "boards", "std_error", "period", "effective_boards"]


def run_lehman(
    loaded: LoadedField,
    out_dir: str | Path,
    scale: Literal["mp", "imps"] = "imps",
    params: LehmanParams | None = None,
    opts: ScoringOptions | None = None,
    min_boards: int = 30,
) -> Row:
    """Lehman ratings period by period (rounds, or events in the DB); ratings.csv and a report."""
    params = params or LehmanParams()
    out = Path(out_dir)
    scores = score_field(loaded.boards, opts or ScoringOptions())
    periods = boards_by_period(scores, scale, params)
    final, history = rate_periods(periods, params)
    last = periods[-1][0] if periods else ""
    current = [
        {"player": p, "rating": s.rating, "boards": s.boards, "std_error": s.std_error,
         "period": last, "effective_boards": s.effective_boards}
        for p, s in sorted(final.items())
    ]  # fmt: skip
    files = [
        write_csv(out / "ratings.csv", history, RATING_COLUMNS),
        write_errors(out, loaded.errors),
    ]
    kept, used = _eligible(current, min_boards)
    ranked = sorted(kept, key=lambda r: (-r["rating"], r["player"]))[:20]
    lines = _report_header(
        f"Lehman ratings ({'matchpoint' if scale == 'mp' else 'IMP'} scale)",
        loaded,
        [
            f"{len(periods)} periods ({periods[0][0] if periods else ''} .. {last}); "
            f"ratings.csv has one row per player and period played",
            "parameters: " + ", ".join(f"{k}={v}" for k, v in asdict(params).items()),
        ],
    )
    lines += [
        f"## Top 20 players by rating after period {last} (at least {used} boards)",
        "",
        "| # | player | rating | boards | effective boards | std error |",
        "|---:|---|---:|---:|---:|---:|",
        *[
            f"| {i} | {r['player']} | {r['rating']:.2f} | {r['boards']} | "
            f"{r['effective_boards']:.1f} | {r['std_error']:.2f} |"
            for i, r in enumerate(ranked, 1)
        ],
        "",
    ]
    files.append(_write_md(out / "lehman_report.md", lines))
    return {"players": len(final), "periods": len(periods), "rows": len(history),
            "errors": len(loaded.errors), "top": ranked[:5], "files": [str(f) for f in files]}  # fmt: skip


def lehman_params(overrides: Mapping[str, Any] | None) -> LehmanParams:
    return LehmanParams(**{k: v for k, v in (overrides or {}).items() if v is not None})


load_field_task = task(name="load-table-results", cache_policy=NO_CACHE)(load_field)
score_task = task(name="score-field", cache_policy=NO_CACHE)(run_score)
split_task = task(name="split-field", cache_policy=NO_CACHE)(run_split)
lehman_task = task(name="lehman-ratings", cache_policy=NO_CACHE)(run_lehman)
