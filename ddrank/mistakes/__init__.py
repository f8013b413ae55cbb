"""Mistake accounting: the 33 per-player variables of Marriner (2024) Table 3 and their rates."""

from ddrank.mistakes.auction import declarer_candidates, tally_auction, would_be_declarer
from ddrank.mistakes.board import board_tallies
from ddrank.mistakes.play import tally_claim, tally_play
from ddrank.mistakes.variables import RATES, VARIABLES, Tally, empty_tally, rates

__all__ = [
    "RATES",
    "VARIABLES",
    "Tally",
    "board_tallies",
    "declarer_candidates",
    "empty_tally",
    "rates",
    "tally_auction",
    "tally_claim",
    "tally_play",
    "would_be_declarer",
]
