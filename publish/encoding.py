"""Each output gets the encoding its reader needs. Names, events and labels come from files that
anyone can write, so every text from them is encoded where it is written:

* HTML: the site's templates escape (Jinja2 autoescape);
* CSV: `csv_cell` neutralises formulas as OWASP recommends (a leading `'` before `= + - @`, tab
  or CR), so a spreadsheet shows `=1+2` as text instead of computing it; numbers stay numbers;
* Markdown: `markdown_text` escapes what would make a link, an image, raw HTML or a table cell;
* the terminal: `terminal_text` drops C0/C1 control characters and escape sequences (a name must
  not set the window title, write the clipboard with OSC 52, or clear the screen);
  `publish.console`'s consoles apply it to every text they print.
"""

from __future__ import annotations

import html
import re
from typing import Any

# ESC sequences: CSI (ESC [ ... final), OSC/DCS/SOS/PM/APC strings up to BEL or ST (unterminated:
# to the end), and two-character ESC x; the 8-bit forms (CSI 0x9b, OSC 0x9d, DCS 0x90 ...) too.
_ESCAPES = re.compile(
    r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?"
    r"|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f]).*?(?:\x07|\x1b\\|\x9c|$)"
    r"|\x1b[ -/]*[0-~]?",
    re.DOTALL,
)
#: C0 controls but tab and line feed, DEL, and C1 controls.
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
#: Every C0 control, DEL and C1 (a CSV cell or a Markdown table cell holds one line).
_ALL_CONTROLS = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_WHITE_CONTROLS = re.compile(r"[\t\n\r\x0b\x0c]+")


def terminal_text(text: str) -> str:
    """`text` without escape sequences and control characters (tab and line feed kept)."""
    if not _needs_cleaning(text):
        return text
    return _CONTROLS.sub("", _ESCAPES.sub("", text))


def one_line(text: str) -> str:
    """`text` as one line: escape sequences and controls dropped, tabs and line ends as spaces."""
    if not _needs_cleaning(text):
        return text
    return _ALL_CONTROLS.sub("", _WHITE_CONTROLS.sub(" ", _ESCAPES.sub("", text)))


def _needs_cleaning(text: str) -> bool:
    """Whether `text` holds a C0 control, DEL or a C1 control (one search, not a loop in Python:
    every CSV cell asks)."""
    return _ALL_CONTROLS.search(text) is not None


# A plain number in text ("-420", "+3", "52.17", "1e-3"): left as it is, a spreadsheet reads it
# as the number it is.
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
#: A spreadsheet evaluates a cell starting with one of these (tab and CR: OWASP's list).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> Any:
    """A text cell neutralised against formula injection, as OWASP recommends: a leading `'` when
    it starts with `= + - @` (also after leading spaces, which Excel skips) or a tab or CR, and
    no control characters. Numbers, and text that is a plain number, are left as they are."""
    if not isinstance(value, str) or not value:
        return value
    if value.startswith(FORMULA_STARTS[-2:]):  # tab, CR: OWASP's list, before they become spaces
        return "'" + one_line(value)
    text = one_line(value)
    if text.lstrip(" ").startswith(FORMULA_STARTS[:4]) and not _NUMBER.fullmatch(text.strip()):
        return "'" + text
    return text


# Markdown: characters that make emphasis, code, links and images (with `[` and `]` escaped no
# link or image can form, so parentheses stay as they are), strike-through and table cells.
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]|~])")


def markdown_text(value: Any) -> str:
    """A value as literal Markdown text on one line: HTML escaped (`<b>` shows as `<b>`), and the
    characters that make emphasis, links, images, headings or table cells backslash-escaped."""
    text = one_line(str(value if value is not None else ""))
    text = html.escape(text, quote=False)
    text = _MARKDOWN_SPECIAL.sub(r"\\\1", text)
    if text[:1] in ("-", "=", "+", "#"):  # a list item, a heading or a heading's rule
        text = "\\" + text
    return re.sub(r"^(\d+)\.", r"\1\\.", text)  # an ordered list item
