"""Simulated players, rounds of real deals, PBN output and the true skill in IMPs. No DD here.

A round seats the players at random (so partnerships change every round) at tables of four and
plays the same few deals at every table: each table bids (`bidding.auction`) and plays
(`play.play_board`) every deal with its own players' skills. The deals are the 336 Bermuda Bowl
2013 boards bundled under data/valet; each seed plays its own random order of them.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bench.simulation.bidding import auction
from bench.simulation.play import RANKS, SEAT_LETTERS, SUITS, parse_deal, play_board

ROOT = Path(__file__).resolve().parents[2]
HANDS = ROOT / "data/valet/2013-world-men/hands"


@dataclass(frozen=True, slots=True)
class SimDeal:
    pbn: str
    dealer: str
    vulnerable: str  # PBN: None, NS, EW, All


@dataclass(frozen=True, slots=True)
class Player:
    name: str
    bidding: float  # in [0, 1]
    play: float  # in [0, 1]


@dataclass(frozen=True, slots=True)
class TableRecord:
    round: int
    board: int
    table: int
    seats: tuple[str, str, str, str]  # N, E, S, W
    deal: SimDeal
    contract: str  # '4S', '3N'
    declarer: str
    cards: tuple[str, ...]  # 52 cards in played order
    tricks: int


def load_deals(hands_dir: Path = HANDS) -> list[SimDeal]:
    """Every deal of the bundled Bermuda Bowl 2013 hand files, in round and board order."""
    out = []
    files = sorted(hands_dir.glob("round*.pbn"), key=lambda p: int(re.sub(r"\D", "", p.stem)))
    for path in files:
        for block in path.read_text().split("\n\n"):
            tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', block))
            if "Deal" in tags:
                vul = {"Both": "All", "-": "None"}.get(tags.get("Vulnerable", ""))
                out.append(SimDeal(tags["Deal"], tags.get("Dealer", "N"),
                                   vul or tags.get("Vulnerable", "None")))  # fmt: skip
    return out


def make_players(n: int, rng: random.Random) -> list[Player]:
    """n players, bidding and card-play skills independent and uniform on [0, 1]."""
    return [Player(f"Player {i + 1:03d}", rng.random(), rng.random()) for i in range(n)]


def simulate(players: Sequence[Player], rounds: int, deals_per_round: int,
             deals: Sequence[SimDeal], rng: random.Random) -> list[TableRecord]:  # fmt: skip
    """Every table result of `rounds` rounds; the deals in a random order (cycled if too few)."""
    order = list(deals)
    rng.shuffle(order)
    by_name = {p.name: p for p in players}
    names = [p.name for p in players]
    out: list[TableRecord] = []
    k = 0
    for rnd in range(1, rounds + 1):
        seats = names[:]
        rng.shuffle(seats)
        tables = [tuple(seats[i : i + 4]) for i in range(0, len(seats) - 3, 4)]
        for b in range(1, deals_per_round + 1):
            deal = order[k % len(order)]
            k += 1
            hands = parse_deal(deal.pbn)
            vul = (deal.vulnerable in ("All", "NS"), deal.vulnerable in ("All", "EW"))
            for t, four in enumerate(tables, start=1):
                bid = [by_name[p].bidding for p in four]
                play = [by_name[p].play for p in four]
                contract, declarer = auction(hands, bid, vul, rng)
                cards, tricks = play_board(deal.pbn, contract[1], declarer, play, rng)
                out.append(TableRecord(rnd, b, t, four, deal, contract, declarer,  # type: ignore[arg-type]
                                       tuple(cards), tricks))  # fmt: skip
    return out


# ---------------------------------------------------------------------- PBN output
def _play_lines(cards: Sequence[str], leader: int, deal_pbn: str) -> list[str]:
    """PBN play section: one trick a line, cards in seat order from the opening leader."""
    holder = {}
    for seat, hand in enumerate(parse_deal(deal_pbn)):
        for s, ranks in enumerate(hand):
            for r in ranks:
                holder[SUITS[s] + RANKS[r]] = seat
    out = []
    for k in range(0, 52, 4):
        by_seat = {holder[c]: c for c in cards[k : k + 4]}
        out.append(" ".join(by_seat[(leader + i) % 4] for i in range(4)))
    return out


def to_pbn(records: Sequence[TableRecord]) -> str:
    """The table results as PBN with contract, declarer, result and the full play."""
    lines: list[str] = []
    for r in records:
        leader = (SEAT_LETTERS.index(r.declarer) + 1) % 4
        lines += [
            f'[Event "Simulation round {r.round:03d}"]',
            '[Date "2026.01.01"]',
            f'[Board "{r.board}"]',
            *(
                f'[{tag} "{name}"]'
                for tag, name in zip(("North", "East", "South", "West"), r.seats, strict=True)
            ),  # fmt: skip
            f'[Room "table {r.table}"]',
            f'[Dealer "{r.deal.dealer}"]',
            f'[Vulnerable "{r.deal.vulnerable}"]',
            f'[Deal "{r.deal.pbn}"]',
            f'[Declarer "{r.declarer}"]',
            f'[Contract "{r.contract}"]',
            f'[Result "{r.tricks}"]',
            f'[Play "{SEAT_LETTERS[leader]}"]',
            *_play_lines(r.cards, leader, r.deal.pbn),
            "*",
            "",
        ]
    return "\n".join(lines)


# ---------------------------------------------------------------------- true skill in IMPs
def ns_score(r: TableRecord) -> int:
    from ddrank.scoring.arithmetic.duplicate import duplicate_score
    from ddrank.types.contract import Contract

    ns_decl = r.declarer in "NS"
    vul = r.deal.vulnerable in ("All", "NS" if ns_decl else "EW")
    s = duplicate_score(Contract.parse(r.contract), r.tricks, vul)
    return s if ns_decl else -s


def board_imps(records: Sequence[TableRecord]) -> list[float]:
    """Each table's NS IMPs against the Butler datum of its (round, board) group."""
    from ddrank.scoring.arithmetic.crossimps import butler

    groups: dict[tuple[int, int], list[int]] = {}
    for i, r in enumerate(records):
        groups.setdefault((r.round, r.board), []).append(i)
    out = [0.0] * len(records)
    for idx in groups.values():
        for i, v in zip(idx, butler([ns_score(records[i]) for i in idx]), strict=True):
            out[i] = float(v)
    return out


def calibrate(players: int, rounds: int, deals_per_round: int, seed: int) -> dict[str, float]:
    """IMPs per board that one unit of each skill is worth, by OLS on simulated tables.

    Regresses each table's NS Butler IMPs on (sum of NS bidding skills - sum of EW's) and the
    same for card play, with random seating; the slopes are what a player's skill is worth to
    his side per board against an average field. True value = b_bid * bidding + b_play * play.
    """
    rng = random.Random(seed)
    pl = make_players(players, rng)
    recs = simulate(pl, rounds, deals_per_round, load_deals(), rng)
    by = {p.name: p for p in pl}
    y = np.array(board_imps(recs))
    x = np.array(
        [
            [sum(by[r.seats[i]].bidding * (1 if i % 2 == 0 else -1) for i in range(4)),
             sum(by[r.seats[i]].play * (1 if i % 2 == 0 else -1) for i in range(4))]
            for r in recs
        ]
    )  # fmt: skip
    beta, *_ = np.linalg.lstsq(x, y, rcond=None)
    resid = y - x @ beta
    cov = np.linalg.inv(x.T @ x) * float(resid @ resid) / (len(y) - 2)
    return {"imps_per_bidding_unit": float(beta[0]), "imps_per_play_unit": float(beta[1]),
            "se_bidding": math.sqrt(cov[0, 0]), "se_play": math.sqrt(cov[1, 1]),
            "tables": len(recs)}  # fmt: skip


def true_value(p: Player, cal: dict[str, float]) -> float:
    return cal["imps_per_bidding_unit"] * p.bidding + cal["imps_per_play_unit"] * p.play
