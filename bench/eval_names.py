"""Name matching: precision/recall of `seed` vs `fuzzy` on the labelled set, and speed at scale.

    .venv/bin/python bench/eval_names.py [--size 10000] [--show-errors]

Quality: tests/data/names_eval.csv holds real raw names from data/ (PBN vugraph surnames, valet
``SURNAME Given``, online names with ids, LIN) labelled by hand with the right ranking entry or
"none". Each row is one raw name in one context (event), with its partners and team as they occur
in the files, so the fuzzy strategy's context step sees the same evidence it would in the DB.

  precision = correct matches / matches made;   recall = correct matches / rows with a player.

Speed: the real ranking list and the real raw names are expanded synthetically (real given names
recombined with real surnames, raw names written in the record styles seen in data/) to N ranking
entries and N raw names; both strategies are timed side by side in this one run.
"""

from __future__ import annotations

import argparse
import csv
import random
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ddrank.names import (  # noqa: E402
    MatchDecision,
    NameUnit,
    RankingEntry,
    match_units,
    parse_rankings,
    rankings_from_rows,
)

EVAL = ROOT / "tests" / "data" / "names_eval.csv"
RANKINGS = ROOT / "ddrank" / "data" / "rankings" / "wbf-open-rankings.csv"


def eval_units(rows: list[dict[str, str]]) -> list[NameUnit]:
    return [
        NameUnit(
            r["raw_name"],
            r["context"],
            tuple(t for t in r["team"].split("/") if t),
            tuple(p for p in r["partners"].split("|") if p),
        )
        for r in rows
    ]


def score(rows: list[dict[str, str]], decisions: list[MatchDecision]) -> dict[str, float]:
    truth = [r["ranking_name"] for r in rows]
    made = sum(d.ranking_name is not None for d in decisions)
    correct = sum(
        d.ranking_name is not None and d.ranking_name == t
        for d, t in zip(decisions, truth, strict=True)
    )
    players = sum(t != "none" for t in truth)
    return {
        "rows": len(rows),
        "players": players,
        "made": made,
        "correct": correct,
        "wrong": made - correct,
        "precision": correct / made if made else 1.0,
        "recall": correct / players if players else 1.0,
    }


def quality(show_errors: bool) -> dict[str, dict[str, float]]:
    entries = parse_rankings(RANKINGS.read_text(encoding="utf-8"))
    rows = list(csv.DictReader(EVAL.open(encoding="utf-8")))
    units = eval_units(rows)
    print(f"labelled set: {len(rows)} rows ({Counter(r['source'] for r in rows)})")
    print(f"ranking list: {len(entries)} entries\n")
    results = {}
    print(f"{'strategy':9} {'precision':>9} {'recall':>7} {'made':>5} {'correct':>7} {'wrong':>5}")
    for strategy in ("seed", "fuzzy"):
        decisions = match_units(units, entries, strategy=strategy)
        s = score(rows, decisions)
        results[strategy] = s
        print(
            f"{strategy:9} {s['precision']:9.4f} {s['recall']:7.4f} {s['made']:5d} "
            f"{s['correct']:7d} {s['wrong']:5d}"
        )
        by_source = {}
        for src in sorted({r["source"] for r in rows}):
            idx = [i for i, r in enumerate(rows) if r["source"] == src]
            by_source[src] = score([rows[i] for i in idx], [decisions[i] for i in idx])
        for src, b in by_source.items():
            print(f"  {src:26} P={b['precision']:.3f} R={b['recall']:.3f} ({b['rows']} rows)")
        methods = Counter(d.method for d in decisions)
        print(f"  methods: {dict(methods)}")
        if show_errors:
            for r, d in zip(rows, decisions, strict=True):
                if d.ranking_name is not None and d.ranking_name != r["ranking_name"]:
                    print(
                        f"  WRONG {r['raw_name']!r} -> {d.ranking_name} ({d.method} {d.score}); truth {r['ranking_name']}"
                    )
                elif d.ranking_name is None and r["ranking_name"] != "none":
                    print(
                        f"  MISSED {r['raw_name']!r} ({d.method}, best {d.runner_up}); truth {r['ranking_name']}"
                    )
    gain = results["fuzzy"]["recall"] - results["seed"]["recall"]
    print(
        f"\nfuzzy precision {results['fuzzy']['precision']:.4f} (target >= 0.99); "
        f"recall gain over seed {gain * 100:+.1f} points (target >= +10)"
    )
    return results


# ----------------------------------------------------------------------------- scale


def synthetic(n: int, seed: int = 2024) -> tuple[list[RankingEntry], list[str]]:
    """N ranking entries and N raw names grown from the real list and the real raw names."""
    rng = random.Random(seed)
    real = parse_rankings(RANKINGS.read_text(encoding="utf-8"))
    firsts = [e.name.split()[0] for e in real if len(e.name.split()) >= 2]
    lasts = [e.name.split()[-1] for e in real if len(e.name.split()) >= 2]
    rows = [
        {"name": e.name, "masterpoints": e.masterpoints, "placing_points": e.placing_points}
        for e in real
    ]
    while len(rows) < n:
        rows.append(
            {
                "name": f"{rng.choice(firsts)} {rng.choice(lasts)}",
                "masterpoints": 0,
                "placing_points": 0,
            }
        )
    entries = rankings_from_rows(rows[:n])
    real_raw = [r["raw_name"] for r in csv.DictReader(EVAL.open(encoding="utf-8"))]
    raws: list[str] = list(real_raw)
    styles = ("surname", "vugraph", "valet", "online", "typo", "unknown")
    while len(raws) < n:
        e = rng.choice(entries)
        parts = e.name.split()
        if len(parts) < 2:
            continue
        given, surname = parts[0], parts[-1]
        style = rng.choice(styles)
        if style == "surname":
            raws.append(surname)
        elif style == "vugraph":
            raws.append(f"{surname}{given[0].upper()}")
        elif style == "valet":
            raws.append(f"{surname.upper()} {given}")
        elif style == "online":
            raws.append(f"{given} {surname}#{rng.randint(10000, 250000)}")
        elif style == "typo":
            i = rng.randrange(1, len(surname)) if len(surname) > 2 else 1
            raws.append(f"{given} {surname[:i]}{surname[i + 1 :]}")
        else:
            raws.append(f"{rng.choice(firsts)} {rng.choice(lasts)}{rng.choice('aeio')}n")
    return entries, raws[:n]


def speed(n: int, seed_sample: int) -> None:
    entries, raws = synthetic(n)
    units = [NameUnit(r) for r in raws]
    print(
        f"\nscale: {len(raws)} raw names ({len(set(raws))} distinct) vs {len(entries)} ranking "
        "entries (synthetic expansion of the real list and raw names)"
    )
    t0 = time.perf_counter()
    fuzzy = match_units(units, entries, strategy="fuzzy")
    t_fuzzy = time.perf_counter() - t0
    matched = sum(d.ranking_name is not None for d in fuzzy)
    print(
        f"  fuzzy: {t_fuzzy:6.2f} s for all {len(units)} names ({matched} matched) (target <= 15 s)"
    )
    sample = units[:seed_sample]
    t0 = time.perf_counter()
    match_units(sample, entries, strategy="seed")
    t_seed = time.perf_counter() - t0
    print(
        f"  seed : {t_seed:6.2f} s for {len(sample)} names -> about "
        f"{t_seed * len(units) / len(sample):.1f} s for all {len(units)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--size", type=int, default=10_000, help="raw names and ranking entries for the timing"
    )
    parser.add_argument(
        "--seed-sample", type=int, default=2_000, help="raw names timed for the seed strategy"
    )
    parser.add_argument("--show-errors", action="store_true", help="list wrong and missed rows")
    args = parser.parse_args()
    quality(args.show_errors)
    speed(args.size, args.seed_sample)


if __name__ == "__main__":
    main()
