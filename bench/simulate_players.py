"""Ground truth by simulation: do the ratings recover players whose true skill is known?

The generator (`bench/simulation/`) never uses a double-dummy solver. Every simulated player has
two known skills, drawn independently and uniformly on [0, 1]:

* bidding: the noise in his single-dummy judgement of his side's strength (1 point at skill 1,
  8 points at skill 0) and the chance of the wrong strain (0 to 50%); the level is the one with
  the best expected score under a trick model fitted on the generator's own single-dummy play;
* card play: every card is chosen by single-dummy rules (own hand, dummy, cards played), and at
  a position of single-dummy hardness h the player deviates to another non-equivalent card with
  probability h * (0.05 + 0.45 * (1 - skill)).

A player's true value is the IMPs per board his skills are worth to his side against an average
field: b_bid * bidding + b_play * play, the slopes from an OLS of each table's Butler IMPs on
the two sides' skill differences over CALIBRATION_ROUNDS rounds of a separate seed (stated in
the output with their standard errors). The boards then go through ddrank's own pipeline
(ingest -> clean -> DD analysis in a throwaway store), and on the first k rounds the players are
ranked by: the ddrank skill rating's `overall` (bidding included), Lehman (IMP scale), and the
paper's DD mistake rate. Spearman with the true value is reported at each checkpoint over SEEDS
seeds: the mean, a 95% t-interval of the mean, and the 2.5-97.5 percentiles of the seeds.

Forgetting: the true skills are static, so both ratings run without forgetting: the ddrank
rating with `drift_sd = 0` and Lehman with `history_weight = 1` and no weight cap: the same, full
memory for both. Neither is tuned. As a variant reported beside them (`*_default_forgetting`),
both also run with the product's defaults (ddrank drift 0.02 of the prior sd per period, Lehman
history weight 0.9 per period: an effective memory of (1 + 0.9) / (1 - 0.9) = 19 periods, 76
boards, by Kish).

Fixed before any result was looked at (issue 21, part 6), not tuned afterwards:
PLAYERS = 20 (5 tables), DEALS_PER_ROUND = 4, ROUNDS = 50 (200 boards per player; the deal
pool holds 336 deals, so no deal repeats within a seed), CHECKPOINTS in rounds below, SEEDS = 20
(seeds 1..20), calibration seed 1000 over 600 rounds. The sizes were set from timings alone (a
play trace costs 15-40 ms on the shared 2-core machine, so 20 seeds x 1,000 tables fit in about
15 minutes). A curve that does not reach 0.9 within ROUNDS is reported as not reaching it:
nothing is extrapolated.

    PYTHONPATH=$PWD python bench/simulate_players.py --quick --json   # test size, < 1 minute
    PYTHONPATH=$PWD nice -n 10 python bench/simulate_players.py --json --seeds 20
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # see bench/predict.py
os.environ.setdefault("PREFECT_LOGGING_TO_API_WHEN_MISSING_FLOW", "ignore")

import argparse  # noqa: E402
import hashlib  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.simulation import generate as gen  # noqa: E402
from bench.simulation import measure  # noqa: E402

PLAYERS, DEALS_PER_ROUND, ROUNDS, SEEDS = 20, 4, 50, 20
CHECKPOINTS = (2, 5, 10, 15, 25, 35, 50)  # rounds; x4 = boards per player
CALIBRATION_SEED, CALIBRATION_ROUNDS = 1000, 600
QUICK = {"players": 16, "rounds": 3, "deals_per_round": 2, "seeds": 2, "checkpoints": (1, 3),
         "calibration_rounds": 20}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Simulated players: ratings vs known skill.")
    ap.add_argument("--seeds", type=int, default=SEEDS, help="seeds 1..N (default 20)")
    ap.add_argument("--quick", action="store_true", help="test size: 16 players, 3 rounds, 2 seeds")
    ap.add_argument("--work", type=Path, default=Path("/tmp/ddrank-sim"))
    ap.add_argument("--json", action="store_true", help="print the result as JSON")
    args = ap.parse_args(argv)
    cfg = {"players": PLAYERS, "rounds": ROUNDS, "deals_per_round": DEALS_PER_ROUND,
           "seeds": args.seeds, "checkpoints": CHECKPOINTS,
           "calibration_rounds": CALIBRATION_ROUNDS}  # fmt: skip
    if args.quick:
        cfg.update(QUICK)
        if "--seeds" in (argv if argv is not None else sys.argv[1:]):
            cfg["seeds"] = args.seeds
    result = run(cfg, args.work)
    print(json.dumps(result, indent=1) if args.json else report(result))
    return 0


def _source_hash() -> str:
    h = hashlib.sha1()
    for p in sorted((ROOT / "bench/simulation").glob("*.py")):
        h.update(p.read_bytes())
    return h.hexdigest()[:12]


def calibration(cfg: dict, work: Path) -> dict:
    """The IMP value of each skill unit, cached per generator source and size."""
    path = work / f"calibration-{_source_hash()}-{cfg['calibration_rounds']}.json"
    if path.is_file():
        return json.loads(path.read_text())
    cal = gen.calibrate(PLAYERS, cfg["calibration_rounds"], DEALS_PER_ROUND, CALIBRATION_SEED)
    cal = {k: round(v, 4) if isinstance(v, float) else v for k, v in cal.items()}
    path.write_text(json.dumps(cal))
    return cal


def run(cfg: dict, work: Path) -> dict:
    from flows.server import prefect_api

    def log(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    t_start = time.perf_counter()
    work.mkdir(parents=True, exist_ok=True)
    cal = calibration(cfg, work)
    log(f"calibration: {cal}")
    deals = gen.load_deals()
    table_cache = work / "dd_tables_cache.json"
    checkpoints = [k for k in cfg["checkpoints"] if k <= cfg["rounds"]]
    per_seed = []
    seconds = {"generate": 0.0, "pipeline": 0.0, "ratings": 0.0}
    with prefect_api():
        for seed in range(1, cfg["seeds"] + 1):
            t0 = time.perf_counter()
            rng = random.Random(seed)
            players = gen.make_players(cfg["players"], rng)
            recs = gen.simulate(players, cfg["rounds"], cfg["deals_per_round"], deals, rng)
            pbn = work / f"sim-seed{seed}.pbn"
            pbn.write_text(gen.to_pbn(recs))
            t1 = time.perf_counter()
            db = work / f"sim-seed{seed}.duckdb"
            dd = measure.run_pipeline(pbn, db, table_cache)
            t2 = time.perf_counter()
            names = [p.name for p in players]
            truth = [gen.true_value(p, cal) for p in players]
            comps = {"bidding": [p.bidding for p in players], "play": [p.play for p in players]}
            prefixes = measure.rate_prefixes(db, names, checkpoints)
            curve = measure.seed_curve(prefixes, truth, comps)
            t3 = time.perf_counter()
            for p in (db, Path(f"{db}.wal"), pbn):
                p.unlink(missing_ok=True)
            seconds["generate"] += t1 - t0
            seconds["pipeline"] += t2 - t1
            seconds["ratings"] += t3 - t2
            per_seed.append({"seed": seed, "table_results": len(recs), "curve": curve,
                             "dd_tables_computed": dd.get("tables_computed"),
                             "play_traces_computed": dd.get("traces_computed"),
                             "quarantined": len(dd.get("quarantined") or []),
                             "invalid_plays": dd.get("invalid_plays")})  # fmt: skip
            last = curve[-1]
            log(f"seed {seed}: {len(recs)} tables, generate {t1 - t0:.1f} s, pipeline "
                f"{t2 - t1:.1f} s, ratings {t3 - t2:.1f} s; at {last['rounds']} rounds "
                + ", ".join(f"{m} {last[m]:.3f}" for m in measure.MEASURES))  # fmt: skip
    out = {
        "parameters": {**cfg, "checkpoints": checkpoints,
                       "boards_per_player_at_checkpoints":
                           [k * cfg["deals_per_round"] for k in checkpoints],
                       "skills": "bidding, play ~ independent U(0, 1)",
                       "forgetting": "none: ddrank drift_sd=0, Lehman history_weight=1",
                       "interval": "mean over seeds; t95 = 95% t-interval of the mean; "
                                   "p2_5/p97_5 = percentiles of the per-seed values"},
        "calibration": cal,
        "true_value": "imps_per_bidding_unit * bidding + imps_per_play_unit * play",
        **measure.summarise(per_seed, cfg["deals_per_round"]),
        "seconds": {k: round(v, 1) for k, v in seconds.items()},
        "wall_seconds": round(time.perf_counter() - t_start, 1),
        "per_seed": per_seed,
    }  # fmt: skip
    return out


def _cell(iv: dict) -> str:
    return f"{iv['mean']:.3f} [{iv['t95_low']:.3f}, {iv['t95_high']:.3f}]"


def report(res: dict) -> str:
    p, cal = res["parameters"], res["calibration"]
    lines = [
        f"{p['players']} players, {p['rounds']} rounds of {p['deals_per_round']} deals, "
        f"{p['seeds']} seeds; wall {res['wall_seconds']} s",
        f"true value = {cal['imps_per_bidding_unit']:.3f} (se {cal['se_bidding']:.3f}) x bidding"
        f" + {cal['imps_per_play_unit']:.3f} (se {cal['se_play']:.3f}) x play  (IMPs/board)",
        "Spearman with the true value: mean over seeds [95% t-interval of the mean]",
        f"{'boards':>7} " + " ".join(f"{m:>22}" for m in measure.MEASURES),
    ]
    for pt in res["curve"]:
        lines.append(f"{pt['boards_per_player']:7d} "
                     + " ".join(f"{_cell(pt[m]):>22}" for m in measure.MEASURES))  # fmt: skip
    variants = [m for m in measure.VARIANTS if m in res["curve"][0]]
    if variants:
        lines.append("variant, the product's default forgetting (ddrank drift 0.02, Lehman 0.9):")
        for pt in res["curve"]:
            lines.append(f"{pt['boards_per_player']:7d} "
                         + " ".join(f"{_cell(pt[m]):>22}" for m in variants))  # fmt: skip
    lines.append("paired differences over seeds, mean [95% t-interval]:")
    for pt in res["paired_differences"]:
        lines.append(
            f"{pt['boards_per_player']:7d} "
            + "  ".join(
                f"{k.replace('_minus_', ' - ')} {_cell(v)}" for k, v in pt.items() if "_minus_" in k
            )
        )
    lines.append("Spearman 0.9 (mean over seeds), within the simulated range only:")
    for m, v in res["spearman_0.9"].items():
        at = v["mean_reaches_0.9_at_boards"]
        lines.append(f"  {m:9} " + (f"reached at {at} boards per player" if at is not None else
                     f"NOT reached within {v['max_boards_simulated']} boards per player"))  # fmt: skip
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
