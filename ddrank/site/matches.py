"""A teams event's matches as people read them: each match once (A v B, never again as B v A),
and a knockout as matches won and lost on IMPs, segment by segment, not as a VP ranking.

The store's `team_matches` has one row per team per match (its IMPs for and against, its VPs);
here the two rows of a match become one line. A knockout is an event whose scoring says so
(KO, KNOCKOUT) or one between exactly two teams: one match, which a VP ranking would only restate.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from ddrank.scoring.arithmetic.knockout import split_segment
from ddrank.site.data import Event, Row
from ddrank.site.ranking import number

KNOCKOUT_WORDS = ("KO", "KNOCKOUT", "KNOCK-OUT", "KNOCKOUTS")


def natural(label: Any) -> tuple[int, int | str]:
    """Team 2 before team 10; names after numbers, in their own order."""
    text = str(label or "")
    return (0, int(text)) if text.isdigit() else (1, text)


@dataclass
class Match:
    """One match (or one segment of a knockout match) between two teams."""

    session: str
    section: str
    team: str  # listed first (natural order)
    opponent: str
    boards: int
    imps_for: float | None
    imps_against: float | None
    vp_for: float | None = None
    vp_against: float | None = None


@dataclass
class Knockout:
    """A knockout match: its segments (sessions) and the winner on total IMPs."""

    team: str
    opponent: str
    segments: list[Match] = field(default_factory=list)
    stage: str = ""  # 'QtrF', 'Final' ('' when the file names none)

    @property
    def imps_for(self) -> float:
        return sum(m.imps_for or 0.0 for m in self.segments)

    @property
    def imps_against(self) -> float:
        return sum(m.imps_against or 0.0 for m in self.segments)

    @property
    def boards(self) -> int:
        return sum(m.boards for m in self.segments)

    @property
    def complete(self) -> bool:
        """False when the file holds fewer segments than it says the match has ('4 of 8')."""
        declared = max((split_segment(m.session)[2] or 0 for m in self.segments), default=0)
        return len(self.segments) >= declared

    @property
    def winner(self) -> str:
        """The team with more IMPs ('' when level)."""
        if abs(self.imps_for - self.imps_against) < 1e-9:
            return ""
        return self.team if self.imps_for > self.imps_against else self.opponent


def matches_of(ev: Event, team_matches: list[Row]) -> list[Match]:
    """The event's matches, each once, by session and team number."""
    rows = [m for m in team_matches if str(m.get("event") or "") == ev.event_id]
    by_key: dict[tuple[str, str, str, str], Row] = {}
    for m in rows:
        key = (str(m.get("session") or ""), str(m.get("section") or ""),
               str(m.get("team") or ""), str(m.get("opponent") or ""))  # fmt: skip
        by_key[key] = m
    out = []
    for (session, section, team, opponent), m in by_key.items():
        if natural(team) > natural(opponent) and (session, section, opponent, team) in by_key:
            continue  # the same match from the other team's side
        other = by_key.get((session, section, opponent, team), {})
        out.append(Match(session, section, team, opponent, int(number(m.get("boards")) or 0),
                         number(m.get("imps_for")), number(m.get("imps_against")),
                         number(m.get("vp")), number(other.get("vp"))))  # fmt: skip
    return sorted(out, key=lambda x: (x.session, x.section, natural(x.team), natural(x.opponent)))


def is_knockout(ev: Event, matches: list[Match]) -> bool:
    """The whole event is a knockout: said so by its source, or one match between two teams."""
    teams = {t for m in matches for t in (m.team, m.opponent)}
    return ev.kind in KNOCKOUT_WORDS or (len(teams) == 2 and bool(matches))


def split_matches(ev: Event, matches: list[Match]) -> tuple[list[Match], list[Match]]:
    """(round-robin matches, knockout segments): a segment the scoring stage scored as a knockout
    carries IMPs and no VPs (`ddrank.scoring.arithmetic.knockout`); a knockout event's matches are all one."""
    if is_knockout(ev, matches):
        return [], matches
    ko = [m for m in matches if m.vp_for is None and m.vp_against is None]
    return [m for m in matches if m not in ko], ko


def knockouts(matches: list[Match]) -> list[Knockout]:
    """Segments of the same two teams in one stage ('QtrF:1'.. 'QtrF:4') as one match."""
    groups: dict[tuple[str, str, frozenset[str]], Knockout] = {}
    order: dict[tuple[str, str, frozenset[str]], int] = defaultdict(int)
    for m in matches:
        stage = split_segment(m.session)[0]
        key = (stage, m.section, frozenset((m.team, m.opponent)))
        ko = groups.get(key)
        if ko is None:
            ko = groups[key] = Knockout(m.team, m.opponent, stage=stage)
            order[key] = len(order)
        if m.team != ko.team:  # listed from the other side in this segment
            m = Match(m.session, m.section, m.opponent, m.team, m.boards, m.imps_against,
                      m.imps_for, m.vp_against, m.vp_for)  # fmt: skip
        ko.segments.append(m)
    return [groups[k] for k in sorted(groups, key=lambda k: order[k])]
