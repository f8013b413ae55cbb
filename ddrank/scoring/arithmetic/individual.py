"""Individual events: each player's own score, and a ranking of players, not pairs.

In an individual every player changes partner from round to round, so a table's two sides are
partnerships of one board only. The board is scored like a pairs board (matchpoints, or IMPs)
between its North-South and East-West results; each player then takes the score of the side they
sat on: North and South the North-South score, East and West the East-West one (a PBN publishes
it per seat, `MP_North` .. `MP_West`). A player's total is the sum over the boards they played,
their percentage that sum over the tops of those boards, and all players form one ranking.

An event is individual when its table results name the four players by their numbers in the
event (PBN `PlayerId_North`.., an XML file's individual traveller lines) and no pair numbers: what the
file says, never a guess from names.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ddrank.scoring.model import EventResult, PairLine, ScoredResult, assign_ranks

SEATS = ("N", "E", "S", "W")


def is_individual(results: Iterable[EventResult]) -> bool:
    """Every real table result names four players by number, and none a pair."""
    real = [r for r in results if r.is_result]
    return bool(real) and all(all(r.player_numbers) and not (r.ns_pair or r.ew_pair) for r in real)


def seat_scores(s: ScoredResult) -> list[tuple[str, str, float, float]]:
    """(player number, name, score, top) of each of the table's four players: the side's
    matchpoints (or IMPs), and the board's top."""
    r = s.result
    ns = s.ns_mp if s.ns_mp is not None else (s.imps or 0.0)
    ew = s.ew_mp if s.ew_mp is not None else (s.ew_imps if s.ew_imps is not None else -ns)
    out = []
    for k, number in enumerate(r.player_numbers):
        name = r.names[k] if k < len(r.names) else ""
        out.append((number, name, ns if k % 2 == 0 else ew, s.top))  # N, S: k 0, 2
    return out


def individual_rankings(scored: Sequence[ScoredResult]) -> list[PairLine]:
    """Per session and over the whole event (when there are several), every player ranked by
    percentage (matchpoints) or total (IMPs); a player is one line: `pair` is the player's
    number, `players` the name."""
    lines: dict[tuple[str, str, str], PairLine] = {}
    sessions = {(s.result.event, s.result.session) for s in scored}
    multi = {ev for ev, _ in sessions if sum(1 for e, _ in sessions if e == ev) > 1}
    for s in scored:
        r = s.result
        for number, name, score, top in seat_scores(s):
            keys = [(r.event, r.session, number)]
            if r.event in multi:
                keys.append((r.event, "", number))
            for key in keys:
                line = lines.get(key) or PairLine(key[0], key[1], "", "", number, name)
                lines[key] = line
                line.add(score, top, name)
    out = list(lines.values())
    assign_ranks(out)
    return sorted(out, key=lambda x: (x.event, x.session == "", x.session, x.rank, x.pair))


def seat_rows(scored: Sequence[ScoredResult]) -> list[dict[str, object]]:
    """One row per player per board: what the store keeps of an individual (`player_results`)."""
    out: list[dict[str, object]] = []
    for s in scored:
        r = s.result
        for seat, (number, name, score, top) in zip(SEATS, seat_scores(s), strict=True):
            out.append({"event": r.event, "session": r.session, "section": r.section,
                        "board": r.board, "record_id": r.record_id, "seat": seat,
                        "player_number": number, "player": name, "score": score,
                        "pct": 100.0 * score / top if top else None})  # fmt: skip
    return out
