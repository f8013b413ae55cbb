"""Teams events: IMPs against the other room, match totals on the WBF 20-VP scale, and Butler
for the pairs against every table of the field that played the same cards."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace

from ddrank.scoring.arithmetic import crossimps
from ddrank.scoring.arithmetic.duplicate import imps
from ddrank.scoring.model import (
    EventResult,
    PairLine,
    ScoredResult,
    ScoringError,
    TeamMatch,
    _identity,
    assign_ranks,
)

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


#: A VP scale read from a file (ddrank.scoring.choice.vpscale): (boards, IMP margin, winner's VPs) steps.
VpScale = tuple[tuple[int, int, float], ...]


def scale_vp(scale: VpScale, imp_margin: float, boards: int) -> float:
    """VPs for a margin on `scale`: the step at or below it for that board count (the loser gets
    20 minus the winner's); WBF continuous where the scale has no step (or is empty)."""
    steps = [(m, vp) for b, m, vp in scale if b == boards and m <= abs(imp_margin) + 1e-9]
    if not steps:
        return wbf_vp(imp_margin, boards)
    won = max(steps)[1]
    return won if imp_margin >= 0 else 20.0 - won


def board_points(ns_net: int) -> float:
    """Point-a-board (board-a-match): the points of the team whose two tables net `ns_net`
    (its North-South score in one room minus the other room's): 2 for more, 1 for equal, 0 for
    less. Any difference wins, even 10 points (EBU; the EBU sample file's 10-point boards).
    """
    return 2.0 if ns_net > 0 else 1.0 if ns_net == 0 else 0.0


def match_key(r: EventResult) -> tuple[str, str, str, frozenset[str]]:
    """(event, session, '', teams): the two rooms of one match meet here.

    The section is left out: a reader may name each room's table after its own home team
    ("A v B" and "B v A"), and the teams alone identify the match within a session.
    """
    return r.event, r.session, "", frozenset((r.home_team, r.visit_team))


def _ns_team(r: EventResult, first_room: bool) -> str:
    """Who sat North-South: the home team in the open room (or at its own home table)."""
    room = r.room.strip().lower()
    if room in ("open", "o"):
        return r.home_team
    if room in ("closed", "c"):
        return r.visit_team
    return r.home_team if first_room else r.visit_team


def score_teams_event(
    results: Sequence[EventResult], vp_scale: VpScale = (), point_a_board: bool = False
) -> tuple[list[ScoredResult], list[TeamMatch]]:
    """IMPs per board against the other room, match totals and VPs (WBF continuous, or on
    `vp_scale`); point-a-board: board points per table (`ns_mp`/`ew_mp`, 2 won, 1 tied, 0 lost)
    and a match's score (`vp`) is its board points.

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
        pts = board_points(a.ns_score - b.ns_score)  # type: ignore[operator]
        if point_a_board:  # NS at table b is the team that sat EW at table a
            scored[a.record_id] = replace(scored[a.record_id], ns_mp=pts, ew_mp=2.0 - pts)
            scored[b.record_id] = replace(scored[b.record_id], ns_mp=2.0 - pts, ew_mp=pts)
        # when each table names its own home team, that team sits NS there
        ns_team_a = a.home_team if swapped_tags[key] else _ns_team(a, True)
        other = a.visit_team if ns_team_a == a.home_team else a.home_team
        event, session, section, _ = match_key(a)
        m = matches[(event, session, section, frozenset((a.home_team, a.visit_team)))]
        for team, opp, won, p in ((ns_team_a, other, swing, pts),
                                  (other, ns_team_a, -swing, 2.0 - pts)):  # fmt: skip
            t = m.get(team) or TeamMatch(event, session, section, team, opp)
            m[team] = t
            t.boards += 1
            t.imps_for += max(won, 0)
            t.imps_against += max(-won, 0)
            t.points += p
    out_matches: list[TeamMatch] = []
    for m in matches.values():
        for t in m.values():
            margin = t.imps_for - t.imps_against
            t.vp = t.points if point_a_board else scale_vp(vp_scale, margin, t.boards)
            out_matches.append(t)
    butler = butler_in_field(results)
    final = [replace(s, butler=butler.get(s.result.record_id)) for s in scored.values()]
    if point_a_board:  # a table's IMPs: the field's cross-IMPs, the pairwise scoring published
        cross = butler_in_field(results, cross=True)
        final = [replace(s, imps=cross.get(s.result.record_id)) for s in final]
    return sorted(final, key=lambda s: s.result.order), sorted(
        out_matches, key=lambda t: (t.event, t.session, t.section, t.team)
    )


def butler_in_field(
    results: Sequence[EventResult], drop_count: int = 1, cross: bool = False
) -> dict[str, float]:
    """Butler IMPs of each real result against every table of its board that played the same cards
    (`cross`: cross-IMPs per comparison instead, as EBU scorers publish a teams event's pairs).

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
        pts = [float(x.ns_score) for x in rs]  # type: ignore[arg-type]
        values = (
            crossimps.cross_imps(pts, "comparisons") if cross else crossimps.butler(pts, drop_count)
        )
        for r, b in zip(rs, values, strict=True):
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
            line.mp += m.vp or 0.0
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
