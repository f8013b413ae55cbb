"""Ruter (www.brenning.se): the Norwegian and Swedish clubs' scoring program."""

from ddrank.scoring.model import MpRule
from ddrank.scoring.rulebooks import Rulebook

RULEBOOK = Rulebook(
    name="Ruter",
    declares=("ruter",),
    method="neuberg",
    # Matchpoints: like Magic Contest, each board's matchpoints printed with one decimal and
    # summed as printed. IMP pairs declare their rule in `[Scoring "IMP;Butler-2;Mean"]`
    # (ddrank.scoring.arithmetic.imprule.declared_rule); cross-IMPs are summed over every comparison, one
    # ranking holds both directions, and a pair's total is published per board per comparison
    # (the IMP checks read it off the file).
    mp=MpRule(round_lines=True),
    imp_total_unit="IMPs per board per comparison",
    about="events/ruter-pbn: impcross.pbn ranks one field of 24, butler.pbn its ButlerDatum",
)
