"""Table results, the unit every tournament comparison works on, and their validation.

A board is compared only among tables that played the same cards; a fouled board is several
groups of such tables under one board number. Records that cannot be scored are returned as
`RecordError`s naming their source, never silently dropped, so the rest of a field still scores.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ddrank.raw import PLACE_FIELDS, place_of, place_text  # noqa: F401 - place_of is used from here
from ddrank.scoring.arithmetic.duplicate import duplicate_score
from ddrank.types import Contract, DomainError, Seat

#: The standard 16-board vulnerability cycle (board 1 = None, 2 = NS, ...), repeated every 16.
_VUL_CYCLE = (
    "-",
    "NS",
    "EW",
    "B",
    "NS",
    "EW",
    "B",
    "-",
    "EW",
    "B",
    "-",
    "NS",
    "B",
    "-",
    "NS",
    "EW",
)


#: A message that starts with the line it is about: "line 47: OptimumScore '100' is not ...".
_LINE_SAID = re.compile(r"^line (\d+): ")


@dataclass(frozen=True, slots=True)
class RecordError:
    """Why one input record was left out (or, `kind` "missing", which record the movement expects
    and the file lacks), with where it came from: the file, its 1-based line, and the record's
    place as the source gives it (event, session, section, round, table, board; "" unknown)."""

    source: str
    line: int | None
    message: str
    event: str = ""
    session: str = ""
    section: str = ""
    round: str = ""
    table: str = ""
    board: str = ""
    # "left out" | "missing" (a traveller line the movement expects) | "note" | "unreadable" (a
    # whole file no reader takes)
    kind: str = "left out"

    @property
    def place(self) -> str:
        """'section A, round 3, table 2, board 10': the record as a director finds it."""
        return place_text({n: getattr(self, n) for n in PLACE_FIELDS})

    def __str__(self) -> str:
        """'x.pbn:47: section A, board 11: why'. A reader's message that names the line it
        failed at ("line 47: ...", a tag inside a game that starts at line 40) gives that line,
        once: never 'x.pbn:40: ...: line 47: why'."""
        line, message = self.line, self.message
        if said := _LINE_SAID.match(message):
            line, message = int(said.group(1)), message[said.end() :]
        where = f"{self.source}:{line}" if line is not None else self.source
        place = self.place
        return f"{where}: {place}: {message}" if place else f"{where}: {message}"


@dataclass(frozen=True, slots=True)
class TableResult:
    """One table's result on one board, with the four players and the vulnerability."""

    board: str  # tables with equal `board` are compared (same event, same board number)
    deal: str  # tables with equal `board` but different `deal` played a fouled board
    table: str  # a unique label of the record, e.g. "scores.txt:12" or a record_id
    names: tuple[str, str, str, str]  # indexed by Seat
    contract: Contract | None  # None: passed out; contract.declarer is set otherwise
    tricks: int  # declarer's tricks (0 when passed out)
    ns_vulnerable: bool
    ew_vulnerable: bool
    period: str = ""  # rating period (round, week, event) the board belongs to
    year: int = 0
    source: str = ""
    line: int | None = None

    @property
    def passed_out(self) -> bool:
        return self.contract is None

    @property
    def declarer(self) -> Seat | None:
        return self.contract.declarer if self.contract else None

    @property
    def ns_score(self) -> int:
        """North-South's duplicate score: comparisons are always made in one direction."""
        if self.contract is None:
            return 0
        assert self.contract.declarer is not None
        ns_declares = self.contract.declarer.is_ns
        vul = self.ns_vulnerable if ns_declares else self.ew_vulnerable
        score = duplicate_score(self.contract, self.tricks, vul, self.year)
        return score if ns_declares else -score

    @property
    def ns_pair(self) -> tuple[str, str]:
        return self.names[Seat.N], self.names[Seat.S]

    @property
    def ew_pair(self) -> tuple[str, str]:
        return self.names[Seat.E], self.names[Seat.W]


def board_vulnerability(board_number: int) -> tuple[bool, bool]:
    """(NS, EW) vulnerability of a board number under the standard 16-board cycle."""
    v = _VUL_CYCLE[(board_number - 1) % 16]
    return v in ("NS", "B"), v in ("EW", "B")


def parse_vulnerability(text: str) -> tuple[bool, bool]:
    """(NS, EW) from a PBN [Vulnerable] value: None/-, NS, EW, All/Both."""
    t = text.strip().upper()
    if t in ("NONE", "-", "LOVE", "O"):
        return False, False
    if t == "NS":
        return True, False
    if t == "EW":
        return False, True
    if t in ("ALL", "BOTH", "B"):
        return True, True
    raise DomainError(f"not a vulnerability: {text!r}")


def make_result(
    *,
    board: str,
    deal: str,
    table: str,
    names: tuple[str, str, str, str],
    contract_text: str | None,
    declarer_text: str | None,
    tricks: int | str | None,
    ns_vulnerable: bool | None,
    ew_vulnerable: bool | None,
    period: str = "",
    year: int = 0,
    source: str = "",
    line: int | None = None,
) -> TableResult | RecordError:
    """Build a validated TableResult from raw fields, or say exactly what is wrong with them."""

    def error(message: str) -> RecordError:
        return RecordError(source or table, line, f"board {board}: {message}")

    if contract_text is None or not str(contract_text).strip():
        return error("missing contract")
    if ns_vulnerable is None or ew_vulnerable is None:
        return error("unknown vulnerability")
    if any(not n or not n.strip() for n in names):
        return error("a seat has no player name")
    text = str(contract_text).strip().upper()
    if text in ("P", "PASS", "AP", "ALLPASS", "PASSED OUT"):
        return TableResult(
            board, deal, table, names, None, 0, ns_vulnerable, ew_vulnerable, period, year,
            source, line,
        )  # fmt: skip
    try:
        declarer = Seat.parse(declarer_text or "")
    except DomainError:
        return error(f"contract {text} has no valid declarer ({declarer_text!r})")
    try:
        contract = Contract.parse(text, declarer)
    except DomainError:
        return error(f"impossible contract {contract_text!r}")
    if tricks is None or (isinstance(tricks, str) and not tricks.strip()):
        return error(f"{text} by {declarer.letter}: missing result (trick count)")
    try:
        t = int(tricks)
    except ValueError:
        return error(f"{text} by {declarer.letter}: trick count {tricks!r} is not a number")
    if not 0 <= t <= 13:
        return error(f"{text} by {declarer.letter}: impossible trick count {t} (must be 0..13)")
    return TableResult(
        board, deal, table, names, contract, t, ns_vulnerable, ew_vulnerable, period, year,
        source, line,
    )  # fmt: skip


def group_boards(
    results: Iterable[TableResult],
) -> tuple[dict[str, list[list[TableResult]]], list[RecordError]]:
    """Boards -> groups of tables that played the same deal, rejecting duplicate tables.

    A duplicate table is a player who appears twice on the same board (the same result typed in
    twice, or two records claiming the same seat): the later record is reported and left out,
    because counting it would give that player two scores on one board.
    """
    seen: dict[tuple[str, str], TableResult] = {}
    by_board: dict[str, dict[str, list[TableResult]]] = defaultdict(lambda: defaultdict(list))
    errors: list[RecordError] = []
    for r in results:
        clash = next((seen[(r.board, n)] for n in r.names if (r.board, n) in seen), None)
        if clash is not None:
            where = f"{clash.source}:{clash.line}" if clash.line is not None else clash.table
            errors.append(
                RecordError(
                    r.source or r.table,
                    r.line,
                    f"board {r.board}: duplicate table, a player already has a result on this "
                    f"board at {where}",
                )
            )
            continue
        for n in r.names:
            seen[(r.board, n)] = r
        by_board[r.board][r.deal].append(r)
    return {b: list(groups.values()) for b, groups in by_board.items()}, errors


def pair_label(pair: Sequence[str]) -> str:
    """'NAME1 - NAME2', the two names in a fixed (sorted) order so a pair has one label."""
    a, b = sorted(pair)
    return f"{a} - {b}"


def resolve_names(
    ids: Sequence[str], names: Mapping[str, str]
) -> tuple[tuple[str, str, str, str] | None, str | None]:
    """Map four player ids to names; the error says which ids are unknown."""
    missing = [i for i in ids if i not in names]
    if missing:
        return None, f"unknown player id(s) {', '.join(missing)}"
    return tuple(names[i] for i in ids), None  # type: ignore[return-value]


class PairTotals(Protocol):
    """Running sums of one pair or player: `add` one table from a side, `row` per board."""

    def add(self, item: Any, side_ns: bool) -> None: ...

    def row(self, label: str) -> dict[str, float | int | str]: ...


def per_board_row(
    label: str, boards: int, sums: Mapping[str, float]
) -> dict[str, float | int | str]:
    """A pair's or player's row: its boards and each sum divided by them."""
    b = boards or 1
    return {"players": label, "boards": boards, **{k: v / b for k, v in sums.items()}}


def by_pair_and_player(
    items: Iterable[Any], totals: Callable[[], PairTotals]
) -> tuple[list[dict[str, float | int | str]], list[dict[str, float | int | str]]]:
    """Per-pair and per-player averages per board of table measures (`item.result` a table).

    Each table counts for its North-South pair (and both players) and, from the other side, for
    its East-West pair; a pair is labelled by `pair_label`, a player by name.
    """
    sums = PairAndPlayerSums(totals)
    sums.add(items)
    return sums.rows()


class PairAndPlayerSums:
    """`by_pair_and_player`'s running sums, added to a batch of tables at a time (in the order
    one pass would add them, so the sums are the same to the last bit)."""

    def __init__(self, totals: Callable[[], PairTotals]) -> None:
        self.pairs: dict[str, PairTotals] = defaultdict(totals)
        self.players: dict[str, PairTotals] = defaultdict(totals)

    def add(self, items: Iterable[Any]) -> None:
        pairs, players = self.pairs, self.players
        for s in items:
            for side_ns, pair in ((True, s.result.ns_pair), (False, s.result.ew_pair)):
                pairs[pair_label(pair)].add(s, side_ns)
                for name in pair:
                    players[name].add(s, side_ns)

    def rows(self) -> tuple[list[dict[str, float | int | str]], list[dict[str, float | int | str]]]:
        return (
            [t.row(k) for k, t in sorted(self.pairs.items())],
            [t.row(k) for k, t in sorted(self.players.items())],
        )
