"""Every shell example in README.md and docs/*.md runs as written, on the bundled data.

Convention (for whoever writes docs):

* Every fenced block tagged ```bash, ```sh or ```shell is an example. Each block runs as one
  `bash -e` script, with `set -o pipefail`, in a fresh copy of the repository (the files git
  tracks, so a "fresh clone"); the blocks of one file run in order in the same copy, so a later
  block may use the store or the files an earlier block made. `ddrank` and `python` are this
  interpreter's, running the copy's code; `.venv/bin/...` is this interpreter's venv (unless the
  file creates `.venv` itself).
* A marker comment on the line just before the fence changes that:
    - `<!-- doc-test: slow -->`: expensive (minutes of DDS, a pip install); runs only with
      `pytest -m slow`.
    - `<!-- doc-test: manual: REASON -->`: never run here, because it cannot end on its own or
      needs what CI does not have (a long-running server, a Docker engine); REASON (the rest of
      the comment) says why and what covers it instead; `test_manual_examples_say_why` checks it.
    - `<!-- doc-test: timeout SECONDS -->`: the block's time limit when it needs more than the
      default 10 minutes (README command 1: a pip install, then about 10 minutes of DDS on 2 cores).
    - `<!-- doc-test: env NAME=VALUE -->`: run with that environment variable, e.g. a small input
      (`DDRANK_INPUTS=["ddrank/data/sample/lin/usbf-2010-sf-14502.lin"]`) so that a pipeline example runs in
      CI in seconds; the example itself stays as a user types it. Several directives may share one
      comment, separated by `;`.
    - `<!-- doc-test: shared-api -->`: the block's flows use the test worker's Prefect API
      (tests/prefect_server.py `worker_api()`, exported as PREFECT_API_URL, as a user with a
      Prefect server configured runs them) instead of starting a temporary API of their own:
      the first `ddrank run` of a file starts its own, as a new user's does, and the later ones
      share (a start costs 10-30 s of CPU; `test_one_api_start_per_file` checks it).
    - `<!-- doc-test: copy SRC DEST -->`: before the block, copy the file SRC that an earlier
      block of the same document made to DEST (a store: with its `.wal`), e.g. a store whose
      double-dummy analysis an earlier block of the same input already ran, so that DDS does
      not solve the same deals twice; the block's commands still run as written.
    - `<!-- doc-test: expect TEXT -->`: what the block prints (stdout or stderr) contains TEXT;
      one directive per text.
* A block must finish in its time limit (10 minutes unless `timeout` says) and exit 0. Examples
  that take hours (training the estimator from scratch) are `manual`, with the reason. Other languages (```python, ```toml, plain ```)
  are not run.

New examples are picked up automatically: the tests are generated from the files at collection.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHELLS = ("bash", "sh", "shell")
FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```", re.M | re.S)
MARKER = re.compile(r"<!--\s*doc-test:\s*(.*?)\s*-->\s*$")


@dataclass
class Example:
    """One fenced shell block, where it is, and how the test runs it."""

    doc: str
    line: int
    script: str
    slow: bool = False
    manual: str | None = None
    env: dict[str, str] = field(default_factory=dict)
    timeout: int = 600
    shared_api: bool = False
    copies: list[tuple[str, str]] = field(default_factory=list)
    expect: list[str] = field(default_factory=list)

    @property
    def id(self) -> str:
        return f"{self.doc}:{self.line}"


def doc_files() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def examples(path: Path) -> list[Example]:
    """The shell examples of one Markdown file, with their markers applied."""
    text = path.read_text(encoding="utf-8")
    found = []
    for m in FENCE.finditer(text):
        if m.group(1) not in SHELLS:
            continue
        line = text.count("\n", 0, m.start()) + 1
        before = text[: m.start()].rstrip("\n").rsplit("\n", 1)[-1]
        ex = Example(str(path.relative_to(ROOT)), line, m.group(2))
        marker = MARKER.search(before)
        directives = marker.group(1).split(";") if marker else []
        while directives:
            directive = directives.pop(0).strip()
            if directive == "slow":
                ex.slow = True
            elif directive.startswith("manual"):  # the rest of the comment is the reason
                ex.manual = ";".join([directive.partition(":")[2], *directives]).strip()
                directives = []
            elif directive.startswith("timeout "):
                ex.timeout = int(directive[8:].strip())
            elif directive.startswith("env "):
                name, _, value = directive[4:].strip().partition("=")
                ex.env[name] = value
            elif directive == "shared-api":
                ex.shared_api = True
            elif directive.startswith("copy "):
                src, dest = directive[5:].split()
                ex.copies.append((src, dest))
            elif directive.startswith("expect "):
                ex.expect.append(directive[7:].strip())
            else:
                raise ValueError(f"{ex.id}: unknown doc-test directive {directive!r}")
        found.append(ex)
    return found


ALL = [ex for p in doc_files() for ex in examples(p)]


def _params() -> list[object]:
    marks = {True: [pytest.mark.slow], False: []}
    return [pytest.param(ex, id=ex.id, marks=marks[ex.slow]) for ex in ALL if ex.manual is None]


@pytest.fixture(scope="module")
def copies(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One fresh copy of the repository per documentation file, made on first use."""
    return {}


def _fresh_copy(dest: Path) -> Path:
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                             check=True).stdout.decode().split("\0")  # fmt: skip
    for rel in filter(None, tracked):
        src = ROOT / rel
        if src.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)
    return dest


def _provide_venv(clone: Path, example: Example) -> None:
    """`.venv` is this interpreter's venv, unless the example makes its own (then it gets none)."""
    venv = clone / ".venv"
    if "-m venv" in example.script:
        if venv.is_symlink():
            venv.unlink()
    elif not venv.exists():
        venv.symlink_to(Path(sys.prefix))


@pytest.mark.parametrize("example", _params())
def test_doc_example_runs(example: Example, copies: dict[str, Path], tmp_path_factory) -> None:
    if example.doc not in copies:
        copies[example.doc] = _fresh_copy(tmp_path_factory.mktemp("clone"))
    clone = copies[example.doc]
    _provide_venv(clone, example)
    bindir = str(Path(sys.executable).parent)
    env = {
        **os.environ,
        "PATH": f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}",
        "PYTHONPATH": str(clone),
        "DO_NOT_TRACK": "1",
        "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
        "COLUMNS": "160",
        **example.env,
    }
    for name in ("PREFECT_API_URL", "DDRANK_DB", "DDRANK_OUT", "DDRANK_CONFIG"):
        if name not in example.env:
            env.pop(name, None)
    for src, dest in example.copies:
        assert (clone / src).is_file(), f"{example.id}: copy {src}: no earlier block made it"
        for suffix in ("", ".wal"):
            if (clone / f"{src}{suffix}").is_file():
                shutil.copy2(clone / f"{src}{suffix}", clone / f"{dest}{suffix}")
    script = "set -eo pipefail\n" + example.script
    with ExitStack() as api:
        if example.shared_api:
            from prefect_server import worker_api

            env["PREFECT_API_URL"] = api.enter_context(worker_api())
        done = subprocess.run(["bash", "-c", script], cwd=clone, env=env, capture_output=True,
                              text=True, timeout=example.timeout)  # fmt: skip
    shown = f"--- stdout\n{done.stdout[-3000:]}\n--- stderr\n{done.stderr[-3000:]}"
    assert done.returncode == 0, (
        f"{example.id} failed (exit {done.returncode})\n--- script\n{example.script}{shown}"
    )
    assert "Traceback (most recent call last)" not in done.stderr, done.stderr[-3000:]
    printed = " ".join((done.stdout + done.stderr).split())
    for text in example.expect:
        assert " ".join(text.split()) in printed, f"{example.id}: {text!r} not printed\n{shown}"


def test_examples_are_found() -> None:
    """The extraction itself: the README's commands and the estimator's are among them."""
    ids = {ex.id.split(":")[0] for ex in ALL}
    assert {"README.md", "docs/estimator.md"} <= ids
    assert any("ddrank dd-estimate eval --json" in ex.script for ex in ALL if not ex.slow)


#: A command that starts a temporary Prefect API unless one is configured (flows/server.py).
STARTS_API = re.compile(r"^\s*ddrank\s+(run|dd)\b", re.M)


def test_one_api_start_per_file() -> None:
    """Each run start costs a Prefect API start (10-30 s of CPU, more than the bundled LIN's
    DDS): within a document only the first block that runs a flow starts its own; the later
    ones share the worker's (`shared-api`). A block that uses `ddrank run`'s start-up or its
    own API on purpose says so by being first."""
    for path in doc_files():
        starting = [ex for ex in examples(path) if ex.manual is None and not ex.slow
                    and STARTS_API.search(ex.script) and not ex.shared_api]  # fmt: skip
        assert len(starting) <= 1, f"several blocks start a Prefect API: {[e.id for e in starting]}"


def test_manual_examples_say_why() -> None:
    """An example that is never run must say why, in words (not just a marker)."""
    for ex in ALL:
        if ex.manual is not None:
            assert len(ex.manual.split()) >= 4, f"{ex.id}: give the reason after 'manual:'"


#: A line a reader would paste into a shell (after a `$ ` prompt, `NAME=value` settings and
#: `nice -n N`, as the benchmarks' recorded commands start).
COMMAND_LINE = re.compile(
    r"^\s*(\$ )?([A-Z_][A-Z0-9_]*=\S*\s+)*(nice(\s+-n\s*-?\d+)?\s+)?"
    r"((ddrank|python3?|pytest|pip|prefect|docker|docker-compose|bash|uv)(\s|$)"
    r"|ops/\S+\.(sh|py)\b|\.venv/bin/)"
)


def test_every_command_block_is_a_shell_example() -> None:
    """A fenced block of commands left untagged would never run here: every block whose lines a
    reader would paste is ```bash (run, or marked slow or manual with why); a recorded output
    that starts with its command line is ```text."""
    untagged = []
    for path in doc_files():
        text = path.read_text(encoding="utf-8")
        for m in FENCE.finditer(text):
            if m.group(1) == "" and any(COMMAND_LINE.match(ln) for ln in m.group(2).splitlines()):
                untagged.append(f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, m.start()) + 1}")
    assert not untagged, (
        f"untagged command blocks (tag them bash, or text for an output): {untagged}"
    )


#: A date as the docs write one: 2026-11-28, 24 Nov 2026.
DATE = re.compile(
    r"\b20\d\d-\d\d-\d\d\b|\b\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\w* 20\d\d\b"
)


def recorded_outputs() -> list[tuple[str, int, str, str]]:
    """(doc, line, command, the text before it) of each recorded output: a ```text block whose
    first line is the command that printed it, after a `$ ` prompt."""
    found = []
    for path in doc_files():
        text = path.read_text(encoding="utf-8")
        for m in FENCE.finditer(text):
            first = (m.group(2).splitlines() or [""])[0]
            if m.group(1) == "text" and first.startswith("$ ") and COMMAND_LINE.match(first):
                before = "\n".join(text[: m.start()].splitlines()[-12:])
                found.append((str(path.relative_to(ROOT)), text.count("\n", 0, m.start()) + 1,
                              first.removeprefix("$ ").strip(), before))  # fmt: skip
    return found


def test_every_recorded_output_says_its_date_and_load_and_its_command_is_an_example() -> None:
    """A figure the docs quote from a benchmark comes with the output it was read from, the day
    and the machine's load (the same command gives other numbers at load 1 and load 10), and
    the command that printed it is an example here too (run, or slow, or manual with why)."""
    commands = {" ".join(ln.split()) for ex in ALL for ln in ex.script.splitlines()}
    undated, unrun = [], []
    for doc, line, command, before in recorded_outputs():
        if not (DATE.search(before) and re.search(r"\bload\b|nothing else running", before)):
            undated.append(f"{doc}:{line}")
        bare = re.sub(r"^(nice -n \d+ )", "", " ".join(command.split()))
        if not any(bare in c for c in commands):
            unrun.append(f"{doc}:{line} {command}")
    assert not undated, f"recorded outputs without the date and load before them: {undated}"
    assert not unrun, f"recorded outputs whose command is no ```bash example: {unrun}"
