"""A teams event published as its matches only: each match's IMPs, no table results.

PBN teams files (`[Scoring "Teams"]`) list the matches of each round (`TeamId_Home`,
`TeamId_Away`, the IMPs of each in `MatchDetails`, `VP_Home`, `VP_Away`) and the ranking by VPs;
the boards themselves are not in the file. Such an event is scored from the match IMPs: each
match's margin on the WBF continuous 20-VP scale, the VPs summed per team, teams ranked.

The scale needs the number of boards a match was played over, which these files do not state:
it is read off the published VPs, as the board count (1 to `MAX_BOARDS`) at which the WBF scale
reproduces the most published match VPs (ties: the fewest boards). Without published VPs the
event cannot be converted and says so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ddrank.scoring.arithmetic.precision import agrees_printed
from ddrank.scoring.arithmetic.teams import team_rankings, wbf_vp
from ddrank.scoring.model import EventInfo, TeamMatch, parse_number

MAX_BOARDS = 64


def match_standings(standings: Sequence[Mapping[str, Any]], event: str) -> list[Mapping[str, Any]]:
    """The event's published match results that carry IMPs (a matches-only file's)."""
    return [st for st in standings if st.get("opponent")
            and str(st.get("event_id") or st.get("event") or "") == event
            and parse_number(st.get("published_imps")) is not None]  # fmt: skip


def matches_only_events(standings: Sequence[Mapping[str, Any]], with_results: set[str]) -> set[str]:
    """Events whose published matches carry IMPs and which have no table result to score."""
    return {str(st.get("event_id") or st.get("event") or "") for st in standings
            if st.get("opponent") and parse_number(st.get("published_imps")) is not None} - with_results  # fmt: skip


def _matches(event: str, rows: Sequence[Mapping[str, Any]], boards: int) -> list[TeamMatch]:
    by: dict[tuple[str, str, str], float] = {}
    for st in rows:
        by[(str(st.get("session") or ""), str(st["pair"]), str(st["opponent"]))] = float(
            parse_number(st.get("published_imps")) or 0.0)  # fmt: skip
    out = []
    for (session, team, opp), imps in sorted(by.items()):
        against = by.get((session, opp, team))
        if against is None:
            continue
        m = TeamMatch(event, session, "", team, opp, boards, imps, against)  # the match's score
        m.vp = wbf_vp(imps - against, boards)
        out.append(m)
    return out


def board_count(event: str, rows: Sequence[Mapping[str, Any]]) -> tuple[int, int, int]:
    """(boards, published VPs reproduced, published VPs) of the best board count."""
    published = [(st, parse_number(st.get("published_vp"))) for st in rows]
    compared = sum(1 for _, vp in published if vp is not None)
    best = (0, 0)
    for n in range(1, MAX_BOARDS + 1):
        ours = {(m.session, m.team, m.opponent): m.vp for m in _matches(event, rows, n)}
        agree = sum(1 for st, vp in published if vp is not None and agrees_printed(ours.get(
            (str(st.get("session") or ""), str(st["pair"]), str(st["opponent"]))),
            st.get("published_vp")))  # fmt: skip
        if agree > best[1]:
            best = (n, agree)
    return best[0], best[1], compared


def score_matches(info: EventInfo, standings: Sequence[Mapping[str, Any]]
                  ) -> tuple[list[TeamMatch], list, str]:  # fmt: skip
    """The event's matches with their VPs, the teams' ranking, and why (the board count read)."""
    rows = match_standings(standings, info.event)
    n, agree, compared = board_count(info.event, rows)
    if not n:
        why = ("the file publishes each match's IMPs but no VPs to read the board count from: "
               "the matches are listed, not converted to VPs")  # fmt: skip
        return _matches(info.event, rows, 1), [], why
    matches = _matches(info.event, rows, n)
    names = {str(st.get("pair")): str(st.get("team_name") or st.get("players") or "")
             for st in standings if not st.get("opponent")
             and str(st.get("event_id") or st.get("event") or "") == info.event}  # fmt: skip
    lines = team_rankings(matches)
    for line in lines:
        line.players = names.get(line.pair) or line.players
    why = (f"WBF continuous 20-VP scale over {n} boards a match: the board count is not in the "
           f"file, and {n} reproduces {agree} of its {compared} published match VPs (the best of "
           f"1 to {MAX_BOARDS})")  # fmt: skip
    return matches, lines, why
