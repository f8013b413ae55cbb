"""BriAn: a club scoring program that scores each board on its own top."""

from ddrank.scoring.rulebooks import Rulebook

RULEBOOK = Rulebook(
    name="BriAn",
    declares=("brian",),
    # Each board on its own top: the results really compared (method `none`); matchpoints
    # printed with one decimal, percentages in single precision (53.846153 for 700/13).
    method="none",
    about="events/usebio/welwyn-2025-04-09.usebio.xml: 143 of 143 matchpoints per line",
)
