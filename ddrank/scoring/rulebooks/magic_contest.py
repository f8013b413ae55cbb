"""Magic Contest (FFB, www.brenning.se): the French federation's scoring program."""

from ddrank.scoring.model import MpRule
from ddrank.scoring.rulebooks import Rulebook

RULEBOOK = Rulebook(
    name="Magic Contest",
    declares=("magic contest",),
    method="neuberg",
    # Each board's matchpoints printed with one decimal, and the session's total is the sum of
    # *those*, its percentage that sum over the session's top (FFB DN1 session 5: 718.9 = 61.13%
    # of 28 x 42). A line's two percentages ("28.3 / 13.7") are printed matchpoints, compared at
    # their printed precision.
    mp=MpRule(round_lines=True),
    about="FFB DN1 session 5 (events/magic-contest-pbn): 718.9 = 61.13% of 28 x 42",
)
