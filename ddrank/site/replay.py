"""What a board page's step-through replay needs, as JSON for its script (static/replay.js).

Per table with a recorded play: the four hands as dealt, the cards in playing order with who
played each, the trump, the declarer, the DD tricks after every card (the play trace, where DDS
traced it), and at each marked mistake its anchor and, where it was computed, the DD value of
every legal card there. The page works from file:// with nothing fetched: the data sits in the
page, the script beside it.
"""

from __future__ import annotations

import json
from typing import Any

from markupsafe import Markup

from ddrank.site.board import TableView
from ddrank.site.data import SEATS, Row


def hand_cards(deal: str | None) -> dict[str, list[str]]:
    """'N:AK.QJ.T9.8 ...' -> {'N': ['SA', 'SK', 'HQ', ...], ...}; {} without a deal."""
    if not deal or len(deal) < 3:
        return {}
    start = SEATS.index(deal[0].upper())
    out = {}
    for k, part in enumerate(deal[2:].split()):
        cards = []
        for suit, ranks in zip("SHDC", part.split("."), strict=False):
            cards += [suit + r.upper() for r in ranks if r not in "-—"]
        out[SEATS[(start + k) % 4]] = cards
    return out


def replay_data(r: Row, view: TableView) -> dict[str, Any] | None:
    """The replay of one table, or None when it has no play to step through."""
    play, seats = r.get("play") or [], r.get("play_seats") or []
    deal = hand_cards(r.get("deal"))
    if not view.tricks or len(play) != len(seats) or len(deal) != 4:
        return None
    trace = r.get("trace")
    marks = {}
    for m in view.marks:
        if m.index is None:
            continue
        marks[str(m.index)] = {"anchor": m.anchor, "tricks": m.tricks,
                               "values": [[c, t] for c, t in m.values]}  # fmt: skip
    return {
        "key": view.key,
        "hands": deal,
        "cards": [str(c) for c in play],
        "seats": [SEATS[int(s)] for s in seats],
        "trump": str(r.get("contract") or "  ")[1:2],
        "declarer": str(r.get("declarer") or ""),
        "dd": [int(t) for t in trace]
        if trace is not None and len(trace) == len(play) + 1
        else None,
        "marks": marks,
    }


def replays(board: Any) -> dict[str, Markup]:
    """view key -> the replay's JSON, safe inside a <script type="application/json"> element."""
    out = {}
    for r in board.rows:
        view = r.get("view")
        if view is None:
            continue
        data = replay_data(r, view)
        if data is not None:
            text = json.dumps(data, separators=(",", ":"))
            out[view.key] = Markup(text.replace("<", "\\u003c").replace(">", "\\u003e")
                                   .replace("&", "\\u0026"))  # fmt: skip
    return out
