"""The store's table results, a batch of whole events at a time (issue 31): the scoring stage
holds one batch in memory, not a federation's archive."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence

from ddrank.scoring.intake.records import event_label
from stages.scoring import Loaded, cut, loaded_rows, matched_players
from store import Store

#: Table results scored per batch of whole events (`load_store_batches`): bounded memory.
BATCH_RESULTS = 20_000


def load_store_batches(store: Store, batch: int | None = None) -> Iterator[Loaded]:
    """The store's clean table results a few whole events at a time (about `batch` results per
    batch, one read each; an event is never split), so that scoring a federation's archive holds
    one batch of results in memory, not all of them. The records cleaning left out
    (`excluded`) are the caller's to add, once."""
    matched, facts = matched_players(store), store.rows("event_facts")
    standings = store.rows("published_standings")
    for names in event_batches(store.tuples("scoring_event_sizes"), batch or BATCH_RESULTS):
        rows = store.rows("scoring_boards", events=names)
        yield loaded_rows(store, rows, matched, facts, standings)


def event_groups(sizes: Iterable[Sequence]) -> list[tuple[list[str], int]]:
    """Event names whose rows share an event (`event_label`: the same event id or name and day),
    grouped, with the group's results: (sorted names, results), in the order of the names."""
    owner: dict[str, str] = {}  # event label or name -> the name that stands for its group

    def root(x: str) -> str:
        while owner.setdefault(x, x) != x:
            x = owner[x]
        return x

    count: dict[str, int] = defaultdict(int)
    for name, event_id, day, year, n in (tuple(s)[:5] for s in sizes):
        label = event_label({"event": name, "event_id": event_id, "date": day, "year": year})
        owner[root("label:" + label)] = root("name:" + (name or ""))
        count["name:" + (name or "")] += n
    groups: dict[str, list[str]] = defaultdict(list)
    for key in count:
        groups[root(key)].append(key.removeprefix("name:"))
    return [(members, sum(count["name:" + m] for m in members))
            for members in sorted(groups.values())]  # fmt: skip


def event_batches(sizes: Iterable[tuple], batch: int) -> list[list[str]]:
    """Event names cut into batches of about `batch` results. Names whose rows share an event
    (`event_label`: the same event id or name and day) are kept in one batch."""
    return [[m for members in groups for m in members]
            for groups in cut(event_groups(sizes), batch)]  # fmt: skip
