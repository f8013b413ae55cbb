"""Which rating predicts bridge results best? The frozen, pre-registered benchmark.

The protocol (bench/protocol.toml, its SHA-256 printed first) fixes the datasets, their
warm-up / development / test periods, the targets, the metrics and every method's search space
(the same number of settings for every tuned method). Each stream is rated in chronological
order; for each scored period P every method chooses its setting and calibration on its own
predictions of the earlier periods only (nested time split), then predicts P.

Targets: the pairwise comparison of every two tables of a board (log-loss, Brier, non-tie
accuracy, calibration), and each table's IMPs against the datum (RMSE and Gaussian negative
log-likelihood). Intervals resample periods (clusters), per dataset and pooled, and are
Holm-adjusted across methods x (datasets + pooled).

    PYTHONPATH=$PWD python bench/predict.py --split dev      # development periods only
    PYTHONPATH=$PWD python bench/predict.py --json           # the test periods (scored once)
"""

from __future__ import annotations

import os

# One BLAS thread: on a 2-core machine shared by other jobs, threaded BLAS was 8x slower here.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))

from ratingbench import protocol  # noqa: E402
from ratingbench.data import store_counts  # noqa: E402
from ratingbench.report import markdown, plot_calibration, table  # noqa: E402
from ratingbench.run import load_streams, score  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="The frozen held-out rating benchmark.")
    ap.add_argument("--json", action="store_true", help="print a JSON list of rows")
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table")
    ap.add_argument("--split", choices=("dev", "test"), default="test",
                    help="periods to score: development, or the test periods (default)")  # fmt: skip
    ap.add_argument("--streams", default="", help="comma-separated stream names (default: all)")
    ap.add_argument("--methods", default="", help="comma-separated methods (default: all)")
    ap.add_argument("--resamples", type=int, default=None,
                    help="bootstrap resamples (default: the protocol's; fewer only for tests)")  # fmt: skip
    ap.add_argument("--protocol", type=Path, default=protocol.PROTOCOL)
    ap.add_argument("--variants", type=Path, default=None,
                    help="also score the registered variants of this file (bench/variants.toml); "
                         "development periods only")  # fmt: skip
    ap.add_argument("--plot", type=Path, default=ROOT / "bench/out/predict_calibration.png")
    args = ap.parse_args(argv)
    proto = protocol.load(args.protocol)

    def log(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    log(f"protocol {args.protocol.name} sha256 {proto.sha256}")
    if args.variants is not None:
        if args.split != "dev":
            log("error: --variants scores development periods only (use --split dev)")
            return 2
        proto, vsha = protocol.with_variants(proto, args.variants)
        log(f"variants {args.variants.name} sha256 {vsha}")
    methods = [m for m in args.methods.split(",") if m] or list(proto.methods)
    unknown = [m for m in methods if m not in proto.methods]
    if unknown:
        log(f"error: unknown method(s) {unknown}; the protocol has {list(proto.methods)}")
        return 2
    names = [s for s in args.streams.split(",") if s]
    missing = [
        s["store"] for s in proto.streams
        if s.get("store") and (not names or s["name"] in names) and not (ROOT / s["store"]).is_file()
    ]  # fmt: skip
    if missing:
        log(f"error: {missing[0]} is missing; make it with `ddrank ingest`, `clean` and `dd` "
            "(docs/ratings.md, Reproduce)")  # fmt: skip
        return 2
    for s in proto.streams:  # a protocol that names the store's DD counts gets exactly those
        if "dd_tables" in s and (not names or s["name"] in names):
            got = store_counts(ROOT / s["store"])
            if got != (s["dd_tables"], s["play_traces"]):
                log(f"error: {s['store']} holds {got[0]} DD tables and {got[1]} play traces; the "
                    f"protocol needs {s['dd_tables']} and {s['play_traces']} (run `ddrank dd`)")  # fmt: skip
                return 2
    t0 = time.perf_counter()
    streams = load_streams(proto, names, log)
    results = score(proto, streams, methods, args.split, log, args.resamples)
    if args.variants is not None:
        for row in results:
            row["variants_sha256"] = vsha
    if args.plot:
        plot_calibration(results, args.plot.with_name(f"{args.plot.stem}_{args.split}.png"))
    log(f"total {time.perf_counter() - t0:.0f} s; protocol sha256 {proto.sha256}")
    if args.json:
        print(json.dumps(results, indent=1))
    elif args.markdown:
        print(markdown(results, proto.primary))
    else:
        print(table(results, proto.primary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
