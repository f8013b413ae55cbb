"""The field measures of `ddrank score/split/lehman --valet|--db`: one field of table results.

A field is read from a Valet directory (scores.txt, names.txt, hands/roundN.pbn) or from the
store's one results model, `scored_results` (the store's changed events are scored first), and
measured as a whole: matchpoints, cross-IMPs, Butler and Bastille per table, pair and player; the
Cammarata bid/play split; Lehman ratings round by round. The Markdown and CSV files are written by
`publish.field`.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from ddrank.ratings.lehman import LehmanParams, boards_by_period, rate_periods, sortable_date
from ddrank.scoring.intake.results import RecordError, TableResult, group_boards, make_result
from ddrank.scoring.tournament import ScoringOptions, aggregate_scores, score_field
from ddrank.valet import parse_hands, parse_names, parse_scores, round_of_hands_file, table_results
from publish.field import eligible, report_header, top_sections, write_errors, write_md
from publish.tables import write_csv
from stages.split import run_split  # noqa: F401 - `ddrank split` runs it on a field
from store import Store

Row = dict[str, Any]
log = logging.getLogger("ddrank.scoring")


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


def _not_rated(players: str | None, names: tuple[str, ...]) -> str:
    """Why a scored table cannot be rated, or '': a seat that holds no player (a placeholder, a
    pair or seat label: scoring's identity is empty), or one name at two seats (two people who
    share a surname, told apart by nothing)."""
    if players is not None and "" in players.split("|"):
        return "not rated: a seat holds no player (a placeholder or a pair or seat label)"
    named = [n for n in names if n]
    if len(set(named)) < len(named):
        return "not rated: one name at two seats (two players the source does not tell apart)"
    return ""


def tables_from_scored(rows: Iterable[Row], source: str) -> LoadedField:
    """Rows of the query `scored_tables` (the one results model) as a field.
    (`scored_tables_field`, its boards grouped.)"""
    return _grouped(scored_tables_field(rows, source))


def scored_tables_field(rows: Iterable[Row], source: str) -> LoadedField:
    """Rows of the query `scored_tables` as table results, boards not grouped yet.

    A board is the director's: event, session, section, match (teams) and board number; tables
    under one such key that played different cards, dealer or vulnerability are a fouled board.
    """
    results: list[TableResult] = []
    errors: list[RecordError] = []
    for row in rows:
        ev = row["event"]
        names = tuple((row["names"] or "").split("|"))
        nobody = _not_rated(row.get("players"), names)
        if nobody:  # scored, but no one to rate at a seat (ddrank.scoring.intake.identity)
            errors.append(RecordError(f"{source}:boards[{row['record_id']}]", None, nobody, ev,
                                      row["session"] or "", row["section"] or "",
                                      board=str(row["board"])))  # fmt: skip
            continue
        made = make_result(
            board="|".join([ev, row["session"] or "", row["section"] or "", row["match"] or "",
                            str(row["board"])]),
            deal=row["played"] or row["deal_id"] or "",
            table=row["record_id"],
            names=names if len(names) == 4 else ("", "", "", ""),  # type: ignore[arg-type]
            contract_text=row["contract"],
            declarer_text=row["declarer"],
            tricks=row["tricks"],
            ns_vulnerable=row["ns_vulnerable"],
            ew_vulnerable=row["ew_vulnerable"],
            period=f"{sortable_date(str(row['date'] or row['year'] or ''))} {ev}",  # date order
            year=int(row["year"] or 0),
            source=f"{source}:boards[{row['record_id']}]",
        )  # fmt: skip
        (errors if isinstance(made, RecordError) else results).append(made)  # type: ignore[arg-type]
    return LoadedField(source, results, errors)


def read_store_field(store: Store, event: str | None = None) -> LoadedField:
    """The store's scored table results (changed events scored first), one read."""
    from stages.scoring import load_store, score_and_save

    scored = load_store(store)
    score_and_save(store, scored)
    rows = store.rows("scored_tables")
    if event is not None:
        rows = [r for r in rows if r["event"] == event or r["event"].startswith(f"{event} (")]
    loaded = tables_from_scored(rows, str(store.path))
    loaded.errors = scored.errors + loaded.errors
    return loaded


def read_db_boards(db_path: str | Path, event: str | None = None) -> LoadedField:
    """The store's scored table results as a field (bench/simulate_players.py reads this)."""
    return load_field(None, str(db_path), event)


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
    if valet_dir:
        loaded = read_valet_dir(valet_dir)
    else:
        if not Path(db_path).is_file():  # type: ignore[arg-type]
            raise FileNotFoundError(f"DuckDB file not found: {db_path}")
        with Store(db_path) as store:  # type: ignore[arg-type]
            loaded = read_store_field(store, event)
    log.info("%s: %d tables on %d boards, %d records left out", loaded.source, loaded.tables,
             len(loaded.boards), len(loaded.errors))  # fmt: skip
    return loaded


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
    lines = report_header(
        "Tournament scores",
        loaded,
        [
            f"matchpoints: {opts.mp_method} for fouled boards; cross-IMPs divided by "
            f"{opts.cross_imps_divide_by}; Butler/Bastille datum drops {drop}",
            "per board: mp_pct in %, cross_imps/butler in IMPs, bastille in points",
        ],
    )
    lines += top_sections(
        pairs, players, ["mp_pct", "cross_imps", "butler", "bastille"], min_boards
    )
    files.append(write_md(out / "score_report.md", lines))
    return {"tables": len(scores), "pairs": len(pairs), "players": len(players),
            "errors": len(loaded.errors), "files": [str(f) for f in files]}  # fmt: skip


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
    kept, used = eligible(current, min_boards)
    ranked = sorted(kept, key=lambda r: (-r["rating"], r["player"]))[:20]
    lines = report_header(
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
    files.append(write_md(out / "lehman_report.md", lines))
    return {"players": len(final), "periods": len(periods), "rows": len(history),
            "errors": len(loaded.errors), "top": ranked[:5], "files": [str(f) for f in files]}  # fmt: skip


def lehman_params(overrides: Mapping[str, Any] | None) -> LehmanParams:
    return LehmanParams(**{k: v for k, v in (overrides or {}).items() if v is not None})
