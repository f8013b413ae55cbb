"""Figures 1-2, the regression report's files, `ddrank regress` and the `regression_report` flow."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import typer
from test_regression import (
    DDS_FINAL,
    DEF,
    NON_FINITE,
    PAPER,
    _counters_file,
    _rates_file,
    analysis,
)
from typer.testing import CliRunner

from ddrank.regression.plots import normal_quantiles, qq_figure, residuals_vs_predicted_figure
from ddrank.regression.variables import DENOMINATORS, prepare_dataset
from stages.regression import RegressionRequest, read_player_table, run_regression_report

# ------------------------------------------------------------------ plots


def test_figure_builders_plot_every_residual() -> None:
    model = analysis("pp", "unweighted").final.model
    residual_axes = residuals_vs_predicted_figure(model, "placing points").axes[0]
    points = residual_axes.collections[0].get_offsets()
    assert np.allclose(points[:, 0], model.fitted) and np.allclose(points[:, 1], model.residuals)
    qq_axes = qq_figure(model).axes[0]
    quantiles, ordered = normal_quantiles(model.residuals)
    assert np.allclose(qq_axes.collections[0].get_offsets(), np.column_stack([quantiles, ordered]))
    assert quantiles[0] == pytest.approx(-quantiles[-1]) and np.all(np.diff(ordered) >= 0)


# ------------------------------------------------------------------ report, CLI, flow


def _assert_no_non_finite(out: Path) -> None:
    for path in out.iterdir():
        if path.suffix in {".md", ".html", ".json", ".csv"}:
            text = path.read_text(encoding="utf-8")
            text = text.replace("Yung-Nan", "").replace("Nan Collins", "")  # real player names
            assert not NON_FINITE.search(text), path.name


def test_report_for_pp_unweighted(tmp_path: Path) -> None:
    out = tmp_path / "pp_unweighted"
    result, files = run_regression_report(
        RegressionRequest(input_path=str(PAPER / "200_unweighted_results.csv"), out_dir=str(out))
    )
    for key in ("markdown", "html", "json", "ranking", "residual_plot", "qq_plot", "exclusions"):
        assert Path(files[key]).is_file(), key
    for plot in ("regression_residuals.png", "regression_qq.png"):
        assert (out / plot).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    markdown = (out / "report.md").read_text(encoding="utf-8")
    for text in (
        "(Table 10)",
        "(Table 12)",
        "(Tables 13-15)",
        "(Table 16, Equation 2)",
        "y = -1028.60322x + 35.43033",
        "![Figure 1",
        "![Figure 2",
        "Beyond the paper",
        "Breusch-Pagan",
        "HC3",
        "10-fold CV R²",
        "Spearman",
        "log(1+pp)",
    ):
        assert text in markdown, text
    html = (out / "report.html").read_text(encoding="utf-8")
    assert '<img src="regression_residuals.png"' in html and '<img src="regression_qq.png"' in html
    ranking = pd.read_csv(out / "ranking.csv")
    assert len(ranking) == 200 and ranking["rank"].iloc[0] == 1
    assert ranking["predicted_pp"].is_monotonic_decreasing
    equation_2 = 35.43033 - 1028.60322 * ranking[DEF]
    assert np.allclose(ranking["predicted_pp"], equation_2, atol=1e-4)
    payload = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert payload["final"]["model"]["equation"] == "y = -1028.60322x + 35.43033"
    _assert_no_non_finite(out)
    assert result.final is not None


def test_counter_input_report_equals_rate_input(tmp_path: Path) -> None:
    _, files = run_regression_report(
        RegressionRequest(input_path=str(DDS_FINAL), out_dir=str(tmp_path))
    )
    payload = json.loads(Path(files["json"]).read_text(encoding="utf-8"))
    assert payload["layout"] == "counters" and payload["players_analysed"] == 200
    excluded = pd.read_csv(files["exclusions"])
    assert len(excluded) == 1945
    zero = excluded["reason"].str.startswith("zero denominator")
    assert (zero | excluded["reason"].str.startswith("below Table 9 threshold")).all()
    raw = _counters_file()
    assert zero.sum() == (raw[list(DENOMINATORS)] == 0).any(axis=1).sum()
    expected = analysis("pp", "unweighted")
    for got, want in zip(payload["procedures"], expected.procedures, strict=True):
        assert got["selected"] == list(want.selection.variables)
        assert got["model"]["adj_r_squared"] == pytest.approx(want.model.adj_r_squared, rel=1e-12)
    _assert_no_non_finite(tmp_path)


def test_duckdb_player_stats_table_is_read(tmp_path: Path) -> None:
    import duckdb

    db = tmp_path / "players.duckdb"
    frame = _counters_file().rename(columns=str.strip)
    with duckdb.connect(str(db)) as con:
        con.register("frame_view", frame)
        con.sql("create table player_stats as select * from frame_view")
    read = read_player_table(RegressionRequest(db_path=str(db)))
    ds = prepare_dataset(read, "pp", "unweighted")
    assert ds.data["name"].tolist() == _rates_file("unweighted")["name"].tolist()


def _cli() -> typer.Typer:
    from cli.regress import register

    app = typer.Typer()

    @app.callback()
    def main() -> None:
        """ddrank"""

    register(app)
    return app


def test_cli_regress_json(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(
        _cli(),
        [
            "regress",
            "--input",
            str(PAPER / "200_weighted_results.csv"),
            "--response",
            "mp",
            "--variables",
            "weighted",
            "--out",
            str(tmp_path),
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert payload["dataset"] == "MP, weighted"
    backward = next(p for p in payload["procedures"] if p["procedure"] == "backward")
    assert backward["model"] is None  # Table 12's "None"
    _assert_no_non_finite(tmp_path)
    wrong = runner.invoke(
        _cli(),
        ["regress", "--input", str(PAPER / "200_weighted_results.csv"), "--out", str(tmp_path)],
    )
    assert wrong.exit_code == 2 and "use --variables weighted" in wrong.output


@pytest.mark.flow
def test_regression_report_flow(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DO_NOT_TRACK", "1")
    from prefect_server import worker_api

    from flows.regression import regression_report

    # the worker's Prefect API (tests/prefect_server.py): no server start of its own
    with worker_api():
        files = regression_report(
            input_path=str(PAPER / "200_unweighted_results.csv"),
            response="pp",
            variables="unweighted",
            out_dir=str(tmp_path),
        )
    payload = json.loads(Path(files["json"]).read_text(encoding="utf-8"))
    assert payload["final"]["model"]["equation"] == "y = -1028.60322x + 35.43033"
    assert Path(files["residual_plot"]).is_file() and Path(files["qq_plot"]).is_file()
