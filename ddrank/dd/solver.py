"""Thin batch wrappers around endplay's DDS bindings.

Everything DDS-specific (strain numbering, batch limits, thread setting, trace perspective) lives
here, so the rest of ddrank deals only in `TrickTable`s and tuples of trick counts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ddrank.dd.tables import TrickTable
from ddrank.types import DomainError, Seat, Strain

#: Deals per CalcAllTables call. DDS accepts up to 40 deals with all five strains (200 "boards");
#: the default keeps to 8 deals = 40 strain tables, the limit this project was specified with.
TABLE_BATCH = 8
MAX_TABLE_BATCH = 40
#: Boards per AnalyseAllPlays call (DDS MAXNOOFBOARDS).
TRACE_BATCH = 200


@dataclass(frozen=True, slots=True)
class TraceRequest:
    """One board's play to be traced: DD tricks for declarer's side before and after each card."""

    key: str  # record_id of the board
    deal_pbn: str
    trump: Strain
    leader: Seat  # the opening leader; declarer is his right-hand opponent
    cards: tuple[str, ...]  # 'SA', 'H7', ... in true order


def deal_to_play(deal_pbn: str, leader: Seat, trump: Strain) -> Any:
    """An endplay Deal ready for play: the opening leader on lead, the contract's strain trumps."""
    from endplay.types import Deal, Denom, Player

    deal = Deal(deal_pbn)
    deal.first = Player(int(leader))
    deal.trump = Denom(trump.dds_index)
    return deal


def set_dds_threads(threads: int) -> None:
    """Tell DDS how many threads to use in this process (0 = one per core, DDS's own default)."""
    import endplay._dds as _dds

    _dds.SetMaxThreads(int(threads))


def solve_tables(pbns: Sequence[str], batch: int = TABLE_BATCH) -> list[TrickTable]:
    """One DD table per deal, computed `batch` deals per CalcAllTables call."""
    from endplay.dds import calc_all_tables
    from endplay.types import Deal, Denom, Player

    if not 1 <= batch <= MAX_TABLE_BATCH:
        raise ValueError(f"table batch must be 1..{MAX_TABLE_BATCH}, got {batch}")
    out: list[TrickTable] = []
    for start in range(0, len(pbns), batch):
        chunk = [Deal(p) for p in pbns[start : start + batch]]
        results = calc_all_tables(chunk)
        for table in results:
            rows = [[table[Denom(d), Player(p)] for p in range(4)] for d in range(5)]
            out.append(TrickTable.from_dds_rows(rows))
    return out


#: DDS stops tracing after the 48th card: the last trick is forced by then.
DDS_TRACE_CARDS = 48


def complete_trace(values: tuple[int, ...], cards: int, key: str = "") -> tuple[int, ...]:
    """One value before and one after every card: DDS reports at most 48 cards, and from the 48th
    card on nobody has a choice, so DD stays at its value after card 48 until the end."""
    expected = min(cards, DDS_TRACE_CARDS) + 1
    if len(values) != expected:
        raise DomainError(f"DDS returned {len(values)} values for {cards} cards ({key})")
    return values + (values[-1],) * (cards + 1 - len(values))


def solve_traces(
    requests: Sequence[TraceRequest], batch: int = TRACE_BATCH
) -> list[tuple[int, ...]]:
    """DD trace of each request, `batch` boards per AnalyseAllPlays call.

    With `first` = opening leader and `trump` = the contract strain, DDS reports tricks for the
    leader's right-hand opponent's side, i.e. the declaring side: exactly the trace we want.
    Every trace has len(cards) + 1 values (see `complete_trace`).
    """
    from endplay.dds import analyse_all_plays

    if not 1 <= batch <= TRACE_BATCH:
        raise ValueError(f"trace batch must be 1..{TRACE_BATCH}, got {batch}")
    out: list[tuple[int, ...]] = []
    for start in range(0, len(requests), batch):
        chunk = requests[start : start + batch]
        deals = []
        for req in chunk:
            deals.append(deal_to_play(req.deal_pbn, req.leader, req.trump))
        solved = analyse_all_plays(deals, [list(req.cards) for req in chunk])
        for req, trace in zip(chunk, solved, strict=True):
            out.append(complete_trace(tuple(int(v) for v in trace), len(req.cards), req.key))
    return out
