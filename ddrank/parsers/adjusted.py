"""Adjusted scores as the event model stores them: "NS%/EW%".

Sources write them in many ways: USEBIO `A5050`/`A6040`, traveller cells `A+`, `A=`, `A-`,
`A+/A-`, `AVE+`, `60/40`, `60%-40%`. An adjusted score is a result without a contract: it is kept
for scoring and never taken for a played board.
"""

from __future__ import annotations

import re

# One side's mark: average plus (60%), average (50%), average minus (40%).
_MARK = {"A+": 60, "AVE+": 60, "AVG+": 60, "A": 50, "A=": 50, "AVE": 50, "AVG": 50, "AVE=": 50,
         "A-": 40, "AVE-": 40, "AVG-": 40}  # fmt: skip
_USEBIO = re.compile(r"^A(\d{2})(\d{2})$")  # A5050, A6040, A4060
_PERCENTS = re.compile(r"^(\d{1,3}(?:\.\d+)?)%?\s*[/-]\s*(\d{1,3}(?:\.\d+)?)%?$")


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

    A single mark is North-South's, and East-West get its complement ("A+" → "60/40", "A=" →
    "50/50"); two marks or two numbers give each side its own ("A+/A+" → "60/60").
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
    m = _PERCENTS.match(t)
    if m:
        ns, ew = float(m.group(1)), float(m.group(2))
        if 0 <= ns <= 100 and 0 <= ew <= 100:
            return f"{_pct(m.group(1))}/{_pct(m.group(2))}"
    return ""
