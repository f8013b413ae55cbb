"""bench/predict.py on a small real slice: no leakage, the same rows for every method, the
protocol's hash printed. Data: the bundled 2021 online qualifier (one session, 299 tables) and
the first six rounds of the Bermuda Bowl 2013 (with its cached DD facts)."""

from __future__ import annotations

import hashlib
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from ratingbench import evaluate as ev  # noqa: E402
from ratingbench import protocol  # noqa: E402
from ratingbench.data import Stream  # noqa: E402
from ratingbench.methods import run  # noqa: E402
from ratingbench.run import score  # noqa: E402

pytest.importorskip("glicko2")
pytest.importorskip("openskill")

PROTO = protocol.load()


def _perturbed_after(st: Stream, P: int) -> Stream:
    """Every result after period P changed: scores, IMPs and DD facts."""
    rows = []
    for r in st.rows:
        if r.period > P:
            s = replace(r.skill, result_imps=-r.skill.result_imps + 3.0,
                        play_tricks=None if r.skill.play_tricks is None else r.skill.play_tricks + 2,
                        lead_cost=None if r.skill.lead_cost is None else r.skill.lead_cost + 1)  # fmt: skip
            r = replace(r, imps=-r.imps + 3.0, ns_score=-r.ns_score + 50, skill=s)
        rows.append(r)
    return Stream(st.name, rows, st.has_dd, st.splits)


@pytest.mark.parametrize("method", [m for m in PROTO.methods])
def test_no_leakage_predictions_for_P_ignore_later_results(method: str, oq, bb6) -> None:
    st = bb6 if PROTO.methods[method].get("needs_dd") or method == "ddrank" else oq
    P = 5 if st is bb6 else 6
    changed = _perturbed_after(st, P)
    upto = np.array([r.period <= P for r in st.rows])
    assert (~upto).sum() > 0
    comp, comp2 = ev.comparisons(st), ev.comparisons(changed)
    preds, preds2 = {}, {}
    for setting in PROTO.grid(method)[:2]:
        d = run(method, st, setting, 4)
        d2 = run(method, changed, setting, 4)
        # a leak moves predictions by far more than rounding: compared within a stated tolerance,
        # not bit for bit (the last bits depend on the BLAS kernel; issue 32)
        np.testing.assert_allclose(d[upto], d2[upto], rtol=1e-9, atol=1e-12)
        preds[protocol.label(setting)], preds2[protocol.label(setting)] = d, d2
    h = ev.select_and_predict(st, preds, comp, [P], 2)
    h2 = ev.select_and_predict(changed, preds2, comp2, [P], 2)
    at_p = comp.period == P
    assert at_p.sum() > 0
    np.testing.assert_allclose(h.prob[at_p], h2.prob[at_p], rtol=1e-9, atol=1e-12)
    rows_p = [k for k, r in enumerate(st.rows) if r.period == P]
    np.testing.assert_allclose(h.imp_mean[rows_p], h2.imp_mean[rows_p], rtol=1e-9, atol=1e-12)


def test_every_method_scored_on_the_same_rows(oq) -> None:
    methods = [m for m in PROTO.methods if not PROTO.methods[m].get("needs_dd")]
    rows = score(PROTO, [oq], methods, "dev", lambda _: None, resamples=50)
    per = {(r["n_results"], r["n_comparisons"], r["n_clusters"]) for r in rows
           if r["dataset"] == "OQ2021"}  # fmt: skip
    # OQ2021 dev periods are boards 5-7: 3 boards, 30 tables each (90 results), 435 pairs each.
    assert per == {(90, 1305, 3)}
    assert {r["method"] for r in rows if r["dataset"] == "OQ2021"} == set(methods)
    prim = next(r for r in rows if r["dataset"] == "pooled" and r["method"] == "ddrank")
    assert set(prim["delta_vs"]) == set(methods) - {"ddrank"}
    assert "Holm" in prim["ci_method"] and "periods" in prim["ci_method"]
    noskill = next(r for r in rows if r["dataset"] == "OQ2021" and r["method"] == "no-skill")
    assert noskill["log_loss"] == pytest.approx(np.log(2), abs=1e-5)


def test_protocol_hash_printed(capsys, tmp_path) -> None:
    import predict

    sha = hashlib.sha256((ROOT / "bench/protocol.toml").read_bytes()).hexdigest()
    rc = predict.main(["--split", "dev", "--streams", "OQ2021", "--methods", "no-skill,lehman",
                       "--resamples", "50", "--plot", str(tmp_path / "cal.png"), "--json"])  # fmt: skip
    out = capsys.readouterr()
    assert rc == 0
    assert f"sha256 {sha}" in out.err
    assert f'"protocol_sha256": "{sha}"' in out.out
    assert (tmp_path / "cal_dev.png").is_file()


def test_protocol_budget_equal_for_every_tuned_method() -> None:
    sizes = {m: len(PROTO.grid(m)) for m in PROTO.methods if m != "no-skill"}
    assert set(sizes.values()) == {PROTO.budget}


def test_holm_levels_step_down_then_stop() -> None:
    lv = ev.holm_levels({"a": 0.01, "b": 0.02, "c": 0.03, "d": 0.5}, 0.05)
    assert lv["a"] == pytest.approx(0.05 / 4)
    assert lv["b"] == pytest.approx(0.05 / 3)  # 0.02 > 0.0167: not rejected, stepping stops
    assert lv["c"] == lv["d"] == pytest.approx(0.05 / 3)
