"""Where a published matchpoint value cannot agree, proof of it from the file's own numbers.

A scorer's file is sometimes at odds with itself: a line's two matchpoints do not add up to the
board's top, two equal scores get different matchpoints, a board was matchpointed without two
lines the file still gives played scores for, a total is not what its own lines give. Ours then
differs, and rightly. Each proof here names the file's own numbers that contradict each other, so
the harness lists the value as explained, not as a disagreement (ddrank.scoring.verification.published).
Nothing here changes a score.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Any

from ddrank.scoring.arithmetic.precision import agrees, column_decimals, round_half_away

#: Lines tried as unmarked artificial scores on one board (pairs of them at most).
MAX_UNMARKED = 2
#: Each try rescores the whole board (O(n log n)), so the tries per board are bounded, not all
#: 1- and 2-line combinations (n^2 of them: a board of 240 lines took 94 s, issue 40): the
#: lines whose published matchpoints are furthest from ours are tried alone (an artificial
#: score the file prints as played is the line off the most), the closest few of those in pairs.
#: The rest are not tried: their values stay unexplained, never explained by guess.
MAX_SINGLES = 12
MAX_PAIRED = 6


def _ns_ew(s: Any) -> tuple[float | None, float | None]:
    return s.printed or (s.ns_mp, s.ew_mp)


def _fmt(x: float) -> str:
    return f"{x:g}"


def line_proofs(results: Sequence[Any], rescore: Callable[..., list[Any]] | None = None
                ) -> dict[str, str]:  # fmt: skip
    """record_id -> why the file's own numbers say its published matchpoints cannot be ours.

    `results` are one event's scored results (ScoredResult); `rescore(board_results, n)` scores
    one board's `EventResult`s on a field of n as the event is scored (to test unmarked
    artificial scores)."""
    rs = [s.result for s in results]
    k = column_decimals([x for r in rs for x in (r.published_ns_mp, r.published_ew_mp)])
    boards: dict[tuple[str, str, str, str], list[Any]] = defaultdict(list)
    for s in results:
        r = s.result
        if r.published_ns_mp is not None:
            boards[(r.event, r.session, r.section, r.board)].append(s)
    out: dict[str, str] = {}
    for lines in boards.values():
        out.update(_top_and_ties(lines, k))
        wrong = [s for s in lines if s.result.record_id not in out and not _agree(s, k)]
        if wrong and rescore is not None:
            out.update(_unmarked(lines, wrong, k, rescore))
    return out


def _agree(s: Any, k: int) -> bool:
    ns, ew = _ns_ew(s)
    r = s.result
    return agrees(ns, r.published_ns_mp, k) and (
        r.published_ew_mp is None or agrees(ew, r.published_ew_mp, k))  # fmt: skip


def _top_and_ties(lines: list[Any], k: int) -> dict[str, str]:
    """Lines whose two matchpoints do not add up to the board's top (what its other lines add
    up to), and lines given other matchpoints than the same score gets on the same cards."""
    out: dict[str, str] = {}
    step = 10.0**-k
    sums = Counter(round(s.result.published_ns_mp + s.result.published_ew_mp, k)
                   for s in lines if s.result.published_ew_mp is not None)  # fmt: skip
    if len(lines) > 2 and sums:
        top, n = sums.most_common(1)[0]
        for s in lines:
            r = s.result
            if r.published_ew_mp is None or n < 2:
                continue
            total = r.published_ns_mp + r.published_ew_mp
            if abs(total - top) > 2 * step + 1e-9:
                out[r.record_id] = (f"its NS {_fmt(r.published_ns_mp)} + EW "
                                    f"{_fmt(r.published_ew_mp)} = {_fmt(round(total, k))}; the "
                                    f"board's other lines add up to {_fmt(top)}")  # fmt: skip
    same: dict[tuple[str, int], list[Any]] = defaultdict(list)
    for s in lines:
        if s.result.ns_score is not None and s.result.adjusted is None:
            same[(s.result.played, s.result.ns_score)].append(s)
    for (_, score), group in same.items():
        given = Counter(round(s.result.published_ns_mp, k) for s in group)
        if len(given) < 2:
            continue
        usual, n = given.most_common(1)[0]
        if n * 2 <= len(group):
            continue  # no majority: which line is odd is not for us to say
        others = [s.result.ns_pair for s in group if round(s.result.published_ns_mp, k) == usual]
        for s in group:
            r = s.result
            if r.record_id not in out and round(r.published_ns_mp, k) != usual:
                out[r.record_id] = (f"NS scored {score} as {', '.join(others[:3])} did, who get "
                                    f"{_fmt(usual)}; it gets {_fmt(r.published_ns_mp)}")  # fmt: skip
    return out


def _unmarked(lines: list[Any], wrong: list[Any], k: int,
              rescore: Callable[..., list[Any]]) -> dict[str, str]:  # fmt: skip
    """A board matchpointed as if some lines were artificial scores the file does not mark:
    without them, every other line's published matchpoints are ours. The lines tried are the
    ones that disagree the most, one (`MAX_SINGLES`) or two (of `MAX_PAIRED`) at a time: at most
    27 rescorings of the board (12 alone, 15 pairs), whatever its size."""
    played = [s for s in wrong if s.result.adjusted is None and s.result.ns_score is not None]
    played.sort(key=_off, reverse=True)  # stable: ties keep the board's order
    for size in range(1, MAX_UNMARKED + 1):
        tried = played[:MAX_SINGLES] if size == 1 else played[:MAX_PAIRED]
        for out_lines in combinations(tried, size):
            gone = {s.result.record_id for s in out_lines}
            rest = [s.result for s in lines if s.result.record_id not in gone]
            again = {x.result.record_id: x for x in rescore(rest, lines[0].field_size)}
            if all(rid in again and _agree(again[rid], k) for rid in (r.record_id for r in rest)):
                who = ", ".join(f"{s.result.ns_pair or '?'} ({s.result.ns_score})"
                                for s in out_lines)  # fmt: skip
                what = "artificial scores" if size > 1 else "an artificial score"
                why = (f"the board was matchpointed without {who}, as {what}: its other "
                       f"{len(rest)} lines are exactly that, yet the file gives a played score")  # fmt: skip
                return {s.result.record_id: why for s in lines if not _agree(s, k)}
    return {}


def _off(s: Any) -> float:
    """How far a line's published North-South matchpoints are from ours (0 when either is
    missing)."""
    ns, _ = _ns_ew(s)
    published = s.result.published_ns_mp
    return abs(ns - published) if ns is not None and published is not None else 0.0


def total_proof(ours: float, published: float, digits: int, line_diffs: list[tuple[float, bool]],
                factor: float, printed_sums: bool, slack: float = 0.0) -> str:  # fmt: skip
    """Why a pair's published total (or percentage) is not ours, from its own lines: what they
    give is ours with each of its lines that differs put in as published (`line_diffs`: theirs
    minus ours, in the total's units, with whether that line is proven, `line_proofs`).

    * its lines give its total, and each of them that differs from ours is proven: explained;
    * its lines do not give its total, even allowing each line that agrees with ours only as
      rounded its rounding (`slack`, in the total's units): the file contradicts itself;
    * else '' (not explained)."""
    theirs = ours + sum(d for d, _ in line_diffs) * factor
    given = f"{theirs:.{digits}f}"
    off = abs(theirs - published) - 0.5 * 10.0**-digits
    if line_diffs and all(p for _, p in line_diffs) and off <= slack * factor + 1e-9:
        return (f"its own lines give {given}, as published; those that differ from ours are "
                f"proven above")  # fmt: skip
    if off > slack * factor + 1e-9 and (printed_sums or line_diffs or slack < off):
        what = "printed lines" if printed_sums and not line_diffs else "own lines"
        within = f" (give or take {slack * factor:.{digits}f} of rounding)" if slack else ""
        return f"its {what} give {given}{within}, it publishes {published:.{digits}f}"
    return ""


def _summed(s: Any, value: float, side: int, rule: Any) -> float:
    """A printed line value in the units the producer sums: its own-top print lifted by the
    field's N/n (`MpRule.own_top_lines`), rounded as printed where it sums printed values
    (`MpRule.round_lines`)."""
    if s.printed is not None and s.top:
        tpr = s.top / max(s.field_size - 1, 1)  # matchpoints per result beaten
        printed_top = s.printed[0] + s.printed[1]
        own = printed_top / tpr + 1 if tpr else 0
        if own:
            ours_summed = (s.ns_mp, s.ew_mp)[side]
            return ours_summed + (value - s.printed[side]) * s.field_size / own
    return value


def line_diffs(results: Sequence[Any], proven: dict[str, str], rule: Any, k: int, across: bool
               ) -> tuple[dict[tuple[str, str], list[tuple[float, bool]]],
                          dict[tuple[str, str], float]]:  # fmt: skip
    """(session, pair label) -> each of its lines that differs from ours: published minus ours,
    in the units its total sums, with whether the difference is proven (`line_proofs`); and
    (session, pair label) -> the rounding those printed values may hide (half a printed unit
    each, none where the producer sums its printed values). A line that agrees is ours: the
    method that reproduces the file's lines is the scorer's."""
    out: dict[tuple[str, str], list[tuple[float, bool]]] = defaultdict(list)
    slack: dict[tuple[str, str], float] = defaultdict(float)
    printed_sums = rule is not None and rule.round_lines and rule.line_decimals is not None
    half = 0.0 if printed_sums else 0.5 * 10.0**-k
    for s in results:
        r = s.result
        if r.published_ns_mp is None or s.ns_mp is None or _agree(s, k):
            continue
        for side, pair, pub, ours in ((0, r.ns_pair, r.published_ns_mp, s.ns_mp),
                                      (1, r.ew_pair, r.published_ew_mp, s.ew_mp)):  # fmt: skip
            if pub is None or not pair or r.phantom == ("NS", "EW")[side]:
                continue
            summed = round_half_away(ours, rule.line_decimals) if printed_sums else ours
            label = f"{r.section}{pair}" if across and r.section else pair
            out[(r.session, label)].append((_summed(s, pub, side, rule) - summed,
                                            r.record_id in proven))  # fmt: skip
            slack[(r.session, label)] += half
    return out, slack


def pct_proofs(results: Sequence[Any]) -> dict[str, str]:
    """record_id -> why its published line percentage cannot be ours: on a board whose every
    result was compared (no table missing, none adjusted, one deal), every matchpoint method and
    top give the same percentage, computed from the file's own scores."""
    boards: dict[tuple[str, str, str, str], list[Any]] = defaultdict(list)
    for s in results:
        boards[(s.result.event, s.result.session, s.result.section, s.result.board)].append(s)
    k = column_decimals(s.result.published_ns_pct for s in results)
    out: dict[str, str] = {}
    for lines in boards.values():
        complete = all(s.group_size == s.field_size == len(lines) for s in lines)
        for s in lines:
            r = s.result
            if not complete or r.published_ns_pct is None or s.ns_pct is None:
                continue
            if not agrees(s.ns_pct, r.published_ns_pct, k):
                out[r.record_id] = (f"all {len(lines)} results of the board are compared, so "
                                    f"every method gives NS {s.ns_pct:.{k + 1}f}% from the "
                                    f"file's own scores; it prints {r.published_ns_pct:g}")  # fmt: skip
    return out
