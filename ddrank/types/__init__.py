"""Immutable bridge value objects, one concept per module, each reading its own notation.

Seats are numbered N=0, E=1, S=2, W=3 clockwise, as in the Marriner code and DDS. Strains are
ordered C<D<H<S<N, the order of the auction; `Strain.dds_index` gives DDS's S,H,D,C,N = 0..4.
`from ddrank.types import X` works for every name of the modules below.
"""

from ddrank.types.auction import (
    ALL_BIDS,
    DOUBLE,
    PASS,
    REDOUBLE,
    Auction,
    Call,
    CallKind,
    auction_contract,
    auction_declarer,
    clean_call_token,
    clean_calls,
)
from ddrank.types.board import Board, board_year
from ddrank.types.card import ALL_CARDS, RANKS, Card
from ddrank.types.contract import Contract, normalise_contract
from ddrank.types.deal import Deal, deal_id_of, parse_deal
from ddrank.types.errors import DomainError, Reject
from ddrank.types.hand import Hand
from ddrank.types.play import Play, trick_winner
from ddrank.types.seat import SEAT_LETTERS, Seat
from ddrank.types.strain import STRAIN_LETTERS, SUITS, Strain
from ddrank.types.vulnerability import Vulnerability, vulnerability

__all__ = [
    "ALL_BIDS", "ALL_CARDS", "DOUBLE", "PASS", "RANKS", "REDOUBLE", "SEAT_LETTERS",
    "STRAIN_LETTERS", "SUITS", "Auction", "Board", "Call", "CallKind", "Card", "Contract", "Deal",
    "DomainError", "Hand", "Play", "Reject", "Seat", "Strain", "Vulnerability", "auction_contract",
    "auction_declarer", "board_year", "clean_call_token", "clean_calls", "deal_id_of",
    "normalise_contract", "parse_deal", "trick_winner", "vulnerability",
]  # fmt: skip
