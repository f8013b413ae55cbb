"""A costly mistake in words, the same on the terminal and in reports: where it was made and
what it cost (rows of `mistake_costs`, sql/mistakes_schema.sql)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

Row = Mapping[str, Any]


def where_words(m: Row) -> str:
    """'trick 6, card 2', 'auction, call 7', 'auction', 'claim'."""
    if m.get("trick"):
        return f"trick {m['trick']}, card {m['position']}"
    if m.get("kind") == "claim":
        return "claim"
    if m.get("call_index") is not None:
        return f"auction, call {int(m['call_index']) + 1}"
    return "auction"


def cost_words(m: Row) -> str:
    """'3 IMP', '1.5 MP', '2 board points'; hypothetical ones say so; without a comparison, the
    DD points."""
    cost, unit = m.get("cost"), m.get("unit") or ""
    if cost is None:
        return f"{m.get('dd_points') or 0:g} DD points (nothing to compare with)"
    text = f"{cost:.2f}".rstrip("0").rstrip(".") + f" {unit}"
    return f"{text} (hypothetical)" if m.get("basis") == "hypothetical" else text
