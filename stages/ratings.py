"""Stage `ratings`: Lehman ratings over the scored events, recursively, from `scored_results`.

Periods are events in date order. The periods already rated with unchanged content keep their
history; from the first new or changed period on (an older event inserted, or a rescored one)
every period is rated again from the states its players had before it. A new latest event
therefore costs one period, and gives what a recompute from scratch gives. The table results of
the periods to rate are read, rated and their history written a chunk of periods at a time, so
memory does not grow with the archive.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from itertools import islice
from typing import Any

from ddrank.ratings.lehman import (
    LehmanParams,
    PlayerState,
    rate_periods,
    rated_boards,
    sortable_date,
)
from ddrank.scoring.events import EventResult, ScoredResult
from ddrank.types import board_year
from store import Store

Row = dict[str, Any]


def _state_row(player: str, s: PlayerState, index: int, period: str) -> Row:
    return {"player": player, "rating": s.rating, "boards": s.boards, "std_error": s.std_error,
            "last_period": period, "period": period, "period_index": index, "weight": s.weight,
            "w": s.w, "w2": s.w2, "s1": s.s1, "s2": s.s2}  # fmt: skip


HISTORY_COLUMNS = ["player", "period_index", "period", "rating", "boards", "std_error", "weight",
                   "w", "w2", "s1", "s2"]  # fmt: skip
#: Periods (events) whose table results are read and rated at a time, up to this many results:
#: memory stays bounded by one chunk's boards (and the players' states), not by the archive.
PERIODS_PER_READ = 32
RESULTS_PER_READ = 50_000
RATINGS_COLUMNS = ["player", "rating", "boards", "std_error", "last_period", "period_index",
                   "weight", "w", "w2", "s1", "s2"]  # fmt: skip


def period_order(store: Store) -> list[tuple[str, str, str]]:
    """(event, date, content_hash) of every scored event, in date order (then name)."""
    rows = store.tuples("rating_events")

    def when(r: tuple[str, str, str]) -> str:  # undated: the year in the event's name, if any
        return sortable_date(r[1] or str(board_year("", r[0]) or ""))

    return sorted(rows, key=lambda r: (when(r), r[0]))


def period_boards(store: Store, events: Sequence[str], params: LehmanParams) -> dict[str, list]:
    """The Lehman boards of the given stored events (shares from the stored MP % or IMPs)."""
    scored: dict[str, list[ScoredResult]] = defaultdict(list)
    for event, players, ns_pct, imps in store.tuples("rating_boards", events=list(events)):
        seats = tuple((players or "").split("|"))
        if len(seats) != 4:
            continue
        r = EventResult(record_id="", event=event, board="", players=seats)  # type: ignore[arg-type]
        scored[event].append(ScoredResult(r, ns_pct=ns_pct, imps=imps))
    return {ev: rated_boards(scored.get(ev, []), None, params) for ev in events}


def update_ratings(store: Store, params: LehmanParams | None = None) -> Row:
    """Bring ratings up to date with the scored events (see the module's docstring): the one
    driver, `rate_periods`, from the first changed period, and its states kept in the store."""
    import polars as pl

    params = params or LehmanParams()
    order = period_order(store)
    stored = store.tuples("stored_rating_periods")
    start = 0
    while (
        start < len(stored)
        and start < len(order)
        and (stored[start][1], stored[start][2]) == (order[start][0], order[start][2])
    ):
        start += 1  # fmt: skip
    if start == len(order) and len(stored) == len(order):
        return {"periods": len(order), "rerated_from": None,
                "players": store.scalar("count_ratings")}  # fmt: skip
    states: dict[str, PlayerState] = {}
    for p, rating, weight, boards, idx, w, w2, s1, s2 in store.tuples("rating_states_before",
                                                                      start=start):  # fmt: skip
        states[p] = PlayerState(rating, weight, boards, idx, w, w2, s1, s2)
    todo = [ev for ev, _, _ in order[start:]]
    labels = {start + i: ev for i, ev in enumerate(todo)}
    with store.transaction():  # all periods or none
        store.run("delete_rating_history_from", start=start)
        store.run("delete_rating_periods_from", start=start)
        final, first = states, 0
        for chunk in period_chunks(todo, dict(store.tuples("rating_event_results"))):
            boards_of = period_boards(store, chunk, params)
            final, history = rate_periods([(ev, boards_of[ev]) for ev in chunk], params, final,
                                          start + first)  # fmt: skip
            first += len(chunk)
            _insert(store, "rating_history", history, HISTORY_COLUMNS, pl)
        _insert(store, "rating_periods", [{"period_index": start + i, "event": ev, "date": d,
                                           "content_hash": h} for i, (ev, d, h) in
                                          enumerate(order[start:])],
                ["period_index", "event", "date", "content_hash"], pl)  # fmt: skip
        all_labels = dict(store.tuples("rating_period_labels"))
        all_labels.update(labels)
        store.run("delete_ratings")
        _insert(store, "ratings", (_state_row(p, s, s.last_period, all_labels.get(s.last_period, ""))
                                   for p, s in sorted(final.items())), RATINGS_COLUMNS, pl)  # fmt: skip
    return {"periods": len(order), "rerated_from": order[start][0] if start < len(order) else None,
            "rerated_periods": len(order) - start, "players": len(final)}  # fmt: skip


def period_chunks(periods: Sequence[str], results: dict[str, int]) -> list[list[str]]:
    """Periods in order, cut into chunks of at most PERIODS_PER_READ periods and about
    RESULTS_PER_READ results (a larger period is a chunk of its own): a chunk is read at once."""
    chunks: list[list[str]] = []
    size = RESULTS_PER_READ
    for ev in periods:
        n = results.get(ev) or 0
        if not chunks or len(chunks[-1]) >= PERIODS_PER_READ or size + n > RESULTS_PER_READ:
            chunks.append([])
            size = 0
        chunks[-1].append(ev)
        size += n
    return chunks


def _insert(store: Store, table: str, rows: Iterable[Row], columns: Sequence[str], pl: Any) -> None:
    """`rows` (a list or a stream) a chunk of 5,000 at a time: the frame's types are inferred
    from each chunk's rows, and the table's columns cast them as they would one frame's."""
    it = iter(rows)
    while chunk := [{c: r.get(c) for c in columns} for r in islice(it, 5_000)]:
        store.insert_frame(table, pl.DataFrame(chunk, infer_schema_length=None))


def ratings_rows(store: Store) -> Iterator[Row]:
    """The current ratings, best first: what ratings.csv holds (read a batch at a time: an
    archive rates tens of thousands of players)."""
    for rows in store.batches("ratings_csv", size=10_000):
        yield from rows


def rating_table(store: Store, limit: int = 25, min_boards: int = 30) -> list[Row]:
    """The top of the rating table, for the run summary and its Prefect artifact."""
    return store.rows("rating_table", limit=int(limit), min_boards=int(min_boards))


def lehman_params(settings: Any) -> LehmanParams:
    """The Lehman constants of a run's settings (`PipelineSettings.lehman_*`)."""
    return LehmanParams(
        start_rating=settings.lehman_start_rating,
        start_weight=settings.lehman_start_weight,
        history_weight=settings.lehman_history_weight,
        max_weight=settings.lehman_max_weight,
        min_ante=settings.lehman_min_ante,
        imp_top=settings.lehman_imp_top,
    )
