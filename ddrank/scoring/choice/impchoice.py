"""Which IMP rule an IMP pairs event is scored by: what the file declares, then what its
published values say (per-line IMPs, Butler datums, totals, places).

The declared rule comes first (`[Scoring "IMP;Butler-2;Mean"]`: 2 results dropped at each end;
`IMP;Cross`; an XML file's `BUTLER_PAIRS` / `CROSS_IMP`; else the EBU's rule). Where the file published
values, each detail the declaration leaves open is tried in turn, the others held
(cross-IMPs summed or averaged; the datum's drop, median and rounding; sections compared
together or apart; the artificial score's rate, also as the file's own adjusted lines define
it), and a variant is kept only when it reproduces more published values: ties keep the
declaration. So a file whose values cannot tell two readings apart is scored as declared.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from ddrank.scoring.arithmetic import imprule
from ddrank.scoring.events import (
    EventInfo,
    EventResult,
    ScoredEvent,
    assemble_event,
    by_session,
    score_event,
    score_session,
)
from ddrank.scoring.model import ImpRule
from ddrank.scoring.verification.published import compare_published

#: Declarations that say IMPs but not which kind: cross-IMPs and Butler are both tried.
GENERIC = ("", "IMP", "IMPS")
#: Datum drops tried at each end besides the declared one: whole results, or a share of them
#: (5% of the results at each end is one producer's default).
DROPS = (1, 0, 2, 3)
FRACTIONS = (None, 0.05, 0.1)


def method_name(rule: ImpRule) -> str:
    """The short name the store and the console keep: 'cross-IMPs sum', 'Butler'."""
    if rule.kind == imprule.BUTLER:
        return "butler"
    return "cross-imps sum" if rule.cross == "sum" else "cross-imps average"


def has_imp_values(results: Sequence[EventResult], own: Sequence[Mapping[str, Any]]) -> bool:
    return any(r.published_imps is not None or r.published_datum is not None for r in results) or any(
        st.get("published_imps") or st.get("published_place") for st in own)  # fmt: skip


def printed_decimals(results: Sequence[EventResult]) -> int | None:
    """The decimals the file prints its per-line IMPs with (the most any line needs, <= 2)."""
    found = [r.published_imps for r in results if r.published_imps is not None]
    if not found:
        return None
    return max(len(f"{abs(v):.2f}".rstrip("0").split(".")[1]) for v in found)


def variants(rule: ImpRule, sections: int, decimals: int | None) -> list[tuple[str, list[Any]]]:
    """The details to try, one at a time, with their values (the rule's own first)."""
    out: list[tuple[str, list[Any]]] = []
    if rule.kind == imprule.CROSS:
        out.append(("cross", ["comparisons", "sum"]))
    else:
        out.append(("drop", [rule.drop, *DROPS]))
        out.append(("drop_fraction", [rule.drop_fraction, *FRACTIONS]))
        out.append(("median", [rule.median, not rule.median]))
        out.append(("datum_half", ["away", "even"]))
        out.append(("datum_step", [10, 0]))
    if sections > 1:
        out.append(("across", [None, True, False]))
    out.append(("factor_to", ["most", "boards"]))
    if decimals is not None:
        out.append(("line_decimals", [None, decimals]))
        out.append(("sum_decimals", [None, decimals]))
    out.append(("one_ranking", [False, True]))
    return out


def choose_imp_rule(
    results: Sequence[EventResult], info: EventInfo, own: Sequence[Mapping[str, Any]]
) -> tuple[ImpRule, str, int, int]:
    """(rule, why, published values compared, agreeing) for one IMP pairs event."""
    kind = imprule.BUTLER if info.scoring == "BUTLER" else imprule.CROSS
    rule = imprule.declared_rule(info.declared, kind)
    said = f"declared {info.declared!r}" if info.declared and ";" in info.declared else (
        f"{info.scoring} scoring")  # fmt: skip

    boards: dict[ImpRule, list[ScoredEvent]] = {}  # a rule's boards, whatever its totals

    def tally(candidate: ImpRule) -> tuple[int, int]:
        at = replace(info, imp_rule=candidate)
        key = replace(candidate, factor_to="most", line_decimals=None, sum_decimals=None,
                      one_ranking=False)  # fmt: skip
        if key not in boards:
            boards[key] = [score_session(rs, at) for rs in by_session(results).values()]
        sc = assemble_event(at, boards[key])
        checks = compare_published({info.event: sc}, own)
        return sum(c.compared for c in checks), sum(c.agree for c in checks)

    compared, agree = tally(rule)
    if not has_imp_values(results, own):
        return rule, f"{rule.words()} ({said}; no published IMPs to compare)", compared, agree
    tried = 1
    if (
        info.declared.strip().upper() in GENERIC
    ):  # "IMP" alone: cross-IMPs or Butler, say the values
        other = imprule.ImpRule(
            kind=imprule.CROSS if rule.kind == imprule.BUTLER else imprule.BUTLER
        )
        tried += 1
        c, a = tally(other)
        if a > agree:
            rule, compared, agree = other, c, a
    sections = len({(r.session, r.section) for r in results})
    for name, values in variants(rule, sections, printed_decimals(results)):
        for value in values:
            if getattr(rule, name) == value:
                continue
            cand = replace(rule, **{name: value})
            tried += 1
            c, a = tally(cand)
            if a > agree:
                rule, compared, agree = cand, c, a
    if rule.kind == imprule.BUTLER and any(r.published_datum is not None for r in results):
        tried += 1
        cand = replace(rule, datum_published=True)  # the last resort: the file's own datums,
        c, a = tally(cand)  # judged without the datum check they would pass by construction
        datums = _datum_check(results, info, rule, own)
        if a > agree - datums[1]:
            rule, compared, agree = cand, c, a
            said += f"; no reading of ours reproduces its datums (best {datums[1]} of {datums[0]})"
    rate = file_rate(results, info, rule)
    if rate is not None and abs(rate - rule.adjusted_rate) > 1e-9:
        tried += 1
        cand = replace(rule, adjusted_rate=rate)
        c, a = tally(cand)
        if a > agree:
            rule, compared, agree = cand, c, a
    why = f"{rule.words()} ({said}; the best of {tried} readings at the published values)"
    return rule, why, compared, agree


def _datum_check(results: Sequence[EventResult], info: EventInfo, rule: ImpRule,
                 own: Sequence[Mapping[str, Any]]) -> tuple[int, int]:  # fmt: skip
    """(compared, agree) of the "Butler datum" check under `rule`."""
    sc = score_event(results, replace(info, imp_rule=rule))
    found = [c for c in compare_published({info.event: sc}, own) if c.what == "Butler datum"]
    return (found[0].compared, found[0].agree) if found else (0, 0)


def file_rate(results: Sequence[EventResult], info: EventInfo, rule: ImpRule) -> float | None:
    """The artificial score's IMPs per % above average that the file's own published adjusted
    lines define under `rule` (one rate for all of them), or None."""
    adjusted = [r for r in results if r.adjusted is not None and r.published_imps is not None
                and r.adjusted[0] != 50.0]  # fmt: skip
    if not adjusted:
        return None
    sc = score_event(results, replace(info, imp_rule=replace(rule, adjusted_rate=1.0)))
    rates = {
        round(s.result.published_imps / s.imps, 9)
        for s in sc.results  # type: ignore[operator]
        if s.result.adjusted is not None and s.result.published_imps is not None and s.imps
    }
    return next(iter(rates)) if len(rates) == 1 else None
