"""From a stored `boards` row to the values the DD engine works on.

The store keeps cleaned text (canonical PBN, 'P 1S X R' auctions, '4SX' contracts, card lists);
the engine works on `ddrank.types` objects. This is the single place that converts between them.
"""

from __future__ import annotations

from collections.abc import Mapping
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
)


def board_from_row(row: Mapping[str, Any]) -> Board:
    """Build a Board from a `boards` row (a mapping of column name to value).

    Unknown vulnerability (NULL) stays None here; the mistake accounting treats it as not
    vulnerable, as the paper did for its 361 empty values.
    """
    deal = Deal.from_pbn(row["deal"])
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
        cards = tuple(Card.parse(c) for c in row["play"])
        seats = tuple(Seat(int(s)) for s in row["play_seats"])
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


def trace_request(board: Board) -> TraceRequest:
    """The DDS trace request for a board with play, after proving the play legal.

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
        deal_pbn=board.deal.to_pbn(),
        trump=board.contract.strain,
        leader=leader,
        cards=tuple(str(c) for c in board.play.cards),
    )
