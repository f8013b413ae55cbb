"""Learned DD estimator: normalisation, features, DDS-labelled states, models, CLI and flow.

Everything runs on real boards of the bundled 2012 World Championship sample and on the seed's
own worked examples; DDS labels are checked against SolveBoard on the same positions.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from ddrank.estimate import tricks
from ddrank.estimate.dataset import is_test_deal, play_states, table_states
from ddrank.estimate.features import (
    COMPACT_VERSION,
    compact_feature_names,
    compact_features,
    paper_feature_names,
    paper_features,
)
from ddrank.estimate.metrics import SEED_SOFTMAX_TEST, score, seed_softmax_best
from ddrank.estimate.models import ModelSpec, fit_trick_model
from ddrank.estimate.playout import play_out
from ddrank.estimate.state import (
    hands_from_owner,
    hands_from_text,
    normalise,
    owner_from_hands,
    owner_to_pbn,
    owner_to_text,
    owners_from_texts,
    shift_up,
    swap_trumps,
)
from ddrank.types import Card, Deal, Seat, Strain

# Board 1 of the 2012 World Championship final (ddrank/data/sample/pbn/worldclass-2012-example3.pbn)
BOARD1 = "W:.AQJ85.986.JT973 A8643.97642.Q.Q8 KT9.K3.K75.AK652 QJ752.T.AJT432.4"
BOARD1_PLAY = [
    "SQ",
    "C3",
    "S3",
    "S9",
    "C7",
    "C8",
    "CK",
    "C4",
    "CA",
    "D2",
    "C9",
    "CQ",
    "HK",
    "HT",
    "H5",
    "H2",
]  # 5C by E, true order
SAMPLE = Path("ddrank/data/sample/pbn/worldclass-2012-example3.pbn")
N_BOARDS = 150  # real boards with play used by the model, CLI and flow tests (one DDS cache)


def board1_owner() -> np.ndarray:
    return owner_from_hands(hands_from_text(BOARD1))


def dds_tricks_from(owner: np.ndarray, strain: Strain, leader: Seat) -> int:
    """NS's DD tricks from a position by SolveBoard: an independent check of our labels."""
    from endplay.dds import solve_board
    from endplay.dds.solve import SolveMode
    from endplay.types import Deal as EpDeal
    from endplay.types import Denom, Player

    deal = EpDeal(owner_to_pbn(owner))
    deal.first = Player(int(leader))
    deal.trump = Denom(strain.dds_index)
    (_card, lead_side), *_ = list(solve_board(deal, SolveMode.OptimalOne))
    size = int((owner >= 0).sum()) // 4
    return lead_side if leader.is_ns else size - lead_side


# ------------------------------------------------------------------ state normalisation
def test_owner_round_trip_and_storage_form() -> None:
    owner = board1_owner()
    assert owner_to_pbn(owner) == Deal.from_pbn(BOARD1).to_pbn()
    assert owners_from_texts([owner_to_text(owner)])[0].tolist() == owner.tolist()
    assert [h.to_pbn() for h in hands_from_owner(owner)] == [
        h.to_pbn() for h in Deal.from_pbn(BOARD1).hands
    ]


def test_shift_up_is_the_seeds_example() -> None:
    """Seed 3.2: 'if W held the ace and queen of spades but the king had been played, we
    represented this as the ace and king'. On board 1, with E's SK gone, S's SQJ become SKQ."""
    owner = board1_owner()
    owner[0, 13 - 2] = -1  # the king of spades (East's) is played
    shifted = shift_up(owner[None])[0]
    hands = hands_from_owner(shifted)
    assert hands[Seat.S].to_pbn().split(".")[0] == "KQ863"
    assert hands[Seat.E].to_pbn().split(".")[0] == "JT"
    assert hands[Seat.N].to_pbn().split(".")[0] == "A9754"  # the ace stays the ace
    assert (shifted[0] >= 0).sum() == 12 and shifted[0, 0] == -1  # the gap is at the bottom


def test_trump_swap_moves_trumps_to_spades_and_leaves_notrump() -> None:
    owner = board1_owner()[None]
    hearts = swap_trumps(owner, np.array([int(Strain.H)]))[0]
    assert (hearts[0] == owner[0, 1]).all() and (hearts[1] == owner[0, 0]).all()
    assert (swap_trumps(owner, np.array([int(Strain.N)]))[0] == owner[0]).all()
    assert (swap_trumps(owner, np.array([int(Strain.S)]))[0] == owner[0]).all()
    clubs = swap_trumps(owner, np.array([int(Strain.C)]))[0]
    assert hands_from_owner(clubs)[Seat.E].to_pbn() == "AK652.K3.K75.KT9"


# ------------------------------------------------------------------ features
def _slow_paper_features(hands: list) -> list[int]:
    """The seed's five features, written out card by card from its text (shifted-up hands)."""
    out = []
    for hand in hands:
        for suit in (Strain.S, Strain.H, Strain.D, Strain.C):
            ranks = sorted((c.rank for c in hand.cards if c.suit == suit), reverse=True)
            top = ranks[0] if ranks else 0
            higher = 14 - top
            stopper = 7 - higher if ranks and len(ranks) > higher and higher < 7 else 0
            winners = 0
            while winners < len(ranks) and ranks[winners] == 14 - winners:
                winners += 1
            out += [len(ranks), sum(ranks), top, stopper, winners]
    return out


def test_paper_features_match_the_seeds_definitions_on_real_positions(tiny_cache: Path) -> None:
    states = _real_states(40, tiny_cache)
    owners = owners_from_texts(states["owners"].to_list())
    strains = states["strain"].to_numpy()
    norm = normalise(owners, strains)
    fast = paper_features(norm)
    assert fast.shape == (len(owners), 80) and len(paper_feature_names()) == 80
    for i in range(0, len(owners), 7):
        assert fast[i].astype(int).tolist() == _slow_paper_features(hands_from_owner(norm[i]))


def test_stopper_examples_from_the_seed() -> None:
    """Ace = 7, king and another card = 6, a single king = 0 (seed 3.3)."""
    # board 1: N SA8643 (ace), E SKT9 (guarded king), S HT? -> use E's HK3 and a bare king
    f = dict(zip(paper_feature_names(), paper_features(board1_owner()[None])[0], strict=True))
    assert f["N_S_stopper"] == 7 and f["E_S_stopper"] == 6 and f["E_H_stopper"] == 6
    bare = hands_from_text("N:K... A... Q... J...")  # a 1-card ending: bare king of spades
    g = dict(
        zip(paper_feature_names(), paper_features(owner_from_hands(bare)[None])[0], strict=True)
    )
    assert g["N_S_stopper"] == 0 and g["E_S_stopper"] == 7 and g["E_S_winners"] == 1


def test_compact_features_ignore_suit_permutations_and_seat_rotation() -> None:
    owner = board1_owner()
    # swap hearts and diamonds: the same position for a spade contract or no-trump
    swapped = owner[[0, 2, 1, 3]]
    # rotate every seat one place clockwise and the leader with it
    rotated = np.where(owner >= 0, (owner + 1) % 4, -1).astype(np.int8)
    for strain in (Strain.S, Strain.N):
        x = compact_features(normalise(owner[None], [int(strain)]), [Seat.W], [strain == Strain.N])
        y = compact_features(
            normalise(swapped[None], [int(strain)]), [Seat.W], [strain == Strain.N]
        )
        z = compact_features(
            normalise(rotated[None], [int(strain)]), [Seat.N], [strain == Strain.N]
        )
        assert x.shape == (1, len(compact_feature_names()))
        assert (x == y).all() and (x == z).all()
    # but a trump suit is not interchangeable with a side suit
    h = compact_features(normalise(owner[None], [int(Strain.H)]), [Seat.W], [False])
    d = compact_features(normalise(owner[None], [int(Strain.D)]), [Seat.W], [False])
    assert (h != d).any()


# ------------------------------------------------------------------ DDS-labelled states
@pytest.fixture(scope="module")
def board1_trace() -> list[int]:
    from ddrank.dd.solver import TraceRequest, set_dds_threads, solve_traces

    set_dds_threads(1)
    req = TraceRequest("b1", Deal.from_pbn(BOARD1).to_pbn(), Strain.C, Seat.S, tuple(BOARD1_PLAY))
    return list(solve_traces([req])[0])


def test_play_states_follow_the_tricks_and_match_solveboard(board1_trace: list[int]) -> None:
    deal = Deal.from_pbn(BOARD1)
    cards = [Card.parse(c) for c in BOARD1_PLAY]
    seats = [Seat.S, Seat.W, Seat.N, Seat.E, Seat.W, Seat.N, Seat.E, Seat.S]
    seats += [Seat.E, Seat.S, Seat.W, Seat.N, Seat.E, Seat.S, Seat.W, Seat.N]
    rows = play_states(deal, cards, seats, Strain.C, Seat.E, board1_trace)
    assert [r.hand_size for r in rows] == [13, 12, 11, 10, 9]
    # W ruffs trick 1, E wins tricks 2-4 (CK, CA, HK): EW lead after every trick
    assert [Seat(r.leader) for r in rows] == [Seat.S, Seat.W, Seat.E, Seat.E, Seat.E]
    for row in rows:
        owner = owners_from_texts([row.owners])[0]
        assert (owner >= 0).sum() == 4 * row.hand_size
        assert row.ns_tricks == dds_tricks_from(owner, Strain.C, Seat(row.leader))
    # DD, EW take 11 from the start; the spade lead gave them a 12th (the record says 12 made)
    assert board1_trace[0] == 11 and board1_trace[4] == 12
    assert [r.ns_tricks for r in rows] == [2, 1, 1, 1, 1]


def test_table_states_cover_every_strain_and_declarer() -> None:
    from ddrank.dd.solver import solve_tables

    deal = Deal.from_pbn(BOARD1)
    table = solve_tables([deal.to_pbn()])[0]
    rows = table_states(deal, table.cells)
    assert len(rows) == 20 and {(r.strain, r.leader) for r in rows} == {
        (s, p) for s in range(5) for p in range(4)
    }
    for r in rows:
        declarer = Seat(r.leader).rho
        dd = table.tricks(Strain(r.strain), declarer)
        assert r.ns_tricks == (dd if declarer.is_ns else 13 - dd)
    # spot-check two cells with SolveBoard from the opening position
    owner = board1_owner()
    for r in rows[::9]:
        assert r.ns_tricks == dds_tricks_from(owner, Strain(r.strain), Seat(r.leader))


def test_random_playout_is_legal_and_deterministic() -> None:
    import random

    from ddrank.dd.validate import play_problem

    deal = Deal.from_pbn(BOARD1)
    a = play_out(deal, Strain.H, Seat.N, random.Random(7))
    b = play_out(deal, Strain.H, Seat.N, random.Random(7))
    assert a == b and len(a[0]) == 52 and a[1][0] == Seat.E
    assert not play_problem(deal, Strain.H, Seat.E, a[0], a[1])


def test_split_is_by_deal() -> None:
    ids = [Deal.from_pbn(BOARD1).deal_id] * 3
    assert len({is_test_deal(d) for d in ids}) == 1
    share = np.mean([is_test_deal(f"{k:016x}") for k in range(5000)])
    assert 0.17 < share < 0.23


# ------------------------------------------------------------------ models and API
def _real_states(n_boards: int, cache: Path) -> pl.DataFrame:
    """States of the first real boards with play in the sample, labelled by DDS traces."""
    from stages.estimate import load_played_boards, real_play_states

    return real_play_states(load_played_boards(None, limit=n_boards), cache)


@pytest.fixture(scope="module")
def tiny_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One DDS cache for the whole module: later tests reuse the traces earlier ones solved."""
    return tmp_path_factory.mktemp("estimator-cache")


def test_models_learn_real_positions_and_tricks_api(tiny_cache: Path) -> None:
    states = _real_states(N_BOARDS, tiny_cache)
    from stages.estimate import arrays

    test = np.array([is_test_deal(d) for d in states["deal_id"]])
    tr, te = arrays(states.filter(~pl.Series(test))), arrays(states.filter(pl.Series(test)))
    model = fit_trick_model(
        ModelSpec("gbm", "compact", {"n_estimators": 200}),
        tr["owners"], tr["strains"], tr["leaders"], tr["ns_tricks"], tr["deal_ids"],
    )  # fmt: skip
    expected, dist = model.predict(te["owners"], te["strains"], te["leaders"])
    assert np.allclose(dist.sum(axis=1), 1.0)
    assert (dist[np.arange(len(dist)), :][:, 13] == 0)[te["sizes"] < 13].all()
    pred = dist.argmax(axis=1)
    learned = score(pred, te["ns_tricks"])
    # a model that ignored the cards could do no better than the median per hand size
    median = np.array([np.median(tr["ns_tricks"][tr["sizes"] == s]) for s in te["sizes"]])
    baseline = score(np.round(median), te["ns_tricks"])
    assert learned["mae"] < 0.75 * baseline["mae"]
    assert learned["within_one"] > baseline["within_one"]

    # the public API: board 1 after trick 4 (E on lead, 9 cards each, clubs trumps)
    row = states.filter(pl.col("deal_id") == Deal.from_pbn(BOARD1).deal_id)
    row = row.filter(pl.col("hand_size") == 9).row(0, named=True)
    hands = hands_from_owner(owners_from_texts([row["owners"]])[0])
    exp, d = tricks(hands, Strain.C, Seat.E, model)
    assert len(d) == 10 and abs(sum(d) - 1) < 1e-9
    assert exp == pytest.approx(sum(t * p for t, p in enumerate(d)))
    text = "N:" + " ".join(h.to_pbn() for h in hands)
    assert tricks(text, Strain.C, Seat.E, model) == (exp, d)


def test_seed_table2_numbers() -> None:
    assert SEED_SOFTMAX_TEST[13][3] == 25.51 and SEED_SOFTMAX_TEST[1][3] == 76.93
    assert seed_softmax_best(2) == 56.52  # 1000 iterations beat 2500 there


def test_saved_model_carries_feature_version_and_refuses_a_stale_one(
    tiny_cache: Path, tmp_path: Path
) -> None:
    from stages.estimate import arrays
    from store.estimator import load_model, save_model

    states = _real_states(40, tiny_cache)
    a = arrays(states)
    model = fit_trick_model(
        ModelSpec("softmax", "paper80", {"max_iter": 50}),
        a["owners"], a["strains"], a["leaders"], a["ns_tricks"], a["deal_ids"],
    )  # fmt: skip
    path = save_model(model, tmp_path)
    meta = json.loads(path.with_suffix(".json").read_text())
    assert meta["feature_version"] == "paper80-v1" and meta["family"] == "softmax"
    assert load_model(path).feature_version == "paper80-v1"
    model.feature_version = "paper80-v0"
    stale = save_model(model, tmp_path / "old")
    with pytest.raises(ValueError, match="retrain"):
        load_model(stale)


# ------------------------------------------------------------------ CLI and flow
@pytest.fixture(scope="module")
def trained(tiny_cache: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`ddrank dd-estimate train` on 150 real boards and 16 random deals, once per module."""
    from typer.testing import CliRunner

    from cli.main import app

    models = tmp_path_factory.mktemp("models")
    res = CliRunner().invoke(
        app,
        ["dd-estimate", "train", "--random-deals", "16", "--max-boards", str(N_BOARDS),
         "--model", "gbm-compact", "--cache-dir", str(tiny_cache), "--models-dir", str(models),
         "--json"],
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    summary = json.loads(res.stdout.strip().splitlines()[-1])
    assert summary["models"] == ["gbm-compact"] and summary["states"] > 16 * 20
    return models


def test_cli_eval_table_and_json(trained: Path, tiny_cache: Path) -> None:
    from typer.testing import CliRunner

    from cli.main import app

    runner = CliRunner()
    common = ["--cache-dir", str(tiny_cache), "--models-dir", str(trained)]
    res = runner.invoke(app, ["dd-estimate", "eval", *common, "--json"])
    assert res.exit_code == 0, res.output
    rows = json.loads(res.stdout)
    keys = {"model", "hand_size", "accuracy", "within_one", "mae"}
    assert all(keys <= set(r) for r in rows) and {r["model"] for r in rows} == {"gbm-compact"}
    assert {r["hand_size"] for r in rows} == set(range(1, 14))
    assert all(0 <= r["accuracy"] <= r["within_one"] <= 1 for r in rows)
    res = runner.invoke(app, ["dd-estimate", "eval", *common])
    assert res.exit_code == 0 and "Seed softmax" in res.stdout and "25.51%" in res.stdout


def test_cli_predict_a_one_card_ending(trained: Path) -> None:
    """N leads the ace of spades and every other seat follows: NS take the only trick."""
    from typer.testing import CliRunner

    from cli.main import app

    res = CliRunner().invoke(
        app,
        ["dd-estimate", "predict", "N:A... K... Q... J...", "--strain", "N", "--leader", "N",
         "--models-dir", str(trained), "--json"],
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert len(out["distribution"]) == 2 and 0 <= out["expected_ns_tricks"] <= 1


def test_flow_train_dd_estimator(trained: Path, tiny_cache: Path, tmp_path: Path) -> None:
    os.environ.setdefault("DO_NOT_TRACK", "1")
    from prefect_server import worker_api

    from flows.estimate import train_dd_estimator

    # the worker's Prefect API (tests/prefect_server.py): no server start of its own
    with worker_api():
        summary = train_dd_estimator(
            random_deals=16, max_boards=N_BOARDS, models=["softmax-compact"],
            cache_dir=str(tiny_cache), models_dir=str(tmp_path),
        )  # fmt: skip
    assert set(summary) == {"softmax-compact"} and 0 < summary["softmax-compact"] <= 1
    meta = json.loads((tmp_path / "softmax-compact.json").read_text())
    assert meta["feature_version"] == COMPACT_VERSION and meta["metrics"]


def test_boards_and_stored_traces_come_from_the_store(tmp_path: Path) -> None:
    """With a store, the real states come from its cleaned boards, and a DD trace the DD
    analysis already stored is used as is (no DDS); both give the same states as cleaning the
    PBN here."""
    from ddrank.dd.boards import board_from_row, trace_request
    from ddrank.dd.solver import solve_traces
    from stages.clean import clean_pending
    from stages.estimate import boards_store, load_played_boards, real_play_states
    from stages.ingest import ingest_paths
    from store import Store

    db = tmp_path / "store.duckdb"
    with Store(db) as store:
        ingest_paths(store, ["ddrank/data/sample/pbn/online-qualifier-2021-example2.pbn"])
        clean_pending(store, workers=1)
        (first,) = store.rows("played_boards", limit=1)
        trace = solve_traces([trace_request(board_from_row(first))])[0]
        store.insert_frame("play_traces", pl.DataFrame(
            {"record_id": [first["record_id"]], "trace": [list(trace)]},
            schema={"record_id": pl.String, "trace": pl.List(pl.Int8)},
        ))  # fmt: skip
    with boards_store(db) as store:
        boards = load_played_boards(store)
    assert len(boards) > 200 and all(b["play"] for b in boards)
    stored = [b for b in boards if b["trace"] is not None]
    assert [b["record_id"] for b in stored] == [first["record_id"]]
    from_store = real_play_states(boards, tmp_path / "cache")
    from_pbn = real_play_states(
        [b for b in load_played_boards(None) if b["record_id"] in {x["record_id"] for x in boards}],
        tmp_path / "cache",
    )
    key = ["deal_id", "hand_size", "strain", "leader", "owners", "ns_tricks"]
    assert from_store.height > 1000
    assert from_store.sort(key).equals(from_pbn.sort(key))
