"""Write tests/data/ratings_v1_values.json: the v1 rating model's predictions, for the test that
the registered variants with their options off are still v1 (tests/test_rating_variants.py).

The values replace SHA digests of the floats' bits, which held only on the machine that recorded
them (a float's last bits depend on the BLAS kernel a CPU selects). The test compares floats with
a stated tolerance instead. Run against a checkout of the v1 code (commit fed25b5):

    git archive fed25b5 | tar -x -C /tmp/v1
    .venv/bin/python bench/make_ratings_v1_values.py /tmp/v1

Per key (stream | method | setting, as in the protocol's grid, and the synthetic per-card
boards): the number of values, their exact sum and sum of magnitudes (`math.fsum`), and up to
`SAMPLED` values at evenly spaced positions, first and last included. One BLAS thread, as
`bench/predict.py` runs. On the machine that made the digests this code reproduces all 36 of them
(it says so), so the values are the ones the digests were taken of.
"""

from __future__ import annotations

import hashlib
import json
import math
import sys
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).resolve().parents[1]
OUT = HERE / "tests" / "data" / "ratings_v1_values.json"
DIGESTS = HERE / "tests" / "data" / "ratings_v1_digests.json"
#: Values kept per key besides the sums (the file stays small; the sums cover the rest).
SAMPLED = 64


def flat(values: Any) -> list[float]:
    """Every number of nested lists, in order (strings skipped): what the digests were of."""
    out: list[float] = []

    def walk(x: Any) -> None:
        if isinstance(x, list | tuple):
            for y in x:
                walk(y)
        elif not isinstance(x, str):
            out.append(float(x))

    walk(values)
    return out


def synthetic(sk: ModuleType) -> list[tuple[int, list[Any]]]:
    """Four periods of 30 boards: results only, aggregate play, and per-card play (seed 7)."""
    import numpy as np

    rng = np.random.default_rng(7)
    players = [f"p{i}" for i in range(12)]
    periods = []
    for period in range(1, 5):
        boards = []
        for t in range(30):
            ps = rng.choice(players, 4, replace=False).tolist()
            ns, ew = (ps[0], ps[1]), (ps[2], ps[3])
            kind = t % 3
            decl_ns = bool(rng.integers(2))
            declarer = ns[0] if decl_ns else ew[0]
            defenders = ew if decl_ns else ns
            if kind == 0:
                b = sk.SkillBoard(ns, ew, float(rng.normal(0, 6)))
            else:
                b = sk.SkillBoard(ns, ew, float(rng.normal(0, 6)), bid_imps=float(rng.normal(0, 5)),
                                  declarer=declarer, declarer_ns=decl_ns,
                                  play_tricks=float(rng.integers(-2, 2)), leader=defenders[0],
                                  lead_cost=float(rng.integers(0, 2)))  # fmt: skip
                if kind == 2:
                    b = replace(b, declarer_cost=float(rng.integers(0, 3)),
                                defence_costs=tuple((d, float(rng.integers(0, 2)))
                                                    for d in defenders))  # fmt: skip
            boards.append(b)
        periods.append((period, boards))
    return periods


def synthetic_values(sk: ModuleType) -> dict[str, list[float]]:
    """Ratings and a prediction from the synthetic boards, with and without partnerships."""
    periods = synthetic(sk)
    boards = [b for _, bs in periods for b in bs]
    out = {}
    for pairs in (False, True):
        params = sk.fit_params(boards[:40], sk.SkillParams())
        if not pairs:
            params = replace(params, prior_sd={**params.prior_sd, sk.PARTNERSHIP: 0.0})
        states = sk.rate_periods(periods, params)
        rows = [[k[0], k[1], v.mean, v.var, v.boards, v.last_period]
                for k, v in sorted(states.items())]  # fmt: skip
        out[f"synthetic|pairs={pairs}"] = flat(rows)
        pred = [sk.predict(states, ("p1", "p2"), ("p3", "p4"), params, 6)]
        out[f"synthetic-predict|pairs={pairs}"] = flat(pred)
    return out


def sample(values: list[float]) -> dict[str, Any]:
    """What the file keeps of one key's values."""
    n = len(values)
    at = sorted({round(k * (n - 1) / (SAMPLED - 1)) for k in range(SAMPLED)}) if n else []
    return {"n": n, "sum": math.fsum(values), "sum_abs": math.fsum(map(abs, values)),
            "at": at, "values": [values[i] for i in at]}  # fmt: skip


def main(root: Path) -> None:
    sys.path[:0] = [str(root), str(root / "bench")]
    import numpy as np
    from ratingbench import protocol
    from ratingbench.data import Stream, load_stream
    from ratingbench.methods import run
    from threadpoolctl import threadpool_limits

    from ddrank.ratings import skill as sk

    proto = protocol.load()

    def spec(name: str) -> dict:
        return next(s for s in proto.streams if s["name"] == name)

    values: dict[str, list[float]] = {}
    with threadpool_limits(1):
        bb = load_stream(spec("BB2013"))
        bb6 = Stream(bb.name, [r for r in bb.rows if r.period <= 6], bb.has_dd,
                     {"BB2013": ([1, 2, 3], [4, 5], [6])})  # fmt: skip
        for name, stream in (("bb6", bb6), ("oq", load_stream(spec("OQ2021")))):
            for method in ("ddrank", "ddrank-nodd"):
                for setting in proto.grid(method):
                    key = f"{name}|{method}|{protocol.label(setting)}"
                    values[key] = flat(run(method, stream, setting, 4).tolist())
        values.update(synthetic_values(sk))
    digests = json.loads(DIGESTS.read_text()) if DIGESTS.exists() else {}
    same = sum(
        hashlib.sha256(np.asarray(v, dtype=np.float64).tobytes()).hexdigest()[:16] == digests.get(k)
        for k, v in values.items()
    )
    lines = [f" {json.dumps(k)}: {json.dumps(sample(v))}" for k, v in values.items()]
    OUT.write_text('{"made_by": "bench/make_ratings_v1_values.py on the v1 code (commit fed25b5), '
                   'one BLAS thread",\n"keys": {\n' + ",\n".join(lines) + "\n}}\n")  # fmt: skip
    print(f"wrote {OUT}: {len(values)} keys; on this machine {same} of {len(digests)} equal the "
          "digests recorded with v1")  # fmt: skip


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else HERE)
