"""A matchpoint producer's arithmetic: how its board matchpoints become lines and totals.

The method (Neuberg, Mitchell 1, ...) says how a board played fewer times reaches the field's top
(ddrank.scoring.matchpoints). What a scoring program then prints and sums is its own: summed
exact, summed as printed (each board's matchpoints rounded to the decimals it prints), a board
played fewer times printed on its own top, a pair's total over fewer boards factored up. Which
producer does which is in its rulebook (ddrank.scoring.rulebooks).

A producer without a rulebook gets no rule: its lines are summed exact, unless its published
totals say that its printed lines are summed (ddrank.scoring.method tries both).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class MpRule:
    """How lines and totals are made from board matchpoints; the default is exact sums."""

    producer: str = ""  # whose rule it is (its rulebook; "" = none declared: exact sums)
    round_lines: bool = False  # each board's matchpoints summed as printed (their decimals)
    line_decimals: int | None = None  # those decimals, read off the file's printed lines
    own_top_lines: bool = False  # a board played fewer times is printed on its own top
    factor_boards: bool = False  # a total over fewer boards factored up to the most played
    method: str = ""  # the lift method the producer documents ("" = as the values say)

    def words(self) -> str:
        """What the rule does, for the 'why' of a method choice."""
        parts = []
        if self.round_lines:
            k = "" if self.line_decimals is None else f" ({self.line_decimals} decimals)"
            parts.append(f"totals are the sums of the board matchpoints as printed{k}")
        if self.own_top_lines:
            parts.append("a board played fewer times printed on its own top")
        if self.factor_boards:
            parts.append("a pair's total over fewer boards factored up to the most played")
        return f"{self.producer}: {', '.join(parts)}" if parts else self.producer


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
