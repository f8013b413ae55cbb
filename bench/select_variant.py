"""Apply bench/variants.toml's pre-registered selection rule to a development run's JSON.

    PYTHONPATH=$PWD python bench/predict.py --split dev --variants bench/variants.toml --json \\
        > bench/out/variants_dev.json
    python bench/select_variant.py bench/out/variants_dev.json

Prints every candidate's pooled and per-dataset development log-loss, then the selected one
(the lowest pooled log-loss; ties within 1e-6 to the candidate listed first). Refuses a run of
any split but `dev`.
"""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TIE = 1e-6


def select(rows: list[dict], candidates: list[str]) -> tuple[str, dict[str, float]]:
    if any(r["split"] != "dev" for r in rows):
        raise ValueError("the selection reads development periods only")
    pooled = {r["method"]: r["log_loss"] for r in rows if r["dataset"] == "pooled"}
    missing = [c for c in candidates if c not in pooled]
    if missing:
        raise ValueError(f"candidates not in the run: {missing}")
    best = candidates[0]
    for c in candidates[1:]:
        if pooled[c] < pooled[best] - TIE:
            best = c
    return best, {c: pooled[c] for c in candidates}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run", type=Path, help="JSON printed by bench/predict.py --split dev --json")
    ap.add_argument("--variants", type=Path, default=ROOT / "bench/variants.toml")
    args = ap.parse_args(argv)
    cands = tomllib.loads(args.variants.read_text())["selection"]["candidates"]
    rows = json.loads(args.run.read_text())
    try:
        best, pooled = select(rows, cands)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    datasets = [r["dataset"] for r in rows if r["method"] == cands[0] and r["dataset"] != "pooled"]
    ll = {(r["dataset"], r["method"]): r["log_loss"] for r in rows}
    print("| variant | pooled | " + " | ".join(datasets) + " |")
    print("|---|---:|" + "---:|" * len(datasets))
    for c in cands:
        cells = " | ".join(f"{ll[(d, c)]:.5f}" for d in datasets)
        print(f"| {c} | {pooled[c]:.5f} | {cells} |")
    print(f"\nselected (lowest pooled development log-loss): {best}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
