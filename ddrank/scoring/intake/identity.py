"""Who sits at a table: players, pair and seat labels, placeholder seats, and the evidence that
one person holds two seats.

Sources name seats in many ways that are not one person per name:

* a **pair label** written at both seats of a side: a number or two joined names (a PBN
  written through PbnTools: `North "Para-11"`, `South "Para-11"`; "Smith & Jones" in both seats);
* a **seat label**: the seat's own letter and a number (`N1`, `E1`: North and East of table 1);
* a **surname only** ("Wu"), which two players at one table may share (a married couple);
* a **placeholder**: a robot, a phantom, a sit-out ("Dummy 1#" on RealBridge, BBO's `~~M59370`).

None of these is evidence that one person sat twice. A table is left out as "one player at two
seats" only on evidence: the same player number at two seats (unless the names there differ: a
guest number shared by two guests), or the same full name (given name and surname) at two seats.
Labels and placeholders are not players: they get no identity, so no player page and no rating.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

SEATS = ("North", "East", "South", "West")

#: Names a scorer or a platform gives a seat nobody holds: phantoms and sit-outs ("Phantom",
#: "Sit out", "Bye"), RealBridge's absent players ("Dummy 1#"), robots ("Robot", GIB, BBO's
#: "~~M59370"), vacant seats.
PLACEHOLDER_NAME = re.compile(
    r"^\s*(dummy\s*\d*\s*#?|phantom\s*\d*|sit[\s-]*out|bye|ghost|vacant|absent|robot\s*\d*|gib|"
    r"~~\w*)\s*$",
    re.IGNORECASE,
)
#: RealBridge and BBO exports write a player as "Name#12345": the number is the player's id.
NAME_WITH_ID = re.compile(r"^(.*\S)\s*#(\d+)$")
#: A seat label: the seat's own letter, then a number ("N1", "E 12").
_SEAT_LABEL = re.compile(r"^\s*([NESW])\s*-?\s*\d+\s*$", re.IGNORECASE)
#: Words and signs that join two people's names into one pair's name.
_JOINERS = frozenset({"-", "&", "/", "+", "and", "und", "et", "og", "och", "i", "y", "e", "en"})
#: Player numbers that stand for nobody in particular (guests, unknown members).
_NO_NUMBER = re.compile(r"^0*$")


def split_name_id(name: str, given_id: str = "") -> tuple[str, str]:
    """('Markus Knob', '39415') from 'Markus Knob#39415'; a given id wins."""
    m = NAME_WITH_ID.match(name)
    if m:
        return m.group(1), given_id or m.group(2)
    return name.rstrip("#").strip(), given_id


def is_placeholder(name: str) -> bool:
    """A robot, phantom, sit-out or absent player: a seat, not a person."""
    return bool(name) and bool(PLACEHOLDER_NAME.match(name))


def is_seat_label(name: str, seat: int) -> bool:
    """'N1' at North, 'E1' at East: the table's seat, not a person."""
    m = _SEAT_LABEL.match(name)
    return bool(m) and m.group(1).upper() == SEATS[seat][0]


def _fold(name: str) -> str:
    return " ".join(name.casefold().split())


def is_full_name(name: str) -> bool:
    """A person's given name and surname: two or more words of letters, no digits, no joiner
    ("Wu" is a surname only; "Para-11", "Smith & Jones", "Kaleta - Parkitny" are not one person)."""
    words = name.split()
    if len(words) < 2 or any(ch.isdigit() for ch in name) or _joined(name):
        return False
    return all(any(ch.isalpha() for ch in w) for w in words)


def _joined(name: str) -> bool:
    """Two people's names joined into one ("Smith & Jones", "Kaleta - Parkitny")."""
    return "&" in name or "/" in name or any(w.casefold() in _JOINERS for w in name.split())


@lru_cache(maxsize=1 << 16)  # pure, and every table of a pair repeats its two names
def side_label(first: str, second: str) -> str:
    """The label a side writes at both its seats ('Para-11', 'Smith & Jones'), else ''.

    A label carries a number or joins two names. The same surname at both seats is two people
    ("Hirsch" and "Hirsch": a married couple); the same full name there is one person seated
    twice (`two_seats`)."""
    same = bool(first) and _fold(first) == _fold(second)
    labelled = any(ch.isdigit() for ch in first) or _joined(first)
    return first.strip() if same and labelled else ""


def two_seats(names: Sequence[str], ids: Sequence[str]) -> str:
    """Why one person holds two seats of this table (the evidence, in words), or ''.

    `names` and `ids` are indexed N, E, S, W; names without their '#id' suffix."""
    return _two_seats(tuple(names), tuple(ids))


@lru_cache(maxsize=1 << 16)  # pure, and the four at a table sit there for several boards
def _two_seats(names: tuple[str, ...], ids: tuple[str, ...]) -> str:
    for i in range(4):
        for j in range(i + 1, 4):
            a, b = ids[i].strip(), ids[j].strip()
            if a and a == b and not _NO_NUMBER.match(a):
                if names[i] and names[j] and _fold(names[i]) != _fold(names[j]):
                    continue  # one number, two people: a shared guest number, not one player
                return f"player number {a} at {SEATS[i]} and {SEATS[j]}"
            n = names[i]
            if is_full_name(n) and _fold(n) == _fold(names[j]) and not is_placeholder(n):
                return f"{n.strip()} at {SEATS[i]} and {SEATS[j]}"
    return ""


def sitting(room: str, home_team: str, visit_team: str, round_: str) -> tuple[str, str]:
    """Where the file's own structure says a table of a board sat: the room of a team match
    (its open and closed rooms are two tables by construction) and the round.

    Two results of one board (one event, session and section) that differ here are two tables,
    whatever names they repeat: a name written at both is an exporter's copy, never evidence of
    one player seated twice. Only results that sit alike can be one table typed twice."""
    return (room.strip().casefold() if home_team or visit_team else "", round_.strip())


def seat_identities(
    names: Sequence[str], ids: Sequence[str], matched: Sequence[str] = ("", "", "", "")
) -> tuple[str, str, str, str]:
    """Each seat's player as ratings and player pages know them, '' for no player.

    The matched ranking-list name, else `id:<number>` where the source numbers its players,
    else the name as written. Labels and placeholders are nobody. Two seats that name matching
    sent to one ranking entry (without evidence in the source) keep their own names.
    """
    return _seat_identities(tuple(names), tuple(ids), tuple(matched))


@lru_cache(maxsize=1 << 16)  # pure, and the four at a table sit there for several boards
def _seat_identities(names: tuple[str, ...], ids: tuple[str, ...], matched: tuple[str, ...]
                     ) -> tuple[str, str, str, str]:  # fmt: skip
    labels = (side_label(names[0], names[2]), side_label(names[1], names[3]))
    out: list[str] = []
    for seat in range(4):
        name, pid = names[seat].strip(), ids[seat].strip()
        if labels[seat % 2] or is_placeholder(name) or is_seat_label(name, seat):
            out.append("")
            continue
        out.append(f"id:{pid}" if pid and not _NO_NUMBER.match(pid) else name)
    chosen = [m if m and out[k] else out[k] for k, m in enumerate(matched)]
    merged = {m for m in chosen if m and chosen.count(m) > 1 and m not in out}
    return tuple(out[k] if m in merged else m for k, m in enumerate(chosen))  # type: ignore[return-value]


def side_names(first: str, second: str) -> str:
    """How a side is shown: its label once ('Para-11'), else the two names ('Ann - Bob')."""
    return side_label(first, second) or " - ".join(n for n in (first, second) if n)


def placeholder_side(names: Sequence[str]) -> str:
    """'NS' / 'EW' when both seats of a side are placeholders (N, E, S, W order), else ''."""
    for side, (a, b) in (("NS", (names[0], names[2])), ("EW", (names[1], names[3]))):
        if is_placeholder(a) and is_placeholder(b):
            return side
    return ""
