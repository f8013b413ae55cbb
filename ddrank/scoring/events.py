"""Scoring real events the way directors publish them: boards, fields, sessions, sections, pairs.

A board is (event, session, section, board number). Its results form one field, or, when the event
is scored across the field, the same board of every section forms one field. Within a field,
results are grouped by what was really played (deal, dealer and vulnerability): several groups
are a fouled board (De Wael 1996), each group scored on its own and lifted to the field's top.

What is not a result: a phantom or sit-out table (no score for anybody). What is a result without
a comparison: an adjusted score (A+ 60%, A 50%, A- 40%, or any "NS%/EW%" split); the pair gets
that percentage and the other results of the board are lifted by Neuberg, as if the board had
been played once fewer. A board played fewer times than the field (a missing table, a late
arrival) is lifted to the full top the same way.

Matchpoints: `top` per result beaten (2 in EBU and FFB scoring, 1 in ACBL scoring), half of it
per tie; the board's top is `top * (N - 1)` for a field of N results.

Nothing here reads files: `EventResult` carries what any reader or the store gives.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from ddrank.scoring import crossimps, matchpoints
from ddrank.scoring.duplicate import imps

MpMethod = Literal["neuberg", "mitchell1", "mitchell1_bis", "ascherman", "none"]
EventScoring = Literal["MP", "IMP", "BUTLER", "TEAMS"]

#: Conventional artificial adjusted scores (Law 12C2): percentage of the top.
ADJUSTED_CODES = {"A+": 60.0, "A": 50.0, "A=": 50.0, "AV": 50.0, "AVE": 50.0, "A-": 40.0,
                  "AV+": 60.0, "AV-": 40.0, "AVE+": 60.0, "AVE-": 40.0}  # fmt: skip


class ScoringError(ValueError):
    """A result that cannot be scored as given (named by its record)."""


@dataclass(frozen=True, slots=True)
class EventInfo:
    """What the event says about how it is scored; "" / None = infer from the results."""

    event: str
    scoring: str = ""  # MP | IMP (cross-IMPs) | BUTLER | TEAMS | ""
    movement: str = ""  # howell | mitchell | ""
    across_field: bool = False
    mp_top: float | None = None  # 2 (EBU, FFB) or 1 (ACBL) per result beaten; None = 2
    date: str = ""  # ISO date of the event (rating periods are in date order)


@dataclass(frozen=True, slots=True)
class EventResult:
    """One table's result on one board, with everything needed to score and to compare."""

    record_id: str
    event: str
    board: str
    session: str = ""
    section: str = ""
    played: str = ""  # deal + dealer + vulnerability: different values under one board = fouled
    ns_pair: str = ""
    ew_pair: str = ""
    ns_players: str = ""
    ew_players: str = ""
    players: tuple[str, str, str, str] = ("", "", "", "")  # N, E, S, W identities (rating)
    ns_score: int | None = None  # None: adjusted, or no score
    adjusted: tuple[float, float] | None = None  # (NS %, EW %) of an adjusted score
    phantom: str = ""  # "NS" / "EW": a phantom or sit-out table, not a result
    contract: str = ""
    declarer: str = ""
    tricks: int | None = None
    home_team: str = ""
    visit_team: str = ""
    room: str = ""
    order: int = 0  # position in the source, for stable output and room order
    published_ns_mp: float | None = None
    published_ew_mp: float | None = None
    published_ns_pct: float | None = None
    published_ew_pct: float | None = None
    published_imps: float | None = None

    @property
    def is_result(self) -> bool:
        """Phantom and sit-out tables, and tables with neither score nor adjustment, are not."""
        return not self.phantom and (self.ns_score is not None or self.adjusted is not None)


@dataclass(frozen=True, slots=True)
class ScoredResult:
    """A result with what we computed for it (None where the event's scoring does not apply)."""

    result: EventResult
    field_size: int = 0  # N: results the board is scored over (the fullest board of the field)
    group_size: int = 0  # results that played the same cards (and were not adjusted)
    ns_mp: float | None = None
    ew_mp: float | None = None
    ns_pct: float | None = None
    ew_pct: float | None = None
    imps: float | None = None  # North-South's: vs the other room (teams), cross-IMPs or Butler
    butler: float | None = None  # North-South's Butler IMPs against the field's datum
    top: float = 0.0  # the board's matchpoint top, top * (N - 1) (0 outside matchpoint scoring)


def parse_adjusted(text: str) -> tuple[float, float]:
    """'60/40', '50/50', 'A+/A-', 'A+' (the other side A-), 'A' -> (NS %, EW %)."""
    t = text.strip().upper().replace(" ", "").replace("%", "")
    if not t:
        raise ScoringError("empty adjusted score")
    parts = t.split("/")
    if len(parts) == 1:
        if t in ADJUSTED_CODES:
            ns = ADJUSTED_CODES[t]
            return ns, 100.0 - ns if t != "A" else 50.0
        raise ScoringError(f"adjusted score {text!r} is not NS%/EW% or A+/A/A-")
    if len(parts) != 2:
        raise ScoringError(f"adjusted score {text!r} is not NS%/EW%")
    out: list[float] = []
    for p in parts:
        if p in ADJUSTED_CODES:
            out.append(ADJUSTED_CODES[p])
            continue
        try:
            v = float(p)
        except ValueError:
            raise ScoringError(f"adjusted score {text!r}: {p!r} is not a percentage") from None
        if not 0.0 <= v <= 100.0:
            raise ScoringError(f"adjusted score {text!r}: {p} is outside 0..100")
        out.append(v)
    return out[0], out[1]


def parse_number(text: object) -> float | None:
    """A published number as written ('12.5', '+4', '-', ''), None when absent."""
    if text is None:
        return None
    if isinstance(text, int | float):
        return None if isinstance(text, float) and math.isnan(text) else float(text)
    t = str(text).strip().replace(",", ".").rstrip("%")
    if t in ("", "-", "--"):
        return None
    try:
        return float(t)
    except ValueError:
        return None


# ---------------------------------------------------------------- boards and fields


def board_key(r: EventResult) -> tuple[str, str, str, str]:
    """(event, session, section, board): the board as the director knows it."""
    return r.event, r.session, r.section, r.board


def field_key(r: EventResult, across_field: bool) -> tuple[str, str, str, str]:
    """The results a board's result is compared with: its section, or every section."""
    return r.event, r.session, "*" if across_field else r.section, r.board


def _field_of_board(key: tuple[str, str, str, str]) -> tuple[str, str, str]:
    return key[0], key[1], key[2]


def field_sizes(
    results: Iterable[EventResult], across_field: bool
) -> dict[tuple[str, str, str], int]:
    """N per field (event, session, section or '*'): the most results any of its boards has."""
    per_board: dict[tuple[str, str, str, str], int] = defaultdict(int)
    for r in results:
        if r.is_result:
            per_board[field_key(r, across_field)] += 1
    out: dict[tuple[str, str, str], int] = defaultdict(int)
    for key, n in per_board.items():
        f = _field_of_board(key)
        out[f] = max(out[f], n)
    return dict(out)


def _lift(groups: Sequence[Sequence[float]], total: int, method: MpMethod) -> list[list[float]]:
    """Matchpoints of each group (2 per result beaten) lifted to a field of `total` results."""
    if method == "mitchell1":
        return matchpoints.mitchell1(groups, total)
    if method == "mitchell1_bis":
        return matchpoints.mitchell1_bis(groups, total)
    if method == "ascherman":  # Ascherman's scale is one above Neuberg's: back to matchpoints
        return [[a - 1 for a in g] for g in matchpoints.ascherman(groups, total)]
    return matchpoints.neuberg(groups, total)


def score_mp_board(
    results: Sequence[EventResult],
    field_size: int | None = None,
    top: float = 2.0,
    method: MpMethod = "neuberg",
) -> list[ScoredResult]:
    """Matchpoints and percentages of one board's field (phantom tables are left out).

    `field_size` (N) defaults to the results on this board; a board played fewer times than the
    field gets the field's N, so its results reach the full top `top * (N - 1)`.
    """
    real = [r for r in results if r.is_result]
    n_field = max(field_size or 0, len(real))
    if method == "none":  # each board on its own top: the results really compared (BriAn)
        n_field = sum(1 for r in real if r.adjusted is None) or len(real)
        method = "neuberg"  # only a fouled board's groups still need lifting to that top
    board_top = top * (n_field - 1)
    played: dict[str, list[EventResult]] = defaultdict(list)
    for r in real:
        if r.adjusted is None:
            played[r.played].append(r)
    groups = list(played.values())
    out: list[ScoredResult] = []
    if groups:
        lifted = _lift([[float(r.ns_score) for r in g] for g in groups], n_field, method)  # type: ignore[arg-type]
        for g, mps in zip(groups, lifted, strict=True):
            for r, m in zip(g, mps, strict=True):
                ns_mp = m * top / 2.0
                ew_mp = board_top - ns_mp
                ns_pct = 100.0 * ns_mp / board_top if board_top else 50.0
                out.append(ScoredResult(r, n_field, len(g), ns_mp, ew_mp, ns_pct, 100.0 - ns_pct,
                                        top=board_top))  # fmt: skip
    for r in real:
        if r.adjusted is not None:
            ns_pct, ew_pct = r.adjusted
            out.append(ScoredResult(r, n_field, 0, board_top * ns_pct / 100.0,
                                    board_top * ew_pct / 100.0, ns_pct, ew_pct, top=board_top))  # fmt: skip
    return sorted(out, key=lambda s: s.result.order)


def score_imp_board(
    results: Sequence[EventResult],
    scoring: Literal["IMP", "BUTLER"] = "BUTLER",
    drop_count: int = 1,
    divide_by: Literal["results", "comparisons"] = "comparisons",
) -> list[ScoredResult]:
    """Cross-IMPs (per comparison, as published) or Butler IMPs of one board, group by group.

    Adjusted results get 0 IMPs (average) plus (NS% - 50) / 10 IMPs per 10% above average, the
    usual +3/-3 for A+/A-; they are not compared with the others.
    """
    real = [r for r in results if r.is_result]
    played: dict[str, list[EventResult]] = defaultdict(list)
    for r in real:
        if r.adjusted is None:
            played[r.played].append(r)
    out: list[ScoredResult] = []
    for g in played.values():
        pts = [float(r.ns_score) for r in g]  # type: ignore[arg-type]
        bu = crossimps.butler(pts, drop_count) if len(g) > 1 else [0] * len(g)
        if scoring == "IMP":
            ci = crossimps.cross_imps(pts, divide_by) if len(g) > 1 else [0.0] * len(g)
        else:
            ci = [float(b) for b in bu]
        for r, c, b in zip(g, ci, bu, strict=True):
            out.append(ScoredResult(r, len(real), len(g), imps=c, butler=float(b)))
    for r in real:
        if r.adjusted is not None:
            adj = (r.adjusted[0] - 50.0) * 0.3
            out.append(ScoredResult(r, len(real), 0, imps=adj, butler=adj))
    return sorted(out, key=lambda s: s.result.order)


def score_pairs_event(
    results: Sequence[EventResult],
    info: EventInfo,
    method: MpMethod = "neuberg",
) -> list[ScoredResult]:
    """Every board of a pairs event: matchpoints (MP) or IMPs (IMP, BUTLER) on its field."""
    fields: dict[tuple[str, str, str, str], list[EventResult]] = defaultdict(list)
    for r in results:
        fields[field_key(r, info.across_field)].append(r)
    sizes = field_sizes(results, info.across_field)
    top = info.mp_top or 2.0
    out: list[ScoredResult] = []
    for key in sorted(fields):
        rs = fields[key]
        if info.scoring in ("IMP", "BUTLER"):
            out += score_imp_board(rs, info.scoring)  # type: ignore[arg-type]
        else:
            out += score_mp_board(rs, sizes.get(_field_of_board(key)), top, method)
    return out


# ---------------------------------------------------------------- pairs and rankings


def infer_movement(results: Iterable[EventResult]) -> str:
    """'mitchell' when a pair number never changes direction, else 'howell'.

    NS 1 meeting EW 1 (ACBL numbering), disjoint NS and EW numbers (EBU numbering) or different
    players behind the same number in each direction all say Mitchell.
    """
    ns: dict[str, set[str]] = defaultdict(set)
    ew: dict[str, set[str]] = defaultdict(set)
    for r in results:
        if r.phantom == "NS" or not r.ns_pair:
            pass
        else:
            ns[r.ns_pair].add(_identity(r.ns_players))
        if r.phantom != "EW" and r.ew_pair:
            ew[r.ew_pair].add(_identity(r.ew_players))
        if r.ns_pair and r.ns_pair == r.ew_pair:
            return "mitchell"
    both = set(ns) & set(ew)
    if not both:
        return "mitchell"
    named = [p for p in both if "" not in ns[p] | ew[p]]
    if named and all(ns[p].isdisjoint(ew[p]) for p in named):
        return "mitchell"
    return "howell"


def _identity(players: str) -> str:
    """A pair's players regardless of seat order: 'A - B' and 'B - A' are one pair."""
    names = [p.strip() for p in re.split(r"\s+[-&]\s+", players) if p.strip()]
    return " - ".join(sorted(names))


@dataclass
class PairLine:
    """One pair's total in one ranking (a session's section, or the whole event)."""

    event: str
    session: str
    section: str
    direction: str  # NS, EW or "" (Howell, or the event total when a pair changed direction)
    pair: str
    players: str
    boards: int = 0
    mp: float = 0.0  # matchpoints, or IMPs in an IMP-scored event
    top: float = 0.0  # the sum of the tops of the boards played (matchpoint events)
    rank: int = 0

    @property
    def pct(self) -> float | None:
        return 100.0 * self.mp / self.top if self.top else None


def _side_lines(s: ScoredResult, movement: str) -> list[tuple[str, str, str, float, float]]:
    """(direction, pair, players, score, top) for each real pair at the table."""
    r = s.result
    top = s.top
    out = []
    for direction, pair, players, mp, sign in (
        ("NS", r.ns_pair, r.ns_players, s.ns_mp, 1.0),
        ("EW", r.ew_pair, r.ew_players, s.ew_mp, -1.0),
    ):
        if r.phantom == direction:
            continue
        score = mp if mp is not None else (sign * (s.imps or 0.0))
        if r.adjusted is not None and mp is None:  # IMP events: each side's own adjustment
            score = (r.adjusted[0 if direction == "NS" else 1] - 50.0) * 0.3
        d = direction if movement == "mitchell" else ""
        out.append((d, pair or players, players, float(score), top))
    return out


def pair_rankings(scored: Sequence[ScoredResult], info: EventInfo) -> list[PairLine]:
    """Per session (and section, unless across the field) and over the whole event, ranked.

    One ranking for a Howell; North-South and East-West ones for a two-winner Mitchell. The event
    total is the sum of matchpoints over the sum of tops (= the mean of the session percentages
    when the sessions have equal tops); pairs are the same pair across sessions by their players
    (or, without names, by pair number).
    """
    by_section: dict[tuple[str, str, str], list[ScoredResult]] = defaultdict(list)
    for s in scored:
        by_section[(s.result.event, s.result.session, s.result.section)].append(s)
    movements = {
        k: info.movement or infer_movement(x.result for x in v) for k, v in by_section.items()
    }
    sessions = {k[1] for k in by_section}
    lines: dict[tuple[str, str, str, str, str], PairLine] = {}
    totals: dict[tuple[str, str], PairLine] = {}
    total_dirs: dict[tuple[str, str], set[str]] = defaultdict(set)
    for key, items in by_section.items():
        event, session, section = key
        mv = movements[key]
        rank_section = "" if info.across_field else section
        for s in items:
            for direction, pair, players, score, top in _side_lines(s, mv):
                label = f"{section}{pair}" if info.across_field and section else pair
                k = (event, session, rank_section, direction, label)
                line = lines.get(k) or PairLine(event, session, rank_section, direction, label,
                                                players)  # fmt: skip
                lines[k] = line
                line.boards += 1
                line.mp += score
                line.top += top
                if not line.players and players:
                    line.players = players
                if len(sessions) > 1:
                    who = _identity(players) or f"{section}{direction}{pair}"
                    t = totals.get((event, who)) or PairLine(event, "", "", "", label, players)
                    totals[(event, who)] = t
                    total_dirs[(event, who)].add(direction)
                    t.boards += 1
                    t.mp += score
                    t.top += top
    for k, t in totals.items():
        dirs = total_dirs[k]
        t.direction = next(iter(dirs)) if len(dirs) == 1 else ""
    out = list(lines.values()) + list(totals.values())
    assign_ranks(out)
    return sorted(out, key=lambda x: (x.event, x.session == "", x.session, x.section, x.direction,
                                      x.rank, x.pair))  # fmt: skip


def assign_ranks(lines: Sequence[PairLine]) -> None:
    """Rank within (event, session, section, direction); equal scores share a place (3=, 3=, 5)."""
    groups: dict[tuple[str, str, str, str], list[PairLine]] = defaultdict(list)
    for line in lines:
        groups[(line.event, line.session, line.section, line.direction)].append(line)
    for members in groups.values():

        def value(x: PairLine) -> float:
            p = x.pct
            return round(p if p is not None else x.mp, 6)

        ordered = sorted(members, key=lambda x: -value(x))
        for i, line in enumerate(ordered):
            if i and value(line) == value(ordered[i - 1]):
                line.rank = ordered[i - 1].rank
            else:
                line.rank = i + 1


# ---------------------------------------------------------------- teams

#: WBF continuous 20-VP scale (WBF Scoring Panel, "The New WBF IMP to VP Scales", 2013):
#: tau is the golden ratio's conjugate, the blitz margin X = 15 * sqrt(boards).
WBF_TAU = (math.sqrt(5.0) - 1.0) / 2.0


def wbf_vp(imp_margin: float, boards: int) -> float:
    """Winner's VPs for an IMP margin on the WBF continuous scale, 2 decimals (loser: 20 - VP).

    VP = 10 + 10 * (1 - tau^(3 * I / X)) / (1 - tau^3), capped at 20 for I >= X = 15 sqrt(N).
    """
    if boards < 1:
        raise ScoringError(f"a match needs at least one board, not {boards}")
    blitz = 15.0 * math.sqrt(boards)
    i = abs(imp_margin)
    won = 20.0 if i >= blitz else 10.0 + 10.0 * (1 - WBF_TAU ** (3 * i / blitz)) / (1 - WBF_TAU**3)
    won = round(won + 1e-9, 2)
    return won if imp_margin >= 0 else round(20.0 - won, 2)


def match_key(r: EventResult) -> tuple[str, str, str, frozenset[str]]:
    """(event, session, '', teams): the two rooms of one match meet here.

    The section is left out: a reader may name each room's table after its own home team
    ("A v B" and "B v A"), and the teams alone identify the match within a session.
    """
    return r.event, r.session, "", frozenset((r.home_team, r.visit_team))


@dataclass
class TeamMatch:
    """One team's match: IMPs for and against, boards compared, and VPs."""

    event: str
    session: str
    section: str
    team: str
    opponent: str
    boards: int = 0
    imps_for: float = 0.0
    imps_against: float = 0.0
    vp: float = 0.0


def _ns_team(r: EventResult, first_room: bool) -> str:
    """Who sat North-South: the home team in the open room (or at its own home table)."""
    room = r.room.strip().lower()
    if room in ("open", "o"):
        return r.home_team
    if room in ("closed", "c"):
        return r.visit_team
    return r.home_team if first_room else r.visit_team


def score_teams_event(
    results: Sequence[EventResult],
) -> tuple[list[ScoredResult], list[TeamMatch]]:
    """IMPs per board against the other room, match totals and WBF VPs.

    Each board of a match has two rooms; a board with only one real result (the other table a
    phantom, or missing) scores no IMPs and is reported with imps None. Butler for the pairs is
    computed over every table of the field that played the same cards (same session and board).
    """
    rooms: dict[tuple, list[EventResult]] = defaultdict(list)
    for r in results:
        rooms[(*match_key(r), r.board)].append(r)
    swapped_tags = {
        mk: len({(r.home_team, r.visit_team) for r in rs}) > 1 for mk, rs in rooms.items()
    }
    scored: dict[str, ScoredResult] = {}
    matches: dict[tuple, dict[str, TeamMatch]] = defaultdict(dict)
    for key, rs in rooms.items():
        rs = sorted(rs, key=lambda r: r.order)
        real = [r for r in rs if r.is_result and r.adjusted is None]
        for r in rs:
            if r.is_result:  # a phantom table is not a result
                scored[r.record_id] = ScoredResult(r, len(real), len(real))
        if len(real) != 2:
            continue
        a, b = real
        swing = imps(a.ns_score - b.ns_score)  # type: ignore[operator]
        scored[a.record_id] = replace(scored[a.record_id], imps=float(swing))
        scored[b.record_id] = replace(scored[b.record_id], imps=float(-swing))
        # when each table names its own home team, that team sits NS there
        ns_team_a = a.home_team if swapped_tags[key] else _ns_team(a, True)
        other = a.visit_team if ns_team_a == a.home_team else a.home_team
        event, session, section, _ = match_key(a)
        m = matches[(event, session, section, frozenset((a.home_team, a.visit_team)))]
        for team, opp, won in ((ns_team_a, other, swing), (other, ns_team_a, -swing)):
            t = m.get(team) or TeamMatch(event, session, section, team, opp)
            m[team] = t
            t.boards += 1
            t.imps_for += max(won, 0)
            t.imps_against += max(-won, 0)
    out_matches: list[TeamMatch] = []
    for m in matches.values():
        for t in m.values():
            t.vp = wbf_vp(t.imps_for - t.imps_against, t.boards)
            out_matches.append(t)
    butler = butler_in_field(results)
    final = [replace(s, butler=butler.get(s.result.record_id)) for s in scored.values()]
    return sorted(final, key=lambda s: s.result.order), sorted(
        out_matches, key=lambda t: (t.event, t.session, t.section, t.team)
    )


def butler_in_field(results: Sequence[EventResult], drop_count: int = 1) -> dict[str, float]:
    """Butler IMPs of each real result against every table of its board that played the same cards.

    The field is (event, session, board) across matches and sections, split by the cards played,
    so different matches that played different deals under one number are never compared.
    """
    groups: dict[tuple, list[EventResult]] = defaultdict(list)
    for r in results:
        if r.is_result and r.adjusted is None:
            groups[(r.event, r.session, r.board, r.played)].append(r)
    out: dict[str, float] = {}
    for rs in groups.values():
        if len(rs) < 2:
            continue
        for r, b in zip(rs, crossimps.butler([float(x.ns_score) for x in rs], drop_count),  # type: ignore[arg-type]
                        strict=True):  # fmt: skip
            out[r.record_id] = float(b)
    return out


def team_rankings(matches: Sequence[TeamMatch]) -> list[PairLine]:
    """Teams ranked by VPs over the event (per session too when there are several)."""
    lines: dict[tuple[str, str, str], PairLine] = {}
    sessions = {(m.event, m.session) for m in matches}
    for m in matches:
        keys = [(m.event, "", m.team)]
        if len({s for e, s in sessions if e == m.event}) > 1:
            keys.append((m.event, m.session, m.team))
        for k in keys:
            line = lines.get(k) or PairLine(k[0], k[1], "", "", m.team, m.team)
            lines[k] = line
            line.boards += m.boards
            line.mp += m.vp
    out = list(lines.values())
    assign_ranks(out)
    return sorted(out, key=lambda x: (x.event, x.session, x.rank, x.pair))


def butler_rankings(scored: Sequence[ScoredResult]) -> list[PairLine]:
    """Pairs of a teams event ranked by Butler IMPs per board (pairs by their players)."""
    lines: dict[tuple[str, str], PairLine] = {}
    for s in scored:
        if s.butler is None:
            continue
        r = s.result
        for players, sign in ((r.ns_players, 1.0), (r.ew_players, -1.0)):
            who = _identity(players)
            if not who:
                continue
            line = lines.get((r.event, who)) or PairLine(r.event, "", "", "", who, players)
            lines[(r.event, who)] = line
            line.boards += 1
            line.mp += sign * s.butler
    out = list(lines.values())
    for line in out:
        line.top = 0.0
    groups: dict[str, list[PairLine]] = defaultdict(list)
    for line in out:
        groups[line.event].append(line)
    for members in groups.values():  # rank by IMPs per board: pairs play different numbers
        ordered = sorted(members, key=lambda x: -round(x.mp / x.boards, 6))
        for i, line in enumerate(ordered):
            prev = ordered[i - 1] if i else None
            same = prev is not None and round(prev.mp / prev.boards, 6) == round(
                line.mp / line.boards, 6
            )
            line.rank = prev.rank if same and prev else i + 1
    return sorted(out, key=lambda x: (x.event, x.rank, x.pair))


@dataclass
class EventScores:
    """Everything scored for one event."""

    info: EventInfo
    results: list[ScoredResult] = field(default_factory=list)
    rankings: list[PairLine] = field(default_factory=list)
    matches: list[TeamMatch] = field(default_factory=list)
    butler: list[PairLine] = field(default_factory=list)


def infer_scoring(results: Sequence[EventResult], hint: str = "") -> str:
    """The event's scoring: as stated, else TEAMS when results carry teams, else MP."""
    h = hint.strip().upper()
    if h in ("MP", "MATCHPOINTS", "MATCHPOINT", "PAIRS", "MP_PAIRS"):
        return "MP"
    if h in ("IMP", "CROSS_IMPS", "CROSS-IMPS", "CROSSIMPS", "IMP_PAIRS"):
        return "TEAMS" if any(r.home_team for r in results) else "IMP"
    if h in ("BUTLER", "BUTLER_PAIRS", "DATUM"):
        return "BUTLER"
    if h in ("TEAMS", "TEAMS_VP", "VP", "IMPS_VP", "BAM", "TEAMS_IMPS"):
        return "TEAMS"
    return "TEAMS" if any(r.home_team and r.visit_team for r in results) else "MP"


def event_info_for(results: Sequence[EventResult], info: EventInfo) -> EventInfo:
    """The event's facts with its scoring settled (stated, else inferred from all its results)."""
    return replace(info, scoring=infer_scoring(results, info.scoring))


def by_session(results: Iterable[EventResult]) -> dict[str, list[EventResult]]:
    out: dict[str, list[EventResult]] = defaultdict(list)
    for r in results:
        out[r.session].append(r)
    return dict(sorted(out.items()))


def score_session(
    results: Sequence[EventResult], info: EventInfo, method: MpMethod = "neuberg"
) -> EventScores:
    """One session's table scores (and matches): a session never compares with another, so
    sessions score independently; `assemble_event` then ranks the whole event."""
    if info.scoring == "TEAMS":
        scored, matches = score_teams_event(results)
        return EventScores(info, scored, matches=matches)
    return EventScores(info, score_pairs_event(results, info, method))


def assemble_event(info: EventInfo, sessions: Sequence[EventScores]) -> EventScores:
    """Rankings per session and over the event from the sessions' table scores."""
    scored = [s for part in sessions for s in part.results]
    if info.scoring == "TEAMS":
        matches = [m for part in sessions for m in part.matches]
        return EventScores(info, scored, team_rankings(matches), matches, butler_rankings(scored))
    return EventScores(info, scored, pair_rankings(scored, info))


def score_event(
    results: Sequence[EventResult], info: EventInfo, method: MpMethod = "neuberg"
) -> EventScores:
    """Score one event by its scoring: pairs (MP, IMP, BUTLER) or teams, session by session."""
    info = event_info_for(results, info)
    parts = [score_session(rs, info, method) for rs in by_session(results).values()]
    return assemble_event(info, parts)
