"""The event model: one table result (`EventResult`), its scores (`ScoredResult`), an event's
facts (`EventInfo`) and a pair's line in a ranking (`PairLine`). Every stage after reading works
on these: scoring, the bid/play split, the Lehman and skill ratings.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

#: A matchpoint method: a lift of the board arithmetic ("neuberg", "mitchell1", "mitchell1_bis",
#: "ascherman", "none") or a producer's own arithmetic (its rulebook's `method`).
MpMethod = str
EventScoring = Literal["MP", "IMP", "BUTLER", "TEAMS", "BAM"]
#: Team events: matches between teams (IMPs to VPs, or point-a-board board points).
TEAM_SCORINGS = ("TEAMS", "BAM")

#: Conventional artificial adjusted scores (Law 12C2): percentage of the top.
ADJUSTED_CODES = {"A+": 60.0, "A": 50.0, "A=": 50.0, "AV": 50.0, "AVE": 50.0, "A-": 40.0,
                  "AV+": 60.0, "AV-": 40.0, "AVE+": 60.0, "AVE-": 40.0}  # fmt: skip


# ---------------------------------------------------------------- the rules an event is scored by

CROSS = "cross"
BUTLER = "butler"
#: IMPs per % above average of an artificial score: A+ (60%) = +3, A- (40%) = -3 (the EBU's rule).
ADJUSTED_RATE = 0.3


@dataclass(frozen=True, slots=True)
class ImpRule:
    """One IMP pairs scoring rule; the defaults are the EBU's (and ddrank's before this rule)."""

    kind: str = CROSS  # "cross" | "butler"
    cross: str = "comparisons"  # cross-IMPs: "comparisons" (the average per comparison) | "sum"
    drop: int = 1  # Butler: results dropped at each end before the mean (never all of them)
    drop_fraction: float | None = None  # ... or this share of them (e.g. 5%), last in part
    median: bool = False  # Butler: the datum is the median (every result but the middle dropped)
    datum_step: int = 10  # Butler: the datum rounded to this many points (0: not rounded)
    datum_half: str = "away"  # a datum half-way between steps: "away" from zero | "even"
    adjusted_rate: float = ADJUSTED_RATE  # IMPs per % above average of an artificial score
    # Butler: each board's datum as the file publishes it, where no rule of ours reproduces the
    # file's datums (some scorers print it on each traveller); last resort
    datum_published: bool = False
    across: bool | None = None  # sections compared as one field (None: as the event says)
    # A pair's total: its lines summed (each rounded to `line_decimals` first, as printed, when
    # set), and a pair that played fewer boards factored up to "most" boards any pair of its
    # ranking played (EBU), or to the "boards" of the session (a sit-out every round);
    # `sum_decimals`: the sum rounded as printed before it is factored (EBU's Pianola)
    line_decimals: int | None = None
    sum_decimals: int | None = None
    factor_to: str = "most"
    one_ranking: bool = False  # North-South and East-West ranked together

    def words(self) -> str:
        """'cross-IMPs summed over every comparison', 'Butler: datum the mean after dropping 1
        result at each end, rounded to 10 (halves away from zero)'."""
        if self.kind == CROSS:
            text = ("cross-IMPs summed over every comparison" if self.cross == "sum"
                    else "cross-IMPs averaged per comparison")  # fmt: skip
        else:
            how = ("the median" if self.median else
                   f"the mean after dropping {self.drop_fraction:.0%} of the results at each end"
                   if self.drop_fraction is not None else
                   f"the mean after dropping {self.drop} result{'s' if self.drop != 1 else ''} "
                   "at each end")  # fmt: skip
            rounding = (f"rounded to {self.datum_step} (halves "
                        f"{'to even' if self.datum_half == 'even' else 'away from zero'})"
                        if self.datum_step else "not rounded")  # fmt: skip
            text = f"Butler: datum {how}, {rounding}"
            if self.datum_published:
                text = "Butler: each board's datum as the file publishes it"
        if self.adjusted_rate != ADJUSTED_RATE:
            text += f"; an artificial score {self.adjusted_rate * 10:g} IMPs per 10% above average"
        if self.across:
            text += "; sections compared as one field"
        if self.line_decimals is not None:
            text += f"; totals sum the lines as printed ({self.line_decimals} decimals)"
        if self.sum_decimals is not None:
            text += f"; a pair's sum rounded to {self.sum_decimals} decimals before it is factored"
        if self.factor_to == "boards":
            text += "; a pair's total factored up to every board of the session"
        if self.one_ranking:
            text += "; one ranking for both directions"
        return text


@dataclass(frozen=True, slots=True)
class MpRule:
    """How lines and totals are made from board matchpoints; the default is exact sums."""

    producer: str = ""  # whose rule it is (its rulebook; "" = none declared: exact sums)
    round_lines: bool = False  # each board's matchpoints summed as printed (their decimals)
    line_decimals: int | None = None  # those decimals, read off the file's printed lines
    own_top_lines: bool = False  # a board played fewer times is printed on its own top
    factor_boards: bool = False  # a total over fewer boards factored up to the most played
    method: str = ""  # the lift method the producer documents ("" = as the values say)

    def words(self) -> str:
        """What the rule does, for the 'why' of a method choice."""
        parts = []
        if self.round_lines:
            k = "" if self.line_decimals is None else f" ({self.line_decimals} decimals)"
            parts.append(f"totals are the sums of the board matchpoints as printed{k}")
        if self.own_top_lines:
            parts.append("a board played fewer times printed on its own top")
        if self.factor_boards:
            parts.append("a pair's total over fewer boards factored up to the most played")
        return f"{self.producer}: {', '.join(parts)}" if parts else self.producer


# ---------------------------------------------------------------- results, lines and matches


class ScoringError(ValueError):
    """A result that cannot be scored as given (named by its record)."""


@dataclass(frozen=True, slots=True)
class EventInfo:
    """What the event says about how it is scored; "" / None = infer from the results."""

    event: str
    scoring: str = ""  # MP | IMP (cross-IMPs) | BUTLER | TEAMS | BAM (point-a-board) | ""
    movement: str = ""  # howell | mitchell | ""
    across_field: bool = False
    mp_top: float | None = None  # 2, or 1 as some federations score, per result beaten; None = 2
    date: str = ""  # ISO date of the event (rating periods are in date order)
    scorer: str = ""  # the scoring program the source names (its rulebook's `declares`)
    federation: str = ""  # whose rules the source follows, where it tells (its rulebooks)
    # TEAMS: the VP scale read from the file's published matches (ddrank.scoring.choice.vpscale):
    # (boards, IMP margin, winner's VPs) steps; () = the WBF continuous scale
    vp_scale: tuple[tuple[int, int, float], ...] = ()
    # The scoring as the source declares it, word for word (PBN `[Scoring "IMP;Butler-2;Mean"]`,
    # an XML file's `EVENT_TYPE`): `scoring` is what it means; IMP rules read their details from it.
    declared: str = ""
    # IMP and BUTLER: the rule the event is scored by (ddrank.scoring.choice.impchoice); None = EBU's
    imp_rule: ImpRule | None = None
    # MP: the producer's arithmetic of lines and totals (ddrank.scoring.arithmetic.mprule); None = exact
    mp_rule: MpRule | None = None
    # an individual event: players, not pairs, are ranked (ddrank.scoring.arithmetic.individual)
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
    eligible: bool = True  # False: ranked after every eligible pair (no awards)

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


def rank_key(x: PairLine) -> tuple[int, float]:
    """What a line is ranked on, best first: eligible pairs before the others, then the
    percentage (or the total where there is no top)."""
    value = x.pct if x.pct is not None else x.mp
    return (0 if x.eligible else 1), -round(value, 6)


def assign_ranks(lines: Sequence[PairLine], by_direction: bool = True) -> None:
    """Rank within (event, session, section, direction); equal scores share a place (3=, 3=, 5).
    `by_direction=False`: North-South and East-West in one ranking. A pair not eligible for awards
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


@dataclass
class ScoredEvent:
    """Everything scored for one event."""

    info: EventInfo
    results: list[ScoredResult] = field(default_factory=list)
    rankings: list[PairLine] = field(default_factory=list)
    matches: list[TeamMatch] = field(default_factory=list)
    butler: list[PairLine] = field(default_factory=list)
    # How it was scored (ddrank.scoring.choice.method) and how many published values that reproduces
    method: str = ""
    method_reason: str = ""
    published_compared: int = 0
    published_agree: int = 0
    #: each kind of published value against ours (ddrank.scoring.verification.published.Check), made once
    checks: list = field(default_factory=list)
    #: IMP pairs: the sit-out rows a scorer published a pair's credit on (a `Bye` row), checked
    sitouts: list[EventResult] = field(default_factory=list)


@dataclass
class TeamMatch:
    """One team's match: IMPs for and against, boards compared, and VPs."""

    event: str
    session: str
    section: str
    team: str
    opponent: str
    boards: int = 0
    imps_for: float = 0.0
    imps_against: float = 0.0
    vp: float | None = 0.0  # VPs; point-a-board: board points; None: a knockout's segment
    points: float = 0.0  # board points (point-a-board), 2 a board won, 1 tied
