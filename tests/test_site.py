"""Pure parts of the site: intervals, percentiles, the model verdict, escaping, hand diagrams."""

from __future__ import annotations

from pathlib import Path

import pytest

from ddrank.site.pages import hands
from ddrank.site.profile import CATEGORIES, field_rates, profile
from ddrank.site.render import environment, par_text
from ddrank.site.stats import percentile_interval, regression_verdict, share_worse, wilson

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(("k", "n"), [(0, 10), (1, 1), (4, 46), (2.5, 30), (130, 1408)])
def test_wilson_equals_statsmodels(k: float, n: float) -> None:
    from statsmodels.stats.proportion import proportion_confint

    lo, hi = proportion_confint(k, n, alpha=0.05, method="wilson")
    assert wilson(k, n) == pytest.approx((lo, hi), abs=1e-12)


def test_percentile_counts_the_players_who_err_more_often() -> None:
    field = sorted([0.01, 0.02, 0.03, 0.04])
    assert share_worse(0.005, field) == 100.0
    assert share_worse(0.05, field) == 0.0
    assert share_worse(0.02, field) == 62.5  # 2 worse + half of the one tie, of 4
    pct, low, high = percentile_interval(4, 100, field)
    assert low <= pct <= high


def test_profile_withholds_a_rank_below_the_minimum() -> None:
    totals = {
        "a": {c.opportunities: c.min_opportunities for c in CATEGORIES}
        | {c.mistakes: 1 for c in CATEGORIES},
        "b": {c.opportunities: 3 for c in CATEGORIES} | {c.mistakes: 0 for c in CATEGORIES},
    }
    field = field_rates(totals)
    lines = {ln.category.key: ln for ln in profile(totals["b"], field)}
    assert lines["declarer"].rate == 0.0 and lines["declarer"].percentile is None
    assert lines["declarer"].too_few
    a = {ln.category.key: ln for ln in profile(totals["a"], field)}
    assert a["lead"].percentile == 50.0 and a["lead"].field_size == 1


def test_verdict_on_the_papers_published_player_table(tmp_path: Path) -> None:
    """The paper's own data (data/paper/dds_final_results.csv): Table 16's model is significant."""
    from stages.regression import RegressionRequest, run_regression_report

    run_regression_report(RegressionRequest(
        input_path=str(REPO / "data/paper/dds_final_results.csv"),
        response="pp", variables="unweighted", out_dir=str(tmp_path)))  # fmt: skip
    import json

    report = json.loads((tmp_path / "report.json").read_text())
    verdict = regression_verdict(report)
    assert verdict.startswith("1 variable(s) predict placing points at the 0.05 level")
    assert "defender mistakes per card played as defender" in verdict
    assert "200 players" in verdict


def test_verdict_when_nothing_is_significant_or_nothing_ran() -> None:
    assert regression_verdict(None).startswith("No regression report")
    assert "needs 30" in regression_verdict({"skipped": "5 players pass; the regression needs 30"})


def test_names_are_escaped_once() -> None:
    name = 'Jeff "Meck" O\'Brien <b>&amp;'
    html = environment().from_string('<h1>{{ n }}</h1><a title="{{ n }}">x</a>').render(n=name)
    assert "<b>" not in html
    assert "&lt;b&gt;&amp;amp;" in html and "&#34;Meck&#34;" in html and "O&#39;Brien" in html


def test_hand_diagram_and_par_text() -> None:
    deal = "N:KT8.A96.A95.7542 Q5.KJ52.KQ874.T8 AJ92.874.JT6.AQ3 7643.QT3.32.KJ96"
    h = hands(deal)
    assert h["N"][0] == ("S", "KT8") and h["W"][3] == ("C", "KJ96")
    assert hands(None) == {}
    assert par_text("EW 6H=; NS 7SX-5") == "EW 6♥=; NS 7♠X-5"
    assert par_text("NS 1N=") == "NS 1NT="


def test_traveller_line_escapes_names_and_teams_once() -> None:
    from types import SimpleNamespace

    from ddrank.site.traveller import Columns, result_row

    players = SimpleNamespace(page=lambda p: "players/x.html", label=lambda p: p)
    row = {"record_id": "r1", "players": ['O\'Brien "<b>"', None, None, None],
           "home_team": "T<1>", "visit_team": "U&V", "room": "Open", "contract": "4SX",
           "declarer": "E", "opening_leader": "S", "result": 9, "dd_tricks": 10,
           "ns_points": 100, "mistakes": [None] * 4}  # fmt: skip
    html = str(result_row(row, SimpleNamespace(scoring="IMP"), players, "../", Columns(mp=False)))
    assert '<span class="black">♠</span>' in html  # 4SX with its suit symbol
    assert "T&lt;1&gt; v U&amp;V" in html
    assert "O&#39;Brien &#34;&lt;b&gt;&#34;" in html and "<b>" not in html
    assert '10 <span class="minus">(-1)</span>' in html  # 9 tricks, 10 double dummy


def test_site_queries_cover_every_counter() -> None:
    """sql/queries/site.sql and site_events.sql spell the 33 counters out: they must follow
    ddrank.mistakes.variables."""
    from ddrank.mistakes.variables import VARIABLES
    from store.store import queries

    totals = queries().site_player_totals.sql
    assert [v for v in VARIABLES if f"sum(coalesce(s.{v}, 0)) AS {v}" not in totals] == []
    seats = queries().site_batch_seats.sql
    weighted = [v for v in VARIABLES if v.startswith("weighted_")]
    assert len(weighted) == 14 and all(f"s.{v}" in seats for v in weighted)
