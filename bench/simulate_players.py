"""Ground truth by simulation: do the ratings recover players whose true skill is known?

WARNING (issue 21): this generator is circular (its only skill is the chance of a DD-inferior
card, which is what the DD evidence reads), runs one seed and gives no interval; its numbers are
withdrawn in docs/ratings.md. The non-circular generator is not built yet.

Simulated players play the real Bermuda Bowl 2013 deals in the contract (and by the declarer's
seat) actually reached at the first table of each board. Each player has a known error rate e:
at each card where a double-dummy-inferior card exists, he plays a random DD-inferior card with
probability e, otherwise a random DD-optimal card (endplay `solve_board`; every solver call is
cached on disk, keyed by the position, so a rerun or a repeated line costs nothing).

Every round seats the players at random (so partnerships change) and plays a few deals at every
table. The boards are written as PBN with their play and go through ddrank's own pipeline
functions: ingest -> clean -> DD analysis (tables, traces, player stats) in a small store in /tmp.
Then, on the first k rounds for growing k, three measures rank the players:

* the ddrank skill rating (`overall` without bidding: the IMP value of his card play, from
  the declarer, defence and opening-lead components; only card play differs here);
* Lehman (ddrank's, IMP scale);
* the DD mistake rate alone (weighted play and lead mistakes per card, from `player_board_stats`).

Spearman with the true order (low e = good) is reported against boards per player, and the
boards each measure needs for 0.9 come from a Spearman-Brown fit rho(n)^2 = n / (n + c) (the
reliability of an average of n noisy boards), extrapolated past the simulated range when needed.

    PYTHONPATH=$PWD python bench/simulate_players.py --quick     # CI size: ~2 minutes
    PYTHONPATH=$PWD python bench/simulate_players.py             # 40 players, 30 rounds
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # see bench/predict.py

import argparse  # noqa: E402
import json  # noqa: E402
import pickle  # noqa: E402
import random  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
BB = ROOT / "data/valet/2013-world-men"
SEATS = "NESW"


class Solver:
    """endplay's solve_board behind a dictionary cache persisted with pickle."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.cache: dict[tuple, tuple[tuple[str, int], ...]] = {}
        if path.is_file():
            with path.open("rb") as fh:
                self.cache = pickle.load(fh)
        self.calls = self.hits = 0

    def options(self, deal, key: tuple) -> tuple[tuple[str, int], ...]:
        """(card, tricks for the side to play) of every card the player to move may play."""
        from endplay.dds import solve_board

        got = self.cache.get(key)
        if got is not None:
            self.hits += 1
            return got
        self.calls += 1
        got = tuple((_card_text(c), int(t)) for c, t in solve_board(deal))
        self.cache[key] = got
        return got

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("wb") as fh:
            pickle.dump(self.cache, fh)


def _card_text(card) -> str:
    """endplay Card -> 'D3' (its str() is '♦3')."""
    return "SHDC"[int(card.suit)] + "23456789TJQKA"[card.rank.bit_length() - 3]  # R2 = 1 << 2


def play_board(deal_pbn: str, strain: str, declarer: str, errors: dict[str, float],
               rng: random.Random, solver: Solver) -> tuple[list[str], int]:  # fmt: skip
    """Play one board; returns the 52 cards in played order and the declarer's tricks."""
    from endplay.types import Deal, Denom, Player

    deal = Deal(deal_pbn)
    deal.trump = {"C": Denom.clubs, "D": Denom.diamonds, "H": Denom.hearts,
                  "S": Denom.spades, "N": Denom.nt}[strain]  # fmt: skip
    leader = (SEATS.index(declarer) + 1) % 4
    deal.first = Player(leader)
    played: list[str] = []
    decl_side = SEATS.index(declarer) % 2
    tricks = 0
    for k in range(52):
        to_move = deal.curplayer
        seat = SEATS[int(to_move)]
        key = (
            deal.to_pbn(),
            strain,
            str(deal.first),
            tuple(played[len(played) - len(played) % 4 :]),
        )
        opts = solver.options(deal, key)
        best = max(t for _, t in opts)
        good = [c for c, t in opts if t == best]
        bad = [c for c, t in opts if t < best]
        pick = rng.choice(bad) if bad and rng.random() < errors[seat] else rng.choice(good)
        played.append(pick)
        deal.play(pick)
        if k % 4 == 3:  # after the trick, the winner is on lead
            winner = int(deal.first)
            tricks += int(winner % 2 == decl_side)
    return played, tricks


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Simulated players: ratings vs known skill.")
    ap.add_argument("--players", type=int, default=40)
    ap.add_argument("--rounds", type=int, default=30)
    ap.add_argument("--deals-per-round", type=int, default=4)
    ap.add_argument("--quick", action="store_true", help="CI size: 40 players, 6 rounds")
    ap.add_argument("--seed", type=int, default=2013)
    ap.add_argument("--work", type=Path, default=Path("/tmp/ddrank-sim"))
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.quick:
        args.rounds = 6
    if args.players % 4:
        print("error: --players must be a multiple of 4", file=sys.stderr)
        return 2
    return run(args)


def run(args: argparse.Namespace) -> int:
    from ddrank.valet import parse_hands, parse_scores, round_of_hands_file

    def log(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    rng = random.Random(args.seed)
    errors = sorted(rng.uniform(0.01, 0.20) for _ in range(args.players))
    names = [f"Player {i + 1:02d}" for i in range(args.players)]
    rng.shuffle(names)
    truth = dict(zip(names, errors, strict=True))

    hands = {}
    for f in sorted((BB / "hands").glob("*.pbn")):
        rnd = round_of_hands_file(f.name)
        if rnd is not None:
            hands.update({(h.round, h.board): h for h in parse_hands(f.read_text(), rnd)[0]})
    scores, _ = parse_scores((BB / "scores.txt").read_text())
    contract_of = {}
    for s in scores:
        c = s.contract.upper()
        if (s.round, s.board) not in contract_of and not c.startswith("P") and s.declarer:
            contract_of[s.round, s.board] = (c, s.declarer.upper())
    deals = [k for k in sorted(hands) if k in contract_of]

    args.work.mkdir(parents=True, exist_ok=True)
    solver = Solver(args.work / "solve_board_cache.pkl")
    pbn_path = args.work / f"sim-{args.players}p-{args.rounds}r-seed{args.seed}.pbn"
    lines: list[str] = []
    t0 = time.perf_counter()
    d_iter = 0
    for rnd in range(1, args.rounds + 1):
        seats = names[:]
        rng.shuffle(seats)
        tables = [seats[i : i + 4] for i in range(0, len(seats), 4)]  # N, E, S, W
        for b in range(args.deals_per_round):
            key = deals[d_iter % len(deals)]
            d_iter += 1
            h = hands[key]
            contract, declarer = contract_of[key]
            strain = contract.rstrip("X")[1:][:1]
            for t, four in enumerate(tables):
                errs = {SEATS[i]: truth[p] for i, p in enumerate(four)}
                played, tricks = play_board(h.deal.to_pbn(), strain, declarer, errs, rng, solver)
                leader = (SEATS.index(declarer) + 1) % 4
                lines += [
                    f'[Event "Simulation round {rnd:03d}"]',
                    '[Date "2026.01.01"]',
                    f'[Board "{b + 1}"]',
                    f'[North "{four[0]}"]',
                    f'[East "{four[1]}"]',
                    f'[South "{four[2]}"]',
                    f'[West "{four[3]}"]',
                    f'[Room "table {t + 1}"]',
                    f'[Dealer "{h.dealer.letter if h.dealer is not None else "N"}"]',
                    f'[Vulnerable "{_vul(h)}"]',
                    f'[Deal "{h.deal.to_pbn()}"]',
                    f'[Declarer "{declarer}"]',
                    f'[Contract "{contract}"]',
                    f'[Result "{tricks}"]',
                    f'[Play "{SEATS[leader]}"]',
                    *_play_lines(played, leader, h.deal),
                    "*",
                    "",
                ]
        log(f"round {rnd}: {len(tables) * args.deals_per_round} boards played, "
            f"{solver.calls} solver calls, {solver.hits} cached, {time.perf_counter() - t0:.0f} s")  # fmt: skip
        if rnd % 5 == 0:
            solver.save()
    solver.save()
    pbn_path.write_text("\n".join(lines))
    play_seconds = time.perf_counter() - t0
    result = measure(pbn_path, args, truth, log)
    result["play_seconds"] = round(play_seconds, 1)
    result["solver_calls"], result["solver_cached"] = solver.calls, solver.hits
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        print(report(result))
    return 0


def _vul(h) -> str:
    ns, ew = h.ns_vulnerable, h.ew_vulnerable
    return "All" if ns and ew else "NS" if ns else "EW" if ew else "None"


def _play_lines(played: list[str], leader: int, deal) -> list[str]:
    """PBN play section: one trick a line, cards in seat order from the opening leader."""
    from ddrank.types import Card

    holder = {}
    for s in range(4):
        for c in deal.hands[s].cards:
            holder[str(c)] = s
    out = []
    for k in range(0, 52, 4):
        by_seat = {holder[str(Card.parse(c))]: str(Card.parse(c)) for c in played[k : k + 4]}
        out.append(" ".join(by_seat[(leader + i) % 4] for i in range(4)))
    return out


def measure(pbn: Path, args: argparse.Namespace, truth: dict[str, float], log) -> dict:
    """Ingest -> clean -> DD analysis in a fresh store, then the three measures per prefix."""
    from scipy.stats import spearmanr

    from flows.dd_analysis import dd_analysis
    from flows.server import prefect_api
    from store.store import open_connection as connect
    from tasks.clean import clean_task
    from tasks.ingest import ingest_task

    db = args.work / f"{pbn.stem}.duckdb"
    for p in (db, Path(f"{db}.wal")):
        if p.exists():
            p.unlink()
    t0 = time.perf_counter()
    with prefect_api():
        ingest_task(str(db), [str(pbn)], 500)
        clean_task(str(db), 1)
        dd = dd_analysis(db=str(db), workers=1, runner="thread", dds_threads=1)
    log(f"pipeline (ingest, clean, DD analysis) in {time.perf_counter() - t0:.0f} s: {dd}")

    from ddrank.ratings import lehman
    from ddrank.ratings import skill as sk
    from ddrank.scoring.tournament import score_field
    from stages.field import read_db_boards
    from stages.skill import db_skill_rows, rate_rows

    rows = db_skill_rows(db)
    loaded = read_db_boards(db)
    scored = score_field(loaded.boards)
    con = connect(db, read_only=True)
    try:
        stats = con.sql(
            """select raw_name, record_id,
                      weighted_play_mistakes_as_declarer + weighted_play_mistakes_as_defender
                          + weighted_lead_mistakes as cost,
                      cards_played_as_declarer + cards_played_as_defender + leads as cards
               from player_board_stats"""
        ).fetchall()
    finally:
        con.close()
    periods = sorted({r.period for r in rows})
    names = sorted(truth)
    true_skill = np.array([-truth[n] for n in names])
    curve = []
    steps = sorted({max(1, round(len(periods) * f)) for f in (0.1, 0.2, 0.35, 0.5, 0.75, 1.0)})
    for k in steps:
        keep = set(periods[:k])
        sub = [r for r in rows if r.period in keep]
        states, _, params = rate_rows(sub)
        # Only card play differs between simulated players (every table plays the real
        # contract), so the ddrank measure compared is its card-play part.
        ddrank_score = np.array([sk.overall(states, n, params, bidding=False) for n in names])
        lp = lehman.boards_by_period([s for s in scored if s.result.period in keep], "imps")
        lstates, _ = lehman.rate_periods(lp)
        lehman_score = np.array([lstates[n].rating if n in lstates else 50.0 for n in names])
        cost: dict[str, list[float]] = {n: [0.0, 0.0] for n in names}
        tables = {r.result.table for r in sub}
        for name, record_id, c, cards in stats:
            if record_id in tables and name in cost:
                cost[name][0] += c
                cost[name][1] += cards
        dd_score = np.array([-cost[n][0] / max(cost[n][1], 1.0) for n in names])
        boards_pp = 4 * len(sub) / len(names)
        point = {"rounds": k, "boards_per_player": round(boards_pp, 1)}
        for label, score in (("ddrank", ddrank_score), ("lehman", lehman_score),
                             ("dd-mistake-rate", dd_score)):  # fmt: skip
            point[label] = float(spearmanr(true_skill, score).statistic)
        curve.append(point)
        log(f"{k} rounds, {boards_pp:.0f} boards/player: {point}")
    need = {}
    from scipy.optimize import curve_fit

    for label in ("ddrank", "lehman", "dd-mistake-rate"):
        n = np.array([p["boards_per_player"] for p in curve])
        rho = np.array([p[label] for p in curve])
        # Spearman-Brown: an average of n noisy boards has reliability n / (n + c), and its
        # correlation with the truth is the square root of that.
        try:
            if not np.all(np.isfinite(rho)):
                raise RuntimeError("no finite Spearman values to fit")
            (c,), _ = curve_fit(lambda x, c: np.sqrt(x / (x + c)), n, rho, p0=[n.mean()],
                                bounds=(1e-6, 1e9))  # fmt: skip
        except RuntimeError:
            c = float("inf")
        first = next((p["boards_per_player"] for p in curve if p[label] >= 0.9), None)
        need[label] = {"boards_for_0.9_fit": round(float(c) * 0.81 / 0.19, 1),
                       "reached_in_simulation": first is not None,
                       "first_reached_at": first}  # fmt: skip
    return {"players": len(names), "rounds": len(periods), "table_results": len(rows),
            "curve": curve, "boards_for_0.9": need}  # fmt: skip


def report(res: dict) -> str:
    lines = [f"{res['players']} simulated players, {res['rounds']} rounds, "
             f"{res['table_results']} table results "
             f"(play {res['play_seconds']} s; solver {res['solver_calls']} calls, "
             f"{res['solver_cached']} cached)", "",
             f"{'boards/player':>13} {'ddrank':>8} {'lehman':>8} {'dd-rate':>8}"]  # fmt: skip
    for p in res["curve"]:
        lines.append(f"{p['boards_per_player']:13.0f} {p['ddrank']:8.3f} {p['lehman']:8.3f} "
                     f"{p['dd-mistake-rate']:8.3f}")  # fmt: skip
    lines.append("\nboards per player for Spearman 0.9 (Spearman-Brown fit; * = extrapolated):")
    for k, v in res["boards_for_0.9"].items():
        mark = "" if v["reached_in_simulation"] else " *"
        lines.append(f"  {k:16} {v['boards_for_0.9_fit']:8.0f}{mark}")
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
