"""Compscore (ABF): the Australian Bridge Federation's scoring program."""

from ddrank.scoring.model import MpRule
from ddrank.scoring.rulebooks import Rulebook

RULEBOOK = Rulebook(
    name="Compscore",
    declares=("compscore",),
    method="neuberg",
    # A board played fewer times (a missing table) is printed on the board's own top but summed
    # lifted to the field's top by Neuberg; the total of a pair that played fewer boards is
    # factored up to the most boards played: 58.2 x 17/15 = 65.96, 38.80% of 17 x 10.
    mp=MpRule(own_top_lines=True, factor_boards=True),
    about="events/compscore-usebio: 58.2 x 17/15 = 65.96 (38.80% of 17 x 10)",
)
