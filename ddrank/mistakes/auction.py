"""Auction mistakes against the double-dummy table (Marriner 2024 §2.2; reference §4.3).

Each side is judged as a partnership on the contract the auction reached. For every alternative
that was still open to it (a higher contract, a double, a redouble, letting the opponents play) the
side's DD score is compared with its DD score in the actual contract; the single largest gain names
the mistake, and ties share it 1/k. Contracts a side could have bid but would go down in are scored
as doubled ("assumed doubled"). Only a seat whose partner had not bid the strain first can declare
it ("declarer candidates"), because partner would have become declarer instead.

Deviation from the reference: the magnitude of "missed redoubling the opponents' erroneous double"
is the best redouble's gain (dds:211 recorded the earliest doubled bid's, even when <= 0).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ddrank.dd.tables import TrickTable
from ddrank.mistakes.scores import assumed_doubled_score, contract_score, score
from ddrank.mistakes.variables import (
    AUCTIONS,
    DECLARER_ERRONEOUS_REDOUBLE,
    DECLARER_MISSED_DOUBLING_LAST_BID,
    DECLARER_MISSED_HIGHER_CONTRACT,
    DECLARER_MISSED_LAST_BID,
    DECLARER_MISSED_LAST_REDOUBLE,
    DECLARER_MISSED_REDOUBLING_DOUBLE,
    DEFENDER_ERRONEOUSLY_DOUBLED,
    DEFENDER_MISSED_CURRENT_DOUBLE,
    DEFENDER_MISSED_HIGHER_CONTRACT,
    PASSED_OUT,
    Tally,
    weighted,
)
from ddrank.types import ALL_BIDS, Auction, Call, CallKind, Contract, Seat, Strain

#: Below any real score (7NT XX vulnerable down 13 is -7600): "no candidate yet".
FLOOR = -7600


@dataclass(frozen=True, slots=True)
class Candidate:
    """An alternative the side had, and how many points better than the actual result it was."""

    gain: float
    category: str
    #: What the side should have done instead, in words ("4♠ by S", "double 3♥"): for the site.
    alternative: str = ""
    #: Index of the call the site marks (the side's last chance to choose it); None: its last call.
    call: int | None = None


def declarer_candidates(auction: Auction) -> dict[Strain, set[Seat]]:
    """Seats that could still become declarer in each strain, given who bid it first.

    Walking the auction, a bid of strain s by seat b removes b's partner for s, unless one of the
    two had already been removed. So each side keeps whichever partner named the strain first.
    """
    allowed = {s: set(Seat) for s in Strain}
    for k, call in enumerate(auction.calls):
        if call.kind != CallKind.BID:
            continue
        assert call.strain is not None
        bidder = auction.seat_of(k)
        if bidder in allowed[call.strain] and bidder.partner in allowed[call.strain]:
            allowed[call.strain].discard(bidder.partner)
    return allowed


def would_be_declarer(auction: Auction, index: int) -> Seat:
    """Who would declare if the bid at `index` ended the auction: the first of the bidder's side
    to have named that strain up to and including that bid."""
    bid = auction.calls[index]
    side = auction.seat_of(index) % 2
    for k in range(index + 1):
        call = auction.calls[k]
        if (
            call.kind == CallKind.BID
            and call.strain == bid.strain
            and auction.seat_of(k) % 2 == side
        ):
            return auction.seat_of(k)
    raise AssertionError("unreachable: the bid itself qualifies")


def best_assumed_doubled(
    table: TrickTable,
    bids: Sequence[Call],
    side: set[Seat],
    allowed: dict[Strain, set[Seat]],
    vul: bool,
    year: int,
) -> int:
    """The side's best score among `bids`, each declared by a seat of `side` allowed to declare
    it, failing contracts assumed doubled; FLOOR when no seat can declare any of them."""
    return best_contract(table, bids, side, allowed, vul, year)[0]


def best_contract(
    table: TrickTable,
    bids: Sequence[Call],
    side: set[Seat],
    allowed: dict[Strain, set[Seat]],
    vul: bool,
    year: int,
) -> tuple[int, str]:
    """`best_assumed_doubled` and that contract in words ('4S by S', '5DX by W'; '' if none)."""
    best, text = FLOOR, ""
    for bid in bids:
        assert bid.strain is not None
        for seat in sorted(side & allowed[bid.strain]):
            t = table.tricks(bid.strain, seat)
            s = assumed_doubled_score(bid.level, bid.strain, t, vul, year)
            if s > best:
                x = "X" if t < bid.level + 6 else ""
                best, text = s, f"{bid.level}{bid.strain.letter}{x} by {seat.letter}"
    return best, text


def passed_out_tallies(
    tallies: Sequence[Tally], table: TrickTable, vul_ns: bool, vul_ew: bool, year: int
) -> None:
    """A passed-out board: each side missed the best positive score it could have bid and made.

    No doubling, no declarer restriction (nobody bid anything), and both sides can be charged.
    """
    for side, vul in (((Seat.N, Seat.S), vul_ns), ((Seat.E, Seat.W), vul_ew)):
        best = 0
        for bid in ALL_BIDS:
            assert bid.strain is not None
            for seat in side:
                t = table.tricks(bid.strain, seat)
                best = max(best, score(bid.level, bid.strain, 0, t, vul, year))
        if best > 0:
            for seat in side:
                tallies[seat][PASSED_OUT] += 1
                tallies[seat][weighted(PASSED_OUT)] += best


@dataclass(frozen=True, slots=True)
class Reached:
    """The contract an auction reached, with what both sides' alternatives are scored against."""

    auction: Auction
    contract: Contract
    table: TrickTable
    vul_declarer: bool
    vul_defender: bool
    year: int
    allowed: dict[Strain, set[Seat]]

    @property
    def declarer(self) -> Seat:
        assert self.contract.declarer is not None
        return self.contract.declarer

    @property
    def tricks(self) -> int:
        return self.table.tricks(self.contract.strain, self.declarer)

    def declarer_score(self, doubled: int | None = None) -> int:
        """Declarer's score in the contract, or in it with another doubling."""
        contract = self.contract if doubled is None else self.contract.with_doubling(doubled)
        return contract_score(contract, self.tricks, self.vul_declarer, self.year)


def defender_candidates(r: Reached) -> list[Candidate]:
    """The defending side's alternatives: double, not double, or outbid the contract."""
    contract, declarer, cur = r.contract, r.declarer, r.declarer_score()
    out: list[Candidate] = []
    name = f"{contract.level}{contract.strain.letter}"
    if contract.doubled == 0:
        doubled = r.declarer_score(1)
        if doubled < cur:
            out.append(Candidate(cur - doubled, DEFENDER_MISSED_CURRENT_DOUBLE, f"double {name}"))
    else:
        # A redoubled contract is also compared with undoubled (not with doubled), as the paper.
        undoubled = r.declarer_score(0)
        if undoubled < cur:
            at = _last_call(r.auction, CallKind.DOUBLE)
            out.append(Candidate(cur - undoubled, DEFENDER_ERRONEOUSLY_DOUBLED,
                                 f"not double {name}", at))  # fmt: skip
    defenders = {declarer.lho, declarer.rho}
    rank = (contract.level - 1) * 5 + int(contract.strain)
    best, text = best_contract(r.table, ALL_BIDS[rank + 1 :], defenders, r.allowed,
                               r.vul_defender, r.year)  # fmt: skip
    if best > -cur:
        out.append(Candidate(best + cur, DEFENDER_MISSED_HIGHER_CONTRACT, f"bid {text}"))
    return out


def _last_call(auction: Auction, kind: CallKind) -> int | None:
    """Index of the auction's last call of `kind` (the double or redouble a mistake names)."""
    return max((k for k, c in enumerate(auction.calls) if c.kind == kind), default=None)


def _defenders_last_bid(auction: Auction, declarer: Seat) -> tuple[int | None, bool]:
    """Index of the defenders' last contract bid, and whether they redoubled it (an R between it
    and the declaring side's next bid)."""
    redoubled = False
    for k in range(len(auction.calls) - 1, -1, -1):
        call = auction.calls[k]
        seat = auction.seat_of(k)
        if call.kind == CallKind.REDOUBLE:
            redoubled = True
        elif call.kind == CallKind.BID:
            if seat % 2 == declarer % 2:
                redoubled = False
            else:
                return k, redoubled
    return None, False


def declarer_candidates_for(r: Reached) -> list[Candidate]:
    """The declaring side's six kinds of alternative (reference §4.3, "Declaring side")."""
    auction, contract, table, year = r.auction, r.contract, r.table, r.year
    declarer, cur = r.declarer, r.declarer_score()
    vul_declarer, vul_defender = r.vul_declarer, r.vul_defender
    out: list[Candidate] = []
    b_index, b_redoubled = _defenders_last_bid(auction, declarer)

    # 1. Any contract above the defenders' last bid (every contract if they never bid), including
    #    contracts at or below the one reached; failing ones assumed doubled.
    start = 0
    if b_index is not None:
        start = auction.calls[b_index].rank + 1
    side = {declarer, declarer.partner}
    best, text = best_contract(table, ALL_BIDS[start:], side, r.allowed, vul_declarer, year)
    if best > cur:
        out.append(Candidate(best - cur, DECLARER_MISSED_HIGHER_CONTRACT, f"bid {text}"))

    # 2., 3., 5. Doubling, redoubled, or passing the defenders' last bid B.
    if b_index is not None:
        b = auction.calls[b_index]
        assert b.strain is not None
        b_declarer = would_be_declarer(auction, b_index)
        tb = table.tricks(b.strain, b_declarer)
        them = -cur  # the defenders' score in the actual contract

        def b_score(doubled: int) -> int:
            return score(b.level, b.strain, doubled, tb, vul_defender, year)  # noqa: B023

        b_name = f"{b.level}{b.strain.letter} by {b_declarer.letter}"
        # the declaring side's first call after B is where it chose to bid on
        after_b = next((k for k in range(b_index + 1, len(auction.calls))
                        if auction.seat_of(k) % 2 == declarer % 2), None)  # fmt: skip
        if b_score(1) < them:
            out.append(Candidate(them - b_score(1), DECLARER_MISSED_DOUBLING_LAST_BID,
                                 f"double {b_name}", after_b))  # fmt: skip
        if b_score(0) < them:
            out.append(Candidate(them - b_score(0), DECLARER_MISSED_LAST_BID,
                                 f"pass, letting them play {b_name}", after_b))  # fmt: skip
        if b_redoubled and b_score(2) < them:
            out.append(Candidate(them - b_score(2), DECLARER_MISSED_LAST_REDOUBLE,
                                 f"pass, letting them play {b_name} redoubled", after_b))  # fmt: skip

    # 6. Redoubling the contract when doubled would have scored more.
    if contract.doubled == 2:
        doubled = r.declarer_score(1)
        if doubled > cur:
            out.append(Candidate(doubled - cur, DECLARER_ERRONEOUS_REDOUBLE, "not redouble",
                                 _last_call(auction, CallKind.REDOUBLE)))  # fmt: skip

    # 4. Redoubling one of the side's own bids that the defenders doubled (after B).
    doubled_bids: list[int] = []
    armed = False
    first = 0 if b_index is None else b_index + 1
    for k in range(len(auction.calls) - 1, first - 1, -1):
        call = auction.calls[k]
        if call.kind == CallKind.DOUBLE:
            armed = True
        elif call.kind == CallKind.BID and armed:
            doubled_bids.append(k)
            armed = False
    best_redouble, redouble_text, redouble_at = FLOOR, "", None
    for k in doubled_bids:
        bid = auction.calls[k]
        assert bid.strain is not None
        who = would_be_declarer(auction, k)
        t = table.tricks(bid.strain, who)
        s = score(bid.level, bid.strain, 2, t, vul_declarer, year)
        if s > best_redouble:
            redouble_text = f"redouble {bid.level}{bid.strain.letter} by {who.letter}"
            best_redouble = s
            # the side's first call after the double: where it could have redoubled
            x = next(j for j in range(k + 1, len(auction.calls))
                     if auction.calls[j].kind == CallKind.DOUBLE)  # fmt: skip
            redouble_at = next((j for j in range(x + 1, len(auction.calls))
                                if auction.seat_of(j) % 2 == declarer % 2), None)  # fmt: skip
    if best_redouble > cur:
        # Fixed: the gain of the best redouble (dds:211 used the earliest doubled bid's score).
        out.append(Candidate(best_redouble - cur, DECLARER_MISSED_REDOUBLING_DOUBLE,
                             redouble_text, redouble_at))  # fmt: skip
    return out


def assign(
    tallies: Sequence[Tally], seats: Sequence[Seat], candidates: Sequence[Candidate]
) -> None:
    """Charge the largest gain to both players of the side; k tied categories share it 1/k."""
    if not candidates:
        return
    top = max(c.gain for c in candidates)
    winners = [c for c in candidates if c.gain == top]
    k = len(winners)
    for seat in seats:
        for c in winners:
            tallies[seat][c.category] += 1 / k
            tallies[seat][weighted(c.category)] += top / k


def tally_auction(
    tallies: Sequence[Tally],
    auction: Auction,
    contract: Contract | None,
    table: TrickTable,
    vul_ns: bool,
    vul_ew: bool,
    year: int,
) -> None:
    """Add one auction's counters for all four players. `contract` None means passed out."""
    for tally in tallies:
        tally[AUCTIONS] += 1
    if contract is None:
        passed_out_tallies(tallies, table, vul_ns, vul_ew, year)
        return
    assert contract.declarer is not None
    declarer = contract.declarer
    vul_dec, vul_def = (vul_ns, vul_ew) if declarer.is_ns else (vul_ew, vul_ns)
    reached = Reached(
        auction, contract, table, vul_dec, vul_def, year, declarer_candidates(auction)
    )
    assign(tallies, (declarer.lho, declarer.rho), defender_candidates(reached))
    assign(tallies, (declarer, declarer.partner), declarer_candidates_for(reached))
