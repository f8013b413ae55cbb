"""Mistake accounting on real deals: worked examples with expected counts derived by hand.

Every example uses a deal of DDS's regression file data/dds/list100.txt with the DD table DDS itself
recorded there (TABLE) and, for the play, the DD trace DDS recorded (TRACE), so no solver runs here.
Auctions are written for the example; each docstring derives the expected numbers from the reference
rules (marriner-reference-behaviour.md §4) and the duplicate score table.

Deal 1 (list100 #1), `N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3`:
DD tricks as declarer   S  H  D  C  NT
    N and S             5  6  5  7  6
    E and W             8  6  7  5  6
"""

from __future__ import annotations

import pytest
from fixtures.list100 import parse_list100, play_seats

from ddrank.dd import TrickTable, board_from_row
from ddrank.mistakes import VARIABLES, board_tallies, declarer_candidates, rates
from ddrank.mistakes.variables import RATES
from ddrank.types import Auction, Call, Seat

CASES = {c.number: c for c in parse_list100()}


def table_of(number: int) -> TrickTable:
    rows = CASES[number].table
    return TrickTable.from_dds_rows([rows[i * 4 : i * 4 + 4] for i in range(5)])


def board(number: int, auction: str, bidstart: str, contract: str, declarer: str | None, **kw):
    row = {
        "record_id": f"ex{number}",
        "deal": CASES[number].pbn,
        "northname": "North",
        "eastname": "East",
        "southname": "South",
        "westname": "West",
        "ns_vulnerable": kw.get("ns", False),
        "ew_vulnerable": kw.get("ew", False),
        "bidstart": bidstart,
        "dealer": bidstart,
        "auction": auction,
        "contract": contract,
        "declarer": declarer,
        "year": kw.get("year", 2010),
        "play": kw.get("play"),
        "play_seats": kw.get("play_seats"),
        "claim_tricks": kw.get("claim"),
    }
    return board_from_row(row)


def nonzero(tally: dict[str, float]) -> dict[str, float]:
    return {k: v for k, v in tally.items() if v}


def auction_only(tallies) -> list[dict[str, float]]:
    return [nonzero({k: v for k, v in t.items() if k != "auctions_analyzed"}) for t in tallies]


def test_variables_are_table3_in_paper_csv_order() -> None:
    """The 33 names and their order are exactly the paper's dds_final_results.csv header."""
    from pathlib import Path

    header = (Path(__file__).parents[1] / "data/paper/dds_final_results.csv").open().readline()
    assert [h.strip() for h in header.split(",")[3:]] == list(VARIABLES)
    assert len(RATES) == 28


def test_declarer_candidates_follow_first_bidder_of_each_side() -> None:
    """W 1S, N 2N, E 3S, S 4N: W named spades first for EW, so E can no longer declare spades; N
    named notrump first for NS, so S cannot declare NT. E's 3S and S's 4N remove nobody (the bidder
    is already out). Every other strain keeps all four seats."""
    auction = Auction(Seat.W, tuple(Call.parse(t) for t in ["1S", "2N", "3S", "4N", "P", "P", "P"]))
    allowed = declarer_candidates(auction)
    from ddrank.types import Strain

    assert allowed[Strain.S] == {Seat.N, Seat.S, Seat.W}
    assert allowed[Strain.N] == {Seat.N, Seat.E, Seat.W}
    assert all(allowed[s] == set(Seat) for s in (Strain.C, Strain.D, Strain.H))


def test_passed_out_charges_both_sides_their_best_makeable_score() -> None:
    """Deal 1 passed out, nobody vulnerable. NS best: 1C by N or S with 7 tricks = 20 + 50
    part-score = 70 (1D/1H/1S/1NT all fail). EW best: 1S or 2S by E or W with 8 tricks = 60 + 50 =
    110 (1S+1 = 30+50+30 = 110 too). Both sides are charged: passed_higher_contract 1 each, weighted
    70 for N and S, 110 for E and W; everybody gets auctions_analyzed 1."""
    b = board(1, "P P P P", "N", "P", None)
    t = board_tallies(b, table_of(1), None)
    assert [x["auctions_analyzed"] for x in t] == [1, 1, 1, 1]
    ns = {"passed_higher_contract": 1, "weighted_passed_higher_contract": 70}
    ew = {"passed_higher_contract": 1, "weighted_passed_higher_contract": 110}
    assert auction_only(t) == [ns, ew, ns, ew]


def test_defenders_missed_higher_contract_and_declarer_missed_partscore() -> None:
    """Deal 1, 1NT by N, all pass, nobody vulnerable. N takes 6 tricks: cur = -50.
    Defenders EW: doubling gives 1NTX -1 = -100 for NS, a gain of 50; their best higher contract is
    2S by E/W making 8 (110), against their +50 now: gain 60. 60 > 50, so E and W each get
    defender_missed_higher_contract 1, weighted 60.
    Declarers NS: EW never bid, so every contract from 1C is open: 1C by N/S makes 7 = 70, every
    other candidate fails (assumed doubled, -100 or worse): gain 70 - (-50) = 120 ->
    declarer_missed_higher_contract 1, weighted 120 for N and S."""
    b = board(1, "1N P P P", "N", "1N", "N")
    t = board_tallies(b, table_of(1), None)
    ns = {"declarer_missed_higher_contract": 1, "weighted_declarer_missed_higher_contract": 120}
    ew = {"defender_missed_higher_contract": 1, "weighted_defender_missed_higher_contract": 60}
    assert auction_only(t) == [ns, ew, ns, ew]


def test_erroneous_double_and_missed_redouble() -> None:
    """Deal 1, W opens 2S in 4th seat, N doubles, all pass; nobody vulnerable. 2SX by W makes 8:
    60x2 = 120 >= 100 so game bonus 300, insult 50: cur = 470.
    Defenders NS: undoubled 2S would score 110: erroneously doubled, gain 360. Their best higher
    contract (2NT or 3C, 2 down doubled) is -300 against -470: gain 170. 360 wins.
    Declarers EW: best contract they could bid is 110 < 470, no gain. Redoubling 2SX: 2SR by W
    making 8 = 240 + 300 + insult 100 = 640: missed redouble, gain 170."""
    b = board(1, "P P P 2S X P P P", "N", "2SX", "W")
    t = board_tallies(b, table_of(1), None)
    ns = {"defender_erroneously_doubled": 1, "weighted_defender_erroneously_doubled": 360}
    ew = {
        "declarer_missed_redoubling_opponents_erroneous_double": 1,
        "weighted_declarer_missed_redoubling_opponents_erroneous_double": 170,
    }
    assert auction_only(t) == [ns, ew, ns, ew]


def test_missed_redouble_uses_best_doubled_bid_not_earliest_reference_bug_fixed() -> None:
    """Reference bug dds:211. Deal 1, W: 1D, N: X, E: P, S: P, W: 2S, N: X, all pass; nobody
    vulnerable. 2SX by W makes 8: cur = 470 (as above).
    EW's own bids doubled by NS: 2S (2SR = 640) and 1D (1DR by W, 7 tricks: 80 + 50 part-score +
    100 insult = 230). The best redouble is 2SR: gain 640 - 470 = 170.
    The reference recorded S(earliest doubled bid + R) - cur = 230 - 470 = -240, a negative
    "mistake" that, as the only candidate, was charged to E and W. Fixed: weighted +170.
    NS as in the previous example: erroneously doubled, 360."""
    b = board(1, "1D X P P 2S X P P P", "W", "2SX", "W")
    t = board_tallies(b, table_of(1), None)
    ew = t[Seat.E], t[Seat.W]
    for x in ew:
        assert x["declarer_missed_redoubling_opponents_erroneous_double"] == 1
        assert x["weighted_declarer_missed_redoubling_opponents_erroneous_double"] == 170
    assert t[Seat.N]["weighted_defender_erroneously_doubled"] == 360


def test_declarer_side_missed_doubling_opponents_last_bid() -> None:
    """Deal 1, W 1S, N 2C, E 3S, S 4C, all pass; nobody vulnerable. 4C by N (N named clubs first)
    takes 7: 3 down undoubled, cur = -150.
    Declarers NS: the defenders' last bid B = 3S, would-be declarer W (first EW spade bidder), 8
    tricks = 1 down. Doubling it: 3SX -1 = -100 for EW, NS gain 150 - (-100) = 250; passing it:
    -50, gain 200. Higher contracts from 3NT on all fail by 3+ (assumed doubled, <= -500). 250 wins.
    Defenders EW: doubling 4C: 4CX -3 = -500, gain 350; higher: only W can declare spades (W bid
    them first), 4S by W -2 doubled = -300 < +150, no gain. 350 wins."""
    b = board(1, "1S 2C 3S 4C P P P", "W", "4C", "N")
    t = board_tallies(b, table_of(1), None)
    ns = {
        "declarer_missed_doubling_opponents_last_bid": 1,
        "weighted_declarer_missed_doubling_opponents_last_bid": 250,
    }
    ew = {"defender_missed_current_double": 1, "weighted_defender_missed_current_double": 350}
    assert auction_only(t) == [ns, ew, ns, ew]


def test_declarer_side_missed_opponents_last_redouble() -> None:
    """Deal 1, W 1S, N P, E 3S, S X, W R, N 4C, all pass; nobody vulnerable. 4C by N -3: cur = -150.
    NS: B = 3S, and an R falls between it and NS's next bid: B was redoubled. 3S by W takes 8 (1
    down): 3SX -100 (gain 250), 3S -50 (gain 200), 3SR -200 (gain 350). The X after 3S doubled no NS
    bid, so there is no redouble candidate. 350: declarer_missed_opponents_last_redouble.
    EW: doubling 4C gains 350 (4CX -3 = -500); no higher contract beats +150."""
    b = board(1, "1S P 3S X R 4C P P P", "W", "4C", "N")
    t = board_tallies(b, table_of(1), None)
    ns = {
        "declarer_missed_opponents_last_redouble": 1,
        "weighted_declarer_missed_opponents_last_redouble": 350,
    }
    ew = {"defender_missed_current_double": 1, "weighted_defender_missed_current_double": 350}
    assert auction_only(t) == [ns, ew, ns, ew]


def test_tie_between_categories_is_split_one_over_k() -> None:
    """Deal 5 (`S:T54.QT83.AT9.862 9.AJ765.Q542.A73 AK8762.942.763.J QJ3.K.KJ8.KQT954`), N 1S,
    E X, S R, all pass; nobody vulnerable. NS take S 6, H 4, D 2, C 2, NT 3 tricks; EW take S 7,
    H 9, D 10, C 11, NT 9. 1SR by N takes 6: 1 down redoubled, cur = -200.
    NS: not redoubling (1SX -1 = -100) gains 100; the best other contract (1S itself, assumed
    doubled, -100; everything else worse) also gains 100. Two categories tie at 100: each gets
    1/2, weighted 100/2 = 50, for N and S.
    EW: undoubled 1S would give them only +50 (no erroneous double); 3NT or 5C making = 400 beats
    their +200: defender_missed_higher_contract 1, weighted 200."""
    b = board(5, "1S X R P P P", "N", "1SR", "N")
    t = board_tallies(b, table_of(5), None)
    ns = {
        "declarer_missed_higher_contract": 0.5,
        "weighted_declarer_missed_higher_contract": 50,
        "declarer_erroneous_redouble": 0.5,
        "weighted_declarer_erroneous_redouble": 50,
    }
    ew = {"defender_missed_higher_contract": 1, "weighted_defender_missed_higher_contract": 200}
    assert auction_only(t) == [ns, ew, ns, ew]


@pytest.mark.parametrize(("year", "weighted"), [(2010, 2110), (1980, 1610), (0, 2110)])
def test_pre_1988_penalties_change_the_weight(year: int, weighted: int) -> None:
    """Deal 1, W 7C doubled, nobody vulnerable: W takes 5 of 13, 8 down doubled. Modern table:
    100 + 200 + 200 + 5 x 300 = 2000; before 1988: 100 + 7 x 200 = 1500. EW's best contract is
    110 (2S), so declarer_missed_higher_contract weighs 2110 (modern, and year 0 = unknown) or
    1610 (1980). NS have nothing better than +2000/+1500."""
    b = board(1, "P P P 7C X P P P", "N", "7CX", "W", year=year)
    t = board_tallies(b, table_of(1), None)
    assert t[Seat.E]["weighted_declarer_missed_higher_contract"] == weighted
    assert t[Seat.E]["declarer_missed_higher_contract"] == 1
    assert auction_only(t)[Seat.N] == {}


def test_unknown_vulnerability_counts_as_not_vulnerable() -> None:
    """The paper treated its 361 empty vulnerabilities as neither side vulnerable; so do we."""
    unknown = board(1, "1N P P P", "N", "1N", "N", ns=None, ew=None)
    nv = board(1, "1N P P P", "N", "1N", "N")
    assert board_tallies(unknown, table_of(1), None) == board_tallies(nv, table_of(1), None)
    vul = board(1, "1N P P P", "N", "1N", "N", ns=True, ew=True)
    assert board_tallies(vul, table_of(1), None) != board_tallies(nv, table_of(1), None)


def _played(number: int):
    case = CASES[number]
    return list(case.play), [int(s) for s in play_seats(case)], case.trace


def test_play_mistakes_dummy_charged_to_declarer_and_claim_for_defenders() -> None:
    """list100 #16 with its DDS trace, played as 4S by S, nobody vulnerable; 14 cards played:
    W N E S | W N E S | E S W N | N E (trick 3 won by E, trick 4 led by N).
    Trace: 11, then 12 after card 1 (W's lead CA: +1 = lead mistake), back to 11 after card 6 (N's
    H2: dummy's card, -1 = declarer mistake charged to S), 11 to the end.
    4S with 11 tricks = 120 + 300 + 30 = 450, with 12 = 480: each mistake weighs 30.
    Counts: N+S played 4+3 = 7 cards (all charged to S as declarer); W led once and played 2 more;
    E played 4. A claim of 12 tricks against DD(last) = 11 favours declarer: both defenders erred,
    30 each; all four players get claims 1."""
    play, seats, trace = _played(16)
    b = board(16, "P 4S P P P", "E", "4S", "S", play=play, play_seats=seats, claim=12)
    t = board_tallies(b, None, trace)
    assert nonzero(t[Seat.S]) == {
        "claims": 1,
        "cards_played_as_declarer": 7,
        "play_mistakes_as_declarer": 1,
        "weighted_play_mistakes_as_declarer": 30,
    }
    assert nonzero(t[Seat.N]) == {"claims": 1}
    assert nonzero(t[Seat.W]) == {
        "claims": 1,
        "claim_mistakes": 1,
        "weighted_claim_mistakes": 30,
        "leads": 1,
        "lead_mistakes": 1,
        "weighted_lead_mistakes": 30,
        "cards_played_as_defender": 2,
    }
    assert nonzero(t[Seat.E]) == {
        "claims": 1,
        "claim_mistakes": 1,
        "weighted_claim_mistakes": 30,
        "cards_played_as_defender": 4,
    }


def test_defender_mistakes_weighted_by_game_swing_and_claim_against_declarer() -> None:
    """list100 #55 with its DDS trace, played as 3NT by S, nobody vulnerable; 28 cards = 7 full
    tricks, so each seat played 7 cards (W's first is the opening lead).
    Trace 8 -> 9 at card 5 (E's SA: defender mistake), 9 -> 8 at card 25 (S's DA: declarer
    mistake), 8 -> 9 at card 28 (E's D9: defender mistake). 3NT with 8 tricks = -50, with 9 = 400:
    each mistake swings 450. A claim of 8 against DD(last) = 9 gives a trick away: declarer's
    claim mistake, 450; dummy (N) is never charged."""
    play, seats, trace = _played(55)
    b = board(55, "P 3N P P P", "E", "3N", "S", play=play, play_seats=seats, claim=8)
    t = board_tallies(b, None, trace)
    assert nonzero(t[Seat.E]) == {
        "claims": 1,
        "cards_played_as_defender": 7,
        "play_mistakes_as_defender": 2,
        "weighted_play_mistakes_as_defender": 900,
    }
    assert nonzero(t[Seat.W]) == {"claims": 1, "leads": 1, "cards_played_as_defender": 6}
    assert nonzero(t[Seat.S]) == {
        "claims": 1,
        "claim_mistakes": 1,
        "weighted_claim_mistakes": 450,
        "cards_played_as_declarer": 14,
        "play_mistakes_as_declarer": 1,
        "weighted_play_mistakes_as_declarer": 450,
    }
    assert nonzero(t[Seat.N]) == {"claims": 1}


def test_every_list100_trace_conserves_card_counts() -> None:
    """On all 100 DDS traces: per board, declarer-side cards + defender cards + leads = cards
    played, and declarer mistakes = number of DD drops on declarer-side cards (counted directly)."""
    for case in CASES.values():
        seats = play_seats(case)
        declarer = case.declarer
        strain = "N" if case.trump.letter == "N" else case.trump.letter
        b = board(
            case.number, f"1{strain} P P P", declarer.letter, f"1{strain}", declarer.letter,
            play=list(case.play), play_seats=[int(s) for s in seats],
        )  # fmt: skip
        trace = case.trace + (case.trace[-1],) * (len(case.play) + 1 - len(case.trace))
        t = board_tallies(b, None, trace)
        total = sum(
            x["cards_played_as_declarer"] + x["cards_played_as_defender"] + x["leads"] for x in t
        )
        assert total == len(case.play)
        drops = sum(
            1
            for k in range(1, len(trace))
            if trace[k] < trace[k - 1] and seats[k - 1] in (declarer, declarer.partner)
        )
        assert t[declarer]["play_mistakes_as_declarer"] == drops


def test_rates_are_null_for_zero_denominators() -> None:
    """Table 4 rates: a player who never led has no lead rate (None), not 0.0 as in the paper."""
    totals = dict.fromkeys(VARIABLES, 0.0)
    totals.update(leads=4, lead_mistakes=1, weighted_lead_mistakes=90, auctions_analyzed=2)
    r = rates(totals)
    assert r["lead_mistakes_per_lead"] == 0.25
    assert r["weighted_lead_mistakes_per_lead"] == 22.5
    assert r["claim_mistakes_per_claim"] is None
    assert r["passed_higher_contract_per_auction"] == 0.0
