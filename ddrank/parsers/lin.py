"""BBO LIN reader (vugraph and hand-record files): text in, raw table results out.

LIN is a flat list of `key|value|` pairs. A vugraph file names the 8 players of both rooms once
(`pn|`, South/West/North/East of the open room, then of the closed room), and each table result
starts with `qx|o12|` (open room, board 12) or `qx|c12|`. Cards are played in true order (`pc|`),
so the play is stored in 'sequence' format; `mc|N|` is a claim of N total tricks for declarer.
"""

from __future__ import annotations

import re

from ddrank.raw import RawRecord, number_repeats

_PAIR = re.compile(r"([a-zA-Z]{2})\|([^|]*)\|")
_LIN_SEAT = {"1": "S", "2": "W", "3": "N", "4": "E"}
_LIN_VUL = {"o": "None", "0": "None", "-": "None", "n": "NS", "e": "EW", "b": "All"}
_RESULT = re.compile(r"^(\d)([CDHSN])([NESW])(X{0,2}|x{0,2})([=+-]\d*)?$", re.IGNORECASE)


def _lin_deal(md: str) -> tuple[str, str]:
    """`md|3S...,H...,...|` → (dealer letter, PBN deal 'S:... W:... N:... E:...')."""
    dealer = _LIN_SEAT.get(md[:1], "")
    hands = md[1:].rstrip(",").split(",") if md else []
    pbn_hands = []
    for hand in hands:
        suits = {"S": "", "H": "", "D": "", "C": ""}
        cur = None
        for ch in hand.upper():
            if ch in suits:
                cur = ch
            elif cur is not None:
                suits[cur] += ch
        pbn_hands.append(".".join(suits[s] for s in "SHDC"))
    if len(pbn_hands) == 3:  # the fourth hand is implied: the cards nobody else holds
        pbn_hands.append(_remaining_hand(pbn_hands))
    if len(pbn_hands) != 4:
        return dealer, ("S:" + " ".join(pbn_hands)) if pbn_hands else ""
    return dealer, "S:" + " ".join(pbn_hands)


def _remaining_hand(hands: list[str]) -> str:
    held = [set(), set(), set(), set()]
    for hand in hands:
        for k, suit in enumerate(hand.split(".")):
            held[k].update(suit)
    return ".".join("".join(r for r in "AKQJT98765432" if r not in held[k]) for k in range(4))


def _result_tricks(rs: str) -> str:
    """'4HE=' → '10', '3NW+1' → '10', '4SWx-4' → '6', 'PASS' → ''."""
    m = _RESULT.match(rs.strip())
    if not m:
        return ""
    level, delta = int(m.group(1)), m.group(5) or "="
    if delta == "=":
        return str(level + 6)
    sign = 1 if delta[0] == "+" else -1
    return str(level + 6 + sign * int(delta[1:] or 0))


def parse_lin(text: str, source_file: str) -> list[RawRecord]:
    """Every table result of a LIN text as a raw record."""
    records: list[RawRecord] = []
    event = stage = home = visit = ""
    names: list[str] = []
    results: list[str] = []
    cur: RawRecord | None = None
    calls: list[str] = []
    cards: list[str] = []
    line_starts = [0]
    for m in re.finditer("\n", text):
        line_starts.append(m.end())

    def lineno(offset: int) -> int:
        lo, hi = 0, len(line_starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if line_starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1

    def finish() -> None:
        if cur is None:
            return
        cur.auction = " ".join(calls)
        cur.play = " ".join(cards)
        if cur.play:
            cur.lead = ""  # implied by the first card's holder; cleaning derives it
        records.append(cur)

    pos = 0
    board_index = 0
    for m in _PAIR.finditer(text):
        gap = text[pos : m.start()].strip()
        if gap and cur is not None and not cur.parse_error:
            cur.parse_error = f"unreadable LIN text {gap[:60]!r} at line {lineno(pos)}"
        pos = m.end()
        key, value = m.group(1).lower(), m.group(2)
        if key == "vg":
            f = value.split(",")
            event = f[0].strip() if f else ""
            stage = f[1].strip() if len(f) > 1 else ""
            home = f[5].strip() if len(f) > 5 else ""
            visit = f[7].strip() if len(f) > 7 else ""
        elif key == "rs":
            results = value.split(",")
        elif key == "pn":
            names = [n.strip() for n in value.split(",")]
        elif key == "qx":
            finish()
            room = {"o": "Open", "c": "Closed"}.get(value[:1].lower(), "")
            offset = 4 if room == "Closed" and len(names) >= 8 else 0
            seat_names = (names + [""] * 8)[offset : offset + 4]  # S, W, N, E
            cur = RawRecord(
                source_file=source_file,
                source_line=lineno(m.start()),
                source_format="lin",
                event=event,
                stage=stage,
                board_no=value[1:] if value[:1].isalpha() else value,
                room=room,
                home_team=home,
                visit_team=visit,
                southname=seat_names[0],
                westname=seat_names[1],
                northname=seat_names[2],
                eastname=seat_names[3],
                play_format="sequence",
                scoring="IMP",
            )
            if board_index < len(results):
                cur.result = _result_tricks(results[board_index])
            board_index += 1
            calls, cards = [], []
        elif cur is None:
            continue
        elif key == "md":
            cur.dealer, cur.deal = _lin_deal(value)
            cur.bidstart = cur.dealer
        elif key == "sv":
            cur.vulnerable = _LIN_VUL.get(value.strip().lower(), value)
        elif key == "mb":
            call = value.strip().upper().rstrip("!")
            calls.append({"D": "X", "DBL": "X", "RDBL": "R"}.get(call, call))
        elif key == "pc":
            cards.append(value.strip().upper())
        elif key == "mc":
            cur.result = value.strip()
    tail = text[pos:].strip()
    if tail and cur is not None and not cur.parse_error:
        cur.parse_error = f"unreadable LIN text {tail[:60]!r} at line {lineno(pos)}"
    finish()
    if not records and text.strip():
        records.append(
            RawRecord(
                source_file, 1, "lin", parse_error="no LIN table result (no qx| or md|) found"
            )
        )
    return number_repeats(records)
