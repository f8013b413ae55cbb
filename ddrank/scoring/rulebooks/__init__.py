"""Rulebooks: what each scoring program does, one file per producer.

A rulebook says, in one place, how a producer is recognised from the file's own declarations
(the program name a USEBIO `PROGRAM_NAME`, a PBN `Generator`/`Creator` or a game file states),
the matchpoint method and top it scores with, how its board values become lines and totals
(`MpRule`), the decimals and rounding it prints, how it prints ties and breaks them, and the
awards it publishes. The choice of a scoring (`ddrank.scoring.choice.method`), the proofs and every
output read rulebooks; nothing else names a producer.

Adding a producer is adding one file here that defines `RULEBOOK`: this package finds it.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from ddrank.scoring.model import MpRule

#: How a producer prints places its pairs share: "4=" (shared) or "4/5" (the range).
SHARED, RANGE = "shared", "range"


@dataclass(frozen=True, slots=True)
class Rulebook:
    """One producer's rules, as its published files show them."""

    name: str  # the producer as a reader sees it ("Compscore")
    #: How it is recognised: the start (lower case) of the program name its files declare.
    declares: tuple[str, ...]
    #: Matchpoints: the method that lifts a board played fewer times ("" = as the values say)
    #: and how board matchpoints become lines and totals (`MpRule`: sums of printed values, a
    #: board printed on its own top, totals factored up).
    method: str = ""
    mp: MpRule = field(default_factory=MpRule)
    #: Matchpoints per result beaten (None: as the federation or the published values say).
    top: float | None = None
    #: The federation whose scoring it is: a file of that federation scores on its `top` too.
    federation: str = ""
    #: Decimals it prints (None: as the file's own printed values show) and how halves round.
    line_decimals: int | None = None
    total_decimals: int | None = None
    pct_decimals: int | None = None
    rounding: str = "half away from zero"
    #: Ties: how a shared place is printed, and whether a published tiebreak decides places.
    ties: str = SHARED
    tiebreak: str = ""
    #: What it awards beside places (strats, masterpoints), in its own words.
    awards: str = ""
    #: IMP pairs: cross-IMP totals in its unit ("" = IMPs summed; "per board per comparison").
    imp_total_unit: str = ""
    about: str = ""  # the evidence: which published numbers show the rules above
    #: A producer whose method is its own (`method` names it, e.g. `--mp-method`) brings its
    #: arithmetic: one board's field scored, (results, field size) -> scores ...
    score_board: Callable[..., list[Any]] | None = None
    method_help: str = ""  # that arithmetic in words, for the options' help
    #: ... and its session lines made its totals, (lines, max score, pair inputs) -> None.
    factor_totals: Callable[..., None] | None = None
    #: What a director applied to pairs' totals, as its published standings give it.
    pair_inputs: Callable[[Iterable[Mapping[str, Any]]], tuple[Any, ...]] | None = None

    def recognises(self, program: str) -> bool:
        """Whether a file declaring `program` was made by this producer."""
        return program.strip().lower().startswith(self.declares)

    def mp_rule(self) -> MpRule:
        """The matchpoint arithmetic, named after the producer and with its method."""
        return MpRule(self.name, self.mp.round_lines, self.mp.line_decimals, self.mp.own_top_lines,
                      self.mp.factor_boards, self.method)  # fmt: skip

    def place_text(self, first: int, tied: int) -> str:
        """A place as this producer prints it: '4', '4=' or '4/5' for two pairs sharing 4th."""
        if tied <= 1:
            return str(first)
        return f"{first}/{first + tied - 1}" if self.ties == RANGE else f"{first}="


#: The rulebook of a producer ddrank does not know: exact arithmetic, places shared as "4=".
DEFAULT = Rulebook("", ())


@cache
def rulebooks() -> tuple[Rulebook, ...]:
    """Every producer's rulebook: the `RULEBOOK` of each module of this package."""
    found = []
    for mod in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{mod.name}")
        book = getattr(module, "RULEBOOK", None)
        if isinstance(book, Rulebook):
            found.append(book)
    return tuple(found)


def rulebook_for(program: str) -> Rulebook | None:
    """The rulebook of the producer a file declares (`program`), or None when none is known."""
    return next((b for b in rulebooks() if b.recognises(program)), None)


def own_arithmetic(method: str) -> Rulebook | None:
    """The rulebook whose own arithmetic the method `method` is (None: a method of the board
    arithmetic, ddrank.scoring.arithmetic)."""
    return next((b for b in rulebooks() if b.method == method and b.score_board), None)


def own_methods() -> tuple[str, ...]:
    """The methods that are a producer's own arithmetic (options offer them beside the others)."""
    return tuple(b.method for b in rulebooks() if b.score_board)


def pair_inputs(standings: Iterable[Mapping[str, Any]]) -> tuple[Any, ...]:
    """What a director applied to pairs' totals (adjustments, eligibility), read from an event's
    published standings by the rulebooks that publish it; () when nothing."""
    rows = list(standings)
    return tuple(x for b in rulebooks() if b.pair_inputs for x in b.pair_inputs(rows))


def federation_top(federation: str) -> float | None:
    """Matchpoints per result beaten in the federation a file names, where a rulebook says it."""
    fed = federation.strip().upper()
    return next((b.top for b in rulebooks() if fed and b.federation.upper() == fed and b.top), None)


def by_name(name: str) -> Rulebook:
    """A stored rulebook name back to its rulebook (`DEFAULT` for '' or one no longer known)."""
    return next((b for b in rulebooks() if b.name == name), DEFAULT)
