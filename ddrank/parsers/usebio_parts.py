"""Small pieces of the USEBIO reader (`ddrank.parsers.usebio`), kept apart so that the reader
stays readable: the guard on a start tag's length (before expat builds its attributes), the lead
card's spelling, and the records the reader keeps while it reads."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ddrank.limits import LimitExceeded, Limits
from ddrank.raw import RawRecord


class _NotUsebio(Exception):
    """The root element is not USEBIO: stop reading at once."""


@dataclass
class _Player:
    name: str
    pid: str


@dataclass
class _Pending:
    """A traveller line read, waiting for the participants and deals that may come later."""

    rec: RawRecord
    keys: list[tuple[str, str, str]]  # (session, section, '') lookups for the pair numbers
    lin_seated: bool


def check_tags(data: bytes, limits: Limits) -> None:
    """Refuse a start tag (its attributes) longer than `max_value_chars`, before parsing: expat
    builds every attribute of an element before the reader sees it, so one element with ten
    million attributes would take gigabytes. One pass over the bytes: `<` cannot occur inside a
    tag, so each search from a `<` stops at the next `<` or `>` (linear, whatever the bytes)."""
    limit = limits.max_value_chars
    m = re.search(rb"<[^<>]{%d}" % (limit + 1), data)
    if m is not None:
        line = data.count(b"\n", 0, m.start()) + 1
        raise LimitExceeded("max_value_chars", limit, limit + 1, f"line {line}: an XML tag",
                            exact=False)  # fmt: skip


_RANK_FIRST = re.compile(r"^\s*(10|[2-9TJQKA])\s*([CDHS])\s*$", re.IGNORECASE)


def suit_first(card: str) -> str:
    """A lead card as the store writes cards, suit first: Compscore's USEBIO writes the rank
    first (`<LEAD>2D`, `<LEAD>10H`); a card already suit first, or anything else, is kept."""
    m = _RANK_FIRST.match(card or "")
    return f"{m.group(2)}{m.group(1)}".upper() if m else card
