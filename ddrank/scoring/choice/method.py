"""Score as the scorer did: which matchpoint method and which top an event is scored with.

A matchpoint event's numbers depend on two choices the source rarely states outright:

* the **top**, matchpoints per result beaten: 2 in most federations' scoring, 1 in some (their rulebooks say);
* the **method** that lifts a board played fewer times than the field (a missing table, an
  adjusted score, a fouled board) to the field's top: Neuberg, Mitchell 1, Mitchell 1 bis,
  Ascherman, or `none` (each board on its own top).

The rule, in this order:

1. an explicit option (`--mp-method`, `--mp-top`) wins;
2. what the source declares: its producer (the program name its file declares, as its reader
   reads it) has a rulebook (ddrank.scoring.rulebooks) naming its
   arithmetic, method and top, its federation its top, its published matchpoints their top;
3. where the source published values, every candidate (method x top x arithmetic) is tried and
   the one that reproduces the most published per-line values is taken, then the most totals,
   percentages and places; ties keep the declared one, then the order of `METHODS`. Every value
   is compared at the precision it is printed with (ddrank.scoring.arithmetic.precision), so a check that
   cannot agree at the file's precision never tells candidates apart;
4. otherwise Neuberg on a top of 2 (EBU).

Non-matchpoint events (IMPs) have neither choice; they keep the default and say so. Teams events
choose their VP scale the same way (`choose_vp_scale`, ddrank.scoring.choice.vpscale): the one that
reproduces the published match VPs; point-a-board has one rule and says it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ddrank.scoring.arithmetic.precision import column_decimals
from ddrank.scoring.choice.impchoice import choose_imp_rule, method_name
from ddrank.scoring.choice.vpscale import FILE, WBF, VpScale, file_scale
from ddrank.scoring.events import EventInfo, EventResult, event_info_for, score_event
from ddrank.scoring.model import TEAM_SCORINGS, ImpRule, MpRule
from ddrank.scoring.rulebooks import federation_top, own_arithmetic, rulebook_for
from ddrank.scoring.verification.published import compare_published
from ddrank.scoring.verification.standings import published_matches

AUTO = "auto"
#: Every method, in the order ties are broken after the source's own default.
METHODS = ("neuberg", "none", "mitchell1", "mitchell1_bis", "ascherman")
#: A producer's documented method in words (its rulebook says whose: ddrank.scoring.rulebooks).
METHOD_WORDS = {"none": "scores each board on its own top",
                "neuberg": "lifts a board played fewer times by Neuberg's formula"}  # fmt: skip
#: Matchpoints per result beaten where neither the file nor its federation's rulebook says.
DEFAULT_TOP = 2.0


@dataclass(frozen=True, slots=True)
class MethodChoice:
    """How one event is scored, why, and how many published values that reproduces."""

    method: str
    mp_top: float
    reason: str
    compared: int = 0  # published values compared (matchpoints, percentages, places)
    agree: int = 0
    vp_scale: VpScale = ()  # teams: the file's own VP scale, () = WBF continuous
    imp_rule: ImpRule | None = None  # IMP pairs: the rule (ddrank.scoring.choice.impchoice)
    mp_rule: MpRule | None = (
        None  # matchpoints: the producer's arithmetic (ddrank.scoring.arithmetic.mprule)
    )

    def line(self) -> str:
        """'neuberg, top 2 per result beaten (published values: 144 of 144 agree)'."""
        top = f"{self.mp_top:g} per result beaten"
        agreement = (f"; published values: {self.agree} of {self.compared} agree"
                     if self.compared else "; no published values to compare")  # fmt: skip
        return f"{self.method}, top {top} ({self.reason}){agreement}"


def source_default(info: EventInfo) -> tuple[str, float, str]:
    """(method, top, why) from what the source says about itself, before any trial."""
    why: list[str] = []
    method = "neuberg"
    scorer = info.scorer.strip()
    book = rulebook_for(scorer)
    if book is not None and book.method:
        method = book.method
        why.append(f"scorer {scorer} {method_words(method)}")
    if info.mp_top:
        top = float(info.mp_top)
        why.append(f"published matchpoints are {top:g} per result beaten")
    elif book is not None and book.top:
        top = book.top
        why.append(f"{book.name} scores {top:g} per result beaten")
    elif (fed := federation_top(info.federation)) is not None:
        top = fed
        why.append(f"{info.federation} scores {top:g} per result beaten")
    else:
        top = DEFAULT_TOP
    if not why:
        why.append("default: Neuberg, 2 per result beaten")
    return method, top, "; ".join(why)


def method_words(method: str) -> str:
    """A method in words: a board arithmetic's, or a producer's own (its rulebook's module)."""
    own = own_arithmetic(method)
    if method not in METHOD_WORDS and own is not None and own.score_board is not None:
        return f"scores by its own arithmetic ({own.score_board.__module__})"
    return METHOD_WORDS.get(method, "lifts by " + method)


def candidates(info: EventInfo, method: str = AUTO,
               mp_top: float | None = None) -> list[tuple[str, float]]:  # fmt: skip
    """(method, top) pairs to try, the source's default first."""
    first_method, first_top, _ = source_default(info)
    methods = [method] if method != AUTO else [first_method] + [
        m for m in METHODS if m != first_method]  # fmt: skip
    if mp_top is not None:
        tops = [float(mp_top)]
    elif info.mp_top:  # read off the published matchpoints themselves
        tops = [float(info.mp_top)]
    else:
        tops = [first_top] + [t for t in (DEFAULT_TOP, 1.0) if t != first_top]
    return [(m, t) for m in methods for t in tops]


def agreement(checks: Sequence[Any]) -> tuple[int, int]:
    """(compared, agree) over every kind of published value."""
    return sum(c.compared for c in checks), sum(c.agree for c in checks)


def event_standings(event: str, standings: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The published standings of one event."""
    return [st for st in standings if str(st.get("event_id") or st.get("event") or "") == event]


def has_published(results: Sequence[EventResult], standings: Sequence[Mapping[str, Any]]) -> bool:
    return bool(standings) or any(
        r.published_ns_mp is not None or r.published_ns_pct is not None for r in results
    )


def choose_method(
    results: Sequence[EventResult],
    info: EventInfo,
    standings: Sequence[Mapping[str, Any]] = (),
    method: str = AUTO,
    mp_top: float | None = None,
) -> MethodChoice:
    """The method and top `results` (one event) are scored with; see the module's rule.

    `standings` are the event's published standings (others are ignored)."""
    info = event_info_for(results, info)
    own = event_standings(info.event, standings)
    first_method, first_top, why = source_default(info)
    if method != AUTO and mp_top is not None:
        return MethodChoice(method, float(mp_top), "as the options say")
    if info.scoring in TEAM_SCORINGS:
        return choose_vp_scale(results, info, own, float(mp_top or first_top))
    if info.scoring in ("IMP", "BUTLER"):
        rule, why, compared, agree = choose_imp_rule(results, info, own)
        return MethodChoice(method_name(rule), float(mp_top or first_top), why, compared, agree,
                            imp_rule=rule)  # fmt: skip
    if info.scoring != "MP":
        return MethodChoice(first_method if method == AUTO else method,
                            float(mp_top or first_top), f"{info.scoring} scoring: no matchpoints")  # fmt: skip
    return choose_mp(results, info, own, method, mp_top)


def producer_rule(info: EventInfo) -> MpRule | None:
    """The matchpoint arithmetic of the producer the event's file declares (its rulebook)."""
    book = rulebook_for(info.scorer)
    return None if book is None else book.mp_rule()


def mp_rules(results: Sequence[EventResult], info: EventInfo) -> list[MpRule]:
    """The arithmetic candidates: the declared producer's rule alone, else the exact sums and,
    where the file prints its lines' matchpoints, the sums of the printed ones."""
    printed = [x for r in results for x in (r.published_ns_mp, r.published_ew_mp) if x is not None]
    k = column_decimals(printed) if printed else None
    declared = producer_rule(info)
    if declared is not None:
        return [replace(declared, line_decimals=k) if declared.round_lines else declared]
    rules = [MpRule()]
    if k is not None:
        rules.append(MpRule("summed as printed", round_lines=True, line_decimals=k))
    return rules


def _split(checks: Sequence[Any]) -> tuple[int, int]:
    """(per-line values that agree, other values that agree): the order a choice weighs them."""
    line = sum(c.agree for c in checks if c.what.endswith("per line"))
    return line, sum(c.agree for c in checks) - line


def choose_mp(results: Sequence[EventResult], info: EventInfo, own: Sequence[Mapping[str, Any]],
              method: str = AUTO, mp_top: float | None = None) -> MethodChoice:  # fmt: skip
    """A matchpoint event's method, top and arithmetic: what the source declares first (its
    producer's rule and method, its federation's top), then what reproduces the most published
    per-line values, then the most totals, percentages and places; ties keep the declared one.
    A published value is compared at its printed precision (ddrank.scoring.arithmetic.precision)."""
    first_method, first_top, why = source_default(info)
    rules = mp_rules(results, info)
    declared = producer_rule(info)
    tries = [(m, t, r) for m, t in candidates(info, method, mp_top) for r in rules]
    optioned = method != AUTO or mp_top is not None
    rule_why = f"; {rules[0].words()}" if declared is not None else ""
    if len(tries) == 1 or not has_published(results, own):
        m, t, r = tries[0]
        reason = (f"as the options say; {why}" if optioned else why) + rule_why
        return MethodChoice(m, t, reason, mp_rule=r if r.producer else None)
    best: tuple[tuple[int, int], int, int, str, float, MpRule] | None = None
    for m, t, r in tries:
        sc = score_event(results, replace(info, mp_top=t, mp_rule=r), m)  # type: ignore[arg-type]
        checks = compare_published({info.event: sc}, own)
        compared, agree = agreement(checks)
        if best is None or _split(checks) > best[0]:
            best = (_split(checks), compared, agree, m, t, r)
    assert best is not None
    _, compared, agree, m, t, r = best
    fixed = " (the other as the options say)" if optioned else ""
    reason = (f"reproduces the published values best of {len(tries)} candidates, per-line "
              f"values first{fixed}")  # fmt: skip
    if (m, t) == (first_method, first_top):
        reason += f"; as the source says: {why}"
    if r.producer:
        reason += f"; {r.words()}"
    return MethodChoice(m, t, reason, compared, agree, mp_rule=r if r.producer else None)


PAB_RULE = ("point-a-board: on each board the team whose two tables net more wins 2 points "
            "(any difference, even 10), equal nets 1 each; a match scores its board points")  # fmt: skip


KNOCKOUT_RULE = ("knockout: each team meets one opponent over several segments of a stage, and "
                 "the match is won on total IMPs; no VPs, no round-robin ranking")  # fmt: skip


def choose_vp_scale(results: Sequence[EventResult], info: EventInfo,
                    own: Sequence[Mapping[str, Any]], top: float) -> MethodChoice:  # fmt: skip
    """A teams event's VP scale: WBF continuous, or the file's own scale where that reproduces
    more of its published match VPs (ties: WBF continuous); see ddrank.scoring.choice.vpscale."""
    if info.scoring == "BAM":
        sc = score_event(results, info)
        compared, agree = agreement(compare_published({info.event: sc}, own))
        return MethodChoice("point-a-board", top, PAB_RULE, compared, agree)
    table = published_matches(own)
    wbf = score_event(results, replace(info, vp_scale=()))
    w_checks = compare_published({info.event: wbf}, own)
    compared, agree = agreement(w_checks)
    if wbf.matches and all(m.vp is None for m in wbf.matches):
        return MethodChoice("knockout", top, KNOCKOUT_RULE, compared, agree)
    if not table:
        why = "WBF continuous 20-VP scale: the source published no match VPs"
        return MethodChoice(WBF, top, why, compared, agree)
    fs = file_scale(wbf.matches, table)
    if not fs.consistent:
        why = (f"WBF continuous 20-VP scale: the published match VPs make no consistent scale "
               f"({'; '.join(fs.conflicts[:3]) or 'no match read'})")  # fmt: skip
        return MethodChoice(WBF, top, why, compared, agree)
    own_sc = score_event(results, replace(info, vp_scale=fs.scale))
    f_checks = compare_published({info.event: own_sc}, own)
    f_compared, f_agree = agreement(f_checks)
    w_vps, f_vps = _match_vps(w_checks), _match_vps(f_checks)
    read = f"the file's scale read from its {fs.matches} published matches ({fs.words()})"
    if f_agree > agree:
        why = (f"{read} is consistent and reproduces {f_vps[1]} of {f_vps[0]} match VPs, WBF "
               f"continuous {w_vps[1]}; best of 2 candidates")  # fmt: skip
        return MethodChoice(FILE, top, why, f_compared, f_agree, fs.scale)
    why = (f"WBF continuous 20-VP scale: reproduces {w_vps[1]} of {w_vps[0]} match VPs, {read} "
           f"{f_vps[1]}; best of 2 candidates (ties: WBF continuous)")  # fmt: skip
    return MethodChoice(WBF, top, why, compared, agree)


def _match_vps(checks: Sequence[Any]) -> tuple[int, int]:
    return agreement([c for c in checks if c.what == "match VPs"])
