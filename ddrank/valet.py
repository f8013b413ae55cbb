"""Parser of the Valet text layout (Hein's Valet score data, e.g. the Bermuda Bowl 2013 files).

A directory holds
* `scores.txt`: one table result a line, `round|board|N|E|S|W|contract|declarer|tricks|lead`
  (player ids; contract like `4SX`, `3NXX` or `P`; the lead may be missing);
* `names.txt`: `id|NAME`;
* optionally `hands/roundN.pbn`: the round's deals as PBN tags.

Every function takes text and returns records plus per-record errors naming file and line, so
one bad line never stops the rest of a tournament from being scored. No file I/O here.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from ddrank.parsers.pbn_lines import _unescape
from ddrank.scoring.intake.results import (
    RecordError,
    TableResult,
    board_vulnerability,
    make_result,
    parse_vulnerability,
    resolve_names,
)
from ddrank.types import Deal, Seat

_TAG = re.compile(r'^\[(\w+)\s+"(.*)"\]\s*$')  # its value unescaped (PBN 3.7: \" and \\)


@dataclass(frozen=True, slots=True)
class ValetScore:
    """One line of scores.txt, structurally sound but not yet checked as bridge."""

    round: int
    board: int
    player_ids: tuple[str, str, str, str]  # N, E, S, W
    contract: str
    declarer: str
    tricks: str
    lead: str | None
    source: str
    line: int


@dataclass(frozen=True, slots=True)
class ValetHand:
    """One board of hands/roundN.pbn."""

    round: int
    board: int
    dealer: Seat | None
    ns_vulnerable: bool | None
    ew_vulnerable: bool | None
    deal: Deal
    source: str
    line: int


def parse_names(text: str, source: str = "names.txt") -> tuple[dict[str, str], list[RecordError]]:
    """names.txt -> {id: NAME}; a repeated id keeps the first name and reports the second."""
    names: dict[str, str] = {}
    errors: list[RecordError] = []
    for no, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        parts = line.split("|")
        if len(parts) != 2 or not parts[0].strip() or not parts[1].strip():
            errors.append(RecordError(source, no, f"expected 'id|NAME', got {line!r}"))
            continue
        pid, name = parts[0].strip(), " ".join(parts[1].split())
        if pid in names:
            errors.append(RecordError(source, no, f"player id {pid} repeated ({name!r})"))
            continue
        names[pid] = name
    return names, errors


def parse_scores(
    text: str, source: str = "scores.txt"
) -> tuple[list[ValetScore], list[RecordError]]:
    """scores.txt -> one ValetScore per well-formed line; the bridge checks come later."""
    rows: list[ValetScore] = []
    errors: list[RecordError] = []
    for no, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        parts = [p.strip() for p in line.split("|")]
        if len(parts) not in (9, 10):
            errors.append(
                RecordError(
                    source,
                    no,
                    f"expected 10 fields round|board|N|E|S|W|contract|declarer|tricks|lead "
                    f"(lead optional), got {len(parts)}: missing result?",
                )
            )
            continue
        try:
            rnd, board = int(parts[0]), int(parts[1])
        except ValueError:
            errors.append(
                RecordError(source, no, f"round/board not numbers: {parts[0]!r}|{parts[1]!r}")
            )
            continue
        if rnd < 1 or board < 1:
            errors.append(RecordError(source, no, f"round {rnd} / board {board} must be >= 1"))
            continue
        ids = (parts[2], parts[3], parts[4], parts[5])
        lead = parts[9] if len(parts) == 10 and parts[9] else None
        rows.append(ValetScore(rnd, board, ids, parts[6], parts[7], parts[8], lead, source, no))
    return rows, errors


def parse_hands(
    text: str, round_no: int, source: str = "hands.pbn"
) -> tuple[list[ValetHand], list[RecordError]]:
    """A round's PBN file -> its boards (Board, Dealer, Vulnerable, Deal tags)."""
    hands: list[ValetHand] = []
    errors: list[RecordError] = []
    tags: dict[str, str] = {}
    start = 0

    def flush() -> None:
        if not tags:
            return
        try:
            board = int(tags.get("Board", ""))
            deal = Deal.from_pbn(tags["Deal"])
            dealer = Seat.parse(tags["Dealer"]) if tags.get("Dealer") else None
            vul = parse_vulnerability(tags["Vulnerable"]) if "Vulnerable" in tags else (None, None)
        except (KeyError, ValueError) as exc:  # DomainError is a ValueError
            errors.append(RecordError(source, start, f"unusable board: {exc}"))
            return
        hands.append(ValetHand(round_no, board, dealer, vul[0], vul[1], deal, source, start))

    for no, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        m = _TAG.match(line)
        if not m:
            continue
        if m.group(1) == "Board":
            flush()
            tags, start = {}, no
        tags[m.group(1)] = _unescape(m.group(2))
    flush()
    return hands, errors


def table_results(
    scores: list[ValetScore],
    names: Mapping[str, str],
    hands: Mapping[tuple[int, int], ValetHand] | None = None,
    event: str = "",
    year: int = 0,
) -> tuple[list[TableResult], list[RecordError]]:
    """Check each score line as bridge and attach names and vulnerability.

    Vulnerability comes from the round's PBN when there is one, else from the standard 16-board
    cycle (the women's 2013 files have no hands). Boards are keyed by round and board number, so
    only tables that played the same deal are compared.
    """
    out: list[TableResult] = []
    errors: list[RecordError] = []
    hands = hands or {}
    for s in scores:
        resolved, problem = resolve_names(s.player_ids, names)
        if resolved is None:
            errors.append(
                RecordError(s.source, s.line, f"round {s.round} board {s.board}: {problem}")
            )
            continue
        hand = hands.get((s.round, s.board))
        if hand is not None and hand.ns_vulnerable is not None:
            ns_vul, ew_vul = hand.ns_vulnerable, hand.ew_vulnerable
        else:
            ns_vul, ew_vul = board_vulnerability(s.board)
        board_key = f"{event}R{s.round:02d}B{s.board:02d}"
        result = make_result(
            board=board_key,
            deal=hand.deal.deal_id if hand is not None else board_key,
            table=f"{s.source}:{s.line}",
            names=resolved,
            contract_text=s.contract,
            declarer_text=s.declarer,
            tricks=s.tricks,
            ns_vulnerable=ns_vul,
            ew_vulnerable=ew_vul,
            period=f"{s.round:02d}",
            year=year,
            source=s.source,
            line=s.line,
        )
        if isinstance(result, RecordError):
            errors.append(result)
        else:
            out.append(result)
    return out, errors


def round_of_hands_file(filename: str) -> int | None:
    """'round12.pbn' -> 12; None for any other name."""
    m = re.fullmatch(r"round(\d+)\.pbn", filename)
    return int(m.group(1)) if m else None
