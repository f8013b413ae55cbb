"""The DD-best cards at every costly card of the stored plays (table `dd_card_alternatives`).

The DD stage stores each play's trace (tricks before and after every card); a board page shows,
at each card that lost tricks, what double dummy would have played instead. That needs one DDS
`SolveBoard` per costly card (about 35 ms), so it is done once and stored: the costliest cards
first, in batches of 200, in a child process (DDS is native code: a crash must not take the
caller down), within a time budget. What the budget leaves is done by the next build and the page
says "not computed yet" meanwhile. Called by the site stage when it may write the store.
"""

from __future__ import annotations

import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import get_context

import polars as pl

from ddrank.dd import board_from_row, has_play
from ddrank.dd.positions import POSITION_BATCH, PositionRequest, solve_positions
from ddrank.dd.sandbox import skip_endplay_dealer
from ddrank.mistakes.explain import card_mistakes
from ddrank.types import DomainError
from store import Store

#: Seconds a site build may spend finding DD-best cards (the rest wait for the next build).
DEFAULT_BUDGET = 120.0


def pending_positions(store: Store) -> list[PositionRequest]:
    """Every costly card of a traced play without stored alternatives, costliest first."""
    done = set(store.tuples("dd_alternatives_done"))
    found: list[tuple[float, PositionRequest]] = []
    for row in store.rows("dd_traced_boards"):
        try:
            board = board_from_row(row)
        except (DomainError, ValueError):
            continue
        if not has_play(board) or row.get("trace") is None:
            continue
        assert board.play is not None and board.contract is not None
        assert board.declarer is not None
        vul = board.vulnerability.ns if board.declarer.is_ns else board.vulnerability.ew
        try:
            mistakes = card_mistakes(board.contract, board.declarer, board.play.cards,
                                     board.play.seats, tuple(row["trace"]), bool(vul), board.year)  # fmt: skip
        except ValueError:
            continue
        cards = tuple(str(c) for c in board.play.cards)
        for m in mistakes:
            if (board.record_id, m.index) in done:
                continue
            found.append((m.points, PositionRequest(board.record_id, m.index, board.deal.to_pbn(),
                          board.contract.strain, board.declarer.lho, cards[: m.index])))  # fmt: skip
    found.sort(key=lambda x: (-x[0], x[1].record_id, x[1].index))
    return [req for _, req in found]


def fill_card_alternatives(store: Store, budget: float = DEFAULT_BUDGET) -> dict[str, int]:
    """Solve and store the pending positions within `budget` seconds; return what was done."""
    pending = pending_positions(store)
    solved = failed = 0
    if not pending:
        return {"solved": 0, "pending": 0, "failed": 0}
    t0 = time.perf_counter()
    with ProcessPoolExecutor(max_workers=1, mp_context=get_context("spawn"),
                             initializer=skip_endplay_dealer) as pool:  # fmt: skip
        for start in range(0, len(pending), POSITION_BATCH):
            if time.perf_counter() - t0 > budget:
                break
            chunk = pending[start : start + POSITION_BATCH]
            try:
                answers = pool.submit(solve_positions, chunk).result()
            except (BrokenProcessPool, RuntimeError, OSError):
                failed += len(chunk)  # DDS died: these stay pending, the pages say so
                break
            store.insert_frame("dd_card_alternatives", pl.DataFrame(
                {"record_id": [a.record_id for a in answers],
                 "card_index": [a.index for a in answers],
                 "best_cards": [" ".join(a.best) for a in answers],
                 "tricks": [a.tricks for a in answers],
                 "card_values": [" ".join(f"{c}:{t}" for c, t in a.values) for a in answers]},
                schema={"record_id": pl.String, "card_index": pl.Int16,
                        "best_cards": pl.String, "tricks": pl.Int8, "card_values": pl.String},
            ))  # fmt: skip
            solved += len(answers)
    return {"solved": solved, "pending": len(pending) - solved, "failed": failed}
