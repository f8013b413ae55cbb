"""Who sat where, keyed as every reader of the store keys players (the site, the mistake costs,
the terminal's lookups). Light: the store and one naming rule, nothing else."""

from __future__ import annotations

from ddrank.scoring.records import split_name_id
from store import Store


def seat_identities(store: Store) -> tuple[list[tuple[str, int, str]], dict[str, str]]:
    """(record_id, seat, player) of every seated player, and player -> name to show.

    A seat's player is the matched ranking name (or the raw name where the list does not cover
    the event: the `board_players` view), else `id:<source id>` when the source gives one
    (`Markus Knob#39415` -> `id:39415`), else the name as written. The site's pages, the mistake
    costs and the terminal's lookups all key players so."""
    seated: list[tuple[str, int, str]] = []
    labels: dict[str, str] = {}
    for record_id, seat, matched, raw, sid in store.tuples("site_board_seats"):
        name, pid = split_name_id((raw or "").strip(), str(sid or "").strip())
        player = matched or (f"id:{pid}" if pid else name)
        if not player:
            continue
        seated.append((record_id, int(seat), player))
        labels.setdefault(player, matched or name or player)
    return seated, labels


def read_who(store: Store) -> dict[str, str]:
    """Make `site_who(record_id, seat, player)` (`seat_identities`) a temporary table of the
    store's connection, for the queries that join it (`site_player_totals` ...), and return
    player -> name to show. Built from parameter lists: registering an Arrow table would make
    DuckDB import pandas (a second or more)."""
    seated, labels = seat_identities(store)
    store.run("register_site_who", record_ids=[r for r, _, _ in seated],
              seats=[s for _, s, _ in seated], players=[p for _, _, p in seated])  # fmt: skip
    return labels
