"""The event model: one table result (`EventResult`), its scores (`ScoredResult`), an event's
facts (`EventInfo`) and a pair's line in a ranking (`PairLine`). Every stage after reading works
on these: scoring, the bid/play split, the Lehman and skill ratings.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

from ddrank.scoring.imprule import ImpRule
from ddrank.scoring.mprule import MpRule
from ddrank.scoring.precision import round_half_away

MpMethod = Literal["neuberg", "mitchell1", "mitchell1_bis", "ascherman", "none", "acbl"]
EventScoring = Literal["MP", "IMP", "BUTLER", "TEAMS", "BAM"]
#: Team events: matches between teams (IMPs to VPs, or point-a-board board points).
TEAM_SCORINGS = ("TEAMS", "BAM")

#: Conventional artificial adjusted scores (Law 12C2): percentage of the top.
ADJUSTED_CODES = {"A+": 60.0, "A": 50.0, "A=": 50.0, "AV": 50.0, "AVE": 50.0, "A-": 40.0,
                  "AV+": 60.0, "AV-": 40.0, "AVE+": 60.0, "AVE-": 40.0}  # fmt: skip


class ScoringError(ValueError):
    """A result that cannot be scored as given (named by its record)."""


@dataclass(frozen=True, slots=True)
class EventInfo:
    """What the event says about how it is scored; "" / None = infer from the results."""

    event: str
    scoring: str = ""  # MP | IMP (cross-IMPs) | BUTLER | TEAMS | BAM (point-a-board) | ""
    movement: str = ""  # howell | mitchell | ""
    across_field: bool = False
    mp_top: float | None = None  # 2 (EBU, FFB) or 1 (ACBL) per result beaten; None = 2
    date: str = ""  # ISO date of the event (rating periods are in date order)
    scorer: str = ""  # the scoring program the source names (its rulebook's `declares`)
    federation: str = ""  # whose rules the source follows, where it tells ("ACBL")
    # TEAMS: the VP scale read from the file's published matches (ddrank.scoring.vpscale):
    # (boards, IMP margin, winner's VPs) steps; () = the WBF continuous scale
    vp_scale: tuple[tuple[int, int, float], ...] = ()
    # The scoring as the source declares it, word for word (PBN `[Scoring "IMP;Butler-2;Mean"]`,
    # USEBIO `EVENT_TYPE`): `scoring` is what it means; IMP rules read their details from it.
    declared: str = ""
    # IMP and BUTLER: the rule the event is scored by (ddrank.scoring.impchoice); None = EBU's
    imp_rule: ImpRule | None = None
    # MP: the producer's arithmetic of lines and totals (ddrank.scoring.mprule); None = exact
    mp_rule: MpRule | None = None
    # an individual event: players, not pairs, are ranked (ddrank.scoring.individual)
    individual: bool = False
    # Sections matchpointed as one field / ranked together ("A+B;C"), where the source says more
    # than across_field; the most matchpoints a pair can score in a session (a game file's).
    fields: str = ""
    rankings: str = ""
    max_score: float | None = None
    # What a director applied to pairs' session totals (from the published
    # standings): (session, section, direction, pair, adjustment, eligible) per pair.
    pair_inputs: tuple[tuple[str, str, str, str, float, bool], ...] = ()


@dataclass(frozen=True, slots=True)
class EventResult:
    """One table's result on one board, with everything needed to score and to compare."""

    record_id: str
    event: str
    board: str
    session: str = ""
    section: str = ""
    played: str = ""  # deal + dealer + vulnerability: different values under one board = fouled
    ns_pair: str = ""
    ew_pair: str = ""
    ns_players: str = ""
    ew_players: str = ""
    players: tuple[str, str, str, str] = ("", "", "", "")  # N, E, S, W identities (rating)
    ns_score: int | None = None  # None: adjusted, or no score
    # East-West's own score (their side) where a director split the result; with
    # `adjusted` set too, North-South's side is the artificial one.
    ew_score: int | None = None
    repeat: str = ""  # "NS"/"EW": that pair's second play of the board: in the field, not its
    adjusted: tuple[float, float] | None = None  # (NS %, EW %) of an adjusted score
    phantom: str = ""  # "NS" / "EW": a phantom or sit-out table, not a result
    contract: str = ""
    declarer: str = ""
    tricks: int | None = None
    home_team: str = ""
    visit_team: str = ""
    room: str = ""
    order: int = 0  # position in the source, for stable output and room order
    published_ns_mp: float | None = None
    published_ew_mp: float | None = None
    published_ns_pct: float | None = None
    published_ew_pct: float | None = None
    published_imps: float | None = None
    published_datum: float | None = None  # the Butler datum as published
    # An individual event: the four players' numbers in the event, N, E, S, W (else "")
    player_numbers: tuple[str, str, str, str] = ("", "", "", "")
    # What the stages after scoring compare tables by (the bid/play split, the skill ratings):
    match: str = ""  # 'A v B', the teams of the match (teams events)
    deal_id: str = ""  # the store's deal (its DD table), when read from the store
    names: tuple[str, str, str, str] = ("", "", "", "")  # N, E, S, W names as read
    ns_vulnerable: bool | None = None
    ew_vulnerable: bool | None = None
    year: int = 0  # the scoring table's year (duplicate scores changed over time)
    date: str = ""  # the board's date as read
    round: str = ""  # the round and table as the source gives them ("" where it does not)
    table: str = ""
    # Where the record was read (file, 1-based line): errors name it. Not part of the content.
    source: str = field(default="", repr=False, compare=False)
    line: int | None = field(default=None, repr=False, compare=False)

    @property
    def is_result(self) -> bool:
        """Phantom and sit-out tables, and tables with neither score nor adjustment, are not."""
        return not self.phantom and (self.ns_score is not None or self.adjusted is not None)


@dataclass(frozen=True, slots=True)
class ScoredResult:
    """A result with what we computed for it (None where the event's scoring does not apply)."""

    result: EventResult
    field_size: int = 0  # N: results the board is scored over (the fullest board of the field)
    group_size: int = 0  # results that played the same cards (and were not adjusted)
    ns_mp: float | None = None
    ew_mp: float | None = None
    ns_pct: float | None = None
    ew_pct: float | None = None
    imps: float | None = None  # North-South's: vs the other room (teams), cross-IMPs or Butler
    butler: float | None = None  # North-South's Butler IMPs against the field's datum
    datum: float | None = None  # the Butler datum this result was compared with (IMP pairs)
    # East-West's IMPs where they are not minus North-South's: an artificial score, each side its
    # own (A+/A+ gives both sides the average-plus IMPs)
    ew_imps: float | None = None
    top: float = 0.0  # the board's matchpoint top, top * (N - 1) (0 outside matchpoint scoring)
    # (NS, EW) matchpoints as the producer prints the line where that differs from what it sums
    # (`MpRule.own_top_lines`: a board played fewer times printed on its own top); None = ns_mp, ew_mp
    printed: tuple[float, float] | None = None


def parse_adjusted(text: str) -> tuple[float, float]:
    """'60/40', '50/50', 'A+/A-', 'A+' (the other side A-), 'A' -> (NS %, EW %)."""
    t = text.strip().upper().replace(" ", "").replace("%", "")
    if not t:
        raise ScoringError("empty adjusted score")
    parts = t.split("/")
    if len(parts) == 1:
        if t in ADJUSTED_CODES:
            ns = ADJUSTED_CODES[t]
            return ns, 100.0 - ns if t != "A" else 50.0
        raise ScoringError(f"adjusted score {text!r} is not NS%/EW% or A+/A/A-")
    if len(parts) != 2:
        raise ScoringError(f"adjusted score {text!r} is not NS%/EW%")
    out: list[float] = []
    for p in parts:
        if p in ADJUSTED_CODES:
            out.append(ADJUSTED_CODES[p])
            continue
        try:
            v = float(p)
        except ValueError:
            raise ScoringError(f"adjusted score {text!r}: {p!r} is not a percentage") from None
        if not 0.0 <= v <= 100.0:
            raise ScoringError(f"adjusted score {text!r}: {p} is outside 0..100")
        out.append(v)
    return out[0], out[1]


def parse_number(text: object) -> float | None:
    """A published number as written ('12.5', '+4', '-', ''), None when absent."""
    if text is None:
        return None
    if isinstance(text, int | float):
        return None if isinstance(text, float) and math.isnan(text) else float(text)
    t = str(text).strip().replace(",", ".").rstrip("%")
    if t in ("", "-", "--"):
        return None
    try:
        return float(t)
    except ValueError:
        return None


@lru_cache(maxsize=1 << 16)  # a pair's names repeat on every board it plays
def _identity(players: str) -> str:
    """A pair's players regardless of seat order: 'A - B' and 'B - A' are one pair."""
    names = [p.strip() for p in re.split(r"\s+[-&]\s+", players) if p.strip()]
    return " - ".join(sorted(names))


@dataclass
class PairLine:
    """One pair's total in one ranking (a session's section, or the whole event)."""

    event: str
    session: str
    section: str
    direction: str  # NS, EW or "" (Howell, or the event total when a pair changed direction)
    pair: str
    players: str
    boards: int = 0
    mp: float = 0.0  # matchpoints, or IMPs in an IMP-scored event
    top: float = 0.0  # the sum of the tops of the boards played (matchpoint events)
    rank: int = 0
    factor: float = 1.0  # IMP totals: what the pair's sum was multiplied by (a sit-out)
    kind: str = ""  # "" = the event's own kind; "knockout": a team's line in a knockout match
    eligible: bool = True  # False: ranked after every eligible pair (ACBL: no awards)

    @property
    def pct(self) -> float | None:
        return 100.0 * self.mp / self.top if self.top else None

    def add(self, score: float, top: float, players: str = "") -> None:
        """One more board: its score and top (the players named where the line has none)."""
        self.boards += 1
        self.mp += score
        self.top += top
        if not self.players and players:
            self.players = players


def factor_imp_totals(lines: Sequence[PairLine],
                      boards: Mapping[tuple[str, str, str], int] | None = None,
                      decimals: int | None = None) -> None:  # fmt: skip
    """IMP totals of pairs that played fewer boards (a sit-out) are factored up to the most boards
    played in their ranking, as EBU scorers do ("Factor IMPs"): a sit-out neither adds nor costs;
    or, given `boards` per (event, session, section), up to that many (every pair sits out
    some rounds, and the total is the one every board would have given). `decimals`: the sum is
    rounded to them (halves away from zero, as printed) before it is factored.

    Matchpoint lines are left alone: their percentage already is per board.
    """
    groups: dict[tuple[str, str, str, str], list[PairLine]] = defaultdict(list)
    for line in lines:
        if not line.top:
            groups[(line.event, line.session, line.section, line.direction)].append(line)
    for key, members in groups.items():
        most = max(x.boards for x in members)
        if boards is not None:
            most = max(most, boards.get(key[:3], 0))
        for line in members:
            if 0 < line.boards < most:
                line.factor = most / line.boards
                if decimals is not None:
                    line.mp = round_half_away(line.mp, decimals)
                line.mp = line.mp * line.factor


def rank_key(x: PairLine) -> tuple[int, float]:
    """What a line is ranked on, best first: eligible pairs before the others, then the
    percentage (or the total where there is no top)."""
    value = x.pct if x.pct is not None else x.mp
    return (0 if x.eligible else 1), -round(value, 6)


def assign_ranks(lines: Sequence[PairLine], by_direction: bool = True) -> None:
    """Rank within (event, session, section, direction); equal scores share a place (3=, 3=, 5).
    `by_direction=False`: North-South and East-West in one ranking. A pair not eligible (ACBL)
    is placed after every eligible pair."""
    groups: dict[tuple[str, str, str, str], list[PairLine]] = defaultdict(list)
    for line in lines:
        groups[(line.event, line.session, line.section,
                line.direction if by_direction else "")].append(line)  # fmt: skip
    for members in groups.values():
        ordered = sorted(members, key=rank_key)
        for i, line in enumerate(ordered):
            if i and rank_key(line) == rank_key(ordered[i - 1]):
                line.rank = ordered[i - 1].rank
            else:
                line.rank = i + 1
