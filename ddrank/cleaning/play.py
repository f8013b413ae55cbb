"""The play rules (reference §2.8): replay the cards trick by trick in true order."""

from __future__ import annotations

from dataclasses import dataclass

from ddrank.types import RANKS, SEAT_LETTERS, Reject

_RANK_VALUE = {r: i for i, r in enumerate(RANKS)}
_PLAY_CARDS = {s + r for s in "SHDC" for r in RANKS}


def clean_play_tokens(play: str) -> list[str]:
    """Split the play and drop junk tokens (every one of them; the paper skipped some)."""
    text = play.replace("HTHQ", "HT HQ")
    while "--" in text:
        text = text.replace("--", "-")
    return [t for t in text.split() if t == "-" or t in _PLAY_CARDS]


@dataclass(slots=True)
class PlayOutcome:
    cards: list[str]
    seats: list[int]
    completed_tricks: int
    declarer_tricks: int


def _finish_trick(
    trick: list[tuple[int, str]], suits_left: list[dict[str, int]], trump: str, declarer_side: int
) -> tuple[int, bool]:
    """Check one trick in true order; return (next leader, declarer won) or raise."""
    played = [(seat, code) for seat, code in trick if code != "-"]
    if trick[0][1] == "-" and played:
        raise Reject("first_card_dash", f"trick led by {SEAT_LETTERS[trick[0][0]]} starts with '-'")
    dash_seen = False
    for _seat, code in trick:
        if code == "-":
            dash_seen = True
        elif dash_seen:
            raise Reject("card_after_dash", f"{code} follows a dash")
    if not played:
        raise Reject("first_card_dash", "a trick of dashes only")
    led = played[0][1][0]
    for seat, code in played[1:]:
        if code[0] != led and suits_left[seat][led]:
            raise Reject("renege", f"{SEAT_LETTERS[seat]} played {code} holding {led}")
    if dash_seen:
        return -1, False
    best = 0
    for i in range(1, 4):
        c, b = trick[i][1], trick[best][1]
        if c[0] == b[0]:
            if _RANK_VALUE[c[1]] > _RANK_VALUE[b[1]]:
                best = i
        elif c[0] == trump:
            best = i
    winner = trick[best][0]
    return winner, winner % 2 == declarer_side


def _buggy_winner_index(codes: list[str], trump: str) -> int:
    best = 0
    for i in range(1, 4):
        c, b = codes[i], codes[best]
        if c[0] == trump or (c[0] == b[0] and _RANK_VALUE[c[1]] > _RANK_VALUE[b[1]]):
            best = i
    return best


def validate_play(
    tokens: list[str], lead: int, hands_by_seat: list[set[str]], trump: str, declarer: int,
    column_format: bool = True, overtake_bug: bool = False,
) -> PlayOutcome:  # fmt: skip
    """Replay the cards (reference §2.8), returning them in true order with their seats.

    `overtake_bug` reads columns written by an exporter whose trick-winner rule let every trump
    overtake (even a higher one): it placed the next trick's cards from its own wrong leader.

    A trick of four cards (nearly all of them) is checked inline; one with a dash goes through
    `_finish_trick`, which checks any trick the same way (clean runs this for every record).
    """
    hands = [set(h) for h in hands_by_seat]
    suits_left = []  # cards still held, per seat and suit (no rank is written S, H, D or C)
    for hand in hands:
        held = "".join(hand)
        suits_left.append({s: held.count(s) for s in "SHDC"})
    if column_format:
        if len(tokens) % 4:
            raise Reject("unbalanced_play", f"{len(tokens)} cards and dashes")
    elif "-" in tokens:
        raise Reject("play_order", "a dash in a play listed in playing order")
    out_cards: list[str] = []
    out_seats: list[int] = []
    completed = won = 0
    leader = lead
    export_leader = lead  # who the exporter believed led (differs only with overtake_bug)
    side = declarer % 2
    rank = _RANK_VALUE
    dash_before = False
    for g, k in enumerate(range(0, len(tokens), 4)):
        if dash_before:
            raise Reject("multiple_claim", f"trick {g + 1} follows a trick with a dash")
        group = tokens[k : k + 4]
        seats = [leader, (leader + 1) % 4, (leader + 2) % 4, (leader + 3) % 4]
        if column_format:  # token k of a group belongs to seat (lead + k), whoever led the trick
            shift = export_leader - lead
            codes = [group[shift % 4], group[(shift + 1) % 4], group[(shift + 2) % 4],
                     group[(shift + 3) % 4]]  # fmt: skip
        else:
            codes = group + ["-"] * (4 - len(group))
        for seat, code in zip(seats, codes, strict=True):
            if code == "-":
                continue
            hand = hands[seat]
            if code not in hand:
                raise Reject("play_error", f"{SEAT_LETTERS[seat]} plays {code}, not in hand")
            hand.discard(code)
            suits_left[seat][code[0]] -= 1
        if "-" in codes:
            trick = list(zip(seats, codes, strict=True))
            for seat, code in trick:
                if code != "-":
                    out_cards.append(code)
                    out_seats.append(seat)
            winner, declarer_won = _finish_trick(trick, suits_left, trump, side)
            if winner < 0:
                dash_before = True
                continue
        else:  # four cards: `_finish_trick` without its dash rules
            out_cards += codes
            out_seats += seats
            led = codes[0][0]
            for i in (1, 2, 3):
                code = codes[i]
                if code[0] != led and suits_left[seats[i]][led]:
                    raise Reject("renege", f"{SEAT_LETTERS[seats[i]]} played {code} holding {led}")
            best = 0
            for i in (1, 2, 3):
                c, b = codes[i], codes[best]
                if c[0] == b[0]:
                    if rank[c[1]] > rank[b[1]]:
                        best = i
                elif c[0] == trump:
                    best = i
            winner = seats[best]
            declarer_won = winner % 2 == side
        if overtake_bug:
            export_leader = (export_leader + _buggy_winner_index(codes, trump)) % 4
        else:
            export_leader = winner
        leader = winner
        completed += 1
        won += declarer_won
    return PlayOutcome(out_cards, out_seats, completed, won)
