"""Text folding shared by name matching, the terminal's lookups and the site's search box.

"Remi" must find "Rémi", "lukasz" "Łukasz" and "o'connor" "O’Connor": a search compares
`search_key`s, which drop accents (Unicode NFKD, combining marks removed), spell out the letters
NFKD leaves alone (ø, ł, ß, æ ...), fold case and collapse spaces. The site's search box does the
same to what the user types (`ddrank/site/static/search.js` mirrors `SPECIAL_LETTERS`), and each
player row carries its name's `search_key`. Standard library only: cheap to import.
"""

from __future__ import annotations

import unicodedata

#: Letters that NFKD does not decompose, spelled out; typographic quotes and dashes made plain.
SPECIAL_LETTERS = {
    "ø": "o", "Ø": "O", "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ß": "ss", "æ": "ae",
    "Æ": "AE", "œ": "oe", "Œ": "OE", "ı": "i", "þ": "th", "Þ": "Th", "ð": "d", "Ð": "D",
    "’": "'", "‘": "'", "`": "'", "´": "'", "–": "-", "—": "-",
}  # fmt: skip
_SPECIAL = str.maketrans(SPECIAL_LETTERS)


def fold(text: str) -> str:
    """Remove accents and spell out special letters, keeping case (case carries meaning)."""
    text = unicodedata.normalize("NFKD", text.translate(_SPECIAL))
    return "".join(ch for ch in text if not unicodedata.combining(ch))


def search_key(text: str | None) -> str:
    """The form a name is searched by: folded, case-folded, single-spaced ('  Rémi  Łoś' ->
    'remi los'). A query matches a name when its key is a substring of the name's key."""
    return " ".join(fold(text or "").casefold().split())


def matches(query: str, name: str) -> bool:
    """Does `query` find `name` (accents, case and spacing ignored)?"""
    return search_key(query) in search_key(name)
