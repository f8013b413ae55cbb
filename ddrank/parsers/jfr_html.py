"""JFR Pary's published results pages (the Polish federation's scoring program, "JFR 2005"):
the travellers of each board (`<tur>NNN.html`, or its table fragment `<tur>NNN.txt`) with the
board's Butler datum, and the final ranking (`W-<tur>.html`). Pure: text in, rows out.

A traveller row gives the NS and EW pair numbers, the contract ('4S', '1NTx', 'PASS'), the
declarer, the lead, the result against the contract ('=', '+1', '-2'), the score in the NS or the
EW column (a passed-out board's 0 spans both) and each side's IMPs (or matchpoints). A ranking
row gives the place (blank when tied with the row above), the pair number, the two players, and
the result (`wynik`).

These pages are the published values of an event that PbnTools converts to PBN with each seat
named by its pair label (`North "Para-11"`): `tests/test_jfr.py` uses them as the oracle.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

from ddrank.types import normalise_contract

_ROW = re.compile(r"<tr[^>]*>(.*?)</tr>", re.S | re.I)
_CELL = re.compile(r"<td([^>]*)>(.*?)</td>", re.S | re.I)
_IMG_ALT = re.compile(r'<img[^>]*\balt="([^"]*)"[^>]*>', re.I)
_TAG = re.compile(r"<[^>]+>")
_COLSPAN = re.compile(r'colspan="?(\d+)', re.I)
_BOARD = re.compile(r"ROZDANIE\s+(\d+)")
#: The board's Butler datum, "średnia rozdania" (the board's average), printed above the lines.
_DATUM = re.compile(r"rednia rozdania:(?:&nbsp;|\s)*</td>\s*<td[^>]*>\s*(-?\d+)", re.I)
_SUIT = {"c": "C", "d": "D", "h": "H", "s": "S", "nt": "NT", "n": "NT"}


@dataclass(frozen=True, slots=True)
class JfrLine:
    """One traveller line as published."""

    board: str
    ns_pair: str
    ew_pair: str
    contract: str  # '4S', '1NX', 'P', 'TD'
    declarer: str
    lead: str
    result: str  # as printed: '=', '+1', '-2', '' for a passed-out board
    ns_score: int | None  # North-South's score (an EW score negated)
    ns_imps: float | None  # North-South's published IMPs (or matchpoints) on the board
    ew_imps: float | None


@dataclass(frozen=True, slots=True)
class JfrStanding:
    """One line of the final ranking as published."""

    place: str  # '1', or '8=' for a place shared with the line above
    pair: str
    players: tuple[str, ...]
    result: float | None  # the published total (IMPs or %)


def _cells(row: str, sep: str = " ") -> list[str]:
    """A row's cells as text, a cell spanning k columns repeated k times (the images of suits
    read by their alt text)."""
    out: list[str] = []
    for attrs, body in _CELL.findall(row):
        text = _IMG_ALT.sub(r"\1", body).replace("<br>", sep).replace("<br/>", sep)
        text = html.unescape(_TAG.sub("", text)).replace("\xa0", " ").strip()
        span = _COLSPAN.search(attrs)
        out += [text] * (int(span.group(1)) if span else 1)
    return out


def _number(text: str) -> float | None:
    try:
        return float(text.replace(",", "."))
    except ValueError:
        return None


def _contract(text: str) -> str:
    """In ddrank's notation (`ddrank.types.normalise_contract`): '1nt×' -> '1NX', '4s××' ->
    '4SR', 'PASS' -> 'P'; anything else (JFR's 'TD', a director's score) as printed."""
    t = text.strip().lower().replace("×", "x")
    if t in ("pass", "pas", "ap"):
        return "P"
    m = re.fullmatch(r"([1-7])(nt|n|c|d|h|s)(x{0,2})", t)
    if not m:
        return text.strip()
    return normalise_contract(f"{m.group(1)}{_SUIT[m.group(2)]}{m.group(3).upper()}")


def parse_traveller(text: str, board: str = "") -> list[JfrLine]:
    """Every traveller line of one board's page (`board` when the page does not say it)."""
    m = _BOARD.search(html.unescape(_TAG.sub(" ", text)))
    board = m.group(1) if m else board
    out = []
    for row in _ROW.findall(text):
        c = _cells(row)
        if len(c) != 11 or not c[1].isdigit() or not c[2].isdigit():
            continue
        ns, ew = _number(c[7]), _number(c[8])
        if c[7] == c[8]:  # a passed-out board's 0 spans both columns
            ew = None
        score = int(ns) if ns is not None else (-int(ew) if ew is not None else None)
        out.append(JfrLine(board, c[1], c[2], _contract(c[3]), c[4].upper(), c[5].upper(),
                           c[6], score, _number(c[9]), _number(c[10])))  # fmt: skip
    return out


def parse_datum(text: str) -> int | None:
    """The datum a Butler board's page prints ("średnia rozdania": every line's IMPs are its
    score against it), or None when the page prints none (a matchpointed event)."""
    m = _DATUM.search(text)
    return int(m.group(1)) if m else None


def parse_ranking(text: str) -> list[JfrStanding]:
    """The final ranking (`W-<tur>.html`): places, pair numbers, players, published results."""
    out: list[JfrStanding] = []
    for row in _ROW.findall(text):
        c = _cells(row, sep="\n")
        if len(c) < 9 or not c[2].isdigit() or not (c[1].isdigit() or (c[1] == "" and out)):
            continue
        place = c[1] or out[-1].place.rstrip("=") + "="
        players = tuple(p.strip() for p in c[3].split("\n") if p.strip())
        out.append(JfrStanding(place, c[2], players, _number(c[8])))
    return out
