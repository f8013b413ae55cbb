"""From a stored `boards` row to the values the DD engine works on.

The store keeps cleaned text (canonical PBN, 'P 1S X R' auctions, '4SX' contracts, card lists);
the engine works on `ddrank.types` objects. This is the single place that converts between them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ddrank.dd.solver import TraceRequest
from ddrank.dd.validate import play_problem
from ddrank.types import (
    Auction,
    Board,
    Call,
    Card,
    Contract,
    Deal,
    DomainError,
    Play,
    Seat,
    Vulnerability,
    deal_id_of,
)


@dataclass(slots=True)
class DealCache:
    """Deals already read by one pass over many boards, by their stored text: a deal replayed at
    many tables is parsed, written back as PBN and hashed once (Deal is an immutable value, so the
    boards share it). Scoped to the pass: it holds every distinct deal the pass reads."""

    deals: dict[str, Deal] = field(default_factory=dict)
    pbns: dict[str, tuple[str, str]] = field(default_factory=dict)  # text -> (canonical, deal_id)

    def deal(self, text: str) -> Deal:
        deal = self.deals.get(text)
        if deal is None:
            deal = self.deals[text] = Deal.from_pbn(text)
        return deal

    def pbn_and_id(self, text: str) -> tuple[str, str]:
        """The deal's canonical PBN and its deal_id (`Deal.to_pbn`, `Deal.deal_id`)."""
        known = self.pbns.get(text)
        if known is None:
            pbn = self.deal(text).to_pbn()
            known = self.pbns[text] = (pbn, deal_id_of(pbn))
        return known


_SEATS = tuple(Seat)


def _seat(i: int) -> Seat:
    """Seat(i), without the enum's lookup per card (a bad value still raises ValueError)."""
    return _SEATS[i] if 0 <= i < 4 else Seat(i)


@lru_cache(maxsize=512)
def _card(text: str) -> Card:
    return Card.parse(text)  # a card is an immutable value: 52 of them, parsed once each


def board_from_row(row: Mapping[str, Any], deals: DealCache | None = None) -> Board:
    """Build a Board from a `boards` row (a mapping of column name to value); `deals` shares the
    deals of a pass over many boards.

    Unknown vulnerability (NULL) stays None here; the mistake accounting treats it as not
    vulnerable, as the paper did for its 361 empty values.
    """
    deal = deals.deal(row["deal"]) if deals is not None else Deal.from_pbn(row["deal"])
    auction = None
    if row.get("auction") and row.get("bidstart"):
        calls = tuple(Call.parse(tok) for tok in str(row["auction"]).split())
        auction = Auction(Seat.parse(row["bidstart"]), calls)
    contract_text = (row.get("contract") or "").strip()
    passed_out = contract_text.upper() == "P"
    contract = None
    if contract_text and not passed_out and row.get("declarer"):
        contract = Contract.parse(contract_text, declarer=Seat.parse(row["declarer"]))
    play = None
    if row.get("play"):
        cards = tuple(_card(c) for c in row["play"])
        seats = tuple(_seat(int(s)) for s in row["play_seats"])
        play = Play(cards, seats)
    names = tuple(
        (row.get(col) or "") for col in ("northname", "eastname", "southname", "westname")
    )
    claim = row.get("claim_tricks")
    return Board(
        record_id=row["record_id"],
        deal=deal,
        dealer=Seat.parse(row["dealer"]) if row.get("dealer") else None,
        vulnerability=Vulnerability(row.get("ns_vulnerable"), row.get("ew_vulnerable")),
        names=names,  # type: ignore[arg-type]
        auction=auction,
        contract=contract,
        passed_out=passed_out,
        play=play,
        claim_tricks=None if claim is None else int(claim),
        result=None if row.get("result") is None else int(row["result"]),
        year=int(row.get("year") or 0),
    )


def has_play(board: Board) -> bool:
    """A board is play-analysed when it has at least one card and a contract with a declarer."""
    return bool(board.play) and board.contract is not None and board.declarer is not None


def trace_request(board: Board, deal_pbn: str | None = None) -> TraceRequest:
    """The DDS trace request for a board with play, after proving the play legal; `deal_pbn`:
    the deal's canonical PBN when the caller has it (`DealCache.pbn_and_id`).

    Raises DomainError for a play DDS must not see (wrong leader, card not held, revoke, ...).
    """
    if not has_play(board):
        raise DomainError(f"board {board.record_id} has no analysable play")
    assert board.play is not None and board.contract is not None and board.declarer is not None
    leader = board.declarer.lho
    if board.play.seats[0] != leader:
        raise DomainError(
            f"opening lead by {board.play.seats[0].letter}, but {leader.letter} is on lead"
        )
    problem = play_problem(
        board.deal, board.contract.strain, leader, board.play.cards, board.play.seats
    )
    if problem:
        raise DomainError(problem)
    return TraceRequest(
        key=board.record_id,
        deal_pbn=deal_pbn if deal_pbn is not None else board.deal.to_pbn(),
        trump=board.contract.strain,
        leader=leader,
        cards=tuple(str(c) for c in board.play.cards),
    )
