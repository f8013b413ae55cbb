"""Stage `mistake costs`: each DD mistake of the scored results, valued in the event's own units.

Runs after scoring (it needs each board's other results) and after the DD analysis (it needs the
traces and tables): for every event whose scores, traces or DD tables changed since it last ran,
it analyses each table (`ddrank.mistakes.costs`), values each mistake against the board's other
results by the event's own scoring rules, and keeps one row per mistake and player charged in
`mistake_costs` (sql/mistakes_schema.sql). The site's player pages and `ddrank player` read the
same rows, so the terminal and the pages show the same figures. A store without DD analysis
costs one query.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from ddrank.dd.tables import TrickTable
from ddrank.mistakes.costs import Mistake, Table, board_fields, board_valuer, table_costs, unit_of
from ddrank.scoring.arithmetic.boards import field_key, field_sizes
from ddrank.types import Auction, Call, Card, Contract, DomainError, Seat, Strain
from stages.seats import read_who, seat_identities
from store import Store

Row = dict[str, Any]
COLUMNS = ("record_id", "event", "board", "deal_id", "player", "seat", "side", "kind",
           "category", "trick", "position", "card_index", "card", "call_index", "call", "what",
           "instead", "tricks", "dd_points", "cost", "unit", "basis")  # fmt: skip


def cost_mistakes(store: Store) -> dict[str, Any]:
    """The stage's entry point: (re)value the mistakes of every event whose inputs changed."""
    import polars as pl

    if not store.scalar("any_dd_analysis"):
        return {"events": 0, "mistakes": 0, "skipped": "no DD analysis in the store"}
    done = dict(store.tuples("mistake_event_done"))
    inputs = dict(store.tuples("mistake_event_inputs"))
    todo = sorted(ev for ev, key in inputs.items() if done.get(ev) != key)
    gone = sorted(set(done) - set(inputs))  # events no longer scored
    if not todo and not gone:
        return {"events": 0, "mistakes": 0, "unchanged": len(inputs),
                "players re-keyed": rekey_players(store)}  # fmt: skip
    rows = cost_rows(store, todo) if todo else []
    with store.transaction():
        store.run("delete_mistake_costs", events=todo + gone)
        store.run("delete_mistake_cost_events", events=todo + gone)
        _insert(store, rows)
        store.insert_rows("mistake_cost_events",
                          [{"event": ev, "inputs": inputs[ev]} for ev in todo],
                          {"event": pl.String, "inputs": pl.String})  # fmt: skip
    return {"events": len(todo), "mistakes": len(rows), "unchanged": len(inputs) - len(todo)}


def rekey_players(store: Store) -> int:
    """Charge each stored mistake to the seat's player as the seats key them now.

    A cost depends on the cards, not on who held them, so when only who sat where changed (names
    matched again, a seat renamed) the skipped events' rows are re-keyed, never re-valued: without
    this the player's page and `ddrank player` would lose those mistakes to the old key.
    """
    if not store.scalar("any_mistake_costs"):
        return 0
    read_who(store)
    return len(store.tuples("rekey_mistake_players"))


def cost_rows(store: Store, events: list[str]) -> list[Row]:
    """The mistake rows of `events`: one per mistake and player charged."""
    from stages.scoring import load_store

    tables = store.rows("mistake_tables", events=events)
    if not tables:
        return []
    loaded = load_store(store)
    infos = loaded.infos()
    scoring = {ev: (sc, method, top) for ev, sc, method, top in store.tuples("mistake_scoring")}
    wanted = set(events)
    by_event: dict[str, list] = defaultdict(list)
    for r in loaded.results:
        if r.event in wanted:
            by_event[r.event].append(r)
    valuers: dict[str, Any] = {}
    units: dict[str, str] = {}
    for ev, results in by_event.items():
        kind, method, top = scoring.get(ev, ("", "neuberg", None))
        info = replace(infos[ev], scoring=kind or infos[ev].scoring, mp_top=top)
        units[ev] = unit_of(info)
        sizes = field_sizes(results, info.across_field)
        fields = board_fields(results, info)
        for r in results:
            size = sizes.get(field_key(r, info.across_field)[:3])
            valuers[r.record_id] = board_valuer(r, fields[r.record_id], info,
                                                method or "neuberg", size)  # fmt: skip
    dd = dd_tables(store.tuples("mistake_dd_tables", events=events))
    seated, _ = seat_identities(store)
    players: dict[str, list[str | None]] = defaultdict(lambda: [None] * 4)
    for record_id, seat, player in seated:
        players[record_id][seat] = player
    out: list[Row] = []
    for row in tables:
        table = table_of(row, dd.get(row["deal_id"]))
        if table is None:
            continue
        value = valuers.get(row["record_id"], lambda _s: None)
        for m in table_costs(table, value):
            out += mistake_rows(row, m, players[row["record_id"]], units.get(row["event"], ""))
    return out


def dd_tables(cells: Iterable[tuple]) -> dict[str, TrickTable]:
    """deal_id -> its DD table (only deals with all 20 cells)."""
    values: dict[str, list[int]] = defaultdict(lambda: [-1] * 20)
    for deal_id, strain, declarer, tricks in cells:
        values[deal_id][int(Strain.parse(strain)) * 4 + int(Seat.parse(declarer))] = int(tricks)
    return {d: TrickTable(tuple(v)) for d, v in values.items() if min(v) >= 0}


def table_of(row: Row, dd: TrickTable | None) -> Table | None:
    """A store row as `ddrank.mistakes.costs.Table` (None when its contract cannot be read)."""
    text, declarer = (row.get("contract") or "").strip(), row.get("declarer")
    passed = text == "P"
    contract = None
    try:
        if text and not passed and declarer:
            contract = Contract.parse(text, declarer=Seat.parse(declarer))
        auction = None
        if row.get("auction") and row.get("bidstart"):
            auction = Auction(Seat.parse(row["bidstart"]),
                              tuple(Call.parse(t) for t in str(row["auction"]).split()))  # fmt: skip
        play, seats = row.get("play") or [], row.get("play_seats") or []
        cards = [Card.parse(c) for c in play] if len(play) == len(seats) else []
    except DomainError:
        return None
    if contract is None and not passed:
        return None
    return Table(contract, row.get("result"), bool(row.get("ns_vulnerable")),
                 bool(row.get("ew_vulnerable")), int(row.get("year") or 0), auction, dd,
                 cards, [Seat(int(s)) for s in seats] if cards else [],
                 row.get("trace") if cards else None, row.get("claim_tricks"), passed)  # fmt: skip


def mistake_rows(row: Row, m: Mistake, players: list[str | None], unit: str) -> list[Row]:
    """One row per player charged with `m`."""
    out = []
    for seat in m.seats:
        out.append({
            "record_id": row["record_id"], "event": row["event"], "board": row["board"],
            "deal_id": row["deal_id"], "player": players[int(seat)], "seat": seat.letter,
            "side": "NS" if seat.is_ns else "EW", "kind": m.kind, "category": m.category,
            "trick": m.trick, "position": m.position, "card_index": m.card_index, "card": m.card,
            "call_index": m.call_index, "call": m.call, "what": m.what, "instead": m.instead,
            "tricks": m.tricks, "dd_points": m.dd_points, "cost": m.cost,
            "unit": unit if m.cost is not None else None, "basis": m.basis,
        })  # fmt: skip
    return out


def _insert(store: Store, rows: list[Row]) -> None:
    import polars as pl

    if rows:
        schema = {c: pl.String for c in COLUMNS}
        schema.update({c: pl.Int32 for c in ("trick", "position", "card_index", "call_index",
                                              "tricks")})  # fmt: skip
        schema.update({"dd_points": pl.Float64, "cost": pl.Float64})
        store.insert_frame("mistake_costs", pl.DataFrame(rows, schema=schema))


def player_mistakes(store: Store, player: str, top: int = 5) -> list[Row]:
    """A player's `top` costliest mistakes (`ranked_mistakes`), costliest first."""
    return store.rows("player_mistakes", player=player, top=top)
