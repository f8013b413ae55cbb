"""docs/operations.md lists every input limit of ddrank/limits.py with its flag, its variable,
its config key and its default (issue 40), and each of the three ways sets it as the table says:
the flag is one of `ddrank results`, `run` and `ingest`; the variable and the key reach the one
settings model (`stages.settings.load_settings`) and the readers' `Limits`."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

import pytest

from cli.run_flags import FLAGS
from ddrank.limits import DEFAULT_LIMITS, Limits, how_to_raise
from stages.settings import limits_of, load_settings

ROOT = Path(__file__).resolve().parents[1]
NAMES = [f.name for f in fields(Limits)]


def table() -> dict[str, list[str]]:
    """The rows of the limits table of docs/operations.md, by limit."""
    text = (ROOT / "docs" / "operations.md").read_text()
    start = text.index("| limit | flag | variable | config key | default |")
    rows: dict[str, list[str]] = {}
    for line in text[start:].splitlines()[2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows[cells[0]] = cells
    return rows


def test_the_table_lists_every_limit_with_its_flag_variable_key_and_default() -> None:
    rows = table()
    assert sorted(rows) == sorted(NAMES)
    for name in NAMES:
        _, flag, variable, key, default, *_ = rows[name]
        assert flag == f"`--{name.replace('_', '-')}`"
        assert variable == f"`DDRANK_{name.upper()}`"
        assert key == f"`{name}`"
        assert default.split(" ")[0] == f"{getattr(DEFAULT_LIMITS, name):,}"
        # what a refusal tells the user to do is what the table says
        words = how_to_raise(name)
        assert f"--{name.replace('_', '-')} N" in words and f"DDRANK_{name.upper()}=N" in words
        assert f"{name} = N in the --config file" in words


def test_every_limit_is_a_flag_of_the_commands_that_read() -> None:
    flags = {f["name"]: f for f in FLAGS}
    for name in NAMES:
        assert name in flags and flags[name]["kind"] == "int", name
        assert f"Default: {getattr(DEFAULT_LIMITS, name)}." in flags[name]["help"]


@pytest.mark.parametrize("name", NAMES)
def test_each_limit_set_by_its_variable_and_its_config_key(name: str, tmp_path: Path,
                                                            monkeypatch) -> None:  # fmt: skip
    config = tmp_path / "ddrank.toml"
    config.write_text(f"{name} = 1234\n")
    assert getattr(limits_of(load_settings(config)), name) == 1234
    monkeypatch.setenv(f"DDRANK_{name.upper()}", "4321")  # the variable over the file
    assert getattr(limits_of(load_settings(config)), name) == 4321
    assert getattr(limits_of(load_settings(config, **{name: 99})), name) == 99  # the flag


@pytest.mark.parametrize("command", ["results", "run", "ingest"])
def test_each_limit_is_a_flag_of(command: str) -> None:
    import subprocess
    import sys

    from hostile import env

    done = subprocess.run([sys.executable, "-m", "cli.main", command, "--help"], cwd=ROOT,
                          env=env(), capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    for name in NAMES:
        assert f"--{name.replace('_', '-')}" in done.stdout, (command, name)
