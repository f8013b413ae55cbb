"""A hierarchical prior by field strength (a variant of the skill rating, issue 21).

v1 starts every new player at the field's average, 0. Here a player seen for the first time in a
period starts, on each component, at `weight` x the mean rating of the players of that period
who are already rated: a newcomer who meets a field of strong rated players (a national team
entering a world championship after its players' home events) starts above average. Only the
period's roster (known before play) and the states from earlier periods are used, so the seeded
prior can be set before the period is predicted. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .skill import COMPONENTS, Key, SkillParams, SkillState, States


def seed_newcomers(
    states: Mapping[Key, SkillState],
    roster: Iterable[str],
    period: int,
    params: SkillParams,
    weight: float,
) -> States:
    """`states` plus, for each unrated (player, component) of the roster, the field prior
    (mean `weight` x the rated roster's mean, the component's prior variance, no boards)."""
    out = dict(states)
    if not weight:
        return out
    players = sorted(set(roster))
    for comp in COMPONENTS:
        known = [states[(p, comp)].mean for p in players if (p, comp) in states]
        if not known:
            continue
        mean = weight * sum(known) / len(known)
        var = params.prior_sd[comp] ** 2
        for p in players:
            if (p, comp) not in states:
                out[(p, comp)] = SkillState(mean, var, 0, period)
    return out
