"""Our scores against what a source published: matchpoints, percentages, IMPs and places."""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ddrank.scoring.events import EventScores, PairLine
from ddrank.scoring.impchecks import imp_checks
from ddrank.scoring.model import TEAM_SCORINGS
from ddrank.scoring.vpscale import published_matches, published_vp

Row = dict[str, Any]
TOLERANCE = 0.01  # published values are printed to 2 decimals at most


@dataclass
class Check:
    """How many of our values agree with one kind of published value, and the ones that do not."""

    what: str
    compared: int = 0
    agree: int = 0
    disagree: list[str] = field(default_factory=list)
    #: published values ours differ from where the file's own numbers disagree with each other
    #: (its own sum is not its own total): each says which numbers, in words
    explained: list[str] = field(default_factory=list)

    def add(self, ok: bool, detail: str, proof: str = "") -> None:
        """One value compared; a miss with a `proof` from the file's own numbers is explained."""
        self.compared += 1
        if ok:
            self.agree += 1
        elif proof:
            self.explained.append(f"{detail} ({proof})")
        else:
            self.disagree.append(detail)


def _close(a: float | None, b: float | None) -> bool:
    return a is not None and b is not None and abs(a - b) <= TOLERANCE + 1e-9


def standing_kind(st: Row) -> str:
    """'place' (the pair's own ranking), 'strat' (a strat's) or 'overall' (ACBL: every pair of
    the event across sections and directions)."""
    return "overall" if st.get("overall") else "strat" if st.get("strat") else "place"


def _place(text: Any) -> int | None:
    t = str(text or "").strip().rstrip("=").strip()
    return int(t) if t.isdigit() else None


def _norm_pair(p: Any) -> str:
    t = str(p or "").strip()
    return t.lstrip("0") or t


def as_float(v: Any) -> float | None:
    """A published number ('55.3', '55.3%'), or None when it is not one."""
    try:
        x = float(str(v).strip().rstrip("%"))
    except (TypeError, ValueError):
        return None
    return None if math.isnan(x) else x


#: What a result we could not score shows instead of a number: the board holds no other result
#: to compare it with (a teams board whose other room is missing, a board played once).
NOT_SCORED = "none (no other result on the board to compare it with)"


def _ours(value: float | None, missing: str = NOT_SCORED) -> str:
    """Our value as the disagreement line shows it; never the word None."""
    return missing if value is None else f"{value:g}"


def compare_published(scores: Mapping[str, EventScores], standings: Sequence[Row]) -> list[Check]:
    """Every published matchpoint, percentage, IMP and place against ours."""
    mp, pct, imp = (
        Check("matchpoints per line"),
        Check("percentage per line"),
        Check("IMPs per line"),
    )
    points = Check("board points per line")  # point-a-board: 2, 1 or 0 a board
    for ev, sc in scores.items():
        per_line = points if sc.info.scoring == "BAM" else mp
        for s in sc.results:
            r = s.result
            where = f"{ev} s{r.session or '-'} {r.section} board {r.board} NS {r.ns_pair or r.ns_players}"
            if r.published_ns_mp is not None:
                ok = _close(s.ns_mp, r.published_ns_mp) and (
                    r.published_ew_mp is None or _close(s.ew_mp, r.published_ew_mp)
                )
                per_line.add(ok, f"{where}: ours {_ours(s.ns_mp)}/{_ours(s.ew_mp)}, published "
                                 f"{r.published_ns_mp}/{r.published_ew_mp}")  # fmt: skip
            if r.published_ns_pct is not None:
                pct.add(_close(s.ns_pct, r.published_ns_pct),
                        f"{where}: ours {_ours(s.ns_pct)}, published {r.published_ns_pct}")  # fmt: skip
            if r.published_imps is not None:
                imp.add(_close(s.imps, r.published_imps),
                        f"{where}: ours {_ours(s.imps)}, published {r.published_imps}")  # fmt: skip
    final_pct, place, total = Check("final percentage"), Check("place"), Check("team total")
    pairs = match_standings(scores, standings)
    tied = Counter((ev, x.session, x.section, x.direction, x.rank)
                   for ev, sc in scores.items() for x in sc.rankings)  # fmt: skip
    imp_kinds: dict[str, Check] = {}

    def add_imp(what: str, ok: bool, detail: str, proof: str = "") -> None:
        imp_kinds.setdefault(what, Check(what)).add(ok, detail, proof)

    imp_checks(scores, pairs, add_imp)
    for st, line in pairs:
        ev, direction = (
            str(st.get("event_id") or st.get("event") or ""),
            str(st.get("direction") or ""),
        )
        sc = scores.get(ev)
        pub_total = as_float(st.get("published_vp") or st.get("published_mp"))
        if sc is not None and sc.info.scoring in TEAM_SCORINGS and pub_total is not None:
            total.add(line is not None and _close(line.mp, pub_total),  # VPs, or PAB points
                      f"{ev} team {st.get('pair')}: ours {_ours(line.mp) if line else 'not found'}, "
                      f"published {pub_total}")  # fmt: skip
        who = f"{ev} {st.get('section') or ''} {direction} pair {st.get('pair')} ({st.get('players', '')})"
        pub_pct = as_float(st.get("published_pct"))
        if pub_pct is not None:
            final_pct.add(line is not None and _close(line.pct, pub_pct),
                          f"{who}: ours {_ours(line.pct, 'no percentage') if line else 'not found'}, published {pub_pct}")  # fmt: skip
        pub_place = _place(st.get("published_place"))
        if pub_place is not None:
            # a tie the scorer broke (places 23 and 24 for two equal totals) is no disagreement
            width = (
                tied.get((ev, line.session, line.section, line.direction, line.rank), 1)
                if line
                else 1
            )
            place.add(line is not None and line.rank <= pub_place < line.rank + width,
                      f"{who}: ours {line.rank if line else 'not found'}, published "
                      f"{st.get('published_place')}")  # fmt: skip
    matches = match_checks(scores, standings)
    from ddrank.scoring.placechecks import overall_checks, strat_checks  # (they use Check)

    ranks = (strat_checks(scores, standings), overall_checks(scores, standings))
    return [c for c in (mp, points, pct, imp, *imp_kinds.values(), final_pct, place, *ranks,
                        total, *matches) if c.compared]  # fmt: skip


def match_checks(scores: Mapping[str, EventScores], standings: Sequence[Row]) -> list[Check]:
    """Each published match result (a standing with an `opponent`) against our match: its VPs
    (teams) or board points (point-a-board), by session, team and opponent."""
    vps, points = Check("match VPs"), Check("match points")
    for ev, sc in scores.items():
        own = [st for st in standings if st.get("opponent")
               and str(st.get("event_id") or st.get("event") or "") == ev]  # fmt: skip
        if not own:
            continue
        pab = sc.info.scoring == "BAM"
        table = published_matches(own, "published_mp" if pab else "published_vp")
        for m in sc.matches:
            pub = published_vp(table, m)
            if pub is not None:
                (points if pab else vps).add(_close(m.vp, pub), f"{ev} s{m.session or '-'} team "
                                             f"{m.team} v {m.opponent}: ours {'none' if m.vp is None else f'{m.vp:g}'}, published {pub:g}")  # fmt: skip
    return [vps, points]


def match_standings(
    scores: Mapping[str, EventScores], standings: Sequence[Row], kind: str = "place"
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
            index[(ev, line.section, line.direction, _norm_pair(line.pair))].append((line, single))
    out: list[tuple[Row, PairLine | None]] = []
    for st in standings:
        if st.get("phantom") or st.get("opponent"):  # a match's result is no ranking line
            continue
        if standing_kind(st) != kind:  # a strat's or an overall place is checked on its own
            continue
        ev = str(st.get("event_id") or st.get("event") or "")
        direction = str(st.get("direction") or "").upper()
        key = (ev, str(st.get("section") or ""), direction, _norm_pair(st.get("pair")))
        session = str(st.get("session") or "")
        found = index.get(key, [])
        if not found and not key[1]:
            found = [x for (e, _, d, p), xs in index.items() if (e, d, p) == (ev, direction, key[3])
                     for x in xs]  # fmt: skip
        if not found and key[1]:  # sections scored as one field: our pair is section + number
            label = _norm_pair(f"{key[1]}{key[3]}")
            found = index.get((ev, "", direction, label), []) or [
                x for (e, sec, d, p), xs in index.items()
                if (e, d, p) == (ev, direction, label) and key[1] in sec.split("+") for x in xs
            ]  # fmt: skip
        if not found and direction:  # a Howell's stationary pair, published with its direction
            found = index.get((ev, key[1], "", key[3]), [])
        if not found and direction and key[1]:  # both at once: sections as one field, a Howell
            found = index.get((ev, "", "", _norm_pair(f"{key[1]}{key[3]}")), [])
        # a one-session event's standings may name that session; ours is then the event's line
        cands = [x for x, single in found
                 if x.session == session or (single and (not session or not x.session))]  # fmt: skip
        out.append((st, cands[0] if len(cands) == 1 else None))
    return out
