"""`ddrank --help` must start fast: no heavy library may be imported before a command runs.

A real check, not a timing: import `cli.main` (which registers every command group) in a fresh
interpreter and look at `sys.modules`. Timings are in `bench/bench_cli.py`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

#: Libraries that cost tenths of a second to seconds each; commands import them where used.
HEAVY = (
    "prefect",
    "statsmodels",
    "lightgbm",
    "endplay",
    "polars",
    "duckdb",
    "matplotlib",
    "pandas",
    "numpy",
    "scipy",
    "sklearn",
    "pyarrow",
    "dask",
)


def _imported_after(code: str) -> set[str]:
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         cwd=REPO, env=env, check=True).stdout  # fmt: skip
    return {m.split(".")[0] for m in json.loads(out.splitlines()[-1])}


def test_importing_the_cli_imports_no_heavy_library() -> None:
    loaded = _imported_after("import cli.main")
    assert "cli" in loaded and "typer" in loaded  # the probe really imported the CLI
    assert sorted(loaded & set(HEAVY)) == []


def test_help_of_every_command_imports_no_heavy_library() -> None:
    """Building the help of `ddrank`, `ddrank ingest` and `ddrank dd-estimate predict` (typer
    evaluates every option default) still imports nothing heavy."""
    code = (
        "import contextlib, io, sys\n"
        "from typer.main import get_command\n"
        "import cli.main\n"
        "cmd = get_command(cli.main.app)\n"
        "for args in ([], ['ingest'], ['run'], ['regress'], ['dd-estimate', 'predict']):\n"
        "    with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        "        cmd.main([*args, '--help'], prog_name='ddrank', standalone_mode=True)\n"
    )
    loaded = _imported_after(code)
    assert sorted(loaded & set(HEAVY)) == []


def test_a_heavy_import_is_detected() -> None:
    """The probe itself works: importing the store module does pull in duckdb."""
    assert "duckdb" in _imported_after("import store.store")
