"""A single-dummy card player with skill-dependent careless errors. No DD solver here.

Every card is chosen by simple single-dummy rules from what the player can see: his own hand,
dummy (after the opening lead), and the cards played so far. Declarer chooses dummy's cards too.

* opening lead: top of touching honours, a side-suit singleton against a trump contract,
  fourth best of the longest suit (not away from a bare-headed ace);
* declarer on lead: draw trumps while the opponents hold some and the side has more, cash the
  side's winners, ruff in the hand that is void, lead towards an honour, then the long suit;
* defender on lead: return partner's suit, cash a winner, continue his own suit, lead where
  dummy is weak (never into a ruff in dummy);
* second hand low (but cover an honour), third hand high (a finesse where the declaring side holds
  a top card and a lower honour with the card between unseen), fourth hand wins cheaply;
* void: ruff (overruff) cheaply unless partner has the trick; discard from a suit holding neither
  a winner nor a guarded honour.

Skill. The position's single-dummy hardness h (0 when all legal cards are equivalent) is
`(1 - 1/k)` times a weight for the kind of decision, k being the number of non-equivalent legal
cards (cards of a suit whose ranks are separated only by played cards are equivalent). The weight
is 1.0 for an opening lead, a discard/ruff decision and a guess between honours (a finesse),
0.8 for another lead and 0.4 for following suit. With probability h * e(skill), where
e(skill) = E_BEST + (E_WORST - E_BEST) * (1 - skill), the player makes a careless deviation: a
uniformly chosen non-equivalent legal card other than the rule's card.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

SUITS = "SHDC"
RANKS = "23456789TJQKA"
SEAT_LETTERS = "NESW"
TEN, JACK, QUEEN = 8, 9, 10  # rank indices (2 is 0, ace is 12)

E_BEST, E_WORST = 0.05, 0.50  # careless-deviation probability at hardness 1, skill 1 and 0
W_OPENING, W_VOID, W_GUESS, W_LEAD, W_FOLLOW = 1.0, 1.0, 1.0, 0.8, 0.4

Card = tuple[int, int]  # (suit index in SHDC, rank index 0..12)
Hand = list[list[int]]  # per suit, ranks in descending order


def parse_deal(pbn: str) -> list[Hand]:
    """'N:AK.QJ.. ...' -> hands indexed by seat (N, E, S, W), each suit's ranks descending."""
    first, rest = pbn.split(":")
    start = SEAT_LETTERS.index(first.strip().upper())
    hands: list[Hand] = [[], [], [], []]
    for i, text in enumerate(rest.split()):
        hands[(start + i) % 4] = [
            sorted((RANKS.index(c) for c in part.upper()), reverse=True) for part in text.split(".")
        ]
    return hands


def card_text(card: Card) -> str:
    return SUITS[card[0]] + RANKS[card[1]]


def error_rate(skill: float) -> float:
    """Careless-deviation probability at hardness 1 for a card-play skill in [0, 1]."""
    return E_BEST + (E_WORST - E_BEST) * (1.0 - skill)


class Game:
    """One board's card play from the opening lead to trick 13."""

    def __init__(self, hands: Sequence[Hand], trump: int | None, declarer: int,
                 skill: Sequence[float], rng: random.Random) -> None:  # fmt: skip
        self.hands = [[list(s) for s in h] for h in hands]
        self.trump = trump
        self.decl, self.dummy = declarer, (declarer + 2) % 4
        self.skill = skill
        self.rng = rng
        self.played: list[set[int]] = [set() for _ in range(4)]
        self.trick: list[tuple[int, int, int]] = []  # (seat, suit, rank)
        self.first_lead: dict[int, int] = {}
        self.cards: list[str] = []
        self.decl_tricks = 0
        self.deviations = [0, 0, 0, 0]  # careless deviations by the seat that chose the card

    # ------------------------------------------------------------------ the board
    def play(self) -> tuple[list[str], int]:
        """Play all 52 cards; returns them in played order and the declarer's tricks."""
        seat = (self.decl + 1) % 4
        for _ in range(13):
            for _ in range(4):
                self._put(seat, self.choose(seat))
                seat = (seat + 1) % 4
            seat = self._winner()[0]
            self.decl_tricks += seat in (self.decl, self.dummy)
            self.trick = []
        return self.cards, self.decl_tricks

    def _put(self, seat: int, card: Card) -> None:
        s, r = card
        self.hands[seat][s].remove(r)
        self.played[s].add(r)
        if not self.trick and seat not in self.first_lead:
            self.first_lead[seat] = s
        self.trick.append((seat, s, r))
        self.cards.append(card_text(card))

    def _winner(self) -> tuple[int, int, int]:
        best = self.trick[0]
        for t in self.trick[1:]:
            if (t[1] == best[1] and t[2] > best[2]) or (t[1] == self.trump != best[1]):
                best = t
        return best

    # ------------------------------------------------------------------ choice and error
    def legal(self, seat: int) -> list[Card]:
        h = self.hands[seat]
        if self.trick and h[self.trick[0][1]]:
            s = self.trick[0][1]
            return [(s, r) for r in h[s]]
        return [(s, r) for s in range(4) for r in h[s]]

    def classes(self, cards: Sequence[Card]) -> list[list[Card]]:
        """Legal cards grouped into equivalence classes (same suit, only played cards between)."""
        out: list[list[Card]] = []
        for c in cards:
            last = out[-1][-1] if out else None
            if (
                last is not None
                and last[0] == c[0]
                and all(r in self.played[c[0]] for r in range(c[1] + 1, last[1]))
            ):
                out[-1].append(c)
            else:
                out.append([c])
        return out

    def choose(self, seat: int) -> Card:
        actor = self.decl if seat == self.dummy else seat
        cls = self.classes(self.legal(seat))
        if len(cls) == 1:
            return cls[0][-1]
        card, weight = self.rule(seat)
        hardness = weight * (1.0 - 1.0 / len(cls))
        if self.rng.random() < hardness * error_rate(self.skill[actor]):
            others = [c for c in cls if card not in c]
            self.deviations[actor] += 1
            return self.rng.choice(others)[-1]
        return card

    # ------------------------------------------------------------------ helpers
    def side(self, seat: int) -> tuple[int, ...]:
        """The hands whose cards `seat` knows are on his side."""
        if seat in (self.decl, self.dummy):
            return (self.decl, self.dummy)
        return (seat,)

    def is_master(self, seat: int, s: int, r: int) -> bool:
        """No higher card of the suit can be held by an opponent, as `seat` sees it."""
        mine = self.side(seat)
        return all(
            x in self.played[s] or any(x in self.hands[h][s] for h in mine)
            for x in range(r + 1, 13)
        )

    def top_of_class(self, seat: int, s: int) -> Card:
        """The lowest card of the player's highest equivalence class in suit s."""
        cls = self.classes([(s, r) for r in self.hands[seat][s]])
        return cls[0][-1]

    def low(self, seat: int, s: int) -> Card:
        return (s, self.hands[seat][s][-1])

    def lead_from(self, seat: int, s: int) -> Card:
        """Top of touching honours, otherwise low."""
        rs = self.hands[seat][s]
        if len(rs) >= 2 and rs[0] >= TEN and rs[1] == rs[0] - 1:
            return (s, rs[0])
        return (s, rs[-1])

    # ------------------------------------------------------------------ the rules
    def rule(self, seat: int) -> tuple[Card, float]:
        if not self.trick:
            if not self.cards:
                return self.opening_lead(seat), W_OPENING
            if seat in (self.decl, self.dummy):
                return self.declarer_lead(seat), W_LEAD
            return self.defender_lead(seat), W_LEAD
        led = self.trick[0][1]
        if self.hands[seat][led]:
            return self.follow(seat, led)
        return self.void_play(seat), W_VOID

    def opening_lead(self, seat: int) -> Card:
        h, t = self.hands[seat], self.trump
        suits = [s for s in range(4) if h[s]]
        side = [s for s in suits if s != t] or suits

        def hcp(s: int) -> int:
            return sum(max(r - TEN, 0) for r in h[s])

        seqs = [s for s in side if len(h[s]) >= 2 and h[s][0] >= TEN and h[s][1] == h[s][0] - 1]
        if t is None:
            s = max(side, key=lambda s: (len(h[s]), hcp(s)))
            if s in seqs:
                return (s, h[s][0])
            return (s, h[s][3]) if len(h[s]) >= 4 else (s, h[s][0] if len(h[s]) <= 2 else h[s][-1])
        if seqs:
            s = max(seqs, key=lambda s: h[s][0])
            return (s, h[s][0])
        if h[t] and t in suits:
            singles = [s for s in side if len(h[s]) == 1 and h[s][0] < JACK]
            if singles:
                return (singles[0], h[singles[0]][0])
        ok = [s for s in side if h[s][0] != 12] or side
        s = max(ok, key=lambda s: (len(h[s]), hcp(s)))
        if len(h[s]) >= 4:
            return (s, h[s][3])
        return (s, h[s][0]) if len(h[s]) <= 2 else (s, h[s][-1])

    def declarer_lead(self, seat: int) -> Card:
        other = self.dummy if seat == self.decl else self.decl
        h, o, t = self.hands[seat], self.hands[other], self.trump
        if t is not None and h[t]:
            out = 13 - len(h[t]) - len(o[t]) - len(self.played[t])
            if 0 < out < len(h[t]) + len(o[t]):
                if self.is_master(seat, t, h[t][0]):
                    return self.top_of_class(seat, t)
                return self.low(seat, t)
        cash = []
        for s in range(4):
            if not h[s]:
                continue
            top = max(h[s][0], o[s][0] if o[s] else -1)
            if self.is_master(seat, s, top):
                cash.append((len(h[s]) + len(o[s]), s, top))
        if cash:
            _, s, top = max(cash)
            return self.top_of_class(seat, s) if h[s][0] == top else self.low(seat, s)
        if t is not None and o[t]:
            for s in range(4):
                if s != t and h[s] and not o[s]:
                    return self.low(seat, s)
        for s in range(4):
            if h[s] and o[s] and o[s][0] >= TEN and not self.is_master(seat, s, o[s][0]):
                return self.low(seat, s)
        suits = [s for s in range(4) if h[s] and s != t] or [s for s in range(4) if h[s]]
        s = max(suits, key=lambda s: (len(h[s]) + len(o[s]), s))
        return self.low(seat, s)

    def defender_lead(self, seat: int) -> Card:
        partner = (seat + 2) % 4
        h, t, dm = self.hands[seat], self.trump, self.hands[self.dummy]

        def ruffable(s: int) -> bool:
            return t is not None and s != t and not dm[s] and bool(dm[t])

        ps = self.first_lead.get(partner)
        if ps is not None and h[ps] and not ruffable(ps):
            return (ps, h[ps][0] if len(h[ps]) <= 2 else h[ps][-1])
        for s in range(4):
            if h[s] and s != t and not ruffable(s) and self.is_master(seat, s, h[s][0]):
                return self.top_of_class(seat, s)
        own = self.first_lead.get(seat)
        if own is not None and h[own] and not ruffable(own):
            return self.lead_from(seat, own)
        weak = [s for s in range(4)
                if h[s] and s != t and not ruffable(s) and (not dm[s] or dm[s][0] < TEN)]  # fmt: skip
        if weak:
            return self.lead_from(seat, max(weak, key=lambda s: (len(h[s]), s)))
        rest = [s for s in range(4) if h[s] and s != t] or [s for s in range(4) if h[s]]
        return self.low(seat, max(rest, key=lambda s: (len(h[s]), s)))

    def follow(self, seat: int, led: int) -> tuple[Card, float]:
        pos = len(self.trick)
        ws, wsuit, wr = self._winner()
        mine = self.hands[seat][led]
        lowest = (led, mine[-1])
        if wsuit != led:  # already ruffed: nothing of ours can win
            return lowest, W_FOLLOW
        partner, fourth = (seat + 2) % 4, (seat + 1) % 4
        if ws == partner:
            if pos == 3:
                return lowest, W_FOLLOW
            if fourth == self.dummy:  # dummy is seen: beat it only if it can beat partner
                dm = self.hands[self.dummy][led]
                if not dm or dm[0] < wr:
                    return lowest, W_FOLLOW
                over = [r for r in mine if r > dm[0]]
                return ((led, min(over)) if over else lowest), W_FOLLOW
            if self.is_master(seat, led, wr) or wr >= JACK or mine[0] < wr:
                return lowest, W_FOLLOW
            return self.top_of_class(seat, led), W_FOLLOW  # third hand high
        beaters = [r for r in mine if r > wr]
        if not beaters:
            return lowest, W_FOLLOW
        if pos == 1:  # second hand low, but cover an honour with an honour
            return ((led, min(beaters)) if wr >= JACK else lowest), W_FOLLOW
        if pos == 3:
            return (led, min(beaters)), W_FOLLOW
        if fourth == self.dummy:
            dm = self.hands[self.dummy][led]
            need = max(wr, dm[0] if dm else -1)
            over = [r for r in mine if r > need]
            return ((led, min(over)) if over else lowest), W_FOLLOW
        cls = self.classes([(led, r) for r in beaters])
        if (seat in (self.decl, self.dummy) and len(cls) >= 2 and cls[1][0][1] >= TEN
                and self.is_master(seat, led, cls[0][0][1])):  # fmt: skip
            return cls[1][-1], W_GUESS  # finesse: a guess between honours
        return cls[0][-1], W_FOLLOW

    def void_play(self, seat: int) -> Card:
        ws, wsuit, wr = self._winner()
        h, t = self.hands[seat], self.trump
        if ws == (seat + 2) % 4 and (len(self.trick) == 3 or self.is_master(seat, wsuit, wr)):
            return self.discard(seat)
        if t is not None and h[t]:
            if wsuit == t:
                over = [r for r in h[t] if r > wr]
                return (t, min(over)) if over else self.discard(seat)
            return (t, h[t][-1])
        return self.discard(seat)

    def discard(self, seat: int) -> Card:
        h, t = self.hands[seat], self.trump
        suits = [s for s in range(4) if h[s] and s != t] or [s for s in range(4) if h[s]]

        def keep(s: int) -> tuple[float, int]:
            value = 3.0 * self.is_master(seat, s, h[s][0])
            value += 2.0 * any(r >= JACK and len(h[s]) >= 13 - r for r in h[s])
            return value - 0.1 * len(h[s]), s

        return self.low(seat, min(suits, key=keep))


def play_board(deal_pbn: str, strain: str, declarer: str, skill: Sequence[float],
               rng: random.Random) -> tuple[list[str], int]:  # fmt: skip
    """Play one board single-dummy: the 52 cards in played order and the declarer's tricks.
    `skill` is each seat's card-play skill (N, E, S, W); declarer's is used for dummy's cards."""
    trump = None if strain == "N" else SUITS.index(strain)
    game = Game(parse_deal(deal_pbn), trump, SEAT_LETTERS.index(declarer), skill, rng)
    return game.play()
