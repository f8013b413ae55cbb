"""ddrank's skill rating on the real Bermuda Bowl 2013 field (data/valet/2013-world-men)."""

from __future__ import annotations

import csv
import math
from collections import defaultdict
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from ddrank.ratings import skill as sk
from ddrank.types import Seat
from stages.skill import periods_of, rate_rows, valet_skill_rows

BB = Path(__file__).resolve().parents[1] / "data/valet/2013-world-men"


@pytest.fixture(scope="module")
def rows():
    return valet_skill_rows(BB)


@pytest.fixture(scope="module")
def params(rows):
    return sk.fit_params([r.skill for r in rows], sk.SkillParams())


def test_cached_lead_traces_agree_with_the_dd_tables():
    """Two separate DDS calls: the DD tricks before the lead (AnalyseAllPlays) must equal the
    DD table's value for the declarer (CalcAllTables) on every cached lead of BB2013."""
    with (BB / "dd_tables.csv").open() as fh:
        cells = {(r["round"], r["board"]): list(map(int, r["cells"].split()))
                 for r in csv.DictReader(fh)}  # fmt: skip
    checked = 0
    with (BB / "dd_leads.csv").open() as fh:
        for r in csv.DictReader(fh):
            declarer = Seat.parse(r["leader"]).rho
            strain = "CDHSN".index(r["strain"])
            assert int(r["dd_before"]) == cells[r["round"], r["board"]][strain * 4 + declarer]
            assert abs(int(r["dd_after"]) - int(r["dd_before"])) <= 13
            checked += 1
    assert checked > 2500


def test_dd_facts_reach_most_bb2013_results(rows):
    with_lead = sum(r.skill.lead_cost is not None for r in rows)
    assert len(rows) == 7388
    assert with_lead > 0.9 * len(rows)
    # A lead never gains the defence tricks over DD: its cost is >= 0.
    assert all(r.skill.lead_cost >= 0 for r in rows if r.skill.lead_cost is not None)


def test_ratings_finite_and_se_shrinks_with_boards(rows, params):
    periods = periods_of(rows)
    after5 = sk.rate_periods(((int(p), b) for p, b in periods[:5]), params)
    after21 = sk.rate_periods(((int(p), b) for p, b in periods), params)
    assert all(math.isfinite(s.mean) and s.var > 0 for s in after21.values())
    comps = {k[1] for k in after21}
    assert comps == {*sk.COMPONENTS, sk.PARTNERSHIP}
    for key, s5 in after5.items():
        s21 = after21[key]
        if s21.boards > s5.boards + 48:  # played at least three more matches
            assert s21.se < s5.se, key
    # Across players too: the more boards, the smaller the standard error.
    bid = [(s.boards, s.se) for (p, c), s in after21.items() if c == "bidding"]
    b, se = np.array(bid).T
    assert np.corrcoef(b, se)[0, 1] < -0.5


def test_incremental_equals_batch(rows, params):
    periods = [(int(p), b) for p, b in periods_of(rows)]
    batch = sk.rate_periods(periods, params)
    first = sk.rate_periods(periods[:10], params)
    incremental = sk.rate_periods(periods[10:], params, first)
    assert batch.keys() == incremental.keys()
    for k, s in batch.items():
        assert incremental[k].mean == pytest.approx(s.mean, abs=1e-12)
        assert incremental[k].var == pytest.approx(s.var, abs=1e-12)
        assert incremental[k].boards == s.boards


def test_the_better_pair_of_round_one_rates_higher(rows, params):
    """Round 1 alone: the pair with the most IMPs against the datum is rated above the pair
    with the fewest, and the prediction between them favours the winner."""
    r1 = [r for r in rows if r.period == "01"]
    totals: dict[tuple[str, str], float] = defaultdict(float)
    for r in r1:
        totals[r.result.ns_pair] += r.butler
        totals[r.result.ew_pair] -= r.butler
    best = max(totals, key=totals.__getitem__)
    worst = min(totals, key=totals.__getitem__)
    assert totals[best] > 30 > -30 > totals[worst]
    states = sk.update_period({}, [r.skill for r in r1], 1, params)
    mean, var = sk.predict(states, best, worst, params)
    assert mean > 0
    assert var > 0
    p = replace(params, prior_sd={**params.prior_sd, sk.PARTNERSHIP: 0.0})
    states = sk.update_period({}, [r.skill for r in r1], 1, p)
    assert sk.predict(states, best, worst, p)[0] > sk.predict(states, worst, best, p)[0]


def test_rate_rows_is_what_the_cli_shows(rows):
    states, rated, used = rate_rows(rows)
    assert rated == [f"{k:02d}" for k in range(1, 22)]
    assert 1.5 < used.imps_per_trick < 4.0  # one trick is worth a few IMPs at teams
    table = sk.player_rows(states)
    assert {r["component"] for r in table} == {*sk.COMPONENTS, sk.PARTNERSHIP}
    assert all(r["se"] > 0 for r in table)


def test_play_costs_account_for_every_dd_trick_of_real_plays():
    """Real 2012 plays traced by DDS: the declaring side's DD tricks after the last card equal
    those after the lead, less the declarer's costs, plus each defender's gifts (no DD trick is
    lost or invented by the split), and nobody's cost is negative."""
    from dataclasses import asdict

    from ddrank.cleaning import clean_record
    from ddrank.dd.boards import board_from_row, has_play, trace_request
    from ddrank.dd.solver import solve_traces
    from ddrank.parsers.pbn import parse_pbn

    path = (
        Path(__file__).resolve().parents[1] / "ddrank/data/sample/pbn/worldclass-2012-example3.pbn"
    )
    records = parse_pbn(path.read_text(encoding="latin-1"), str(path))[:60]
    boards = []
    for rec in records:
        cb = clean_record(rec).board
        if cb is not None and cb.play:
            b = board_from_row(asdict(cb))
            if has_play(b):
                boards.append(b)
    assert len(boards) >= 20
    traces = solve_traces([trace_request(b) for b in boards])
    gifts = 0.0
    for b, trace in zip(boards, traces, strict=True):
        seats = [int(s) for s in b.play.seats]
        decl_cost, defence = sk.play_costs(trace, seats, int(b.declarer))
        assert decl_cost >= 0 and all(v >= 0 for v in defence.values())
        assert trace[-1] == trace[1] - decl_cost + sum(defence.values())
        gifts += sum(defence.values())
    assert gifts > 0  # world-class defenders still give tricks away
