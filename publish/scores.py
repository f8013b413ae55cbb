"""The score outputs: results.csv, ranking.csv, teams.csv, butler.csv, errors.csv, report.md and
ratings.csv, all through the one CSV writer (`publish.tables.write_csv`)."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from ddrank.raw import PLACE_FIELDS
from ddrank.scoring.arithmetic.individual import seat_rows
from ddrank.scoring.events import EventResult, ScoredEvent
from ddrank.scoring.intake.results import RecordError
from ddrank.scoring.verification.check import Check
from ddrank.scoring.verification.printed import printed_lines
from ddrank.scoring.verification.standings import match_standings
from publish.atomic import staged_files
from publish.encoding import markdown_text as md
from publish.tables import csv_text, write_csv

Row = dict[str, Any]

RESULTS_COLUMNS = [
    "event", "session", "section", "board", "ns_pair", "ew_pair", "ns_players", "ew_players",
    "contract", "declarer", "tricks", "ns_score", "ns_mp", "ew_mp", "ns_pct", "ew_pct", "imps",
    "published_ns_mp", "published_ew_mp", "published_ns_pct", "published_imps",
]  # fmt: skip
RANKING_COLUMNS = ["event", "session", "section", "direction", "pair", "players", "boards", "mp",
                   "pct", "rank", "place_text", "score_text", "pct_text"]  # fmt: skip
TEAMS_COLUMNS = ["event", "session", "section", "team", "opponent", "boards", "imps_for",
                 "imps_against", "vp"]  # fmt: skip
BUTLER_COLUMNS = ["event", "pair", "players", "boards", "butler", "butler_per_board", "rank"]
#: errors.csv: the file and line, the record's place as its source gives it, what kind of problem
#: ("left out": read, not scored; "missing": a line the movement expects; "note": scored, but
#: read this; "unreadable": a whole file no reader takes), and why.
ERRORS_COLUMNS = ["source", "line", *PLACE_FIELDS, "kind", "message"]
RATINGS_COLUMNS = ["player", "rating", "boards", "std_error", "last_period"]
#: The store's tables, column for column (sql/scoring_schema.sql).
SCORED_RESULTS_COLUMNS = [
    "record_id", "event", "session", "section", "board", "ns_pair", "ew_pair", "ns_players",
    "ew_players", "contract", "declarer", "tricks", "ns_score", "adjusted", "field_size", "ns_mp",
    "ew_mp", "ns_pct", "ew_pct", "imps", "butler", "published_ns_mp", "published_ew_mp",
    "published_ns_pct", "published_imps", "players", "content_hash", "match", "played",
    "deal_id", "names", "ns_vulnerable", "ew_vulnerable", "year", "date", "player_numbers",
]  # fmt: skip
PLAYER_RESULTS_COLUMNS = ["event", "session", "section", "board", "record_id", "seat",
                          "player_number", "player", "score", "pct"]  # fmt: skip
#: Each line as its scorer prints it (ddrank.scoring.verification.printed), kept with the ranking.
PRINTED_COLUMNS = ["rulebook", "score_decimals", "pct_decimals", "place_text", "score_text",
                   "pct_text", "line_decimals"]  # fmt: skip
RANKINGS_TABLE_COLUMNS = ["event", "kind", "session", "section", "direction", "pair", "players",
                          "boards", "score", "pct", "rank", "published_pct", "published_place",
                          *PRINTED_COLUMNS, "factor"]  # fmt: skip


# ---------------------------------------------------------------- rows


def _adjusted_text(r: EventResult) -> str:
    return f"{r.adjusted[0]:g}/{r.adjusted[1]:g}" if r.adjusted else ""


def results_rows(scores: Mapping[str, ScoredEvent]) -> list[Row]:
    """One row per scored table result: what results.csv shows and `scored_results` keeps."""
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
                "players": "|".join(r.players), "match": r.match, "played": r.played,
                "deal_id": r.deal_id or None, "names": "|".join(r.names),
                "ns_vulnerable": r.ns_vulnerable, "ew_vulnerable": r.ew_vulnerable,
                "year": r.year, "date": r.date,
                "player_numbers": "|".join(r.player_numbers) if any(r.player_numbers) else None,
            })  # fmt: skip
    return out


def ranking_rows(scores: Mapping[str, ScoredEvent], standings: Sequence[Row] = ()) -> list[Row]:
    """Every ranking line with its numbers and as its scorer prints it (`standings`: what the
    files published, whose printed digits a line that agrees with them takes)."""
    out: list[Row] = []
    pairs = match_standings(scores, standings)
    for ev, sc in scores.items():
        kind = ("teams" if sc.info.scoring in ("TEAMS", "BAM") else
                "individual" if sc.info.individual else "pairs")  # fmt: skip
        printed = printed_lines(sc, pairs)
        for x in sc.rankings:
            p = printed[id(x)]
            out.append({"event": ev, "kind": x.kind or kind, "session": x.session,
                        "section": x.section,
                        "direction": x.direction, "pair": x.pair, "players": x.players,
                        "boards": x.boards, "mp": x.mp, "score": x.mp, "pct": x.pct,
                        "rank": x.rank, "rulebook": p.rulebook,
                        "score_decimals": p.score_decimals, "pct_decimals": p.pct_decimals,
                        "place_text": p.place, "score_text": p.score,
                        "pct_text": p.pct, "line_decimals": p.line_decimals,
                        "factor": x.factor})  # fmt: skip
    return out


def butler_rows(scores: Mapping[str, ScoredEvent]) -> list[Row]:
    return [{"event": ev, "kind": "butler", "session": "", "section": "", "direction": "",
             "pair": x.pair, "players": x.players, "boards": x.boards, "butler": x.mp,
             "score": x.mp, "butler_per_board": x.mp / x.boards if x.boards else None,
             "pct": None, "rank": x.rank}
            for ev, sc in scores.items() for x in sc.butler]  # fmt: skip


def player_rows(scores: Mapping[str, ScoredEvent]) -> list[Row]:
    """An individual event's players board by board (`player_results`)."""
    return [{**row, "event": ev} for ev, sc in scores.items() if sc.info.individual
            for row in seat_rows(sc.results)]  # fmt: skip


def team_rows(scores: Mapping[str, ScoredEvent]) -> list[Row]:
    return [{**asdict(m), "event": ev} for ev, sc in scores.items() for m in sc.matches]


def error_rows(errors: Iterable[RecordError]) -> Iterator[Row]:
    """errors.csv's rows (ERRORS_COLUMNS), as the errors stream by."""
    return ({"source": e.source, "line": e.line, **{f: getattr(e, f) for f in PLACE_FIELDS},
             "kind": e.kind, "message": e.message} for e in errors)  # fmt: skip


def write_errors(out: Path, errors: Iterable[RecordError]) -> Path:
    """errors.csv in `out`: one line per record left out or missing, named where it is."""
    return write_csv(out / "errors.csv", error_rows(errors), ERRORS_COLUMNS)


def left_out(errors: Iterable[RecordError]) -> int:
    """Records read and not scored (errors.csv also lists missing lines and notes)."""
    return sum(e.kind == "left out" for e in errors)


def error_counts(errors: Iterable[RecordError]) -> Row:
    """The summary's counts: records left out, duplicate tables among them, lines missing."""
    return ErrorTally(errors).counts()


#: a message's first clause that names the table's contract ("3NX by W"), not why
_CONTRACT_BY = re.compile(r"[1-7](?:[CDHS]|NT?)(?:X|XX|R)? by [NESW]")


def why_left_out(errors: Iterable[RecordError], limit: int = 5) -> list[str]:
    """The records left out, grouped by where (match or section, else event) and why (the
    message's first clause), largest first: one line each with its first record in full, so a
    director sees which match went unscored and finds it in the file without opening
    errors.csv ("20 left out in ITALY v WALES (not played), first ...pbn:1726: ...")."""
    return ErrorTally(errors).why_left_out(limit)


#: report.md's lists of problems (`_problem_lines`): each kind, and its title ('' for none).
PROBLEM_KINDS = (("left out", ""), ("unreadable", "files no reader takes"),
                 ("missing", "traveller lines missing"), ("note", "notes"))  # fmt: skip


class ErrorTally:
    """What the summary and report.md say of the errors, in one pass over them (a stream: an
    archive's records left out are not all held at once, issue 37): each kind's count and
    first PROBLEMS_LISTED, the duplicate tables, and the records left out grouped by where and
    why, each group's count and its first record (by line)."""

    def __init__(self, errors: Iterable[RecordError] = ()) -> None:
        self.kinds: dict[str, int] = {}
        self.first: dict[str, list[RecordError]] = {}
        self.duplicate_tables = 0
        self.groups: dict[tuple[str, str], list[Any]] = {}  # (where, why) -> [count, first]
        for e in errors:
            self.add(e)

    def through(self, errors: Iterable[RecordError]) -> Iterator[RecordError]:
        """The errors as they stream by, each counted (errors.csv written and tallied in one
        pass)."""
        for e in errors:
            self.add(e)
            yield e

    def add(self, e: RecordError) -> None:
        self.kinds[e.kind] = self.kinds.get(e.kind, 0) + 1
        first = self.first.setdefault(e.kind, [])
        if len(first) < PROBLEMS_LISTED:
            first.append(e)
        self.duplicate_tables += "duplicate table" in e.message
        if e.kind == "left out":
            where = e.section or e.event or Path(e.source).name
            clauses = [c.strip() for c in e.message.split(":")]
            why = (
                clauses[1]
                if len(clauses) > 1 and _CONTRACT_BY.fullmatch(clauses[0])
                else clauses[0]
            )
            group = self.groups.get((where, why))
            if group is None:
                self.groups[(where, why)] = [1, e]
            else:
                group[0] += 1
                if (e.line or 0) < (group[1].line or 0):  # the first of the lowest line
                    group[1] = e

    def left_out(self) -> int:
        return self.kinds.get("left out", 0)

    def why_left_out(self, limit: int = 5) -> list[str]:
        ranked = sorted(self.groups.items(), key=lambda kv: -kv[1][0])
        lines = [f"{n} left out in {where} ({why}), first {first}"
                 for (where, why), (n, first) in ranked[:limit]]  # fmt: skip
        if len(ranked) > limit:
            lines.append(f"... and {len(ranked) - limit} more group(s): errors.csv lists each "
                         "record")  # fmt: skip
        return lines

    def counts(self) -> Row:
        return {"errors": self.left_out(), "duplicate_tables": self.duplicate_tables,
                "missing_lines": self.kinds.get("missing", 0), "notes": self.kinds.get("note", 0),
                "left_out_why": self.why_left_out()}  # fmt: skip

    def problem_lines(self) -> list[str]:
        """report.md's lists of records left out (under the count), traveller lines the
        movement expects and the files lack, and notes (the first PROBLEMS_LISTED of each;
        errors.csv has all)."""
        out = []
        for kind, title in PROBLEM_KINDS:
            n = self.kinds.get(kind, 0)
            if n and title:
                out.append(f"- {title}: {n} (errors.csv)")
            out += [f"  - {e}" for e in self.first.get(kind, [])]
            if n > PROBLEMS_LISTED:
                out.append(f"  - ... and {n - PROBLEMS_LISTED} more")
        return out


#: Problems of each kind report.md lists (errors.csv has them all).
PROBLEMS_LISTED = 20


# ---------------------------------------------------------------- files


def write_outputs(out_dir: str | Path, source: str, errors: Sequence[RecordError],
                  scores: Mapping[str, ScoredEvent], checks: Sequence[Check], fouled: int,
                  standings: Sequence[Row] = ()) -> Row:  # fmt: skip
    """`ddrank score FILE...`: the output files from the scores in hand (each ranking line also
    as its scorer prints it, with the published `standings`)."""
    out = Path(out_dir)
    with staged_files(out) as new:  # the set replaces the last one only once complete
        write_csv(new / "results.csv", results_rows(scores), RESULTS_COLUMNS)
        write_csv(new / "ranking.csv", ranking_rows(scores, standings), RANKING_COLUMNS)
        if any(sc.matches for sc in scores.values()):
            write_csv(new / "teams.csv", team_rows(scores), TEAMS_COLUMNS)
            write_csv(new / "butler.csv", butler_rows(scores), BUTLER_COLUMNS)
        write_errors(new, errors)
        (new / "report.md").write_text(
            report_markdown(source, scores, checks, errors, fouled, standings=standings)
        )
        files = [out / f.name for f in _in_order(new)]
    return {
        "events": len(scores),
        "results": sum(len(s.results) for s in scores.values()),
        **error_counts(errors),
        "fouled_boards": fouled,
        "published": _checks_summary(checks),
        "files": [str(f) for f in files],
    }


#: The per-event parts of the store's outputs (`event_block`), in the files' order.
BLOCK_FILES = (("results_csv", "results.csv", RESULTS_COLUMNS),
               ("ranking_csv", "ranking.csv", RANKING_COLUMNS),
               ("teams_csv", "teams.csv", TEAMS_COLUMNS),
               ("butler_csv", "butler.csv", BUTLER_COLUMNS))  # fmt: skip


def event_block(results: Sequence[Row], pairs: Sequence[Row], butler: Sequence[Row],
                teams: Sequence[Row]) -> Row:  # fmt: skip
    """One event's part of results.csv, ranking.csv, teams.csv, butler.csv and of report.md's
    rankings, as text: the files of an archive are its events' parts one after the other (in
    event order), so a part is made once, kept, and written again as it is (issue 37: adding one
    event to an archive renders one event, not the archive)."""
    sections = _RankingSections()
    for r in pairs:
        sections.add(r)
    return {"results": len(results), "teams": len(teams),
            "results_csv": csv_text(results, RESULTS_COLUMNS),
            "ranking_csv": csv_text(pairs, RANKING_COLUMNS),
            "teams_csv": csv_text(teams, TEAMS_COLUMNS),
            "butler_csv": csv_text(butler, BUTLER_COLUMNS),
            "report_md": "\n".join(sections.lines())}  # fmt: skip


def write_block_outputs(out_dir: str | Path, source: str, blocks: Iterable[Row],
                        checks: Sequence[Check], errors: Iterable[RecordError]) -> Row:  # fmt: skip
    """The same files from the store (`ddrank score --db`, `ddrank run`): the events' kept parts
    (`event_block`, in event order, a stream) one after the other. teams.csv and butler.csv are
    written when any event has a team match; report.md lists each event's ranking. `errors`
    is read once, as a stream (errors.csv written and counted as they go by)."""
    out = Path(out_dir)
    events = results = 0
    teams = False
    report: list[str] = []
    with staged_files(out) as new, contextlib.ExitStack() as stack:
        files = {}
        for key, name, columns in BLOCK_FILES:
            fh = stack.enter_context((new / name).open("w", newline=""))
            fh.write(csv_text([], columns, header=True))
            files[key] = fh
        for b in blocks:
            events += b["results"] > 0
            results += b["results"]
            teams = teams or b["teams"] > 0
            for key, fh in files.items():
                fh.write(b[key] or "")
            if b["report_md"]:
                report.append(b["report_md"])
        for fh in files.values():
            fh.close()
        if not teams:
            (new / "teams.csv").unlink()
            (new / "butler.csv").unlink()
        tally = ErrorTally()
        write_errors(new, tally.through(errors))
        (new / "report.md").write_text(_store_report(source, events, results, report, checks,
                                                     tally))  # fmt: skip
        written = [out / f.name for f in _in_order(new)]
    return {
        "events": events,
        "results": results,
        **tally.counts(),
        "published": _checks_summary(checks),
        "files": [str(f) for f in written],
    }


_ORDER = ("results.csv", "ranking.csv", "teams.csv", "butler.csv", "errors.csv", "report.md")


def _in_order(folder: Path) -> list[Path]:
    """The files written, in the order the summary has always listed them."""
    return sorted(folder.iterdir(), key=lambda f: _ORDER.index(f.name) if f.name in _ORDER else 99)


def write_ratings_csv(rows: Iterable[Row], out_dir: str | Path) -> Path:
    return write_csv(Path(out_dir) / "ratings.csv", rows, RATINGS_COLUMNS)


def _checks_summary(checks: Sequence[Check]) -> list[Row]:
    return [{"what": c.what, "compared": c.compared, "agree": c.agree,
             "disagree": len(c.disagree)} for c in checks]  # fmt: skip


# ---------------------------------------------------------------- report.md


_LONG_FLOAT = re.compile(r"-?\d+\.\d{5,}")


def tidy_numbers(text: str) -> str:
    """Floating-point noise out of a message: '7.4/2.5999999999999996' -> '7.4/2.6'."""
    return _LONG_FLOAT.sub(lambda m: f"{round(float(m.group()), 4):g}", text)


def _listed(title: str, items: Sequence[str], max_listed: int) -> list[str]:
    if not items:
        return []
    lines = [f"### {title}", "", *[f"- {md(tidy_numbers(d))}" for d in items[:max_listed]]]
    if len(items) > max_listed:
        lines.append(f"- ... and {len(items) - max_listed} more")
    return [*lines, ""]


def published_section(checks: Sequence[Check], max_listed: int = 50) -> list[str]:
    """How many of our values agree with each kind of published value, and the ones that don't."""
    lines = ["## Published values", ""]
    if not checks:
        return lines + ["The sources published no matchpoints, percentages, IMPs or places.", ""]
    lines += ["| published value | compared | agree | disagree |", "|---|---:|---:|---:|"]
    lines += [f"| {md(c.what)} | {c.compared} | {c.agree} | {len(c.disagree)} |" for c in checks]
    lines.append("")
    for c in checks:  # the differing ones, then those the file's own numbers contradict
        lines += _listed(f"{md(c.what)}: {len(c.disagree)} disagree", c.disagree, max_listed)
        lines += _listed(f"{md(c.what)}: {len(c.explained)} explained by the file's own numbers",
                         c.explained, max_listed)  # fmt: skip
    return lines


def report_markdown(
    source: str,
    scores: Mapping[str, ScoredEvent],
    checks: Sequence[Check],
    errors: Sequence[RecordError],
    fouled: int,
    max_listed: int = 50,
    standings: Sequence[Row] = (),
) -> str:
    """report.md of `ddrank score FILE`: each final ranking as its scorer prints it."""
    pairs = match_standings(scores, standings)
    lines = ["# Event scores", "", f"- source: {md(source)}",
             f"- events: {len(scores)}; table results scored: "
             f"{sum(len(s.results) for s in scores.values())}; records left out: "
             f"{left_out(errors)} (errors.csv)", *_problem_lines(errors),
             f"- fouled boards (one board, several deals): {fouled}", ""]  # fmt: skip
    lines += published_section(checks, max_listed)
    for ev, sc in scores.items():
        info = sc.info
        lines += [f"## {md(ev)}", "", f"scoring {md(info.scoring)}, movement "
                  f"{md(info.movement or 'inferred')}, "
                  f"{'across the field' if info.across_field else 'each section its own field'}, "
                  f"MP top {info.mp_top or 2:g} per result beaten", ""]  # fmt: skip
        finals = [x for x in sc.rankings if x.session == ""] or sc.rankings
        units = {"TEAMS": "VP", "BAM": "points", "IMP": "IMPs", "BUTLER": "IMPs"}
        unit = units.get(info.scoring, "MP")
        lines += [f"| place | direction | pair | players | boards | {unit} | % |",
                  "|---:|---|---|---|---:|---:|---:|"]  # fmt: skip
        printed = printed_lines(sc, pairs)
        for x in finals[:40]:
            p = printed[id(x)]
            lines.append(f"| {p.place} | {md(x.direction)} | {md(x.pair)} | {md(x.players)} | "
                         f"{x.boards} | {p.score} | {p.pct} |")  # fmt: skip
        lines.append("")
    return "\n".join(lines) + "\n"


def _problem_lines(errors: Iterable[RecordError]) -> list[str]:
    """report.md's lists of records left out, traveller lines missing and notes (`ErrorTally`)."""
    return ErrorTally(errors).problem_lines()


def _store_report(source: str, events: int, results: int, sections: list[str],
                  checks: Sequence[Check], errors: ErrorTally) -> str:  # fmt: skip
    lines = ["# Event scores", "", f"- source: {md(source)}",
             f"- events: {events}; table results scored: "
             f"{results}; records left out: {errors.left_out()} (errors.csv)",
             *errors.problem_lines(), ""]  # fmt: skip
    lines += published_section(checks)
    return "\n".join(lines + sections) + "\n"


class _RankingSections:
    """report.md's table of each event's ranking, from the ranking rows as they stream by: an
    event's final lines ('' session), else all its lines, the first REPORT_LINES of them. Only
    those lines are kept, as text, not the rows (an archive has tens of thousands)."""

    def __init__(self) -> None:
        self.finals: dict[str, list[str]] = {}  # event -> its first final lines
        self.every: dict[str, list[str]] = {}  # event -> its first lines (in the rows' order)

    def add(self, r: Row) -> None:
        every = self.every.setdefault(r["event"], [])
        finals = self.finals.setdefault(r["event"], [])
        if len(every) < REPORT_LINES or (r["session"] == "" and len(finals) < REPORT_LINES):
            line = self._line(r)
            if len(every) < REPORT_LINES:
                every.append(line)
            if r["session"] == "" and len(finals) < REPORT_LINES:
                finals.append(line)

    @staticmethod
    def _line(r: Row) -> str:  # as scoring kept it printed (rankings.place_text, ...)
        pct = r.get("pct_text") or ("" if r["pct"] is None else f"{r['pct']:.2f}")
        return (f"| {r.get('place_text') or r['rank']} | {md(r['direction'])} | "
                f"{md(r['pair'])} | {md(r['players'])} | {r['boards']} | "
                f"{r.get('score_text') or format(r['score'], '.2f')} | {pct} |")  # fmt: skip

    def lines(self) -> list[str]:
        out: list[str] = []
        for ev, every in self.every.items():
            out += [f"## {md(ev)}", "", "| place | direction | pair | players | boards | score | % |",
                    "|---:|---|---|---|---:|---:|---:|"]  # fmt: skip
            out += self.finals[ev] or every
            out.append("")
        return out


#: Lines of each event's ranking report.md shows (ranking.csv has them all).
REPORT_LINES = 40
