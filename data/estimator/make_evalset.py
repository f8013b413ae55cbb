"""Build the estimator's small held-out evaluation set, labelled by DDS (reproducible).

    nice -n 15 python data/estimator/make_evalset.py          # writes ddrank/data/estimator/evalset.*

`ddrank dd-estimate eval` scores the saved models on this file when no training cache exists, so
a fresh clone can check the estimator's published accuracy in seconds, without the hour of DDS
work that `ddrank dd-estimate train` does. Every state is held out from the shipped models:

* `play`: every completed trick of real boards of the bundled PBN sample whose deal is in the
  test split (`ddrank.estimate.dataset.is_test_deal`, 20% of deals by hash), DD-traced by DDS;
* `random` / `random_play`: deals of endplay's dealer with seed 2 (training used seed 1), their
  13-card DD-table states and their played-out traces (one state per trick).

At most PER_SIZE states per (source, hand size) are kept, chosen by a hash of the state, so the
same inputs give the same file. DDS cost: about a minute of one core.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))  # run as a script from anywhere in the clone

EVAL_SEED = 2  # training used seed 1: none of these random deals was seen in training
RANDOM_DEALS = 200  # played out: 200 states at each of 12..1 cards
REAL_BOARDS = 1000  # test-split boards of the sample with play (traces are cheap)
PER_SIZE = 300  # states kept per (source, hand size)
OUT = HERE.parent.parent / "ddrank" / "ddrank" / "data" / "estimator" / "evalset.parquet"  # shipped


def _key(row: dict) -> str:
    text = f"{row['deal_id']}|{row['owners']}|{row['strain']}|{row['leader']}"
    return hashlib.sha1(text.encode()).hexdigest()


def build(random_deals: int, real_boards: int, per_size: int, cache_dir: Path):  # noqa: ANN201
    """The evaluation states as a polars frame (the columns of the training cache's states)."""
    import polars as pl

    from ddrank.estimate.dataset import is_test_deal
    from ddrank.types import deal_id_of
    from stages.estimate import (
        load_played_boards,
        random_play_states,
        random_table_states,
        real_play_states,
        solve_random_deals,
    )

    boards = [b for b in load_played_boards(None) if is_test_deal(deal_id_of(b["deal"]))]
    play = real_play_states(boards[:real_boards], cache_dir)
    solved = solve_random_deals(random_deals, EVAL_SEED, cache_dir)
    parts = [play, random_table_states(solved), random_play_states(solved, EVAL_SEED, cache_dir)]
    states = pl.concat(parts)
    states = states.with_columns(
        pl.Series("key", [_key(r) for r in states.iter_rows(named=True)])
    ).unique(subset=["key"], keep="first", maintain_order=True)
    kept = (
        states.sort("key")
        .with_columns(pl.int_range(pl.len()).over(["source", "hand_size"]).alias("rank"))
        .filter(pl.col("rank") < per_size)
        .drop("rank", "key")
        .sort(
            ["source", "hand_size", "deal_id", "owners", "strain", "leader"],
            descending=[False, True, False, False, False, False],
        )
    )
    return kept.with_columns(pl.lit("test").alias("split"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--random-deals", type=int, default=RANDOM_DEALS)
    parser.add_argument("--real-boards", type=int, default=REAL_BOARDS)
    parser.add_argument("--per-size", type=int, default=PER_SIZE)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    from importlib.metadata import version

    with tempfile.TemporaryDirectory(prefix="ddrank-evalset-") as tmp:
        states = build(args.random_deals, args.real_boards, args.per_size, Path(tmp))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    states.write_parquet(args.out, compression="zstd", compression_level=19)
    counts = states.group_by(["source", "hand_size"]).len().sort(["source", "hand_size"])
    meta = {
        "made_by": "python data/estimator/make_evalset.py",
        "parameters": {
            "random_deals": args.random_deals,
            "random_seed": EVAL_SEED,
            "real_boards": args.real_boards,
            "per_size": args.per_size,
        },  # fmt: skip
        "labelled_by": f"DDS via endplay {version('endplay')}",
        "states": states.height,
        "per_source_and_size": {f"{s}:{h}": n for s, h, n in counts.iter_rows()},
    }
    args.out.with_suffix(".json").write_text(json.dumps(meta, indent=1) + "\n")
    print(f"{states.height} states written to {args.out}")


if __name__ == "__main__":
    main()
