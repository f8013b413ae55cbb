"""EBUScore's PairsScorer: the English Bridge Union's club scoring program."""

from ddrank.scoring.model import MpRule
from ddrank.scoring.rulebooks import Rulebook

RULEBOOK = Rulebook(
    name="EBUScore",
    declares=("pairsscorer", "ebuscore"),
    # Sums the matchpoints it prints (two decimals): the EBU's sample multi-section event's
    # 40.27% is 219.85 of 546 from the printed lines, 40.26% unrounded.
    mp=MpRule(round_lines=True),
    about="events/usebio/ebu-samples/public.multi-section-pairs.xml: 219.85 of 546 = 40.27%",
)
