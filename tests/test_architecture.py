"""The code's rooms hold (docs/architecture.md): checked on every CI run, not by review.

* `lint-imports` keeps the import contract of pyproject.toml: each room imports only the rooms
  below it (cli > flows > tasks > stages > publish | store > ddrank), and the pure core imports
  neither Prefect nor DuckDB.
* The pure core writes no files.
* Every module of `tasks/` defines Prefect tasks and nothing is a task elsewhere.
* No source file is over 500 lines, unless `LONG_FILES` says why.
* The store is opened in one place, and SQL lives in `sql/`.
"""

from __future__ import annotations

import ast
import importlib
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ROOMS = ("ddrank", "store", "publish", "stages", "tasks", "flows", "cli", "bench")
MAX_LINES = 500
#: Source files allowed past MAX_LINES, each with the reason.
LONG_FILES: dict[str, str] = {}


def _sources(*rooms: str) -> list[Path]:
    return sorted(p for room in rooms for p in (ROOT / room).rglob("*.py"))


def test_import_contract_is_kept() -> None:
    exe = shutil.which("lint-imports") or str(Path(sys.executable).with_name("lint-imports"))
    proc = subprocess.run([exe, "--config", str(ROOT / "pyproject.toml")], cwd=ROOT,
                          capture_output=True, text=True)  # fmt: skip
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "0 broken" in proc.stdout or "broken" not in proc.stdout.split("Contracts:")[-1]


def test_pure_core_writes_no_files() -> None:
    writes = (".write_text(", ".write_bytes(", ".mkdir(", ".to_csv(", "shutil.copy")
    found = []
    for path in _sources("ddrank"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                    and node.func.id == "open" and len(node.args) > 1:  # fmt: skip
                mode = node.args[1]
                if isinstance(mode, ast.Constant) and any(c in str(mode.value) for c in "wax+"):
                    found.append(
                        f"{path.relative_to(ROOT)}:{node.lineno} open(..., {mode.value!r})"
                    )
        text = path.read_text()
        found += [f"{path.relative_to(ROOT)}: {w}" for w in writes if w in text]
    assert not found, "the pure core writes files:\n" + "\n".join(found)


def test_every_tasks_module_defines_prefect_tasks() -> None:
    from prefect import Task

    empty = []
    for path in sorted((ROOT / "tasks").glob("*.py")):
        if path.name == "__init__.py":
            continue
        module = importlib.import_module(f"tasks.{path.stem}")
        if not any(isinstance(v, Task) for v in vars(module).values()):
            empty.append(path.name)
    assert not empty, f"modules of tasks/ that define no Prefect task: {empty}"


def test_tasks_are_defined_only_in_tasks_and_flows_only_in_flows() -> None:
    misplaced = []
    for path in _sources("ddrank", "store", "publish", "stages", "cli", "flows", "tasks"):
        room = path.relative_to(ROOT).parts[0]
        text = path.read_text()
        if "@task" in text and room != "tasks":
            misplaced.append(f"{path.relative_to(ROOT)} defines a task")
        if "@flow" in text and room != "flows":
            misplaced.append(f"{path.relative_to(ROOT)} defines a flow")
    assert not misplaced, "\n".join(misplaced)


@pytest.mark.parametrize("room", ROOMS + ("tests",))
def test_no_source_file_over_500_lines(room: str) -> None:
    long = {str(p.relative_to(ROOT)): n for p in _sources(room)
            if (n := len(p.read_text().splitlines())) > MAX_LINES}  # fmt: skip
    unexplained = {p: n for p, n in long.items() if p not in LONG_FILES}
    assert not unexplained, f"files over {MAX_LINES} lines: {unexplained}"


def test_the_store_is_opened_in_one_place() -> None:
    opened = [
        str(p.relative_to(ROOT))
        for p in _sources("ddrank", "publish", "stages", "tasks", "flows", "cli")  # fmt: skip
        if "duckdb.connect(" in p.read_text() or "db.connect(" in p.read_text()
    ]
    assert not opened, f"modules opening DuckDB themselves instead of store.Store: {opened}"


@pytest.mark.parametrize("check", [["check"], ["format", "--check"]])
def test_the_tree_is_ruff_clean(check: list[str]) -> None:
    """The code style the README promises: `ruff check .` and `ruff format --check .` pass."""
    exe = shutil.which("ruff") or str(Path(sys.executable).with_name("ruff"))
    proc = subprocess.run([exe, *check, "."], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-1000:]
