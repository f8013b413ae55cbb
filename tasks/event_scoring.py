"""Score events from the store or straight from files, compare with what they published, rate.

Plain functions (the CLI calls them without Prefect; `flows/scoring.py` wraps them in tasks):
- `load_store` / `load_files` read table results, event facts and published standings;
- `score_events` scores each event by its own rules (`ddrank.scoring.events`);
- `compare_published` counts how many of our values agree with every value a source published;
- `write_outputs` writes results.csv, ranking.csv, teams.csv, butler.csv, errors.csv, report.md;
- `save_scores` / `update_ratings` keep scored_results, rankings, team_matches, ratings and
  rating_history in the store, rescoring only events whose content changed.
"""

from __future__ import annotations

import csv
import hashlib
import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from ddrank.ratings.lehman import (
    LehmanParams,
    PlayerState,
    rated_boards,
    sortable_date,
    update_period,
)
from ddrank.raw import ParsedFile
from ddrank.scoring.events import EventInfo, EventResult, EventScores, MpMethod, score_event
from ddrank.scoring.records import (
    event_infos,
    event_label,
    results_from_rows,
    split_name_id,
    with_scoring_hint,
)
from ddrank.scoring.results import RecordError

Row = dict[str, Any]
TOLERANCE = 0.01  # published values are printed to 2 decimals at most

RESULTS_COLUMNS = [
    "event", "session", "section", "board", "ns_pair", "ew_pair", "ns_players", "ew_players",
    "contract", "declarer", "tricks", "ns_score", "ns_mp", "ew_mp", "ns_pct", "ew_pct", "imps",
    "published_ns_mp", "published_ew_mp", "published_ns_pct", "published_imps",
]  # fmt: skip
RANKING_COLUMNS = ["event", "session", "section", "direction", "pair", "players", "boards", "mp",
                   "pct", "rank"]  # fmt: skip
TEAMS_COLUMNS = ["event", "session", "section", "team", "opponent", "boards", "imps_for",
                 "imps_against", "vp"]  # fmt: skip
BUTLER_COLUMNS = ["event", "pair", "players", "boards", "butler", "butler_per_board", "rank"]
ERRORS_COLUMNS = ["source", "line", "message"]
RATINGS_COLUMNS = ["player", "rating", "boards", "std_error", "last_period"]


@dataclass
class Loaded:
    """Table results of one or more events, the facts and standings their sources published."""

    source: str
    results: list[EventResult]
    errors: list[RecordError] = field(default_factory=list)
    facts: list[Row] = field(default_factory=list)
    standings: list[Row] = field(default_factory=list)
    scoring_tags: dict[str, list[str]] = field(default_factory=dict)  # event -> [Scoring] tags
    dates: dict[str, str] = field(default_factory=dict)  # event -> earliest date read

    def infos(self) -> dict[str, EventInfo]:
        out = event_infos(self.results, self.facts)
        for ev, info in out.items():
            info = with_scoring_hint(info, self.scoring_tags.get(ev, []))
            if not info.date and self.dates.get(ev):
                info = EventInfo(info.event, info.scoring, info.movement, info.across_field,
                                 info.mp_top, self.dates[ev])  # fmt: skip
            out[ev] = info
        return out


def _prepare(rows: Sequence[Row], source: str) -> Loaded:
    results, errors = results_from_rows(rows)
    tags: dict[str, list[str]] = defaultdict(list)
    dates: dict[str, str] = {}
    for row in rows:
        ev = event_label(row)
        if row.get("scoring"):
            tags[ev].append(str(row["scoring"]))
        d = str(row.get("date") or "")
        if d and (ev not in dates or sortable_date(d) < sortable_date(dates[ev])):
            dates[ev] = d
    return Loaded(source, results, errors, scoring_tags=dict(tags), dates=dates)


# ---------------------------------------------------------------- reading


def read_parsed(path: Path) -> ParsedFile:
    """One file through the same reader dispatch `ddrank ingest` uses."""
    from tasks import workers

    reader = getattr(workers, "read_parsed", None) or getattr(workers, "read_file", None)
    got = reader(path) if reader is not None else workers.read_records(path)
    if isinstance(got, ParsedFile):
        return got
    if isinstance(got[0], ParsedFile):  # (results, hand-record deals)
        return got[0]
    fmt, records = got[0], got[1]
    if isinstance(records, ParsedFile):
        return records
    return ParsedFile(fmt, list(records))


def load_files(paths: Iterable[str | Path]) -> Loaded:
    """Read files directly (no store): every record, standing and event fact they hold."""
    from ddrank.cleaning import board_year

    files: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            files += sorted(x for x in p.rglob("*") if x.is_file())
        elif p.is_file():
            files.append(p)
        else:
            raise FileNotFoundError(f"{p}: no such file or folder")
    rows: list[Row] = []
    facts: list[Row] = []
    standings: list[Row] = []
    unreadable: list[RecordError] = []
    for f in files:
        parsed = read_parsed(f)
        for rec in parsed.records:
            if rec.parse_error:
                unreadable.append(RecordError(rec.source_file, rec.source_line, rec.parse_error))
                continue
            rows.append(rec.as_row())
        for ev in parsed.events:
            fact = asdict(ev)
            fact["event_id"] = event_label({"event": ev.event, "date": ev.date_start})
            facts.append(fact)
        for st in parsed.standings:
            row = asdict(st)
            year = board_year(st.date, st.event)
            row["event_id"] = event_label({"event": st.event, "date": st.date, "year": year})
            standings.append(row)
    loaded = _prepare(rows, ", ".join(str(f) for f in files))
    loaded.errors = unreadable + loaded.errors
    loaded.facts, loaded.standings = facts, standings
    return loaded


def _table_columns(con: Any, table: str) -> set[str]:
    return {r[0] for r in con.sql("select column_name from information_schema.columns "
                                  f"where table_name = '{table}'").fetchall()}  # fmt: skip


def _rows(con: Any, sql: str) -> list[Row]:
    rel = con.sql(sql)
    cols = rel.columns
    return [dict(zip(cols, v, strict=True)) for v in rel.fetchall()]


def load_store(db_path: str | Path, con: Any = None) -> Loaded:
    """The store's clean table results, with player identities from name matching."""
    from tasks.db import connect
    from tasks.scoring import board_rows

    path = Path(db_path)
    own = con is None
    if own and not path.is_file():
        raise FileNotFoundError(f"DuckDB file not found: {path}")
    con = con or connect(path, read_only=True)
    try:
        rows = board_rows(con)
        if any(not r.get("date") for r in rows) and "date" in _table_columns(con, "raw_records"):
            dates = dict(con.sql("select record_id, date from raw_records").fetchall())
            for r in rows:  # a store cleaned before boards had dates: the raw record has it
                r["date"] = r.get("date") or dates.get(r["record_id"], "")
        matched: dict[tuple[str, str], str] = {}
        if _table_columns(con, "player_matches"):
            matched = {(c, n): m for n, c, m in con.sql(
                "select raw_name, context, ranking_name from player_matches "
                "where ranking_name is not null").fetchall()}  # fmt: skip
        for r in rows:
            context = f"{(r.get('event') or '').strip()}|{r.get('year') or 0}"
            for seat in ("north", "east", "south", "west"):
                m = matched.get((context, r.get(f"{seat}name") or ""))
                if m:
                    r[f"{seat}_player"] = m
        facts = _rows(con, "select * from events") if _table_columns(con, "events") else []
        standings = (_rows(con, "select * from published_standings")
                     if _table_columns(con, "published_standings") else [])  # fmt: skip
    finally:
        if own:
            con.close()
    loaded = _prepare(rows, str(path))
    loaded.facts, loaded.standings = facts, standings
    return loaded


# ---------------------------------------------------------------- scoring


def event_hash(results: Iterable[EventResult], info: EventInfo, method: str) -> str:
    """A hash of everything that decides an event's scores: rescoring is skipped when it holds."""
    h = hashlib.sha1(f"{info}|{method}".encode())
    for r in sorted(results, key=lambda x: x.record_id):
        h.update(repr(r).encode())
    return h.hexdigest()[:20]


def by_event(results: Iterable[EventResult]) -> dict[str, list[EventResult]]:
    out: dict[str, list[EventResult]] = defaultdict(list)
    for r in results:
        out[r.event].append(r)
    return dict(out)


def score_events(
    loaded: Loaded, method: MpMethod = "neuberg", mp_top: float | None = None
) -> dict[str, EventScores]:
    """Every event of `loaded`, each by its own scoring (`mp_top` overrides what events say)."""
    infos = loaded.infos()
    if mp_top is not None:
        infos = {ev: replace(i, mp_top=mp_top) for ev, i in infos.items()}
    return {
        ev: score_event(rs, infos[ev], method)
        for ev, rs in sorted(by_event(loaded.results).items())
    }


# ---------------------------------------------------------------- published values


@dataclass
class Check:
    """How many of our values agree with one kind of published value, and the ones that do not."""

    what: str
    compared: int = 0
    agree: int = 0
    disagree: list[str] = field(default_factory=list)

    def add(self, ok: bool, detail: str) -> None:
        self.compared += 1
        if ok:
            self.agree += 1
        else:
            self.disagree.append(detail)


def _close(a: float | None, b: float | None) -> bool:
    return a is not None and b is not None and abs(a - b) <= TOLERANCE + 1e-9


def _place(text: Any) -> int | None:
    t = str(text or "").strip().rstrip("=").strip()
    return int(t) if t.isdigit() else None


def _norm_pair(p: Any) -> str:
    t = str(p or "").strip()
    return t.lstrip("0") or t


def compare_published(scores: Mapping[str, EventScores], standings: Sequence[Row]) -> list[Check]:
    """Every published matchpoint, percentage, IMP and place against ours."""
    mp, pct, imp = (
        Check("matchpoints per line"),
        Check("percentage per line"),
        Check("IMPs per line"),
    )
    for ev, sc in scores.items():
        for s in sc.results:
            r = s.result
            where = f"{ev} s{r.session or '-'} {r.section} board {r.board} NS {r.ns_pair or r.ns_players}"
            if r.published_ns_mp is not None:
                ok = _close(s.ns_mp, r.published_ns_mp) and (
                    r.published_ew_mp is None or _close(s.ew_mp, r.published_ew_mp)
                )
                mp.add(ok, f"{where}: ours {s.ns_mp}/{s.ew_mp}, published "
                           f"{r.published_ns_mp}/{r.published_ew_mp}")  # fmt: skip
            if r.published_ns_pct is not None:
                pct.add(_close(s.ns_pct, r.published_ns_pct),
                        f"{where}: ours {s.ns_pct}, published {r.published_ns_pct}")  # fmt: skip
            if r.published_imps is not None:
                imp.add(_close(s.imps, r.published_imps),
                        f"{where}: ours {s.imps}, published {r.published_imps}")  # fmt: skip
    final_pct, place = Check("final percentage"), Check("place")
    for st, line in match_standings(scores, standings):
        ev, direction = (
            str(st.get("event_id") or st.get("event") or ""),
            str(st.get("direction") or ""),
        )
        who = f"{ev} {st.get('section') or ''} {direction} pair {st.get('pair')} ({st.get('players', '')})"
        pub_pct = _float(st.get("published_pct"))
        if pub_pct is not None:
            final_pct.add(line is not None and _close(line.pct, pub_pct),
                          f"{who}: ours {line.pct if line else 'not found'}, published {pub_pct}")  # fmt: skip
        pub_place = _place(st.get("published_place"))
        if pub_place is not None:
            place.add(line is not None and line.rank == pub_place,
                      f"{who}: ours {line.rank if line else 'not found'}, published "
                      f"{st.get('published_place')}")  # fmt: skip
    return [c for c in (mp, pct, imp, final_pct, place) if c.compared]


def match_standings(
    scores: Mapping[str, EventScores], standings: Sequence[Row]
) -> list[tuple[Row, Any]]:
    """Each published standing (phantoms aside) with our ranking line for it, or None.

    A standing for the whole event ('' session) of a one-session event is that session's line;
    a standing published without a section matches the pair's line in whichever section.
    """
    index: dict[tuple[str, str, str, str], list[tuple[Any, bool]]] = defaultdict(list)
    for ev, sc in scores.items():
        single = len({x.session for x in sc.rankings}) == 1
        for line in sc.rankings:
            index[(ev, line.section, line.direction, _norm_pair(line.pair))].append((line, single))
    out: list[tuple[Row, Any]] = []
    for st in standings:
        if st.get("phantom"):
            continue
        ev = str(st.get("event_id") or st.get("event") or "")
        direction = str(st.get("direction") or "").upper()
        key = (ev, str(st.get("section") or ""), direction, _norm_pair(st.get("pair")))
        session = str(st.get("session") or "")
        found = index.get(key, [])
        if not found and not key[1]:
            found = [x for (e, _, d, p), xs in index.items() if (e, d, p) == (ev, direction, key[3])
                     for x in xs]  # fmt: skip
        cands = [x for x, single in found if x.session == session or (not session and single)]
        out.append((st, cands[0] if len(cands) == 1 else None))
    return out


def _float(v: Any) -> float | None:
    try:
        x = float(str(v).strip().rstrip("%"))
    except (TypeError, ValueError):
        return None
    return None if math.isnan(x) else x


# ---------------------------------------------------------------- rows and files


def _adjusted_text(r: EventResult) -> str:
    return f"{r.adjusted[0]:g}/{r.adjusted[1]:g}" if r.adjusted else ""


def results_rows(scores: Mapping[str, EventScores]) -> list[Row]:
    out: list[Row] = []
    for ev, sc in scores.items():
        for s in sc.results:
            r = s.result
            out.append({
                "record_id": r.record_id, "event": ev, "session": r.session,
                "section": r.section, "board": r.board, "ns_pair": r.ns_pair,
                "ew_pair": r.ew_pair, "ns_players": r.ns_players, "ew_players": r.ew_players,
                "contract": r.contract if r.adjusted is None else _adjusted_text(r),
                "declarer": r.declarer, "tricks": r.tricks, "ns_score": r.ns_score,
                "adjusted": _adjusted_text(r) or None, "field_size": s.field_size,
                "ns_mp": s.ns_mp, "ew_mp": s.ew_mp, "ns_pct": s.ns_pct, "ew_pct": s.ew_pct,
                "imps": s.imps, "butler": s.butler,
                "published_ns_mp": r.published_ns_mp, "published_ew_mp": r.published_ew_mp,
                "published_ns_pct": r.published_ns_pct, "published_imps": r.published_imps,
                "players": "|".join(r.players),
            })  # fmt: skip
    return out


def ranking_rows(scores: Mapping[str, EventScores]) -> list[Row]:
    out: list[Row] = []
    for ev, sc in scores.items():
        kind = "teams" if sc.info.scoring == "TEAMS" else "pairs"
        for x in sc.rankings:
            out.append({"event": ev, "kind": kind, "session": x.session, "section": x.section,
                        "direction": x.direction, "pair": x.pair, "players": x.players,
                        "boards": x.boards, "mp": x.mp, "score": x.mp, "pct": x.pct,
                        "rank": x.rank})  # fmt: skip
    return out


def butler_rows(scores: Mapping[str, EventScores]) -> list[Row]:
    return [{"event": ev, "kind": "butler", "session": "", "section": "", "direction": "",
             "pair": x.pair, "players": x.players, "boards": x.boards, "butler": x.mp,
             "score": x.mp, "butler_per_board": x.mp / x.boards if x.boards else None,
             "pct": None, "rank": x.rank}
            for ev, sc in scores.items() for x in sc.butler]  # fmt: skip


def team_rows(scores: Mapping[str, EventScores]) -> list[Row]:
    return [{**asdict(m), "event": ev} for ev, sc in scores.items() for m in sc.matches]


def _fmt(v: Any) -> Any:
    if v is None:
        return ""
    if isinstance(v, float):
        if math.isnan(v):
            return ""
        return int(v) if v.is_integer() else round(v, 4)
    return v


def write_csv(path: Path, rows: Iterable[Mapping[str, Any]], columns: Sequence[str]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(columns)
        for r in rows:
            w.writerow([_fmt(r.get(c)) for c in columns])
    return path


def published_section(checks: Sequence[Check], max_listed: int = 50) -> list[str]:
    """How many of our values agree with each kind of published value, and the ones that don't."""
    lines = ["## Published values", ""]
    if not checks:
        return lines + ["The sources published no matchpoints, percentages, IMPs or places.", ""]
    lines += ["| published value | compared | agree | disagree |", "|---|---:|---:|---:|"]
    lines += [f"| {c.what} | {c.compared} | {c.agree} | {len(c.disagree)} |" for c in checks]
    lines.append("")
    for c in checks:
        if c.disagree:
            lines += [f"### {c.what}: {len(c.disagree)} disagree", ""]
            lines += [f"- {d}" for d in c.disagree[:max_listed]]
            if len(c.disagree) > max_listed:
                lines.append(f"- ... and {len(c.disagree) - max_listed} more")
            lines.append("")
    return lines


def report_markdown(
    source: str,
    scores: Mapping[str, EventScores],
    checks: Sequence[Check],
    errors: Sequence[RecordError],
    fouled: int,
    max_listed: int = 50,
) -> str:
    lines = ["# Event scores", "", f"- source: `{source}`",
             f"- events: {len(scores)}; table results scored: "
             f"{sum(len(s.results) for s in scores.values())}; records left out: {len(errors)} "
             "(errors.csv)", f"- fouled boards (one board, several deals): {fouled}", ""]  # fmt: skip
    lines += published_section(checks, max_listed)
    for ev, sc in scores.items():
        info = sc.info
        lines += [f"## {ev}", "", f"scoring {info.scoring}, movement {info.movement or 'inferred'}, "
                  f"{'across the field' if info.across_field else 'each section its own field'}, "
                  f"MP top {info.mp_top or 2:g} per result beaten", ""]  # fmt: skip
        finals = [x for x in sc.rankings if x.session == ""] or sc.rankings
        unit = "VP" if info.scoring == "TEAMS" else ("IMPs" if info.scoring in ("IMP", "BUTLER")
                                                     else "MP")  # fmt: skip
        lines += [f"| place | direction | pair | players | boards | {unit} | % |",
                  "|---:|---|---|---|---:|---:|---:|"]  # fmt: skip
        for x in finals[:40]:
            pct = f"{x.pct:.2f}" if x.pct is not None else ""
            lines.append(f"| {x.rank} | {x.direction} | {x.pair} | {x.players} | {x.boards} | "
                         f"{x.mp:.2f} | {pct} |")  # fmt: skip
        lines.append("")
    return "\n".join(lines) + "\n"


def fouled_boards(scores: Mapping[str, EventScores]) -> int:
    """Boards (event, session, section, board[, match]) whose results hold more than one deal."""
    return fouled_in(s.result for sc in scores.values() for s in sc.results)


def fouled_in(results: Iterable[EventResult]) -> int:
    """Boards (event, session, section, board[, match]) whose results hold more than one deal."""
    deals: dict[tuple, set[str]] = defaultdict(set)
    for r in results:
        deals[(r.event, r.session, r.section, r.board,
               frozenset((r.home_team, r.visit_team)))].add(r.played)  # fmt: skip
    return sum(1 for v in deals.values() if len(v) > 1)


def write_outputs(
    out_dir: str | Path,
    loaded: Loaded,
    scores: Mapping[str, EventScores],
) -> Row:
    """results.csv, ranking.csv, teams.csv and butler.csv (teams events), errors.csv, report.md."""
    out = Path(out_dir)
    checks = compare_published(scores, loaded.standings)
    files = [
        write_csv(out / "results.csv", results_rows(scores), RESULTS_COLUMNS),
        write_csv(out / "ranking.csv", ranking_rows(scores), RANKING_COLUMNS),
    ]
    if any(sc.matches for sc in scores.values()):
        files.append(write_csv(out / "teams.csv", team_rows(scores), TEAMS_COLUMNS))
        files.append(write_csv(out / "butler.csv", butler_rows(scores), BUTLER_COLUMNS))
    files.append(write_csv(out / "errors.csv", ({"source": e.source, "line": e.line,
                                                  "message": e.message} for e in loaded.errors),
                           ERRORS_COLUMNS))  # fmt: skip
    fouled = fouled_boards(scores)
    report = out / "report.md"
    report.write_text(report_markdown(loaded.source, scores, checks, loaded.errors, fouled))
    files.append(report)
    return {
        "events": len(scores),
        "results": sum(len(s.results) for s in scores.values()),
        "errors": len(loaded.errors),
        "duplicate_tables": sum("duplicate table" in e.message for e in loaded.errors),
        "fouled_boards": fouled,
        "published": [
            {"what": c.what, "compared": c.compared, "agree": c.agree, "disagree": len(c.disagree)}
            for c in checks
        ],  # fmt: skip
        "files": [str(f) for f in files],
    }


# ---------------------------------------------------------------- the store


def scored_events(con: Any) -> dict[str, str]:
    """event -> content hash of what is stored."""
    return dict(con.sql("select event, content_hash from scored_events").fetchall())


def save_scores(con: Any, scores: Mapping[str, EventScores], hashes: Mapping[str, str],
                standings: Sequence[Row] = ()) -> None:  # fmt: skip
    """Replace each given event's rows in scored_results, rankings and team_matches."""
    import polars as pl

    events = list(scores)
    if not events:
        return
    for table in ("scored_results", "rankings", "team_matches", "scored_events"):
        con.execute(f"delete from {table} where event in (select unnest($e))", {"e": events})
    res = [{**r, "content_hash": hashes[r["event"]]} for r in results_rows(scores)]
    rank = ranking_rows(scores) + butler_rows(scores)
    published = {id(line): st for st, line in match_standings(scores, standings) if line}
    lines = [x for sc in scores.values() for x in sc.rankings]
    for r, line in zip(rank, lines + [None] * (len(rank) - len(lines)), strict=True):
        p = published.get(id(line)) if line is not None else None
        r["published_pct"] = _float(p.get("published_pct")) if p else None
        r["published_place"] = str(p.get("published_place") or "") if p else None
    _insert(con, "scored_results", res, pl)
    _insert(con, "rankings", rank, pl)
    _insert(con, "team_matches", team_rows(scores), pl)
    _insert(con, "scored_events", [{"event": ev, "date": sc.info.date, "scoring": sc.info.scoring,
                                    "content_hash": hashes[ev], "results": len(sc.results)}
                                   for ev, sc in scores.items()], pl)  # fmt: skip


def _insert(con: Any, table: str, rows: Sequence[Row], pl: Any) -> None:
    if not rows:
        return
    cols = [c for c in _columns_in_order(con, table)]
    frame = pl.DataFrame([{c: r.get(c) for c in cols} for r in rows], infer_schema_length=None)
    con.register("_rows", frame)
    try:
        con.execute(f"insert into {table} ({', '.join(cols)}) select {', '.join(cols)} from _rows")
    finally:
        con.unregister("_rows")


def _columns_in_order(con: Any, table: str) -> list[str]:
    return [r[0] for r in con.sql("select column_name from information_schema.columns where "
                                  f"table_name = '{table}' order by ordinal_position").fetchall()]  # fmt: skip


# ---------------------------------------------------------------- ratings


def _state_row(player: str, s: PlayerState, index: int, period: str) -> Row:
    return {"player": player, "rating": s.rating, "boards": s.boards, "std_error": s.std_error,
            "last_period": period, "period": period, "period_index": index, "weight": s.weight,
            "w": s.w, "w2": s.w2, "s1": s.s1, "s2": s.s2}  # fmt: skip


def period_order(con: Any) -> list[tuple[str, str, str]]:
    """(event, date, content_hash) of every scored event, in date order (then name)."""
    from ddrank.cleaning import board_year

    rows = con.sql("select event, coalesce(date, ''), content_hash from scored_events").fetchall()

    def when(r: tuple[str, str, str]) -> str:  # undated: the year in the event's name, if any
        return sortable_date(r[1] or str(board_year("", r[0]) or ""))

    return sorted(rows, key=lambda r: (when(r), r[0]))


def period_boards(con: Any, event: str, params: LehmanParams) -> list[Any]:
    """The Lehman boards of one stored event (shares from the stored MP % or IMPs)."""
    from ddrank.scoring.events import ScoredResult

    rows = con.sql("select players, ns_pct, imps from scored_results where event = $e "
                   "order by record_id", params={"e": event}).fetchall()  # fmt: skip
    scored = []
    for players, ns_pct, imps in rows:
        seats = tuple((players or "").split("|"))
        if len(seats) != 4:
            continue
        r = EventResult(record_id="", event=event, board="", players=seats)  # type: ignore[arg-type]
        scored.append(ScoredResult(r, ns_pct=ns_pct, imps=imps))
    return rated_boards(scored, None, params)


def update_ratings(con: Any, params: LehmanParams | None = None) -> Row:
    """Bring ratings up to date with the scored events, recursively.

    Periods are events in date order. The periods already rated with unchanged content keep their
    history; from the first new or changed period on (an older event inserted, or a rescored one)
    every period is rated again from the states its players had before it. A new latest event
    therefore costs one period, and gives what a recompute from scratch gives.
    """
    params = params or LehmanParams()
    order = period_order(con)
    stored = con.sql("select period_index, event, content_hash from rating_periods "
                     "order by period_index").fetchall()  # fmt: skip
    start = 0
    while (
        start < len(stored)
        and start < len(order)
        and (stored[start][1], stored[start][2]) == (order[start][0], order[start][2])
    ):
        start += 1  # fmt: skip
    if start == len(order) and len(stored) == len(order):
        return {"periods": len(order), "rerated_from": None, "players": _count(con, "ratings")}
    states: dict[str, PlayerState] = {}
    for row in con.sql(
        "select player, rating, weight, boards, period_index, w, w2, s1, s2 from ("
        " select *, row_number() over (partition by player order by period_index desc) k"
        " from rating_history where period_index < $s) where k = 1", params={"s": start}
    ).fetchall():  # fmt: skip
        p, rating, weight, boards, idx, w, w2, s1, s2 = row
        states[p] = PlayerState(rating, weight, boards, idx, w, w2, s1, s2)
    periods = [(ev, period_boards(con, ev, params)) for ev, _, _ in order[start:]]
    labels = {start + i: ev for i, (ev, _) in enumerate(periods)}
    history: list[Row] = []
    final = dict(states)
    for i, (ev, boards) in enumerate(periods, start=start):
        final = update_period(final, boards, i, params)
        history += [_state_row(p, s, i, ev) for p, s in final.items() if s.last_period == i]
    con.execute("delete from rating_history where period_index >= $s", {"s": start})
    con.execute("delete from rating_periods where period_index >= $s", {"s": start})
    import polars as pl

    _insert(con, "rating_history", history, pl)
    _insert(con, "rating_periods", [{"period_index": start + i, "event": ev, "date": d,
                                     "content_hash": h} for i, (ev, d, h) in
                                    enumerate(order[start:])], pl)  # fmt: skip
    all_labels = dict(con.sql("select period_index, event from rating_periods").fetchall())
    all_labels.update(labels)
    con.execute("delete from ratings")
    _insert(con, "ratings", [_state_row(p, s, s.last_period, all_labels.get(s.last_period, ""))
                             for p, s in sorted(final.items())], pl)  # fmt: skip
    return {"periods": len(order), "rerated_from": order[start][0] if start < len(order) else None,
            "rerated_periods": len(order) - start, "players": len(final)}  # fmt: skip


def _count(con: Any, table: str) -> int:
    return int(con.sql(f"select count(*) from {table}").fetchall()[0][0])


def write_ratings_csv(con: Any, out_dir: str | Path) -> Path:
    rows = _rows(con, "select player, rating, boards, std_error, last_period from ratings "
                      "order by rating desc, player")  # fmt: skip
    return write_csv(Path(out_dir) / "ratings.csv", rows, RATINGS_COLUMNS)


def rating_table(con: Any, limit: int = 25, min_boards: int = 30) -> list[Row]:
    """The top of the rating table, for the run summary and its Prefect artifact."""
    return _rows(con, f"select player, round(rating, 2) rating, boards, round(std_error, 2) "
                      f"std_error, last_period from ratings where boards >= {int(min_boards)} "
                      f"order by rating desc, player limit {int(limit)}")  # fmt: skip


def identity_of(name: str, source_id: str = "") -> str:
    """A player's identity without name matching: the source's id, else the name."""
    n, i = split_name_id(name, source_id)
    return f"id:{i}" if i else n


# ---------------------------------------------------------------- entry points


def top_lines(scores: Mapping[str, EventScores], n: int = 5) -> list[Row]:
    """The leaders of each event's final ranking(s), for the console and the run summary."""
    out = []
    for ev, sc in scores.items():
        finals = [x for x in sc.rankings if x.session == ""] or sc.rankings
        groups: dict[tuple[str, str], list[Any]] = defaultdict(list)
        for x in finals:
            groups[(x.section, x.direction)].append(x)
        lines = [x for g in groups.values() for x in sorted(g, key=lambda y: y.rank)[:n]]
        out.append({"event": ev, "scoring": sc.info.scoring,
                    "lines": [{"rank": x.rank, "direction": x.direction, "pair": x.pair,
                               "players": x.players, "boards": x.boards, "score": x.mp,
                               "pct": x.pct} for x in lines]})  # fmt: skip
    return out


def score_files(
    paths: Sequence[str], out_dir: str, method: MpMethod = "neuberg", mp_top: float | None = None
) -> Row:
    """`ddrank score FILE...`: score the files' events, write the output files, no store."""
    loaded = load_files(paths)
    scores = score_events(loaded, method, mp_top)
    summary = write_outputs(out_dir, loaded, scores)
    summary["top"] = top_lines(scores)
    return summary


def score_store(
    db_path: str, out_dir: str, method: MpMethod = "neuberg", event: str | None = None,
    params: LehmanParams | None = None,
) -> Row:  # fmt: skip
    """`ddrank score --db`: rescore changed events, keep them and the ratings in the store."""
    from tasks.db import connect

    if not Path(db_path).is_file():
        raise FileNotFoundError(f"DuckDB file not found: {db_path}")
    con = connect(db_path)
    try:
        loaded = load_store(db_path, con)
        if event is not None:
            loaded.results = [r for r in loaded.results if r.event == event or
                              r.event.startswith(f"{event} (")]  # fmt: skip
            if not loaded.results:
                raise ValueError(f"no event {event!r} in {db_path}")
        stored = scored_events(con)
        infos = loaded.infos()
        groups = by_event(loaded.results)
        hashes = {ev: event_hash(rs, infos[ev], method) for ev, rs in groups.items()}
        changed = sorted(ev for ev in groups if stored.get(ev) != hashes[ev])
        scores = {ev: score_event(groups[ev], infos[ev], method) for ev in changed}
        save_scores(con, scores, hashes, loaded.standings)
        ratings = update_ratings(con, params) if event is None else {}
        summary = export_from_store(con, out_dir, loaded.source, loaded.errors,
                                    events=None if event is None else [event])  # fmt: skip
        summary["fouled_boards"] = fouled_in(loaded.results)
        summary["rescored"] = changed
        summary["unchanged"] = sorted(set(groups) - set(changed))
        summary["ratings"] = ratings
        summary["top"] = top_lines({ev: sc for ev, sc in scores.items()}) if changed else []
        if event is None:
            summary["files"].append(str(write_ratings_csv(con, out_dir)))
        return summary
    finally:
        con.close()


_CHECKS_SQL = {
    "matchpoints per line": (
        "scored_results", "published_ns_mp is not null",
        "abs(ns_mp - published_ns_mp) <= 0.01 and (published_ew_mp is null or "
        "abs(ew_mp - published_ew_mp) <= 0.01)",
        "event || ' board ' || board || ' NS ' || coalesce(ns_pair, ns_players) || ': ours ' || "
        "coalesce(ns_mp::varchar, '-') || ', published ' || published_ns_mp"),
    "percentage per line": (
        "scored_results", "published_ns_pct is not null", "abs(ns_pct - published_ns_pct) <= 0.01",
        "event || ' board ' || board || ' NS ' || coalesce(ns_pair, ns_players) || ': ours ' || "
        "coalesce(ns_pct::varchar, '-') || ', published ' || published_ns_pct"),
    "IMPs per line": (
        "scored_results", "published_imps is not null", "abs(imps - published_imps) <= 0.01",
        "event || ' board ' || board || ' NS ' || coalesce(ns_pair, ns_players) || ': ours ' || "
        "coalesce(imps::varchar, '-') || ', published ' || published_imps"),
    "final percentage": (
        "rankings", "published_pct is not null", "abs(pct - published_pct) <= 0.01",
        "event || ' ' || direction || ' pair ' || pair || ': ours ' || coalesce(pct::varchar, '-') "
        "|| ', published ' || published_pct"),
    "place": (
        "rankings", "coalesce(published_place, '') <> ''",
        "rank = try_cast(rtrim(published_place, '=') as integer)",
        "event || ' ' || direction || ' pair ' || pair || ': ours ' || rank || ', published ' || "
        "published_place"),
}  # fmt: skip


def store_checks(con: Any, events: Sequence[str] | None = None) -> list[Check]:
    """The published-value checks, from the stored scores (every event, or the given ones)."""
    out = []
    only = "" if events is None else " and event in (select unnest($e))"
    params = {} if events is None else {"e": list(events)}
    for what, (table, has, ok, detail) in _CHECKS_SQL.items():
        rows = con.sql(f"select coalesce({ok}, false), {detail} from {table} where {has}{only}",
                       params=params).fetchall()  # fmt: skip
        c = Check(what)
        for good, text in rows:
            c.add(bool(good), str(text))
        if c.compared:
            out.append(c)
    return out


def export_from_store(con: Any, out_dir: str, source: str, errors: Sequence[RecordError],
                      events: Sequence[str] | None = None) -> Row:  # fmt: skip
    """results.csv, ranking.csv, teams.csv, butler.csv, errors.csv and report.md from the store."""
    out = Path(out_dir)
    where = "" if events is None else "where event in (select unnest($e))"
    params = {} if events is None else {"e": list(events)}

    def q(sql: str) -> list[Row]:
        rel = con.sql(sql, params=params)
        return [dict(zip(rel.columns, v, strict=True)) for v in rel.fetchall()]

    results = q(f"select * from scored_results {where} order by event, session, section, "
                "try_cast(board as integer), board, record_id")  # fmt: skip
    rank_where = where + " and " if where else "where "
    pairs = q(f"select *, score as mp from rankings {rank_where} kind in ('pairs', 'teams') "
              "order by event, session = '', session, section, direction, rank, pair")  # fmt: skip
    butler = q(f"select *, score as butler, score / nullif(boards, 0) as butler_per_board "
               f"from rankings {rank_where} kind = 'butler' order by event, rank, pair")  # fmt: skip
    teams = q(f"select * from team_matches {where} order by event, session, section, team")
    files = [write_csv(out / "results.csv", results, RESULTS_COLUMNS),
             write_csv(out / "ranking.csv", pairs, RANKING_COLUMNS)]  # fmt: skip
    if teams:
        files += [write_csv(out / "teams.csv", teams, TEAMS_COLUMNS),
                  write_csv(out / "butler.csv", butler, BUTLER_COLUMNS)]  # fmt: skip
    files.append(write_csv(out / "errors.csv", ({"source": e.source, "line": e.line,
                                                  "message": e.message} for e in errors),
                           ERRORS_COLUMNS))  # fmt: skip
    checks = store_checks(con, events)
    report = out / "report.md"
    report.write_text(_store_report(source, results, pairs, checks, errors))
    files.append(report)
    return {
        "events": len({r["event"] for r in results}),
        "results": len(results),
        "errors": len(errors),
        "duplicate_tables": sum("duplicate table" in e.message for e in errors),
        "published": [
            {"what": c.what, "compared": c.compared, "agree": c.agree, "disagree": len(c.disagree)}
            for c in checks
        ],  # fmt: skip
        "files": [str(f) for f in files],
    }


def _store_report(source: str, results: Sequence[Row], pairs: Sequence[Row],
                  checks: Sequence[Check], errors: Sequence[RecordError]) -> str:  # fmt: skip
    lines = ["# Event scores", "", f"- source: `{source}`",
             f"- events: {len({r['event'] for r in results})}; table results scored: "
             f"{len(results)}; records left out: {len(errors)} (errors.csv)", ""]  # fmt: skip
    lines += published_section(checks)
    by_event: dict[str, list[Row]] = defaultdict(list)
    for p in pairs:
        by_event[p["event"]].append(p)
    for ev, rows in by_event.items():
        finals = [r for r in rows if r["session"] == ""] or rows
        lines += [f"## {ev}", "", "| place | direction | pair | players | boards | score | % |",
                  "|---:|---|---|---|---:|---:|---:|"]  # fmt: skip
        for r in finals[:40]:
            pct = "" if r["pct"] is None else f"{r['pct']:.2f}"
            lines.append(f"| {r['rank']} | {r['direction']} | {r['pair']} | {r['players']} | "
                         f"{r['boards']} | {r['score']:.2f} | {pct} |")  # fmt: skip
        lines.append("")
    return "\n".join(lines) + "\n"
