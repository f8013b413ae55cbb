"""A matchpoint producer's arithmetic: how its board matchpoints become lines and totals.

The method (Neuberg, Mitchell 1, ...) says how a board played fewer times reaches the field's top
(ddrank.scoring.matchpoints). What a scoring program then prints and sums is its own, one rule per
producer, each read from its published files:

* **Magic Contest and Ruter** (www.brenning.se) print each board's matchpoints with one decimal
  and sum *those*: the session's total is the sum of the printed board matchpoints, its percentage
  that sum over the session's top (FFB DN1 session 5: 718.9 = 61.13% of 28 x 42).
* **EBUScore's PairsScorer** sums the matchpoints it prints (two decimals): the EBU's sample
  multi-section event's 40.27% is 219.85 of 546 from the printed lines, 40.26% unrounded.
* **Compscore** (ABF) prints a board played fewer times (a missing table) on the board's own top,
  but sums it lifted to the field's top by Neuberg, then factors the total of a pair that played
  fewer boards up to the most boards played: 58.2 x 17/15 = 65.96, 38.80% of 17 x 10.
* **BriAn** scores each board on its own top (method `none`, ddrank.scoring.method).
* **ACBLscore** has its own arithmetic (method `acbl`, ddrank.scoring.acbl).

A producer not listed gets no rule: its lines are summed exact, unless its published totals say
that its printed lines are summed (ddrank.scoring.method tries both).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class MpRule:
    """How lines and totals are made from board matchpoints; the default is exact sums."""

    producer: str = ""  # whose rule it is ("" = none declared: the exact arithmetic)
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


#: The producers whose arithmetic is known, by the start of the name they declare (lower case).
RULES: tuple[tuple[tuple[str, ...], MpRule], ...] = (
    (("magic contest", "ruter"), MpRule("Magic Contest / Ruter", round_lines=True,
                                        method="neuberg")),
    (("pairsscorer", "ebuscore"), MpRule("EBUScore", round_lines=True)),
    (("compscore",), MpRule("Compscore", own_top_lines=True, factor_boards=True,
                            method="neuberg")),
    (("brian",), MpRule("BriAn", method="none")),
    (("acblscore",), MpRule("ACBLscore", method="acbl")),  # its arithmetic: ddrank.scoring.acbl
)  # fmt: skip


def producer_rule(scorer: str) -> MpRule | None:
    """The arithmetic of the producer a file declares, or None when it is not known here."""
    name = scorer.strip().lower()
    for prefixes, rule in RULES:
        if name.startswith(prefixes):
            return rule
    return None


def factor_mp_totals(lines: Sequence[Any]) -> None:
    """Matchpoint totals (and their tops) of pairs that played fewer boards than the most in
    their ranking, factored up to it (Compscore); the percentage stays the same."""
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
