"""What a file published, as read for a comparison: a standing's kind, place and number, our
ranking line for each published standing, and the VPs it published for each match."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from ddrank.scoring.model import PairLine, ScoredEvent, TeamMatch

Row = Mapping[str, Any]


def standing_kind(st: Row) -> str:
    """'place' (the pair's own ranking), 'strat' (a strat's) or 'overall' (a game file's: every pair of
    the event across sections and directions)."""
    return "overall" if st.get("overall") else "strat" if st.get("strat") else "place"


def place_number(text: Any) -> int | None:
    t = str(text or "").strip().rstrip("=").strip()
    return int(t) if t.isdigit() else None


def norm_pair(p: Any) -> str:
    t = str(p or "").strip()
    return t.lstrip("0") or t


def as_float(v: Any) -> float | None:
    """A published number ('55.3', '55.3%'), or None when it is not one."""
    try:
        x = float(str(v).strip().rstrip("%"))
    except (TypeError, ValueError):
        return None
    return None if math.isnan(x) else x


def match_standings(
    scores: Mapping[str, ScoredEvent], standings: Sequence[Row], kind: str = "place"
) -> list[tuple[Row, PairLine | None]]:
    """Each published standing (phantoms aside) with our ranking line for it, or None.

    A standing for the whole event ('' session) of a one-session event is that session's line;
    a standing published without a section matches the pair's line in whichever section; one
    published per section of a field scored across its sections matches our pair 'A11' of
    section A, pair 11.
    """
    index: dict[tuple[str, str, str, str], list[tuple[PairLine, bool]]] = defaultdict(list)
    for ev, sc in scores.items():
        single = len({x.session for x in sc.rankings}) == 1
        for line in sc.rankings:
            index[(ev, line.section, line.direction, norm_pair(line.pair))].append((line, single))
    by_pair: dict[tuple[str, str, str], list[tuple[PairLine, bool]]] = defaultdict(list)
    for (e, _, d, p), xs in index.items():  # any section: one look-up, not a scan per standing
        by_pair[(e, d, p)] += xs
    out: list[tuple[Row, PairLine | None]] = []
    for st in standings:
        if st.get("phantom") or st.get("opponent"):  # a match's result is no ranking line
            continue
        if standing_kind(st) != kind:  # a strat's or an overall place is checked on its own
            continue
        ev = str(st.get("event_id") or st.get("event") or "")
        direction = str(st.get("direction") or "").upper()
        key = (ev, str(st.get("section") or ""), direction, norm_pair(st.get("pair")))
        session = str(st.get("session") or "")
        found = index.get(key, [])
        if not found and not key[1]:
            found = list(by_pair.get((ev, direction, key[3]), []))
        if not found and key[1]:  # sections scored as one field: our pair is section + number
            label = norm_pair(f"{key[1]}{key[3]}")
            found = index.get((ev, "", direction, label), []) or [
                x for (e, sec, d, p), xs in index.items()
                if (e, d, p) == (ev, direction, label) and key[1] in sec.split("+") for x in xs
            ]  # fmt: skip
        if not found and direction:  # a Howell's stationary pair, published with its direction
            found = index.get((ev, key[1], "", key[3]), [])
        if not found and direction and key[1]:  # both at once: sections as one field, a Howell
            found = index.get((ev, "", "", norm_pair(f"{key[1]}{key[3]}")), [])
        # a one-session event's standings may name that session; ours is then the event's line
        cands = [x for x, single in found
                 if x.session == session or (single and (not session or not x.session))]  # fmt: skip
        out.append((st, cands[0] if len(cands) == 1 else None))
    return out


def published_matches(standings: Sequence[Mapping[str, Any]], column: str = "published_vp"
                      ) -> dict[tuple[str, str, str], float]:  # fmt: skip
    """(session, team, opponent) -> the team's published VPs (or `column`: `published_mp`, a
    point-a-board match's board points), from the match standings."""
    out: dict[tuple[str, str, str], float] = {}
    for st in standings:
        opp = str(st.get("opponent") or "").strip()
        try:
            vp = float(str(st.get(column) or "").strip())
        except ValueError:
            continue
        if opp:
            out[(str(st.get("session") or ""), str(st.get("pair") or "").strip(), opp)] = vp
    return out


def published_vp(table: Mapping[tuple[str, str, str], float], m: TeamMatch) -> float | None:
    """The published VPs of our match `m`, by session, team and opponent (any session as a
    fallback: a one-session event's matches may be published under its session id)."""
    exact = table.get((m.session, m.team, m.opponent))
    if exact is not None:
        return exact
    found = [v for (_, t, o), v in table.items() if (t, o) == (m.team, m.opponent)]
    return found[0] if len(found) == 1 else None
