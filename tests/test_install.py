"""What an installed wheel needs: its data found through importlib.resources, the extras named
when missing, and pyproject.toml, the lock file and the package data agreeing."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from ddrank.data import BUNDLED_DIR, bundled
from ddrank.extras import MissingExtra, require

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_shipped_files_are_found_in_the_package_not_the_checkout() -> None:
    from stages.settings import RANKINGS_CSV, SAMPLE_DIR
    from store.estimator import EVALSET, SHIPPED_MODELS_DIR
    from store.store import SQL_DIR

    assert Path(__import__("ddrank").__file__).parent / "data" == BUNDLED_DIR
    for path in (
        SAMPLE_DIR / "pbn" / "worldclass-2012-example3.pbn",
        RANKINGS_CSV,
        EVALSET,
        SHIPPED_MODELS_DIR / "gbm-compact.joblib",
        SQL_DIR / "queries" / "store.sql",
    ):
        assert path.is_file(), path  # fmt: skip
    assert bundled("sample") == SAMPLE_DIR


def test_every_shipped_file_is_package_data() -> None:
    """A file under ddrank/data that no package-data glob names would be missing from the wheel."""
    import fnmatch

    globs = PYPROJECT["tool"]["setuptools"]["package-data"]["ddrank.data"]
    tracked = subprocess.run(["git", "ls-files", "ddrank/data"], cwd=ROOT, capture_output=True,
                             text=True, check=True).stdout.split()  # fmt: skip
    files = [p.removeprefix("ddrank/data/") for p in tracked if not p.endswith(".py")]
    assert files
    assert [f for f in files if not any(fnmatch.fnmatch(f, g) for g in globs)] == []


def test_store_and_outputs_default_to_the_current_directory() -> None:
    from stages.settings import PipelineSettings
    from store.defaults import DEFAULT_DB, DEFAULT_OUT

    assert not DEFAULT_DB.is_absolute() and DEFAULT_DB.parent == Path(".")
    assert not DEFAULT_OUT.is_absolute()
    fields = PipelineSettings.model_fields
    assert "current directory" in fields["db"].description
    assert "current directory" in fields["out"].description


def test_a_missing_extra_is_one_line_naming_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "lightgbm", None)  # import lightgbm now raises ImportError
    with pytest.raises(MissingExtra) as info:
        require("lightgbm", "estimator")
    assert info.value.code == (
        "error: lightgbm is not installed; it comes with the [estimator] extra: "
        "pip install 'ddrank[estimator]'"
    )
    assert require("json").dumps([]) == "[]"


def test_a_missing_extra_ends_the_command_with_that_line() -> None:
    code = ("import sys; sys.modules['prefect_dask'] = None\n"
            "from flows.dd_analysis import make_runner\n"
            "make_runner('dask', 1, 1)\n")  # fmt: skip
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1] == (
        "error: prefect_dask is not installed; it comes with the [dask] extra: "
        "pip install 'ddrank[dask]'"
    )
    assert "Traceback" not in done.stderr


def test_the_core_install_leaves_the_extras_out() -> None:
    core = {Requirement(r).name for r in PYPROJECT["project"]["dependencies"]}
    extras = PYPROJECT["project"]["optional-dependencies"]
    assert set(extras) >= {"estimator", "dask", "bench", "dev"}
    for name in ("lightgbm", "scikit-learn", "joblib", "dask", "prefect-dask"):
        assert name not in core, name
    assert not {"fastapi", "starlette", "sqlalchemy"} & core  # Prefect chooses them


def test_the_lock_pins_every_declared_dependency() -> None:
    lock = (ROOT / "requirements.lock").read_text()
    pinned = {Requirement(line).name.lower() for line in lock.splitlines()
              if line and not line.startswith((" ", "#"))}  # fmt: skip
    declared = [Requirement(r) for r in PYPROJECT["project"]["dependencies"]]
    for group in PYPROJECT["project"]["optional-dependencies"].values():
        declared += [Requirement(r) for r in group if not r.startswith("ddrank")]
    assert {r.name.lower() for r in declared} - pinned == set()
    assert PYPROJECT["project"]["requires-python"] == ">=3.11"
