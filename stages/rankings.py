"""Stage `rankings`: each event's final ranking per section and direction, how it was scored and
its agreement with what its source published, read from the store for the terminal and the site
(`publish.rankings` words it)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from ddrank.scoring.verification.check import Check
from store import Store

Row = dict[str, Any]


def ranking_summary(store: Store, events: Sequence[str] | None = None) -> list[Row]:
    """Per scored event: its method row, the published checks and the final ranking groups
    (section, direction, lines in place order)."""
    ev = None if events is None else list(events)
    methods = store.rows("scored_event_methods", events=ev)
    lines: dict[str, dict[tuple[str, str], list[Row]]] = defaultdict(lambda: defaultdict(list))
    for r in store.rows("final_rankings", events=ev):
        lines[r["event"]][(r["section"] or "", r["direction"] or "")].append(r)
    out = []
    for m in methods:
        name = m["event"]
        own = stored_checks(store, [name])
        out.append({**m,
                    "checks": [{"what": c.what, "compared": c.compared, "agree": c.agree}
                               for c in own],
                    "groups": [{"section": s, "direction": d, "lines": rows}
                               for (s, d), rows in sorted(lines[name].items())]})  # fmt: skip
    return out


def stored_checks(store: Store, events: Sequence[str] | None = None) -> list[Check]:
    """The published-value checks scoring kept with the events, summed per kind over them (an
    event scored before checks were kept has none until it is scored again)."""
    import json

    rows = store.rows("scored_event_checks", events=None if events is None else list(events))
    merged: dict[str, Check] = {}
    for r in rows:
        for c in json.loads(r["checks"] or "[]"):
            kept = merged.setdefault(c["what"], Check(c["what"]))
            kept.compared += c["compared"]
            kept.agree += c["agree"]
            kept.disagree.extend(c["disagree"])
    return list(merged.values())
