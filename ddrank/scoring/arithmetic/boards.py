"""A board's field and its scores: which results are compared, and their matchpoints or IMPs.

A board is (event, session, section, board number). Its results form one field, or, when the event
is scored across the field, the same board of every section forms one field. Within a field,
results are grouped by what was really played (deal, dealer and vulnerability): several groups
are a fouled board (De Wael 1996), each group scored on its own and lifted to the field's top.

What is not a result: a phantom or sit-out table (no score for anybody). What is a result without
a comparison: an adjusted score (A+ 60%, A 50%, A- 40%, or any "NS%/EW%" split); the pair gets
that percentage and the other results of the board are lifted by Neuberg, as if the board had
been played once fewer. A board played fewer times than the field (a missing table, a late
arrival) is lifted to the full top the same way.

Matchpoints: `top` per result beaten (2 or 1, as the event's scorer), half of it per tie; the
board's top is `top * (N - 1)` for a field of N results.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from ddrank.scoring.arithmetic import crossimps, imprule, matchpoints
from ddrank.scoring.model import EventResult, ImpRule, MpMethod, MpRule, ScoredResult


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


def field_of_board(key: tuple[str, str, str, str]) -> tuple[str, str, str]:
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
        f = field_of_board(key)
        out[f] = max(out[f], n)
    return dict(out)


def played_groups(real: Sequence[EventResult]) -> list[list[EventResult]]:
    """A board's compared results by what was really played (deal, dealer, vulnerability):
    several groups are a fouled board, each compared within itself; an artificial score is in
    none (it is not compared)."""
    played: dict[str, list[EventResult]] = defaultdict(list)
    for r in real:
        if r.adjusted is None:
            played[r.played].append(r)
    return list(played.values())


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
    groups = played_groups(real)
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
    groups = played_groups(real)
    compared = sum(len(g) for g in groups)
    out: list[ScoredResult] = []
    for g in groups:
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


def own_top_printed(scored: list[ScoredResult], results: Sequence[EventResult], rule: MpRule | None,
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
