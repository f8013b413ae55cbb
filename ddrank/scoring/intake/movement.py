"""Traveller lines the movement expects and the file lacks.

A file rarely states its movement, but it shows it: in each round two pairs meet and play a set of
boards that always travel together (boards 1-3, 4-6, ...). So the board sets are read from the
file itself, as the boards that most meetings play together, and a meeting that played part of a
set without the rest is missing those lines, unless one of its pairs played the board elsewhere.
In a teams match each board is played in both rooms: a board with one room's line, in a match
whose other boards have both, is missing the other room's.

Nothing is invented: a missing line is reported (errors.csv, the event page), never scored.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Sequence

from ddrank.scoring.intake.identity import is_seat_label
from ddrank.scoring.intake.results import RecordError
from ddrank.scoring.model import EventResult


def _board_order(board: str) -> tuple[int, str]:
    return (int(board), board) if board.isdigit() else (10**9, board)


def _who(r: EventResult) -> tuple[str, ...]:
    """Who meets at the table: the two pair numbers (or labels), else the four players (an
    individual event changes partners inside a round, so its players, not its pairs, meet).
    Seat labels (`N22` at North: a line of the traveller, not a person) say nobody."""
    if r.ns_pair and r.ew_pair:
        return (r.ns_pair, r.ew_pair) if r.ns_pair != r.ew_pair else ()
    names = tuple(n for seat, n in enumerate(r.names) if n and not is_seat_label(n, seat))
    return names if len(set(names)) == len(names) >= 2 else ()


def line_key(event: str, session: str, section: str, board: str,
             who: Iterable[str]) -> tuple[str, ...]:  # fmt: skip
    """One board played by whoever met (pair numbers, or players): a line read."""
    return (event, session, section, board, *sorted(w for w in who if w))


def missing_lines(results: Iterable[EventResult],
                  read: Collection[tuple[str, ...]] = ()) -> list[RecordError]:  # fmt: skip
    """Every traveller line the file's own movement expects and no record holds (`read`: the
    `line_key`s of records read and left out, which are not missing: errors.csv has them)."""
    fields: dict[tuple[str, str, str], list[EventResult]] = defaultdict(list)
    matches: dict[tuple[str, str, str], list[EventResult]] = defaultdict(list)
    for r in results:
        if r.home_team or r.visit_team:
            matches[(r.event, r.session, r.match)].append(r)
        else:
            fields[(r.event, r.session, r.section)].append(r)
    out: list[RecordError] = []
    for rs in fields.values():
        out += _missing_in_field(rs, read)
    for rs in matches.values():
        out += _missing_in_match(rs)
    return out


def _missing_in_field(rs: Sequence[EventResult],
                      read: Collection[tuple[str, ...]] = ()) -> list[RecordError]:  # fmt: skip
    """Lines missing from one section's movement (see the module's docstring)."""
    # a meeting: who sat at one table in one round (a Howell's pairs meet once)
    meetings: dict[tuple[str, frozenset[str]], dict[str, EventResult]] = defaultdict(dict)
    played: dict[str, set[str]] = defaultdict(set)
    for r in rs:
        who = _who(r)
        if not who:
            continue
        meetings[(r.round, frozenset(who))].setdefault(r.board, r)
        for w in who:
            played[w].add(r.board)
    together: Counter[tuple[str, str]] = Counter()
    for boards in meetings.values():
        for b in boards:
            for c in boards:
                together[(b, c)] += 1

    def one_set(b: str, c: str) -> bool:  # most meetings that play one play the other
        most = max(together[(b, b)], together[(c, c)])
        return together[(b, c)] >= 2 and 2 * together[(b, c)] > most

    every = sorted({b for boards in meetings.values() for b in boards}, key=_board_order)
    out: list[RecordError] = []
    for (rnd, who), boards in meetings.items():
        first = next(iter(boards.values()))
        for c in every:
            if c in boards or any(c in played[w] for w in who):
                continue
            if line_key(first.event, first.session, first.section, c, who) in read:
                continue  # read and left out (errors.csv says why), not missing
            same = sorted((b for b in boards if one_set(b, c)), key=_board_order)
            if same:
                shown = ", ".join(same[:6]) + (
                    f" and {len(same) - 6} more" if len(same) > 6 else ""
                )
                when = f" in round {rnd}" if rnd else ""
                ns = first.ns_pair or first.ns_players
                ew = first.ew_pair or first.ew_players
                out.append(_missing(first, c, f"no traveller line of board {c} for NS {ns} v "
                                              f"EW {ew}: they played board {shown} of the "
                                              f"same set{when}"))  # fmt: skip
    return out


def _missing_in_match(rs: Sequence[EventResult]) -> list[RecordError]:
    """Boards of a teams match with one room's line where the match's other boards have two."""
    by_board: dict[str, list[EventResult]] = defaultdict(list)
    for r in rs:
        by_board[r.board].append(r)
    if not any(len(v) >= 2 for v in by_board.values()):
        return []  # a match read from one room only: nothing to expect
    out = []
    for board in sorted(by_board, key=_board_order):
        (r, *more) = by_board[board]
        if not more:
            room = f" ({r.room or 'table ' + r.table} has one)" if r.room or r.table else ""
            out.append(_missing(r, board, f"the other room's traveller line of board {board} "
                                          f"in {r.match} is missing{room}", table=""))  # fmt: skip
    return out


def _missing(like: EventResult, board: str, message: str, table: str | None = None) -> RecordError:
    """A missing line, placed where its round's other lines are (their file, round, table)."""
    return RecordError(like.source or "scoring", None, message, like.event, like.session,
                       like.section, like.round, like.table if table is None else table, board,
                       kind="missing")  # fmt: skip
