"""The non-circular simulation (bench/simulate_players.py, issue 21 part 6): its generator never
asks a DD solver, plays only legal cards, rewards card-play skill; its quick run's JSON keys."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.simulation import bidding, generate, play  # noqa: E402


@pytest.fixture(scope="module")
def deals() -> list[generate.SimDeal]:
    return generate.load_deals()


def test_the_deal_pool_is_the_bundled_bermuda_bowl(deals: list[generate.SimDeal]) -> None:
    assert len(deals) == 336
    assert len({d.pbn for d in deals}) == 336
    assert {d.vulnerable for d in deals} == {"None", "NS", "EW", "All"}


def test_generation_never_calls_a_dd_solver(monkeypatch: pytest.MonkeyPatch,
                                            deals: list[generate.SimDeal]) -> None:  # fmt: skip
    import endplay.dds as dds

    import ddrank.dd.solver as solver

    def boom(*_a: object, **_k: object) -> None:
        raise AssertionError("a DD solver was called while generating")

    for module in (dds, solver):
        for name in dir(module):
            if not name.startswith("_") and callable(getattr(module, name)) and (
                "solve" in name or "calc" in name or "analyse" in name or "par" in name
            ):  # fmt: skip
                monkeypatch.setattr(module, name, boom)
    bidding.trick_model.cache_clear()  # computed again under the patch
    try:
        rng = random.Random(3)
        players = generate.make_players(8, rng)
        recs = generate.simulate(players, 2, 3, deals, rng)
        cal = generate.calibrate(8, 4, 2, 5)
    finally:
        bidding.trick_model.cache_clear()
    assert len(recs) == 2 * 3 * 2 and cal["tables"] == 4 * 2 * 2
    text = (ROOT / "bench/simulation/play.py").read_text()
    text += (ROOT / "bench/simulation/bidding.py").read_text()
    text += (ROOT / "bench/simulation/generate.py").read_text()
    assert "endplay" not in text and "ddrank.dd" not in text


def _replay(rec: generate.TableRecord) -> int:
    """Check every card against the deal (held, suit followed); returns the declarer's tricks."""
    hands = [{play.SUITS[s] + play.RANKS[r] for s, rs in enumerate(h) for r in rs}
             for h in play.parse_deal(rec.deal.pbn)]  # fmt: skip
    trump = None if rec.contract[1] == "N" else rec.contract[1]
    decl = play.SEAT_LETTERS.index(rec.declarer)
    seat, tricks = (decl + 1) % 4, 0
    assert len(rec.cards) == 52 and len(set(rec.cards)) == 52
    for k in range(0, 52, 4):
        trick = []
        for c in rec.cards[k : k + 4]:
            assert c in hands[seat], f"{c} is not in seat {seat}'s hand"
            if trick:
                led = trick[0][1][0]
                assert c[0] == led or not any(x[0] == led for x in hands[seat]), "revoke"
            hands[seat].remove(c)
            trick.append((seat, c))
            seat = (seat + 1) % 4
        led = trick[0][1][0]
        power = {c: (2 if c[0] == trump else 1 if c[0] == led else 0, play.RANKS.index(c[1]))
                 for _, c in trick}  # fmt: skip
        seat = max(trick, key=lambda e: power[e[1]])[0]
        tricks += seat % 2 == decl % 2
    assert not any(hands)
    return tricks


def test_every_generated_play_is_legal(deals: list[generate.SimDeal]) -> None:
    rng = random.Random(11)
    players = generate.make_players(12, rng)
    recs = generate.simulate(players, 10, 4, deals, rng)
    assert len(recs) == 10 * 4 * 3
    for rec in recs:
        assert _replay(rec) == rec.tricks
        assert rec.contract[0] in "1234567" and rec.contract[1] in "SHDCN"


def test_pbn_holds_every_table_with_its_play(deals: list[generate.SimDeal]) -> None:
    rng = random.Random(2)
    recs = generate.simulate(generate.make_players(8, rng), 1, 2, deals, rng)
    text = generate.to_pbn(recs)
    assert text.count("[Deal ") == len(recs) == 4
    assert text.count('[Play "') == 4 and text.count("\n*\n") == 4


def _mean_tricks(deals: list[generate.SimDeal], declarer: float, defence: float) -> float:
    """Declarer's mean tricks over the same 200 deals and contracts, with the given skills."""
    total = 0
    for i, d in enumerate(deals[:200]):
        hands = play.parse_deal(d.pbn)
        contract, decl = bidding.auction(hands, [0.5] * 4, (False, False), random.Random(i))
        skills = [defence] * 4
        skills["NESW".index(decl)] = declarer
        total += play.play_board(d.pbn, contract[1], decl, skills, random.Random(1000 + i))[1]
    return total / 200


def test_a_more_skilled_declarer_takes_more_tricks(deals: list[generate.SimDeal]) -> None:
    """Same deals, same contracts, same average defenders: only the declarer's skill differs."""
    low, high = _mean_tricks(deals, 0.0, 0.5), _mean_tricks(deals, 1.0, 0.5)
    assert high > low + 0.2, (low, high)


def test_a_more_skilled_defence_holds_declarer_to_fewer_tricks(
    deals: list[generate.SimDeal],
) -> None:
    assert _mean_tricks(deals, 0.5, 1.0) < _mean_tricks(deals, 0.5, 0.0)


def test_bidding_noise_shrinks_with_skill() -> None:
    assert bidding.judgement_sd(1.0) == bidding.SD_BEST < bidding.judgement_sd(0.0)
    assert play.error_rate(1.0) < play.error_rate(0.5) < play.error_rate(0.0)


def test_quick_json_run_has_the_documented_keys(tmp_path: Path,
                                                capsys: pytest.CaptureFixture) -> None:  # fmt: skip
    from bench import simulate_players

    assert simulate_players.main(["--quick", "--json", "--work", str(tmp_path)]) == 0
    out = json.loads(capsys.readouterr().out)
    for key in ("parameters", "calibration", "true_value", "curve", "spearman_0.9",
                "paired_differences", "seconds", "wall_seconds", "per_seed"):  # fmt: skip
        assert key in out, key
    assert out["parameters"]["seeds"] == 2 and len(out["per_seed"]) == 2
    assert [p["boards_per_player"] for p in out["curve"]] == [2, 6]
    for point in out["curve"]:
        for m in ("ddrank", "lehman", "dd_rates", "ddrank_default_forgetting",
                  "lehman_default_forgetting"):  # fmt: skip
            iv = point[m]
            assert set(iv) == {"mean", "t95_low", "t95_high", "p2_5", "p97_5", "seeds"}
            assert -1.0 <= iv["p2_5"] <= iv["mean"] <= iv["p97_5"] <= 1.0
    assert set(out["paired_differences"][-1]) == {
        "rounds", "boards_per_player", "ddrank_minus_lehman", "ddrank_minus_dd_rates",
        "lehman_minus_dd_rates", "ddrank_minus_ddrank_default_forgetting",
        "lehman_minus_lehman_default_forgetting", "ddrank_minus_lehman_default_forgetting",
        "ddrank_default_forgetting_minus_lehman_default_forgetting"}  # fmt: skip
    for m in ("ddrank", "lehman", "dd_rates"):
        reach = out["spearman_0.9"][m]
        assert reach["max_boards_simulated"] == 6
        assert reach["reached_within_simulated_range"] == (
            reach["mean_reaches_0.9_at_boards"] is not None
        )
    for seed in out["per_seed"]:
        assert seed["table_results"] == 3 * 2 * 4  # 3 rounds, 2 deals, 4 tables
        assert seed["play_traces_computed"] == seed["table_results"]
        assert seed["invalid_plays"] == 0 and seed["quarantined"] == 0
    cal = out["calibration"]
    assert {"imps_per_bidding_unit", "imps_per_play_unit", "se_bidding", "se_play"} <= set(cal)
