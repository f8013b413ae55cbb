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

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from ddrank.scoring import crossimps, imprule, matchpoints
from ddrank.scoring.imprule import ImpRule
from ddrank.scoring.individual import individual_rankings, is_individual
from ddrank.scoring.knockout import is_knockout, knockout_lines, knockout_stages
from ddrank.scoring.model import (  # noqa: F401 - the model is imported from here too
    ADJUSTED_CODES,
    TEAM_SCORINGS,
    EventInfo,
    EventResult,
    EventScoring,
    MpMethod,
    PairLine,
    ScoredResult,
    ScoringError,
    _identity,
    assign_ranks,
    factor_imp_totals,
    parse_adjusted,
    parse_number,
)
from ddrank.scoring.mprule import MpRule, factor_mp_totals
from ddrank.scoring.precision import round_half_away
from ddrank.scoring.rulebooks import acblscore as acbl
from ddrank.scoring.teams import (  # noqa: F401 - re-exported
    WBF_TAU,
    TeamMatch,
    butler_in_field,
    butler_rankings,
    match_key,
    score_teams_event,
    team_rankings,
    wbf_vp,
)

# ---------------------------------------------------------------- boards and fields


def board_key(r: EventResult) -> tuple[str, str, str, str]:
    """(event, session, section, board): the board as the director knows it."""
    return r.event, r.session, r.section, r.board


def section_groups(spec: str) -> dict[str, str]:
    """'A+B;C' (sections joined into one field or ranking) -> {'A': 'A+B', 'B': 'A+B', 'C': 'C'}."""
    out: dict[str, str] = {}
    for group in spec.split(";"):
        label = group.strip()
        for section in label.split("+"):
            if section.strip():
                out[section.strip()] = label
    return out


def field_key(r: EventResult, across_field: bool, groups: Mapping[str, str] | None = None
              ) -> tuple[str, str, str, str]:  # fmt: skip
    """The results a board's result is compared with: its section, every section, or the
    sections joined with it (`groups`, from `section_groups(info.fields)`)."""
    if groups:
        return r.event, r.session, groups.get(r.section, r.section), r.board
    return r.event, r.session, "*" if across_field else r.section, r.board


def _field_of_board(key: tuple[str, str, str, str]) -> tuple[str, str, str]:
    return key[0], key[1], key[2]


def field_sizes(
    results: Iterable[EventResult], across_field: bool, groups: Mapping[str, str] | None = None
) -> dict[tuple[str, str, str], int]:
    """N per field (event, session, section or '*'): the most results any of its boards has."""
    per_board: dict[tuple[str, str, str, str], int] = defaultdict(int)
    for r in results:
        if r.is_result:
            per_board[field_key(r, across_field, groups)] += 1
    out: dict[tuple[str, str, str], int] = defaultdict(int)
    for key, n in per_board.items():
        f = _field_of_board(key)
        out[f] = max(out[f], n)
    return dict(out)


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
    if method == "none":  # each board on its own top: the results really compared
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
        lifted = matchpoints.lift([[float(r.ns_score) for r in g] for g in groups], n_field, method)  # type: ignore[arg-type]
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


def score_imp_board(results: Sequence[EventResult], rule: ImpRule | None = None
                    ) -> list[ScoredResult]:  # fmt: skip
    """Cross-IMPs or Butler IMPs of one board under `rule` (the EBU's by default: cross-IMPs
    averaged per comparison, Butler against the mean after dropping one result at each end),
    group by group (a fouled board's versions are never compared).

    An artificial score is not compared with the others: it gets its percentage above average
    at the rule's rate (A+ +3, A- -3 IMPs), each side its own (`ew_imps`).
    """
    rule = rule or ImpRule()
    real = [r for r in results if r.is_result]
    played: dict[str, list[EventResult]] = defaultdict(list)
    for r in real:
        if r.adjusted is None:
            played[r.played].append(r)
    compared = sum(len(g) for g in played.values())
    out: list[ScoredResult] = []
    for g in played.values():
        pts = [float(r.ns_score) for r in g]  # type: ignore[arg-type]
        given = {r.published_datum for r in g} if rule.datum_published else set()
        values, datum = imprule.group_imps(
            pts, rule, next(iter(given)) if len(given) == 1 else None
        )
        if rule.kind == imprule.CROSS and rule.cross == "sum" and 1 < len(g) < compared:
            values = [
                v * (compared - 1) / (len(g) - 1) for v in values
            ]  # summed cross-IMPs of a group factored to the field
        bu = (
            values
            if rule.kind == imprule.BUTLER
            else ([float(b) for b in crossimps.butler(pts, 1)] if len(g) > 1 else [0.0] * len(g))
        )
        for r, v, b in zip(g, values, bu, strict=True):
            out.append(ScoredResult(r, len(real), len(g), imps=v, butler=b, datum=datum))
    for r in real:
        if r.adjusted is not None:
            ns = imprule.adjusted_imps(r.adjusted[0], rule, compared)
            ew = imprule.adjusted_imps(r.adjusted[1], rule, compared)
            out.append(ScoredResult(r, len(real), 0, imps=ns, butler=ns, ew_imps=ew))
    return sorted(out, key=lambda s: s.result.order)


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
    out: list[ScoredResult] = []
    for key in sorted(fields):
        rs = fields[key]
        if imp:
            out += score_imp_board(rs, rule)
        elif method == "acbl":
            out += acbl.score_board(rs, sizes.get(_field_of_board(key)))
        else:
            out += _printed(score_mp_board(rs, sizes.get(_field_of_board(key)), top, method),
                            rs, info.mp_rule, top, method)  # fmt: skip
    return out


def _printed(scored: list[ScoredResult], results: Sequence[EventResult], rule: MpRule | None,
             top: float, method: MpMethod) -> list[ScoredResult]:  # fmt: skip
    """A board played fewer times than its field, as a producer that prints it on its own top
    prints it (`MpRule.own_top_lines`): kept beside the lifted matchpoints it sums."""
    if rule is None or not rule.own_top_lines or not scored:
        return scored
    if scored[0].field_size <= sum(1 for r in results if r.is_result):
        return scored
    own = {
        s.result.record_id: (s.ns_mp, s.ew_mp) for s in score_mp_board(results, None, top, method)
    }
    return [replace(s, printed=own.get(s.result.record_id)) for s in scored]  # type: ignore[arg-type]


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
    labelled section and number ('A11'); method `acbl` totals follow that rulebook's rule.
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
    if method == "acbl":
        acbl.factor_totals(list(lines.values()), info.max_score, info.pair_inputs)
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


@dataclass
class ScoredEvent:
    """Everything scored for one event."""

    info: EventInfo
    results: list[ScoredResult] = field(default_factory=list)
    rankings: list[PairLine] = field(default_factory=list)
    matches: list[TeamMatch] = field(default_factory=list)
    butler: list[PairLine] = field(default_factory=list)
    # How it was scored (ddrank.scoring.method) and how many published values that reproduces
    method: str = ""
    method_reason: str = ""
    published_compared: int = 0
    published_agree: int = 0
    #: each kind of published value against ours (ddrank.scoring.published.Check), made once
    checks: list = field(default_factory=list)
    #: IMP pairs: the sit-out rows a scorer published a pair's credit on (a `Bye` row), checked
    sitouts: list[EventResult] = field(default_factory=list)


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
    method the sessions were scored with: method `acbl` has its own rule)."""
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
