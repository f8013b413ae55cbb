"""One meaning per option name, refusals that create nothing, and one line per problem.

Every command is found from the typer app itself, so a new command is checked without being
listed here: `--db` is the store everywhere and only `ingest`, `run` and `results` may create it
(and `serve`, whose served runs do); `--out` is an output folder everywhere.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from cli.main import PANELS, app

ROOT = Path(__file__).resolve().parent.parent
CREATE_A_STORE = {"ingest", "run", "results", "serve", "watch"}
#: What each command needs besides --db to get as far as opening the store.
REQUIRED = {
    "player": ["someone"],
    "event": ["something"],
    "match-names": [
        "--rankings",
        str(ROOT / "ddrank" / "data" / "rankings" / "wbf-open-rankings.csv"),
    ],
    "stats": ["--csv", "players.csv"],
}
runner = CliRunner()


def _commands() -> dict[str, Any]:
    """Every command and subcommand by its full name (`dd-estimate train`)."""
    root = typer.main.get_command(app)
    out: dict[str, Any] = {}

    def walk(group: Any, prefix: str) -> None:
        for name, cmd in group.commands.items():
            full = f"{prefix}{name}"
            if hasattr(cmd, "commands"):  # a group (typer's click or click's)
                walk(cmd, f"{full} ")
            else:
                out[full] = cmd

    walk(root, "")
    return out


def _option(cmd: Any, flag: str) -> Any:
    return next((p for p in cmd.params if p.param_type_name == "option" and flag in p.opts), None)


def _invoke(args: list[str], cwd: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.chdir(cwd)
    result = runner.invoke(app, args, env={"COLUMNS": "400"})
    return result, sorted(p.name for p in cwd.iterdir())


STORE_READERS = sorted(n for n, c in _commands().items()
                       if _option(c, "--db") and n not in CREATE_A_STORE)  # fmt: skip


def test_the_readers_are_many() -> None:
    assert len(STORE_READERS) >= 14, STORE_READERS


@pytest.mark.parametrize("command", STORE_READERS)
def test_a_missing_store_is_refused_and_nothing_is_created(
    command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    args = [*command.split(), *REQUIRED.get(command, []), "--db", "nowhere.duckdb"]
    result, created = _invoke(args, tmp_path, monkeypatch)
    assert result.exit_code == 2, (args, result.output)
    assert created == [], created
    lines = [ln for ln in result.output.splitlines() if ln.strip()]
    assert lines == [
        "error: nowhere.duckdb: no such store. Create it with `ddrank ingest FILES --db "
        "nowhere.duckdb` or `ddrank run FILES --db nowhere.duckdb`."
    ], result.output


def test_db_is_the_store_on_every_command() -> None:
    for name, cmd in _commands().items():
        opt = _option(cmd, "--db")
        if opt is not None:
            assert "store" in (opt.help or "").lower(), (name, opt.help)


def test_out_is_a_folder_on_every_command() -> None:
    seen = []
    for name, cmd in _commands().items():
        opt = _option(cmd, "--out")
        if opt is None:
            continue
        seen.append(name)
        text = (opt.help or "").lower()
        assert "folder" in text or "directory" in text, (name, opt.help)
        assert "file to write" not in text and "csv to write" not in text, (name, opt.help)
    assert {"run", "results", "score", "split", "lehman", "regress", "report"} <= set(seen)
    assert "player" not in seen and "event" not in seen  # they write nothing


def test_score_split_and_lehman_write_into_the_out_folder(tmp_path: Path) -> None:
    valet = ROOT / "data" / "valet" / "2013-world-women"
    for command in ("score", "split", "lehman"):
        out = tmp_path / command / "nested"
        result = runner.invoke(app, [command, "--valet", str(valet), "--out", str(out)])
        assert result.exit_code == 0, result.output
        assert out.is_dir() and any(p.suffix == ".csv" for p in out.iterdir()), command


def test_help_has_panels_in_order_run_first_and_a_version() -> None:
    result = runner.invoke(app, ["--help"], env={"COLUMNS": "120"})
    text = result.output
    assert "--version" in text and "<bool>" not in text
    where = [text.index(panel) for panel in PANELS]
    assert where == sorted(where)
    rows = [
        ln.split()[1] for ln in text.splitlines() if ln.startswith("│ ") and len(ln.split()) > 2
    ]
    assert rows.index("run") < rows.index("results") < rows.index("ingest") < rows.index("serve")
    version = runner.invoke(app, ["--version"])
    assert version.exit_code == 0 and version.output.startswith("ddrank ")


def _empty_store(tmp_path: Path) -> Path:
    from store import Store

    db = tmp_path / "empty.duckdb"
    Store(db).close()
    return db


@pytest.mark.parametrize(("command", "verb"), [("rate", "rate"), ("dd", "analyse"),
                         ("score", "score"), ("report", "publish"), ("split", "split"),
                         ("lehman", "rate"), ("regress", "regress")])  # fmt: skip
def test_an_empty_store_is_one_line(command: str, verb: str, tmp_path: Path) -> None:
    db = _empty_store(tmp_path)
    result = runner.invoke(app, [command, "--db", str(db)], env={"COLUMNS": "400"})
    assert result.exit_code == 0, result.output
    lines = [ln for ln in result.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith(f"nothing to {verb}: {db} holds no records")


def test_regress_before_the_dd_stage_names_the_missing_table(tmp_path: Path) -> None:
    db = tmp_path / "s.duckdb"
    lin = ROOT / "ddrank" / "data" / "sample" / "lin" / "usbf-2010-sf-14502.lin"
    assert runner.invoke(app, ["ingest", str(lin), "--db", str(db)]).exit_code == 0
    result = runner.invoke(app, ["regress", "--db", str(db)], env={"COLUMNS": "400"})
    assert result.exit_code == 2, result.output
    assert "no table 'player_stats' to regress" in result.output
    assert isinstance(result.exception, SystemExit)  # a typer.Exit(2), not a crash


@pytest.fixture
def junk(tmp_path: Path) -> list[Path]:
    # prose with commas is prose, not "a table (CSV)"
    files = {"notes.txt": b"Bring the boards on Tuesday, please.\nThanks, all.\n", "empty.pbn": b"",
             "data.csv": b"name,score\nAnn,3\n",
             "pic.png": (ROOT / "docs" / "img" / "director-welwyn.png").read_bytes()[:4096]}  # fmt: skip
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    return [tmp_path / n for n in files]


@pytest.mark.parametrize("command", ["run", "results", "score", "ingest"])
def test_nothing_readable_is_one_line_per_file_and_exit_2(
    command: str, junk: list[Path], tmp_path: Path
) -> None:
    extra = ["--db", str(tmp_path / "x.duckdb")] if command in ("run", "ingest") else []
    result = runner.invoke(app, [command, *map(str, junk), *extra, "--out", str(tmp_path / "o")]
                           if command != "ingest" else [command, *map(str, junk), *extra],
                           env={"COLUMNS": "400"})  # fmt: skip
    assert result.exit_code == 2, result.output
    lines = [ln for ln in result.output.splitlines() if ln.strip()]
    assert len(lines) == len(junk), result.output
    reasons = {"notes.txt": "text in no format ddrank reads", "empty.pbn": "empty file",
               "data.csv": "a table (CSV) that is not the paper's bridgedeals table",
               "pic.png": "binary content"}  # fmt: skip
    for path, line in zip(junk, lines, strict=True):
        assert line.startswith(f"error: {path}: {reasons[path.name]}"), line
        if path.suffix in (".txt", ".csv"):  # the formats ddrank reads, all of them
            assert "USEBIO" in line and "ACBLscore" in line and "Bridgemate" in line, line
    assert not (tmp_path / "x.duckdb").exists() and not (tmp_path / "o").exists()


@pytest.mark.parametrize("command", ["ingest", "run"])
def test_a_new_store_needs_its_folder(command: str, tmp_path: Path) -> None:
    lin = ROOT / "ddrank" / "data" / "sample" / "lin" / "usbf-2010-sf-14502.lin"
    db = tmp_path / "typo" / "deeper" / "s.duckdb"
    result = runner.invoke(app, [command, str(lin), "--db", str(db)], env={"COLUMNS": "400"})
    assert result.exit_code == 2, result.output
    assert f"no such folder for the store {db}" in result.output
    assert not (tmp_path / "typo").exists()


def _help_at_80(name: str) -> str:
    result = runner.invoke(app, [*name.split(), "--help"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    return result.output


def test_no_option_name_is_cut_at_80_columns_and_no_source_file_is_named() -> None:
    """A terminal 80 columns wide shows every option name whole (rich cuts a squeezed column
    with "…"), and help speaks of what a user types, never of the code's files."""
    import re

    for name, cmd in _commands().items():
        text = _help_at_80(name)
        for param in cmd.params:
            for flag in [*param.opts, *param.secondary_opts]:
                if flag.startswith("--"):
                    assert re.search(rf"(?<![\w-]){re.escape(flag)}(?![\w-])", text), (name, flag)
        assert "…" not in text, (name, [ln for ln in text.splitlines() if "…" in ln])
        assert not re.search(r"\b[\w/]+\.py\b", text), (name, re.findall(r"[\w/]+\.py", text))


def test_results_help_shows_every_director_option_in_its_first_40_lines() -> None:
    """`ddrank results --help | head -40`: the inputs, --out, the scoring method and what to
    publish come before the analysis, the paper's regression and the expert settings."""
    from cli.run_options import ANALYSIS, DIRECTOR, EXPERT_RUN, PANEL_ORDER, REGRESSION

    text = _help_at_80("results")
    head = "\n".join(text.splitlines()[:40])
    director = [o for p in _commands()["results"].params
                if getattr(p, "rich_help_panel", None) == DIRECTOR for o in p.opts]  # fmt: skip
    assert {"--out", "--mp-method", "--mp-top", "--double-dummy", "--ratings"} <= set(director)
    for flag in ("files", *director):  # every option of the director's panel, and the inputs
        assert re.search(rf"(?<![\w-]){flag}(?![\w-])", head), flag
    where = [text.index(p[:40]) for p in PANEL_ORDER if p[:40] in text]
    assert where == sorted(where) and len(where) == len(PANEL_ORDER)
    assert text.index(DIRECTOR[:40]) < text.index(ANALYSIS[:30]) < text.index(REGRESSION)
    assert text.index(REGRESSION) < text.index(EXPERT_RUN[:30]) < text.index("--max-rows")
