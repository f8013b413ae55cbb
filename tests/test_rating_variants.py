"""The registered variants of the ddrank rating (bench/variants.toml, issue 21 item 7).

* Every option off reproduces v1: predictions of the v1 grid on the first six rounds of the
  Bermuda Bowl 2013 (with its DD facts) and on the 2021 online qualifier, and ratings of
  synthetic boards that take the per-card path, against tests/data/ratings_v1_values.json (made
  with the v1 code, commit fed25b5, one BLAS thread: bench/make_ratings_v1_values.py), within a
  relative tolerance of 1e-9. Not bit for bit: a float's last bits depend on the BLAS kernel a
  CPU selects, so digests of the bits recorded on one machine failed on another (issue 32). The
  model's own changes move predictions by 1e-4 and more; rounding differences between kernels
  stay near 1e-13, so 1e-9 tells the two apart with room on both sides.
* A variant's predictions for period P ignore every result after P (the leakage test).
* Each variant does change something where it should (an option that is a no-op would make the
  comparison meaningless).
* `bench/predict.py` prints the v2 protocol's hash; `--variants` scores development periods only.
"""

from __future__ import annotations

import hashlib
import json
import math
import sys
import tomllib
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from threadpoolctl import threadpool_limits

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from make_ratings_v1_values import flat, synthetic  # noqa: E402
from ratingbench import evaluate as ev  # noqa: E402
from ratingbench import protocol  # noqa: E402
from ratingbench.methods import DDRANK_VARIANTS, run  # noqa: E402
from test_predict import _perturbed_after  # noqa: E402 - the same perturbation

from ddrank.ratings import skill as sk  # noqa: E402
from ddrank.ratings.difficulty import FieldRef, field_refs  # noqa: E402
from ddrank.ratings.field import seed_newcomers  # noqa: E402

PROTO = protocol.load()
VARIANTS_FILE = ROOT / "bench/variants.toml"
VARIANTS = tomllib.loads(VARIANTS_FILE.read_text())
MERGED, _ = protocol.with_variants(PROTO, VARIANTS_FILE)
V1 = json.loads((ROOT / "tests/data/ratings_v1_values.json").read_text())["keys"]
#: Relative tolerance of every float comparison here (see the module's docstring).
RTOL = 1e-9
# Each option at its "off" value: the v1 model.
OFF = {"field_weight": 0.0, "pair_scale": 1.0, "difficulty_centre": 0.0,
       "difficulty_noise": 0.0, "online": False, "g_scale": 1.0}  # fmt: skip


@pytest.fixture(autouse=True, scope="module")
def _one_blas_thread():
    # bench/predict.py runs on one BLAS thread; a threaded inverse differs in the last bits.
    with threadpool_limits(1):
        yield


def assert_v1(key: str, values) -> None:
    """`values` (nested lists of numbers) equal v1's within RTOL: the sampled values one by one,
    the exact sum of all of them relative to their magnitudes."""
    got, want = flat(values), V1[key]
    assert len(got) == want["n"], key
    np.testing.assert_allclose([got[i] for i in want["at"]], want["values"], rtol=RTOL,
                               atol=RTOL * want["sum_abs"] / max(want["n"], 1), err_msg=key)  # fmt: skip
    assert abs(math.fsum(got) - want["sum"]) <= RTOL * want["sum_abs"], key


def assert_close(a, b) -> None:
    np.testing.assert_allclose(a, b, rtol=RTOL, atol=RTOL * float(np.mean(np.abs(b)) or 1.0))


def differs(a, b) -> bool:
    """More than rounding apart: some value differs by more than RTOL."""
    return not np.allclose(a, b, rtol=RTOL, atol=0.0)


@pytest.mark.parametrize("stream", ["bb6", "oq"])
@pytest.mark.parametrize("method", ["ddrank", "ddrank-nodd"])
def test_v1_predictions_unchanged(stream: str, method: str, request) -> None:
    st = request.getfixturevalue(stream)
    for setting in PROTO.grid(method):
        assert_v1(
            f"{stream}|{method}|{protocol.label(setting)}", run(method, st, setting, 4).tolist()
        )


def test_v1_ratings_of_per_card_boards_unchanged() -> None:
    periods = synthetic(sk)
    boards = [b for _, bs in periods for b in bs]
    assert sum(b.declarer_cost is not None for b in boards) == 40  # the per-card path is used
    for pairs in (False, True):
        params = sk.fit_params(boards[:40], sk.SkillParams())
        if not pairs:
            params = replace(params, prior_sd={**params.prior_sd, sk.PARTNERSHIP: 0.0})
        st = sk.rate_periods(periods, params)
        rows = [[k[0], k[1], v.mean, v.var, v.boards, v.last_period] for k, v in sorted(st.items())]
        assert_v1(f"synthetic|pairs={pairs}", rows)
        pred = [sk.predict(st, ("p1", "p2"), ("p3", "p4"), params, 6)]
        assert_v1(f"synthetic-predict|pairs={pairs}", pred)


def _v1_of(setting: dict) -> dict:
    return {k: setting[k] for k in ("bid_scale", "play_scale", "pairs")}


def _is_on(setting: dict) -> bool:
    return any(setting.get(k, off) != off for k, off in OFF.items())


@pytest.mark.parametrize("variant", DDRANK_VARIANTS)
def test_variant_with_its_options_off_is_v1(variant: str, bb6) -> None:
    grid = MERGED.grid(variant)
    assert len(grid) == PROTO.budget == 8
    for setting in grid[:2]:
        off = {**setting, **OFF}
        assert_close(run(variant, bb6, off, 4), run("ddrank", bb6, _v1_of(off), 4))


@pytest.mark.parametrize("variant", DDRANK_VARIANTS)
def test_variant_changes_the_predictions(variant: str, bb6) -> None:
    """Every setting with an option on predicts differently from v1 at the same prior scales."""
    grid = [s for s in MERGED.grid(variant) if _is_on(s)]
    assert len(grid) >= 4
    for s in grid:
        assert differs(run(variant, bb6, s, 4), run("ddrank", bb6, _v1_of(s), 4)), s


@pytest.mark.parametrize("variant", DDRANK_VARIANTS)
def test_variant_sees_no_result_after_the_period_it_predicts(variant: str, bb6) -> None:
    P = 4
    changed = _perturbed_after(bb6, P)
    upto = np.array([r.period <= P for r in bb6.rows])
    assert (~upto).sum() > 0
    comp, comp2 = ev.comparisons(bb6), ev.comparisons(changed)
    preds, preds2 = {}, {}
    for setting in MERGED.grid(variant)[-2:]:  # options on
        d, d2 = run(variant, bb6, setting, 4), run(variant, changed, setting, 4)
        assert_close(d[upto], d2[upto])
        assert differs(d[~upto], d2[~upto])  # periods 6 on did see period 5's change
        preds[protocol.label(setting)], preds2[protocol.label(setting)] = d, d2
    h = ev.select_and_predict(bb6, preds, comp, [P], 2)
    h2 = ev.select_and_predict(changed, preds2, comp2, [P], 2)
    at_p = comp.period == P
    assert at_p.sum() > 0
    assert_close(h.prob[at_p], h2.prob[at_p])


def test_field_refs_are_leave_one_out_means_within_a_board() -> None:
    b = sk.SkillBoard(("a", "b"), ("c", "d"), 0.0)
    boards = [replace(b, play_tricks=1.0, lead_cost=0.0), replace(b, play_tricks=-1.0),
              replace(b, play_tricks=0.0, lead_cost=2.0), replace(b, play_tricks=5.0),
              replace(b, declarer_cost=1.0, defence_costs=(("c", 1.0), ("d", 0.0)))]  # fmt: skip
    refs = field_refs(boards, ["x", "x", "x", "y", "x"], play_mean=0.0)
    assert refs[0] == FieldRef(play=-0.5, play_size=0.5, lead=2.0, declarer_cost=1.0,
                               defence_cost=0.5)  # fmt: skip
    assert refs[2].play == 0.0 and refs[2].lead == 0.0
    assert refs[1].lead == 1.0 and refs[4].play == 0.0 and refs[4].declarer_cost is None
    assert refs[3] is None  # a board played at one table keeps v1's observation


def test_field_prior_seeds_only_newcomers_from_the_rated_roster() -> None:
    params = sk.SkillParams()
    states = {("a", "bidding"): sk.SkillState(1.0, 0.1, 5, 1),
              ("b", "bidding"): sk.SkillState(0.5, 0.1, 5, 1)}  # fmt: skip
    out = seed_newcomers(states, ["a", "b", "n", "n"], 3, params, 0.5)
    assert out[("n", "bidding")] == sk.SkillState(0.375, params.prior_sd["bidding"] ** 2, 0, 3)
    assert out[("a", "bidding")] is states[("a", "bidding")]
    assert ("n", "declarer") not in out  # no rated player on that component: v1's prior
    assert seed_newcomers(states, ["n"], 3, params, 0.0) == states


def test_variants_file_registers_every_candidate_with_the_budget() -> None:
    cands = VARIANTS["selection"]["candidates"]
    assert cands[0] == "ddrank" and set(cands[1:]) == set(DDRANK_VARIANTS)
    assert set(VARIANTS["methods"]) == set(cands)
    assert VARIANTS["methods"]["ddrank"]["grid"] == PROTO.methods["ddrank"]["grid"]
    for name in cands:
        assert len(MERGED.grid(name)) == PROTO.budget


def test_variants_refused_on_test_periods(capsys, tmp_path) -> None:
    import predict

    rc = predict.main(["--variants", str(VARIANTS_FILE), "--streams", "OQ2021",
                       "--plot", str(tmp_path / "c.png")])  # fmt: skip
    assert rc == 2
    assert "development periods only" in capsys.readouterr().err


def test_selection_rule_lowest_pooled_dev_log_loss_ties_to_the_earlier() -> None:
    from select_variant import select

    def row(m: str, ll: float, ds: str = "pooled", split: str = "dev") -> dict:
        return {"dataset": ds, "method": m, "log_loss": ll, "split": split}

    rows = [row("a", 0.6930), row("b", 0.6929995), row("c", 0.6925), row("c", 0.60, "X")]
    assert select(rows, ["a", "b"])[0] == "a"  # 5e-7 lower is a tie
    assert select(rows, ["a", "b", "c"]) == ("c", {"a": 0.6930, "b": 0.6929995, "c": 0.6925})
    with pytest.raises(ValueError, match="development"):
        select([row("a", 0.69, split="test")], ["a"])


def test_v2_protocol_hash_printed_and_only_the_store_and_header_differ(capsys, tmp_path) -> None:
    import predict

    path = ROOT / "bench/protocol-v2.toml"
    sha = hashlib.sha256(path.read_bytes()).hexdigest()
    v2 = protocol.load(path)
    assert v2.data["protocol"]["version"] == 2 and v2.primary == "ddrank"
    assert v2.methods == PROTO.methods and v2.inference == PROTO.inference
    assert v2.data["targets"] == PROTO.data["targets"]
    wc = next(s for s in v2.streams if s["name"] == "WC2012")
    assert (wc.pop("dd_tables"), wc.pop("play_traces")) == (2298, 7181)
    assert v2.streams == PROTO.streams
    rc = predict.main(["--protocol", str(path), "--split", "dev", "--streams", "OQ2021",
                       "--methods", "no-skill,ddrank", "--resamples", "50",
                       "--plot", str(tmp_path / "cal.png"), "--json"])  # fmt: skip
    out = capsys.readouterr()
    assert rc == 0
    assert f"protocol-v2.toml sha256 {sha}" in out.err
    assert f'"protocol_sha256": "{sha}"' in out.out
