"""Our scores against what a source published: matchpoints, percentages, IMPs and places."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from ddrank.scoring.arithmetic.precision import (
    agrees,
    agrees_printed,
    column_decimals,
    decimals,
    shown,
)
from ddrank.scoring.model import TEAM_SCORINGS, PairLine, ScoredEvent
from ddrank.scoring.verification.check import Check
from ddrank.scoring.verification.impchecks import imp_checks, place_words
from ddrank.scoring.verification.proofs import line_diffs, line_proofs, pct_proofs, total_proof
from ddrank.scoring.verification.standings import (
    as_float,
    match_standings,
    norm_pair,
    place_number,
    published_matches,
    published_vp,
)

Row = dict[str, Any]


#: What a result we could not score shows instead of a number: the board holds no other result
#: to compare it with (a teams board whose other room is missing, a board played once).
NOT_SCORED = "none (no other result on the board to compare it with)"


def _line_value(value: float | None, k: int) -> str:
    """Our per-line value as a reader compares it with one printed with k decimals; never the
    word None."""
    return NOT_SCORED if value is None else shown(value, k)


def compare_published(scores: Mapping[str, ScoredEvent], standings: Sequence[Row],
                      prove: bool = False) -> list[Check]:  # fmt: skip
    """Every published matchpoint, percentage, IMP and place against ours. `prove`: a value
    that differs is explained where the file's own numbers contradict it (ddrank.scoring.verification.proofs;
    the final comparison does, a method's trials need not)."""
    proven = {ev: line_proofs(sc.results, _rescorer(sc)) if prove and sc.info.scoring == "MP"
              else {} for ev, sc in scores.items()}  # fmt: skip
    pct_proven: dict[str, dict[str, str]] = {}
    mp, pct, imp = (
        Check("matchpoints per line"),
        Check("percentage per line"),
        Check("IMPs per line"),
    )
    points = Check("board points per line")  # point-a-board: 2, 1 or 0 a board
    for ev, sc in scores.items():
        per_line = points if sc.info.scoring == "BAM" else mp
        rs = [s.result for s in sc.results]
        k_mp = column_decimals([x for r in rs for x in (r.published_ns_mp, r.published_ew_mp)])
        k_pct = column_decimals(r.published_ns_pct for r in rs)
        k_imp = column_decimals(r.published_imps for r in rs)
        for s in sc.results:
            r = s.result
            where = place_words(ev, ("session", r.session), ("section", r.section),
                                ("board", r.board), ("NS", r.ns_pair or r.ns_players))  # fmt: skip
            if r.published_ns_mp is not None:
                ns, ew = s.printed or (s.ns_mp, s.ew_mp)  # as the producer prints the line
                ok = agrees(ns, r.published_ns_mp, k_mp) and (
                    r.published_ew_mp is None or agrees(ew, r.published_ew_mp, k_mp)
                )
                per_line.add(ok, f"{where}: ours {_line_value(ns, k_mp)}/{_line_value(ew, k_mp)}, "
                                 f"published {r.published_ns_mp:g}/{_g(r.published_ew_mp)}",
                             proven[ev].get(r.record_id, ""))  # fmt: skip
            if r.published_ns_pct is not None:
                if prove and ev not in pct_proven:
                    pct_proven[ev] = pct_proofs(sc.results)
                pct.add(agrees(s.ns_pct, r.published_ns_pct, k_pct),
                        f"{where}: ours {_line_value(s.ns_pct, k_pct)}, published {r.published_ns_pct:g}",
                        pct_proven.get(ev, {}).get(r.record_id, ""))  # fmt: skip
            if r.published_imps is not None:
                imp.add(agrees(s.imps, r.published_imps, k_imp),
                        f"{where}: ours {_line_value(s.imps, k_imp)}, published {r.published_imps:g}",
                        "" if s.imps is not None or not prove else "the file holds no other table "
                        "of this board")  # fmt: skip
    final_pct, place, total = Check("final percentage"), Check("place"), Check("team total")
    mp_total = Check("total matchpoints")
    pairs = match_standings(scores, standings)
    tied = Counter((ev, x.session, x.section, x.direction, x.rank)
                   for ev, sc in scores.items() for x in sc.rankings)  # fmt: skip
    imp_kinds: dict[str, Check] = {}

    def add_imp(what: str, ok: bool, detail: str, proof: str = "") -> None:
        imp_kinds.setdefault(what, Check(what)).add(ok, detail, proof)

    imp_checks(scores, pairs, add_imp)
    diffs = {ev: line_diffs(sc.results, proven[ev], sc.info.mp_rule, _k_mp(sc),
                            sc.info.across_field)
             for ev, sc in scores.items() if prove and sc.info.scoring == "MP"}  # fmt: skip
    for st, line in pairs:
        ev, direction = (
            str(st.get("event_id") or st.get("event") or ""),
            str(st.get("direction") or ""),
        )
        sc = scores.get(ev)
        pub_text = st.get("published_vp") or st.get("published_mp")
        pub_total = as_float(pub_text)
        if sc is not None and sc.info.scoring in TEAM_SCORINGS and pub_total is not None:
            total.add(line is not None and agrees_printed(line.mp, pub_text),  # VPs, PAB points
                      f"{ev} team {st.get('pair')}: ours {_ours(line, 'mp', pub_text)}, "
                      f"published {pub_text}")  # fmt: skip
        players = f" ({st['players']})" if st.get("players") else ""
        who = place_words(ev, ("section", st.get("section")),
                          (f"{direction} pair".strip(), f"{st.get('pair')}{players}"))  # fmt: skip
        pub_mp, pub_pct = st.get("published_mp"), st.get("published_pct")
        absent = _absent(sc, st) if line is None and sc is not None and prove else ""
        why_total = why_pct = absent
        if line is not None and ev in diffs:  # why a total or percentage differs, if proven
            own, slack = diffs[ev][0].get((line.session, line.pair), []), diffs[ev][1].get(
                (line.session, line.pair), 0.0)  # fmt: skip
            sums = bool(sc and sc.info.mp_rule and sc.info.mp_rule.round_lines)
            if as_float(pub_mp) is not None and not agrees_printed(line.mp, pub_mp):
                why_total = total_proof(line.mp, as_float(pub_mp), decimals(pub_mp) or 0,  # type: ignore[arg-type]
                                        own, line.factor, sums, slack)  # fmt: skip
            if as_float(pub_pct) is not None and line.pct is not None and line.top \
                    and not agrees_printed(line.pct, pub_pct):  # fmt: skip
                scale = 100.0 / line.top  # a line's matchpoints as a share of the pair's tops
                why_pct = total_proof(line.pct, as_float(pub_pct), decimals(pub_pct) or 0,  # type: ignore[arg-type]
                                      [(d * scale, p) for d, p in own], line.factor, sums,
                                      slack * scale)  # fmt: skip
        if sc is not None and sc.info.scoring == "MP" and as_float(pub_mp) is not None:
            mp_total.add(line is not None and agrees_printed(line.mp, pub_mp),
                         f"{who}: ours {_ours(line, 'mp', pub_mp)}, published {pub_mp}",
                         why_total)  # fmt: skip
        if as_float(pub_pct) is not None:
            final_pct.add(line is not None and agrees_printed(line.pct, pub_pct),
                          f"{who}: ours {_ours(line, 'pct', pub_pct)}, published {pub_pct}",
                          why_pct)  # fmt: skip
        pub_place = place_number(st.get("published_place"))
        if pub_place is not None:
            why_place = (
                absent or (why_total or why_pct) and "its total differs from ours as proven above"
            )
            # a tie the scorer broke (places 23 and 24 for two equal totals) is no disagreement
            width = (
                tied.get((ev, line.session, line.section, line.direction, line.rank), 1)
                if line
                else 1
            )
            place.add(line is not None and line.rank <= pub_place < line.rank + width,
                      f"{who}: ours {line.rank if line else 'not found'}, published "
                      f"{st.get('published_place')}", why_place)  # fmt: skip
    matches = match_checks(scores, standings)
    from ddrank.scoring.verification.placechecks import (  # (they use Check)
        overall_checks,
        strat_checks,
    )

    ranks = (strat_checks(scores, standings), overall_checks(scores, standings))
    return [c for c in (mp, points, pct, imp, *imp_kinds.values(), mp_total, final_pct, place,
                        *ranks, total, *matches) if c.compared]  # fmt: skip


_HELD: dict[int, tuple[Any, set[Any], set[str]]] = {}


def _held_and_numbers(sc: ScoredEvent) -> tuple[set[Any], set[str]]:
    """The boards an event's results cover and the pair numbers they name: computed once per
    event (`_absent` asks for every unmatched ranking line: n lines, n standings)."""
    cached = _HELD.get(id(sc))
    if cached is None or cached[0] is not sc:
        held = {(s.result.session, s.result.section, s.result.board) for s in sc.results}
        numbers = {norm_pair(p) for s in sc.results
                   for p in (s.result.ns_pair, s.result.ew_pair) if p}  # fmt: skip
        _HELD.clear()  # one event at a time: no growth across a run
        cached = _HELD[id(sc)] = (sc, held, numbers)
    return cached[1], cached[2]


def _absent(sc: ScoredEvent, st: Row) -> str:
    """Why a published ranking line has no line of ours, from the file's own numbers: it covers
    more boards than the file holds (`NrBoards`), or the file's results number their pairs and
    none is this one (a ranking of more than the file holds)."""
    held, numbers = _held_and_numbers(sc)
    covers = str(st.get("boards") or "").strip()
    if covers.isdigit() and int(covers) > len(held):
        return (f"it ranks pair {st.get('pair') or '?'} over {covers} boards; the file holds "
                f"{len(held)}")  # fmt: skip
    pair = norm_pair(st.get("pair"))
    if pair and numbers and pair not in numbers:
        return f"no table result of the file names pair {st.get('pair')}"
    return ""


def _k_mp(sc: ScoredEvent) -> int:
    rs = [s.result for s in sc.results]
    return column_decimals([x for r in rs for x in (r.published_ns_mp, r.published_ew_mp)])


def _rescorer(sc: ScoredEvent) -> Any:
    """One board's results scored as `sc`'s event is (its method and top), for the proofs."""
    from ddrank.scoring.arithmetic.boards import score_mp_board

    top, method = sc.info.mp_top or 2.0, sc.method or "neuberg"

    def rescore(results: list[Any], field_size: int | None = None) -> list[Any]:
        return score_mp_board(results, field_size, top, method)  # type: ignore[arg-type]

    return rescore


def _g(x: float | None) -> str:
    return "-" if x is None else f"{x:g}"


def _ours(line: PairLine | None, attr: str, published: object) -> str:
    """Our line's value as a reader compares it with `published`, or 'not found'."""
    if line is None:
        return "not found"
    return shown(getattr(line, attr), decimals(published) or 0)


def match_checks(scores: Mapping[str, ScoredEvent], standings: Sequence[Row]) -> list[Check]:
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
        k = column_decimals(table.values())
        for m in sc.matches:
            pub = published_vp(table, m)
            if pub is not None:
                where = place_words(
                    ev, ("session", m.session), ("team", f"{m.team} v {m.opponent}")
                )
                (points if pab else vps).add(agrees(m.vp, pub, k), f"{where}: ours "
                                             f"{shown(m.vp, k)}, published {pub:g}")  # fmt: skip
    return [vps, points]
