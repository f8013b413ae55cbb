"""Scoring real events the way directors publish them: sessions, sections, pairs and rankings.

Each board's field is scored by the board arithmetic (ddrank.scoring.arithmetic.boards), or by
the arithmetic of the producer whose own method the event is scored with (its rulebook,
ddrank.scoring.rulebooks); sessions score independently, and `assemble_event` ranks the event.

Nothing here reads files: `EventResult` carries what any reader or the store gives.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import replace

from ddrank.scoring.arithmetic import imprule
from ddrank.scoring.arithmetic.boards import (
    field_key,
    field_of_board,
    field_sizes,
    own_top_printed,
    score_imp_board,
    score_mp_board,
    section_groups,
)
from ddrank.scoring.arithmetic.imprule import factor_imp_totals
from ddrank.scoring.arithmetic.individual import individual_rankings, is_individual
from ddrank.scoring.arithmetic.knockout import is_knockout, knockout_lines, knockout_stages
from ddrank.scoring.arithmetic.mprule import factor_mp_totals
from ddrank.scoring.arithmetic.precision import round_half_away
from ddrank.scoring.arithmetic.teams import (
    butler_rankings,
    score_teams_event,
    team_rankings,
)
from ddrank.scoring.model import (  # noqa: F401 - the model is imported from here too
    ADJUSTED_CODES,
    TEAM_SCORINGS,
    EventInfo,
    EventResult,
    EventScoring,
    ImpRule,
    MpMethod,
    PairLine,
    ScoredEvent,
    ScoredResult,
    ScoringError,
    TeamMatch,
    _identity,
    assign_ranks,
    parse_adjusted,
    parse_number,
)
from ddrank.scoring.rulebooks import own_arithmetic


def score_pairs_event(
    results: Sequence[EventResult],
    info: EventInfo,
    method: MpMethod = "neuberg",
) -> list[ScoredResult]:
    """Every board of a pairs event: matchpoints (MP) or IMPs (IMP, BUTLER) on its field."""
    imp = info.scoring in ("IMP", "BUTLER")
    rule = info.imp_rule or (ImpRule(kind=imprule.BUTLER if info.scoring == "BUTLER"
                                     else imprule.CROSS) if imp else None)  # fmt: skip
    across = info.across_field if rule is None or rule.across is None else rule.across
    groups = section_groups(info.fields)
    fields: dict[tuple[str, str, str, str], list[EventResult]] = defaultdict(list)
    for r in results:
        fields[field_key(r, across, groups)].append(r)
    sizes = field_sizes(results, across, groups)
    top = info.mp_top or 2.0
    own = own_arithmetic(method)  # a producer's own arithmetic (its rulebook's)
    out: list[ScoredResult] = []
    for key in sorted(fields):
        rs = fields[key]
        if imp:
            out += score_imp_board(rs, rule)
        elif own is not None and own.score_board is not None:
            out += own.score_board(rs, sizes.get(field_of_board(key)))
        else:
            out += own_top_printed(score_mp_board(rs, sizes.get(field_of_board(key)), top, method),
                            rs, info.mp_rule, top, method)  # fmt: skip
    return out


# ---------------------------------------------------------------- pairs and rankings


def infer_movement(results: Iterable[EventResult]) -> str:
    """'mitchell' when a pair number never changes direction, else 'howell'.

    NS 1 meeting EW 1, disjoint NS and EW numbers (the two ways clubs number pairs) or different
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


def _side_lines(s: ScoredResult, movement: str) -> list[tuple[str, str, str, float, float]]:
    """(direction, pair, players, score, top) for each real pair at the table."""
    r = s.result
    top = s.top
    out = []
    for direction, pair, players, mp, sign in (
        ("NS", r.ns_pair, r.ns_players, s.ns_mp, 1.0),
        ("EW", r.ew_pair, r.ew_players, s.ew_mp, -1.0),
    ):
        if r.phantom == direction or r.repeat == direction:  # no pair's, or not this pair's
            continue
        score = mp if mp is not None else (sign * (s.imps or 0.0))
        if direction == "EW" and mp is None and s.ew_imps is not None:  # each side its own
            score = s.ew_imps
        d = direction if movement == "mitchell" else ""
        out.append((d, pair or players, players, float(score), top))
    return out


def pair_rankings(scored: Sequence[ScoredResult], info: EventInfo,
                  method: MpMethod | str = "neuberg") -> list[PairLine]:  # fmt: skip
    """Per session (and section, unless across the field) and over the whole event, ranked.

    One ranking for a Howell; North-South and East-West ones for a two-winner Mitchell. The event
    total is the sum of matchpoints over the sum of tops (= the mean of the session percentages
    when the sessions have equal tops); pairs are the same pair across sessions by their players
    (or, without names, by pair number). IMP totals of a pair that sat out are factored up.
    Sections ranked together (`info.rankings`, else `across_field`) are one ranking, their pairs
    labelled section and number ('A11'); a producer's own method totals by its rulebook's rule.
    """
    ranked_with = section_groups(info.rankings)
    by_section: dict[tuple[str, str, str], list[ScoredResult]] = defaultdict(list)
    for s in scored:
        by_section[(s.result.event, s.result.session, s.result.section)].append(s)
    movements = {
        k: info.movement or infer_movement(x.result for x in v) for k, v in by_section.items()
    }
    sessions = {k[1] for k in by_section}
    rule = info.imp_rule
    across = info.across_field if rule is None or rule.across is None else rule.across
    places = rule.line_decimals if rule is not None else None
    mp_rule = info.mp_rule
    if mp_rule is not None and mp_rule.round_lines:  # matchpoints summed as printed
        places = mp_rule.line_decimals
    boards: dict[tuple[str, str, str], set[tuple[str, str]]] = defaultdict(set)
    lines: dict[tuple[str, str, str, str, str], PairLine] = {}
    totals: dict[tuple[str, str], PairLine] = {}
    total_dirs: dict[tuple[str, str], set[str]] = defaultdict(set)
    for key, items in by_section.items():
        event, session, section = key
        mv = movements[key]
        if ranked_with:
            rank_section = ranked_with.get(section, section)
        else:
            rank_section = "" if across else section
        for s in items:
            boards[(event, session, rank_section)].add(("", s.result.board))
            boards[(event, "", "")].add((session, s.result.board))
            for direction, pair, players, score, top in _side_lines(s, mv):
                if places is not None:  # the line as the scorer printed it, then summed
                    score = round_half_away(score, places)
                label = f"{section}{pair}" if rank_section != section and section else pair
                k = (event, session, rank_section, direction, label)
                line = lines.get(k) or PairLine(event, session, rank_section, direction, label,
                                                players)  # fmt: skip
                lines[k] = line
                line.add(score, top, players)
                if len(sessions) > 1:
                    who = _identity(players) or f"{section}{direction}{pair}"
                    t = totals.get((event, who)) or PairLine(event, "", "", "", label, players)
                    totals[(event, who)] = t
                    total_dirs[(event, who)].add(direction)
                    t.add(score, top)
    for k, t in totals.items():
        dirs = total_dirs[k]
        t.direction = next(iter(dirs)) if len(dirs) == 1 else ""
    out = list(lines.values()) + list(totals.values())
    own = own_arithmetic(method)
    if own is not None and own.factor_totals is not None:  # the producer's own totals
        own.factor_totals(list(lines.values()), info.max_score, info.pair_inputs)
    to_boards = rule is not None and rule.factor_to == "boards"
    factor_imp_totals(
        out,
        {k: len(v) for k, v in boards.items()} if to_boards else None,
        rule.sum_decimals if rule is not None else None,
    )
    if mp_rule is not None and mp_rule.factor_boards:
        factor_mp_totals(out)
    assign_ranks(out, by_direction=rule is None or not rule.one_ranking)
    return sorted(out, key=lambda x: (x.event, x.session == "", x.session, x.section, x.direction,
                                      x.rank, x.pair))  # fmt: skip


def infer_scoring(results: Sequence[EventResult], hint: str = "") -> str:
    """The event's scoring: as stated, else TEAMS when results carry teams, else MP."""
    h = hint.strip().upper()
    if ";" in h:  # PBN [Scoring]: "IMP;Butler-2;Mean", "IMP;Cross", "MatchPoints;MP1"
        parts = [p.strip() for p in h.split(";")]
        if any(p.startswith("BUTLER") for p in parts):
            return "BUTLER"
        if "CROSS" in parts:
            return "IMP"
        h = parts[0]
    if h in ("MP", "MATCHPOINTS", "MATCHPOINT", "PAIRS", "MP_PAIRS"):
        return "MP"
    if h in ("IMP", "CROSS_IMPS", "CROSS-IMPS", "CROSSIMPS", "IMP_PAIRS"):
        return "TEAMS" if any(r.home_team for r in results) else "IMP"
    if h in ("BUTLER", "BUTLER_PAIRS", "DATUM"):
        return "BUTLER"
    if h in ("BAM", "PAB", "POINT_A_BOARD", "BOARD_A_MATCH"):
        return "BAM"
    if h in ("TEAMS", "TEAMS_VP", "VP", "IMPS_VP", "TEAMS_IMPS"):
        return "TEAMS"
    return "TEAMS" if any(r.home_team and r.visit_team for r in results) else "MP"


def event_info_for(results: Sequence[EventResult], info: EventInfo) -> EventInfo:
    """The event's facts with its scoring settled (stated, else inferred from all its results),
    and the declaration as written kept (`declared`)."""
    return replace(info, scoring=infer_scoring(results, info.scoring),
                   declared=info.declared or info.scoring,
                   individual=info.individual or is_individual(results))  # fmt: skip


def by_session(results: Iterable[EventResult]) -> dict[str, list[EventResult]]:
    out: dict[str, list[EventResult]] = defaultdict(list)
    for r in results:
        out[r.session].append(r)
    return dict(sorted(out.items()))


def score_session(
    results: Sequence[EventResult], info: EventInfo, method: MpMethod = "neuberg"
) -> ScoredEvent:
    """One session's table scores (and matches): a session never compares with another, so
    sessions score independently; `assemble_event` then ranks the whole event."""
    if info.scoring in TEAM_SCORINGS:
        scored, matches = score_teams_event(results, info.vp_scale, info.scoring == "BAM")
        return ScoredEvent(info, scored, matches=matches, method=method)
    sitouts = [r for r in results if r.phantom and r.published_imps is not None]
    return ScoredEvent(
        info, score_pairs_event(results, info, method), sitouts=sitouts, method=method
    )


def assemble_event(info: EventInfo, sessions: Sequence[ScoredEvent]) -> ScoredEvent:
    """Rankings per session and over the event from the sessions' table scores (totals by the
    method the sessions were scored with: a producer's own method, by its rulebook)."""
    scored = [s for part in sessions for s in part.results]
    if info.scoring in TEAM_SCORINGS:
        matches = [m for part in sessions for m in part.matches]
        stages = knockout_stages(matches) if info.scoring == "TEAMS" else set()
        ko = [m for m in matches if is_knockout(m, stages)]
        for m in ko:  # a knockout is won on IMPs: its segments are not converted to VPs
            m.vp = None
        robin = [m for m in matches if not is_knockout(m, stages)]
        return ScoredEvent(info, scored, team_rankings(robin) + knockout_lines(ko), matches,
                           butler_rankings(scored))  # fmt: skip
    sitouts = [r for part in sessions for r in part.sitouts]
    if info.individual:  # players, not pairs
        return ScoredEvent(info, scored, individual_rankings(scored), sitouts=sitouts)
    method = next((p.method for p in sessions if p.method), "neuberg")
    return ScoredEvent(info, scored, pair_rankings(scored, info, method), sitouts=sitouts)


def score_event(
    results: Sequence[EventResult], info: EventInfo, method: MpMethod = "neuberg"
) -> ScoredEvent:
    """Score one event by its scoring: pairs (MP, IMP, BUTLER) or teams, session by session."""
    info = event_info_for(results, info)
    parts = [score_session(rs, info, method) for rs in by_session(results).values()]
    return assemble_event(info, parts)
