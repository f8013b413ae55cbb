"""All 33 counters of the four players of one board, from its DD table and trace."""

from __future__ import annotations

from ddrank.dd.boards import has_play
from ddrank.dd.tables import TrickTable
from ddrank.mistakes.auction import tally_auction
from ddrank.mistakes.play import tally_claim, tally_play
from ddrank.mistakes.variables import Tally, empty_tally
from ddrank.types import Board


def board_tallies(
    board: Board, table: TrickTable | None, trace: tuple[int, ...] | None
) -> tuple[Tally, Tally, Tally, Tally]:
    """Counters for N, E, S, W.

    The play (and a claim) is analysed when the board has cards and a trace; the auction when it
    has an auction, a known outcome (contract or passed out) and the deal's table. Unknown
    vulnerability counts as not vulnerable, as in the paper.
    """
    tallies = (empty_tally(), empty_tally(), empty_tally(), empty_tally())
    vul_ns = bool(board.vulnerability.ns)
    vul_ew = bool(board.vulnerability.ew)
    contract, declarer = board.contract, board.declarer
    if trace is not None and has_play(board):
        assert contract is not None and declarer is not None and board.play is not None
        vul = vul_ns if declarer.is_ns else vul_ew
        tally_play(tallies, contract, declarer, board.play.seats, trace, vul, board.year)
        if board.claim_tricks is not None:
            tally_claim(tallies, contract, declarer, board.claim_tricks, trace[-1], vul, board.year)
    if table is not None and board.auction is not None and (board.passed_out or contract):
        tally_auction(
            tallies, board.auction, None if board.passed_out else contract, table,
            vul_ns, vul_ew, board.year,
        )  # fmt: skip
    return tallies
