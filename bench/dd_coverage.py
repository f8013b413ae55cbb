"""How many 2012 table results carry DD play evidence in the protocol's WC2012 store.

    PYTHONPATH=$PWD python bench/dd_coverage.py [--protocol bench/protocol-v2.toml]

Per event of the WC2012 stream: table results, results with a DD table for their deal and a
declarer (the tricks over DD after the lead, `play_tricks`), with the opening lead's DD cost,
and with the play's per-card DD costs (a trace). Also the store's DD tables and play traces.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from ratingbench import protocol  # noqa: E402
from ratingbench.data import load_stream  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--protocol", type=Path, default=protocol.PROTOCOL)
    args = ap.parse_args(argv)
    proto = protocol.load(args.protocol)
    spec = next(s for s in proto.streams if s["name"] == "WC2012")
    from store import Store

    with Store(protocol.ROOT / spec["store"], read_only=True) as st:
        deals = {d for d, *_ in st.tuples("bench_dd_cells")}
        traces = [t for _, t, _ in st.tuples("bench_play_traces") if t is not None and len(t) >= 2]
    print(f"store {spec['store']}: DD tables for {len(deals):,} deals, {len(traces):,} play traces")
    stream = load_stream(spec)
    n, play, lead, card = Counter(), Counter(), Counter(), Counter()
    for r in stream.rows:
        n[r.dataset] += 1
        play[r.dataset] += r.skill.play_tricks is not None
        lead[r.dataset] += r.skill.lead_cost is not None
        card[r.dataset] += r.skill.declarer_cost is not None
    print("| event | table results | DD play evidence | opening-lead DD cost | per-card DD costs |")
    print("|---|---:|---:|---:|---:|")
    for ds in [*n, "all"]:
        get = (lambda c: sum(c.values())) if ds == "all" else (lambda c: c[ds])  # noqa: B023
        print(f"| {ds} | {get(n):,} | {get(play):,} | {get(lead):,} | {get(card):,} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
