"""The one way an event is scored: `score(source, settings) -> ScoredEvent`.

Every caller (the pipeline's scoring stage, `ddrank results`, `ddrank score`, `ddrank check`,
`ddrank event` and the site through the store) gets its scores here, so what `check` verifies
is what every output prints. In order:

1. **choice**: the method, top, producer arithmetic, IMP rule or VP scale the event is scored
   with: as the settings say, else as the file declares and its published numbers confirm
   (`ddrank.scoring.choice.method`);
2. **board arithmetic**: each session's table scores (`ddrank.scoring.events.score_session`:
   matchpoints, cross-IMPs, Butler, teams), then the event's rankings (`assemble_event`);
3. **verification**: every published value compared with ours at its printed precision, with a
   proof where the file's own numbers contradict it (`ddrank.scoring.verification.published`).

Nothing here reads files or writes anything: a reader or the store gives the `EventSource`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ddrank.scoring.arithmetic.matches import score_matches
from ddrank.scoring.choice.method import (
    AUTO,
    MethodChoice,
    agreement,
    choose_method,
    event_standings,
)
from ddrank.scoring.events import (
    EventInfo,
    EventResult,
    ScoredEvent,
    assemble_event,
    by_session,
    event_info_for,
    score_session,
)
from ddrank.scoring.rulebooks import pair_inputs
from ddrank.scoring.verification.published import compare_published

Row = Mapping[str, Any]

__all__ = ["AUTO", "EventPlan", "EventSource", "ScoreSettings", "ScoredEvent", "chosen",
           "plan_event", "score", "scored_event"]  # fmt: skip


@dataclass(frozen=True)
class EventSource:
    """One event as read: its table results, the facts its files state, and the standings they
    published (the standings of other events are ignored). No results: a teams event published
    as its matches only."""

    results: Sequence[EventResult]
    info: EventInfo
    standings: Sequence[Row] = ()


@dataclass(frozen=True)
class ScoreSettings:
    """What the user may decide; by default an event is scored as its scorer did."""

    method: str = AUTO  # matchpoint method ('auto': as declared / as the published values say)
    mp_top: float | None = None  # matchpoints per result beaten (None: as the file says)


@dataclass(frozen=True)
class EventPlan:
    """An event's facts and method chosen, and its sessions' table results: each session is then
    scored alone (`score_session(results, info, method)`), by `score` or by a caller that caches
    a session's scores on its content (the Prefect flow's task), and `scored_event` assembles
    and verifies the event from them."""

    info: EventInfo
    choice: MethodChoice
    standings: Sequence[Row]
    sessions: list[list[EventResult]]

    @property
    def method(self) -> str:
        return self.choice.method


def plan_event(source: EventSource, settings: ScoreSettings | None = None) -> EventPlan:
    """Step 1 (choice) of scoring one event with results: its facts, method and sessions."""
    standings = event_standings(source.info.event, source.standings)
    results = list(source.results)
    info, choice = chosen(results, source.info, standings, settings or ScoreSettings())
    info = event_info_for(results, info)
    return EventPlan(info, choice, standings, list(by_session(results).values()))


def scored_event(plan: EventPlan, parts: Sequence[ScoredEvent]) -> ScoredEvent:
    """Steps 2 and 3: the event's rankings from its sessions' scores, verified."""
    return _verified(assemble_event(plan.info, list(parts)), plan.choice, plan.standings)


def score(source: EventSource, settings: ScoreSettings | None = None) -> ScoredEvent:
    """One event scored as its scorer did (or as `settings` say), with its published-value
    checks: the scores every output prints."""
    if not source.results:  # a teams event published as its matches only
        standings = event_standings(source.info.event, source.standings)
        matches, lines, why = score_matches(source.info, source.standings)
        sc = ScoredEvent(source.info, [], lines, matches)
        return _verified(sc, MethodChoice("wbf continuous", 2.0, why), standings)
    plan = plan_event(source, settings)
    return scored_event(plan, [score_session(rs, plan.info, plan.method) for rs in plan.sessions])


def chosen(results: Sequence[EventResult], info: EventInfo, standings: Sequence[Row],
           settings: ScoreSettings | None = None) -> tuple[EventInfo, MethodChoice]:  # fmt: skip
    """The event's facts with what it is scored with (method, top, producer arithmetic, IMP rule,
    VP scale), and the choice with its reason (ddrank.scoring.choice.method)."""
    settings = settings or ScoreSettings()
    standings = event_standings(info.event, standings)
    inputs = pair_inputs(standings)
    if inputs:  # what the director applied to pairs' totals (a game file's)
        info = replace(info, pair_inputs=inputs)
    choice = choose_method(results, info, standings, settings.method, settings.mp_top)
    return replace(info, mp_top=choice.mp_top, vp_scale=choice.vp_scale,
                   imp_rule=choice.imp_rule, mp_rule=choice.mp_rule), choice  # fmt: skip


def _verified(sc: ScoredEvent, choice: MethodChoice, standings: Sequence[Row]) -> ScoredEvent:
    """The scores with how they were scored and how many published values they reproduce (a
    value that differs is explained where the file's own numbers contradict it)."""
    sc = replace(sc, method=choice.method, method_reason=choice.reason)
    checks = compare_published({sc.info.event: sc}, standings, prove=True)
    compared, agree = agreement(checks)
    return replace(sc, published_compared=compared, published_agree=agree, checks=checks)
