"""What each DD mistake cost, in the event's own units: matchpoints, IMPs or board points.

The counters (`board_tallies`) and `explain` measure a mistake in total points: the DD score
before the card or call against the DD score after it. Added up over a board, or ranked across
boards, such points mean little to a player: 1,670 points for a redouble nobody would have left
in, 2,440 points on a board that swung 5 IMPs. A player trusts what the mistake cost at the table:

* **Cards and claims** (`basis` "table"): what the side's play lost it at the table, in the
  event's units against the board's other results (the other room, or the field): its result had
  none of its own DD mistakes been made (the table's tricks plus those it threw away, the
  opponents' mistakes as they were) minus its result, shared among its mistakes by the tricks
  each lost. A side's costs on a board add up to that loss: two mistakes the opponents gave back
  do not cost 24 IMPs on a board that swung 5.
* **A double or redouble the side made** (doubling a making contract, redoubling a failing one):
  the same at the table's own result, when that result shows the loss (`basis` "table").
* **Every other call** (a missed double or redouble, another contract, passing instead of
  bidding on): an alternative the side did not take, valued double dummy as if the opponents had
  let it stand (`basis` "hypothetical"). Its cost is labelled so, and ranks below real losses.

A `Valuer` turns North-South's score into North-South's units on the board, the other results
as they were (`board_valuer`, with the scoring module's own rules: matchpoints with the event's
top and factoring, IMPs against the other room, cross-IMPs or Butler against the field, board
points). East-West's units move by the same amount the other way. Where the board has nothing to
compare with (the other room missing, an adjusted score), the cost is None and the DD points
remain.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from ddrank.dd.tables import TrickTable
from ddrank.mistakes.explain import CallMistake, call_mistakes, card_mistakes, claim_mistake
from ddrank.mistakes.scores import contract_score
from ddrank.mistakes.variables import DECLARER_ERRONEOUS_REDOUBLE, DEFENDER_ERRONEOUSLY_DOUBLED
from ddrank.scoring.arithmetic.boards import field_key, score_imp_board, score_mp_board
from ddrank.scoring.arithmetic.teams import match_key, score_teams_event
from ddrank.scoring.model import TEAM_SCORINGS, EventInfo, EventResult
from ddrank.types import Auction, Card, Contract, Seat

#: North-South's score -> North-South's units on the board (None: nothing to compare it with).
Valuer = Callable[[int], float | None]

TABLE, HYPOTHETICAL = "table", "hypothetical"

#: The words a call mistake is told in (the categories of ddrank.mistakes.variables).
CALL_WORDS = {
    "defender_missed_current_double": "did not double",
    "defender_erroneously_doubled": "doubled a making contract",
    "defender_missed_higher_contract": "defended when bidding on was better",
    "declarer_missed_higher_contract": "stopped in the wrong contract",
    "declarer_missed_doubling_opponents_last_bid": "bid on instead of doubling",
    "declarer_missed_opponents_last_redouble": "bid on over a redouble",
    "declarer_missed_redoubling_opponents_erroneous_double": "did not redouble",
    "declarer_missed_opponents_last_bid": "bid on instead of defending",
    "declarer_erroneous_redouble": "redoubled a failing contract",
    "passed_higher_contract": "passed out a makeable deal",
}
#: Calls the side made whose cost the table's own result can show.
MADE_CALLS = {
    DEFENDER_ERRONEOUSLY_DOUBLED: 0,
    DECLARER_ERRONEOUS_REDOUBLE: 1,
}  # -> doubling instead


@dataclass(frozen=True, slots=True)
class Mistake:
    """One DD mistake, who made it, and what it cost."""

    seats: tuple[Seat, ...]  # the players charged
    kind: str  # lead, declarer, defence, claim, auction
    category: str  # the counter it adds to (ddrank.mistakes.variables)
    what: str  # "W played SK", "S 2NT: NS did not redouble"
    instead: str  # what double dummy would have done ("" where the caller fills it in)
    dd_points: float  # the DD score difference (the weighted counter's share)
    cost: float | None  # in the event's units; None where the board has nothing to compare with
    basis: str  # TABLE or HYPOTHETICAL
    tricks: int | None = None  # DD tricks lost (cards and claims)
    trick: int | None = None  # 1-based trick of a card
    position: int | None = None  # 1-based place of the card in its trick
    card_index: int | None = None  # 0-based index of the card in the play
    card: str | None = None
    call_index: int | None = (
        None  # 0-based index of the call marked (None: the side's whole auction)
    )
    call: str | None = None


@dataclass(frozen=True, slots=True)
class Table:
    """What one table result holds for the analysis (from a store row or a reader)."""

    contract: Contract | None  # None: passed out (with `passed_out`) or unknown
    tricks: int | None  # the tricks declarer took at the table
    vul_ns: bool
    vul_ew: bool
    year: int
    auction: Auction | None = None
    dd: TrickTable | None = None
    cards: Sequence[Card] = ()
    seats: Sequence[Seat] = ()
    trace: Sequence[int] | None = None
    claimed: int | None = None
    passed_out: bool = False

    def ns_score(self, tricks: int, doubled: int | None = None) -> int:
        """North-South's score in the contract with `tricks` (and another doubling if given)."""
        assert self.contract is not None and self.contract.declarer is not None
        c = self.contract if doubled is None else self.contract.with_doubling(doubled)
        declarer = self.contract.declarer
        vul = self.vul_ns if declarer.is_ns else self.vul_ew
        points = contract_score(c, tricks, vul, self.year)
        return points if declarer.is_ns else -points


def side_sign(seats: Sequence[Seat]) -> int:
    """+1 when the seats are North-South, -1 when East-West: EW's units move against NS's."""
    return 1 if seats[0].is_ns else -1


def loss(value: Valuer, sign: int, ns_should: int, ns_did: int) -> float | None:
    """What the side (sign) lost in units by scoring `ns_did` instead of `ns_should` (NS's)."""
    a, b = value(ns_should), value(ns_did)
    if a is None or b is None:
        return None
    return round(sign * (a - b), 4) + 0.0  # + 0.0: never -0.0


def card_costs(t: Table, value: Valuer) -> list[Mistake]:
    """Each card that lost its side tricks double dummy, and each claim for other than DD's.

    What a side's play cost it at the table: its result had none of its own mistakes been made,
    the opponents' as they were (the table's tricks plus the tricks the side threw away), minus
    its result, in the event's units. Each mistake gets its share by the tricks it lost, so the
    side's costs on a board add up to that loss, never to more."""
    if t.contract is None or t.trace is None or len(t.trace) != len(t.cards) + 1:
        return []
    declarer = t.contract.declarer
    assert declarer is not None
    vul = t.vul_ns if declarer.is_ns else t.vul_ew
    found: list[Mistake] = []
    for m in card_mistakes(t.contract, declarer, t.cards, t.seats, tuple(t.trace), vul, t.year):
        who = m.seat.letter + (f" (dummy, for {m.charged.letter})" if m.seat != m.charged else "")
        found.append(Mistake((m.charged,), m.kind, _card_category(m.kind), f"{who} played {m.card}",
                             "", m.points, None, TABLE, m.tricks, m.trick, m.position, m.index,
                             str(m.card)))  # fmt: skip
    if t.claimed is not None:
        cm = claim_mistake(t.contract, declarer, t.claimed, int(t.trace[-1]), vul, t.year)
        if cm is not None:
            found.append(Mistake(cm.seats, "claim", "claim_mistakes",
                                 f"claim of {cm.claimed} tricks accepted",
                                 f"{cm.dd_tricks} tricks (double dummy)", cm.points, None, TABLE,
                                 abs(cm.claimed - cm.dd_tricks)))  # fmt: skip
    made = t.tricks if t.tricks is not None else t.claimed if t.claimed is not None else t.trace[-1]
    out = []
    for sign in (1, -1):
        own = [m for m in found if side_sign(m.seats) == sign]
        lost = sum(m.tricks or 0 for m in own)
        if not own or not lost:
            out += own
            continue
        declaring = sign == side_sign((declarer,))
        undone = min(13, made + lost) if declaring else max(0, made - lost)
        joint = loss(value, sign, t.ns_score(undone), t.ns_score(made))
        out += [replace(m, cost=None if joint is None else joint * (m.tricks or 0) / lost)
                for m in own]  # fmt: skip
    return sorted(out, key=lambda m: (m.card_index is None, m.card_index or 0))


def _card_category(kind: str) -> str:
    return {"lead": "lead_mistakes", "declarer": "play_mistakes_as_declarer"}.get(
        kind, "play_mistakes_as_defender"
    )


def call_costs(t: Table, value: Valuer) -> list[Mistake]:
    """Each side's auction mistake (as the counters charge it), valued in the event's units."""
    if t.auction is None or t.dd is None or (t.contract is None and not t.passed_out):
        return []
    out = []
    for m in call_mistakes(t.auction, t.contract, t.dd, t.vul_ns, t.vul_ew, t.year):
        sign = side_sign(m.seats)
        reached = (
            0
            if t.contract is None
            else t.ns_score(t.dd.tricks(t.contract.strain, t.contract.declarer))
        )  # type: ignore[arg-type]
        cost, basis = _made_call_cost(t, m, value, sign)
        if basis != TABLE:  # the alternative, as if the opponents had let it stand
            cost = loss(value, sign, reached + sign * round(m.points), reached)
        out.append(Mistake(tuple(m.seats), "auction", m.category, _call_text(t.auction, m),
                           m.alternative, m.points * m.share,
                           None if cost is None else round(cost * m.share, 4), basis,
                           call_index=m.call,
                           call=None if m.call is None else str(t.auction.calls[m.call])))  # fmt: skip
    return out


def _made_call_cost(t: Table, m: CallMistake, value: Valuer, sign: int) -> tuple[float | None, str]:
    """A double or redouble the side made, at the table's own result: a real loss when that
    result shows one, else only the DD one (hypothetical)."""
    if m.category not in MADE_CALLS or t.tricks is None or t.contract is None:
        return None, HYPOTHETICAL
    instead = MADE_CALLS[m.category]
    cost = loss(value, sign, t.ns_score(t.tricks, instead), t.ns_score(t.tricks))
    if cost is None or cost <= 0:
        return None, HYPOTHETICAL
    return cost, TABLE


def _call_text(auction: Auction, m: CallMistake) -> str:
    side = "".join(s.letter for s in sorted(m.seats))
    words = CALL_WORDS.get(m.category, m.category.replace("_", " "))
    share = f" (one of {round(1 / m.share)} equal mistakes)" if m.share < 1 else ""
    if m.call is None:
        return f"{side} made no call: {side} {words}{share}"
    call = auction.calls[m.call]
    shown = "Pass" if str(call) == "P" else str(call)
    return f"{auction.seat_of(m.call).letter} {shown}: {side} {words}{share}"


def table_costs(t: Table, value: Valuer) -> list[Mistake]:
    """Every DD mistake of one table result: the auction's, then the play's."""
    return call_costs(t, value) + card_costs(t, value)


# ------------------------------------------------------------------ valuing a score on its board


def unit_of(info: EventInfo) -> str:
    """The event's own unit of a board result."""
    if info.scoring == "BAM":
        return "board points"
    if info.scoring in TEAM_SCORINGS or info.scoring in ("IMP", "BUTLER"):
        return "IMP"
    return "MP"


def board_fields(results: Sequence[EventResult], info: EventInfo
                 ) -> dict[str, list[EventResult]]:  # fmt: skip
    """record_id -> the results its score is compared with (itself included): the other room of
    its match (teams), else its board's field (its section, or every section)."""
    groups: dict[tuple, list[EventResult]] = {}
    for r in results:
        key: tuple = ((*match_key(r), r.board) if info.scoring in TEAM_SCORINGS
                      else field_key(r, info.across_field))  # fmt: skip
        groups.setdefault(key, []).append(r)
    return {r.record_id: g for g in groups.values() for r in g}


def board_valuer(result: EventResult, field: Sequence[EventResult], info: EventInfo,
                 method: str = "neuberg", field_size: int | None = None) -> Valuer:  # fmt: skip
    """NS's units on the board had `result` scored a given NS score, the others unchanged, by the
    event's own scoring rules (ddrank.scoring)."""
    others = [r for r in field if r.record_id != result.record_id]

    @lru_cache(maxsize=64)
    def value(ns_score: int) -> float | None:
        if result.ns_score is None or result.phantom:  # adjusted or no result: not comparable
            return None
        mine = replace(result, ns_score=int(ns_score), adjusted=None)
        if info.scoring in TEAM_SCORINGS:
            bam = info.scoring == "BAM"
            scored, _ = score_teams_event([mine, *others], info.vp_scale, bam)
            s = next((x for x in scored if x.result.record_id == result.record_id), None)
            if s is None:
                return None
            return s.ns_mp if bam else s.imps
        if info.scoring in ("IMP", "BUTLER"):
            scored = score_imp_board([mine, *others], info.scoring)  # type: ignore[arg-type]
            s = next((x for x in scored if x.result.record_id == result.record_id), None)
            return None if s is None or s.group_size < 2 else s.imps
        scored = score_mp_board([mine, *others], field_size, info.mp_top or 2.0, method)  # type: ignore[arg-type]
        s = next((x for x in scored if x.result.record_id == result.record_id), None)
        return None if s is None or s.group_size < 2 else s.ns_mp

    return value
