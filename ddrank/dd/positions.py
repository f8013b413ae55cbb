"""What double dummy would have played at a given point of a play: the DD-best cards there.

A play trace (`solve_traces`) says how many tricks each card kept or lost, not which card would
have kept them. For a costly card the site shows the alternatives: the position just before it is
rebuilt (the cards played so far removed from the hands, the current trick on the table) and DDS
`SolveBoard` lists every card that keeps the most tricks for the side to play. Plays reach here
only after DDS traced them, so they are legal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ddrank.dd.solver import deal_to_play
from ddrank.types import Seat, Strain

#: Positions per SolveAllBoards call (DDS MAXNOOFBOARDS).
POSITION_BATCH = 200


@dataclass(frozen=True, slots=True)
class PositionRequest:
    """The play up to (not including) card `index`: what should the player have played there?"""

    record_id: str
    index: int  # 0-based index of the card in the play
    deal_pbn: str
    trump: Strain
    leader: Seat  # the opening leader
    played: tuple[str, ...]  # the cards before `index`, in order


@dataclass(frozen=True, slots=True)
class PositionAnswer:
    record_id: str
    index: int
    best: tuple[str, ...]  # every card keeping the most tricks, e.g. ('SA', 'SK')
    tricks: int  # tricks the side to play takes from here on (this trick included) with them
    #: every legal card with the tricks the side to play takes after it, e.g. (('SA', 4), ...)
    values: tuple[tuple[str, int], ...] = ()


def solve_positions(
    requests: Sequence[PositionRequest], batch: int = POSITION_BATCH
) -> list[PositionAnswer]:
    """The DD-best cards at each position, `batch` positions per DDS call."""
    from endplay.dds import solve_all_boards
    from endplay.dds.solve import SolveMode

    out: list[PositionAnswer] = []
    for start in range(0, len(requests), batch):
        chunk = requests[start : start + batch]
        deals = []
        for req in chunk:
            deal = deal_to_play(req.deal_pbn, req.leader, req.trump)
            for card in req.played:
                deal.play(card)
            deals.append(deal)
        solved = solve_all_boards(deals, SolveMode.Default)  # every legal card, scored
        for req, board in zip(chunk, solved, strict=True):
            cards = [(str(card), int(tricks)) for card, tricks in board]
            top = max((t for _, t in cards), default=0)
            best = tuple(sorted({_text(c) for c, t in cards if t == top}))
            values = tuple(sorted({(_text(c), t) for c, t in cards}))
            out.append(PositionAnswer(req.record_id, req.index, best, top, values))
    return out


def _text(endplay_card: str) -> str:
    """endplay writes '♠A' or 'SA' depending on its settings; ddrank writes 'SA'."""
    suits = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
    t = endplay_card.strip()
    t = suits.get(t[0], t[0]) + t[1:]
    return t[0].upper() + ("T" if t[1:] == "10" else t[1:].upper())
