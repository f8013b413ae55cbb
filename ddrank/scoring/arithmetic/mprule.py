"""A matchpoint producer's arithmetic: how its board matchpoints become lines and totals.

The method (Neuberg, Mitchell 1, ...) says how a board played fewer times reaches the field's top
(ddrank.scoring.arithmetic.matchpoints). What a scoring program then prints and sums is its own: summed
exact, summed as printed (each board's matchpoints rounded to the decimals it prints), a board
played fewer times printed on its own top, a pair's total over fewer boards factored up. Which
producer does which is in its rulebook (ddrank.scoring.rulebooks).

A producer without a rulebook gets no rule: its lines are summed exact, unless its published
totals say that its printed lines are summed (ddrank.scoring.choice.method tries both).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any


def factor_mp_totals(lines: Sequence[Any]) -> None:
    """Matchpoint totals (and their tops) of pairs that played fewer boards than the most in
    their ranking, factored up to it (`MpRule.factor_boards`); the percentage stays the same."""
    groups: dict[tuple[str, str, str, str], list[Any]] = defaultdict(list)
    for line in lines:
        if line.top:
            groups[(line.event, line.session, line.section, line.direction)].append(line)
    for members in groups.values():
        most = max(x.boards for x in members)
        for line in members:
            if 0 < line.boards < most:
                line.factor = most / line.boards
                line.mp *= line.factor
                line.top *= line.factor
