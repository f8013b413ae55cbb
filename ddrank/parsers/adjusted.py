"""Adjusted scores as the event model stores them: "NS%/EW%".

Sources write them in many ways: USEBIO `A5050`/`A6040`/`A6060`, traveller cells `A+`, `A=`,
`A-`, `A+/A-`, `Ave`, `Ave+`, `Ave-`, `60/40`, `60%-40%`, one side's `60%`. An adjusted score is
a result without a contract: it is kept for scoring and never taken for a played board. A cell
saying the board was not played (`Not Played`, `NP`, `Late Play`, `LP`) is no result at all, and
`Bye` or `Sit out` in either column is the row of a pair without opponents (`not_played`,
`sits_out`).
"""

from __future__ import annotations

import re

# One side's mark: average plus (60%), average (50%), average minus (40%).
_MARK = {"A+": 60, "AVE+": 60, "AVG+": 60, "A": 50, "A=": 50, "AVE": 50, "AVG": 50, "AVE=": 50,
         "A-": 40, "AVE-": 40, "AVG-": 40}  # fmt: skip
_USEBIO = re.compile(r"^A(\d{2})(\d{2})$")  # A5050, A6040, A4060
_PERCENTS = re.compile(r"^(\d{1,3}(?:\.\d+)?)%?\s*[/-]\s*(\d{1,3}(?:\.\d+)?)%?$")


#: A board a table did not play (`Not Played`, `NP`), or has not played yet (`Late Play`, `LP`):
#: no result, and no error; the board counts as played once fewer.
_NOT_PLAYED = re.compile(r"^(not[\s_-]*played|unplayed|np|late[\s_-]*play(ed)?|lp)$", re.IGNORECASE)
#: A row saying its pair without an opponent sat out (`Bye` in either column, `Sit out`).
_SITS_OUT = re.compile(r"^(bye|sit[\s_-]*out|sitout)$", re.IGNORECASE)


def not_played(text: str) -> bool:
    """Whether a traveller cell says the table did not (or not yet) play the board."""
    return bool(_NOT_PLAYED.match(text.strip()))


def sits_out(text: str) -> bool:
    """Whether a traveller cell says the pair in this row had no opponent (a bye)."""
    return bool(_SITS_OUT.match(text.strip()))


def _pct(value: str) -> str:
    return value[:-2] if value.endswith(".0") else value


_ONE_PERCENT = re.compile(r"^(\d{1,3}(?:\.\d+)?)%$")


def side_mark(text: str) -> str:
    """One side's own adjusted mark in a per-side cell (`Score_NS`, `Score_EW`): "60" for `A+`
    or `60%`, "" when the cell is a score or empty. A bare number is a score, never a mark."""
    t = text.strip().upper().replace(" ", "")
    if t in _MARK:
        return str(_MARK[t])
    m = _ONE_PERCENT.match(t)
    return _pct(m.group(1)) if m and float(m.group(1)) <= 100 else ""


def sides_split(ns_cell: str, ew_cell: str) -> str:
    """The "NS%/EW%" of a row's two per-side cells, each side its own mark: `A+`/`A+` -> "60/60",
    `A+`/`A` -> "60/50", `60%`/`50%` -> "60/50"; one marked cell gives the other side its
    complement ("A+" / "" -> "60/40"); "" when neither cell is a mark."""
    ns, ew = side_mark(ns_cell), side_mark(ew_cell)
    if not ns and not ew:
        return ""
    if ns and ew:
        return f"{ns}/{ew}"
    if ns:
        return f"{ns}/{_pct(str(100 - float(ns)))}"
    return f"{_pct(str(100 - float(ew)))}/{ew}"


def adjusted_split(text: str) -> str:
    """The adjusted score `text` as "NS%/EW%", or "" when `text` is not an adjusted score.

    A single mark or percentage is North-South's, and East-West get its complement ("A+" →
    "60/40", "A=" → "50/50", "60%" → "60/40"); two marks or two numbers give each side its own
    ("A+/A+" → "60/60").
    """
    t = text.strip().upper().replace(" ", "")
    if not t:
        return ""
    m = _USEBIO.match(t)
    if m:
        return f"{int(m.group(1))}/{int(m.group(2))}"
    if t in _MARK:
        ns = _MARK[t]
        return f"{ns}/{100 - ns}"
    if "/" in t:
        left, _, right = t.partition("/")
        if left in _MARK and right in _MARK:
            return f"{_MARK[left]}/{_MARK[right]}"
    m = _ONE_PERCENT.match(t)
    if m and float(m.group(1)) <= 100:  # one side's percentage in a single cell: North-South's
        return f"{_pct(m.group(1))}/{_pct(str(100 - float(m.group(1))))}"
    m = _PERCENTS.match(t)
    if m:
        ns, ew = float(m.group(1)), float(m.group(2))
        if 0 <= ns <= 100 and 0 <= ew <= 100:
            return f"{_pct(m.group(1))}/{_pct(m.group(2))}"
    return ""
