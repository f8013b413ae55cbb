"""Who sat where, keyed as every reader of the store keys players (the site, the mistake costs,
the terminal's lookups). Light: the store and one naming rule, nothing else.

A seat's player is the matched ranking name, else `id:<source id>` when the source gives one
(`Markus Knob#39415` -> `id:39415`), else the name as written: as the scoring stage identifies
seats (`ddrank.scoring.intake.identity`), so ratings join. Placeholders and labels are nobody. The rule
runs once per distinct (matched name, raw name, source id), a few hundred in a store of
thousands of boards; DuckDB joins the result back to the seats (`site_who`).
"""

from __future__ import annotations

from ddrank.scoring.intake.identity import is_placeholder, is_seat_label, side_label, split_name_id
from store import Store


def player_of(matched: str | None, raw: str | None, source_id: object,
              labels: frozenset[str] = frozenset()) -> tuple[str, str]:  # fmt: skip
    """(player key, name to show) of a seat; ('', '') for a seat nobody holds as a player: an
    empty seat, a placeholder ("Dummy 1#", a robot), a seat label ("N1") or a pair label a side
    writes at both its seats (`labels`: ddrank.scoring.intake.identity, as scoring identifies seats)."""
    name, pid = split_name_id((raw or "").strip(), str(source_id or "").strip())
    if (
        (raw or "").strip() in labels
        or is_placeholder(name)
        or any(is_seat_label(name, seat) for seat in range(4))
    ):
        return ("", "")
    player = matched or (f"id:{pid}" if pid else name)
    # a seat known only by its source's number shows that number, never the store's key
    shown = matched or name or (f"Player {pid}" if pid else player)
    return (player, shown) if player else ("", "")


def read_who(store: Store) -> dict[str, str]:
    """Make `site_who(record_id, seat, player)` a temporary table of the store's connection, for
    the queries that join it (`site_player_totals`, the lookups), and return player -> name to
    show (the name of its most played seat key)."""
    store.run("make_seat_ids")
    keys = store.tuples("seat_keys")
    pair_labels = frozenset(name for (name,) in store.tuples("side_label_names")
                            if side_label(name, name))  # fmt: skip
    players, labels = [], {}
    for matched, raw, sid, _boards in keys:
        player, label = player_of(matched, raw, sid, pair_labels)
        players.append(player or None)
        if player:
            labels.setdefault(player, label)
    store.run("make_site_who", matched=[k[0] for k in keys], raw_names=[k[1] for k in keys],
              source_ids=[None if k[2] is None else str(k[2]) for k in keys],
              players=players)  # fmt: skip
    return labels


def seat_identities(store: Store) -> tuple[list[tuple[str, int, str]], dict[str, str]]:
    """(record_id, seat, player) of every seated player, and player -> name to show."""
    labels = read_who(store)
    return [(r, int(s), p) for r, s, p in store.tuples("site_who_rows")], labels
