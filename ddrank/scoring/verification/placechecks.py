"""Places in rankings beside a pair's own (game files publish them): a strat's ranking, and the
overall ranking of the whole event.

* A strat's places rank the pairs eligible for it, the pairs the file lists in that strat,
  among themselves, within their direction and ranking.
* Overall places rank every pair of the event across its sections and directions, on its total
  (the session's score and any carry-over from earlier sessions), the strat's pairs only for a
  strat; game files publish them for the places that win an award. Pairs not eligible take no
  place.

Ours use our scores; equal scores share a place.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from ddrank.scoring.model import PairLine, ScoredEvent, parse_number, rank_key
from ddrank.scoring.verification.check import Check
from ddrank.scoring.verification.standings import match_standings, place_number

Row = dict[str, Any]


def _event(st: Row) -> str:
    return str(st.get("event_id") or st.get("event") or "")


def _who(st: Row, ranking: str) -> str:
    return (f"{_event(st)} {st.get('section') or ''} {st.get('direction') or ''} pair "
            f"{st.get('pair')} {ranking}")  # fmt: skip


def strat_checks(scores: Mapping[str, ScoredEvent], standings: Sequence[Row]) -> Check:
    """Each published strat place against ours among the same strat's pairs."""
    check = Check("strat place")
    groups: dict[tuple[str, ...], list[tuple[Row, PairLine | None]]] = defaultdict(list)
    for st, line in match_standings(scores, standings, kind="strat"):
        where = (line.session, line.section, line.direction) if line else ("?",)
        groups[(_event(st), str(st.get("strat")), *where)].append((st, line))
    for key, members in groups.items():
        values = [rank_key(ln) for _, ln in members if ln is not None]
        for st, line in members:
            pub = place_number(st.get("published_place"))
            if pub is None:
                continue
            ours = None if line is None else 1 + sum(1 for x in values if x < rank_key(line))
            check.add(ours == pub, f"{_who(st, 'strat ' + key[1])}: ours {ours or 'not found'}, "
                                   f"published {st.get('published_place')}")  # fmt: skip
    return check


def overall_checks(scores: Mapping[str, ScoredEvent], standings: Sequence[Row]) -> Check:
    """Each published overall place against ours among the event's (or the strat's) pairs."""
    check = Check("overall place")
    own = [st for st in standings if st.get("overall")]
    if not own:
        return check
    carry: dict[int, float] = {}
    everyone: dict[tuple[str, str], list[PairLine]] = defaultdict(list)  # (event, session)
    for st, line in match_standings(scores, standings):
        if line is not None:
            carry[id(line)] = parse_number(st.get("carryover")) or 0.0
            everyone[(_event(st), line.session)].append(line)
    in_strat: dict[tuple[str, str], set[int]] = defaultdict(set)
    for st, line in match_standings(scores, standings, kind="strat"):
        if line is not None:
            in_strat[(_event(st), str(st.get("strat")))].add(id(line))

    def total(line: PairLine) -> float:
        return round(line.mp + carry.get(id(line), 0.0), 6)

    for st, line in match_standings(scores, own, kind="overall"):
        pub, strat = place_number(st.get("published_place")), str(st.get("strat") or "")
        ours = None
        if line is not None and pub is not None:
            field = [x for x in everyone[(_event(st), line.session)] if x.eligible
                     and (not strat or id(x) in in_strat[(_event(st), strat)])]  # fmt: skip
            ours = 1 + sum(1 for x in field if total(x) > total(line))
        check.add(ours == pub, f"{_who(st, 'overall' + (' strat ' + strat if strat else ''))}: "
                               f"ours {ours or 'not found'}, published {st.get('published_place')}")  # fmt: skip
    return check
