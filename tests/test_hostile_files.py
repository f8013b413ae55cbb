"""Hostile input, round 2 (issue 40): one bad file never costs the good ones, and every byte is
read through the same guard (`store.inputs.files.open_input`, `read_input`, `walk`).

Each test builds its hostile file here from a bundled real one (the vugraph LIN file, the
Bridgemate club game of tests/data/bridgemate), puts it in a folder beside a good file, runs
`ddrank results FOLDER --out OUT` in a child process (`hostile.ddrank`, 4 GiB address-space cap)
and asserts what the user gets: exit 2, exactly one line naming the bad file, no traceback, the
good file published (its ranking on the site), and a peak RSS of at most 1 GB.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from hostile import LIN, PEAK_RSS_LIMIT, Done, ddrank, env

ROOT = Path(__file__).resolve().parents[1]
BWS = ROOT / "tests" / "data" / "bridgemate" / "LBC-2026-01-26.bws"
#: The team the vugraph file's ranking names: the good file is published when the site has it.
GOOD_TEAM = "Fleisher"


def good_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "in"
    folder.mkdir()
    shutil.copy(LIN, folder / "good.lin")
    return folder


def results(folder: Path, out: Path, *flags: str) -> Done:
    return ddrank("results", str(folder), "--out", str(out), *flags, cwd=folder.parent)


def published(done: Done, out: Path) -> None:
    """The good file is on the site and in the ranking CSV; no traceback; memory bounded."""
    assert "Traceback" not in done.stdout + done.stderr, done.stderr[-3000:]
    assert done.peak_rss <= PEAK_RSS_LIMIT, f"peak RSS {done.peak_rss / 2**20:.0f} MB"
    assert GOOD_TEAM in done.stdout
    assert (out / "site" / "index.html").is_file()
    assert GOOD_TEAM in (out / "ranking.csv").read_text()
    assert f"site: {out}/site/index.html" in done.stdout


def refused_once(done: Done, name: str) -> str:
    """Exit 2 and exactly one line naming the bad file."""
    assert done.returncode == 2, done.stdout[-2000:] + done.stderr[-2000:]
    lines = [ln for ln in done.lines if name in ln]
    assert len(lines) == 1, lines
    return lines[0]


def test_a_name_that_is_not_utf8_is_refused_by_name_and_the_rest_published(tmp_path: Path) -> None:
    folder = good_folder(tmp_path)
    bad = os.fsdecode(bytes(folder) + b"/bad\xff.lin")
    shutil.copy(LIN, bad)
    out = tmp_path / "out"
    done = results(folder, out)
    line = refused_once(done, "bad\\xff.lin")  # the byte shown, never an encoding error
    assert "not UTF-8" in line and "codec" not in done.stderr
    published(done, out)


def test_a_folder_nested_1100_levels_deep_is_walked(tmp_path: Path) -> None:
    folder = deep = tmp_path / "in"
    folder.mkdir()
    for _ in range(1100):  # one level at a time: os.makedirs itself recurses
        deep = deep / "d"
        deep.mkdir()
    shutil.copy(LIN, deep / "good.lin")
    out = tmp_path / "out"
    try:
        done = results(folder, out)
        check = ddrank("check", str(folder), cwd=tmp_path)  # its folder walk, too
    finally:  # removed from the bottom up: shutil.rmtree (pytest's cleanup) recurses too
        (deep / "good.lin").unlink()
        while deep != folder:
            deep.rmdir()
            deep = deep.parent
    assert done.returncode == 0, done.stderr[-3000:]
    assert "RecursionError" not in done.stderr
    published(done, out)
    assert check.returncode == 0 and "Traceback" not in check.stderr, check.stderr[-3000:]
    assert [ln for ln in check.lines if "good.lin" in ln], check.lines


def bws_beside(folder: Path) -> Path:
    """The Bridgemate game in the folder, without its hand record (the test puts one there)."""
    shutil.copy(BWS, folder / BWS.name)
    return folder / BWS.name


def test_a_pipe_as_companion_hand_record_is_refused_not_waited_on(tmp_path: Path) -> None:
    folder = good_folder(tmp_path)
    bws = bws_beside(folder)
    os.mkfifo(bws.with_suffix(".pbn"))  # nobody writes to it: a read would wait forever
    out = tmp_path / "out"
    done = ddrank("results", str(folder), "--out", str(out), cwd=tmp_path, timeout=120)
    line = refused_once(done, bws.name)
    assert "pipe" in line and bws.with_suffix(".pbn").name in line
    published(done, out)
    check = ddrank("check", str(bws), cwd=tmp_path, timeout=120)  # `check` never waits either
    assert check.returncode == 2 and "Traceback" not in check.stderr
    assert check.peak_rss <= PEAK_RSS_LIMIT
    (line,) = [ln for ln in check.lines if ln.startswith(f"{bws}: ")]  # its one line
    assert "unreadable" in line and "is a pipe (FIFO)" in line, line


def test_a_link_to_dev_zero_as_companion_is_refused(tmp_path: Path) -> None:
    folder = good_folder(tmp_path)
    bws = bws_beside(folder)
    bws.with_suffix(".pbn").symlink_to("/dev/zero")  # endless: read whole it takes all memory
    out = tmp_path / "out"
    done = ddrank("results", str(folder), "--out", str(out), cwd=tmp_path, timeout=120)
    line = refused_once(done, bws.name)
    assert "device" in line
    published(done, out)


def test_a_companion_over_the_size_limit_is_not_read(tmp_path: Path) -> None:
    folder = good_folder(tmp_path)
    bws = bws_beside(folder)
    hands = BWS.with_suffix(".pbn").read_bytes()
    big = bws.with_suffix(".pbn")
    with big.open("wb") as fh:  # the real hand record, padded past the limit with comment lines
        fh.write(hands)
        fh.write(b"% padding\n" * 150_000)
    out = tmp_path / "out"
    done = results(folder, out, "--max-file-bytes", "1500000")  # the .bws is 1.1 MB
    assert done.returncode == 2
    lines = [ln for ln in done.lines if bws.name in ln]
    assert len(lines) == 1 and "max_file_bytes" in lines[0], done.lines  # the .bws, refused
    assert len([ln for ln in done.lines if f"{big.name}:" in ln and "max_file_bytes" in ln]) == 2
    published(done, out)


def test_the_output_folder_is_never_read_as_input(tmp_path: Path) -> None:
    folder = good_folder(tmp_path)
    first = results(folder, folder)  # `ddrank results DIR --out DIR`
    assert first.returncode == 0, first.stderr[-3000:]
    published(first, folder)
    again = results(folder, folder)
    assert again.returncode == 0, again.stderr[-3000:]
    assert "nothing new" in again.stdout
    assert "left out" not in again.stdout
    errors = (folder / "errors.csv").read_text()
    assert "results.csv" not in errors and "ranking.csv" not in errors
    published(again, folder)


@pytest.mark.parametrize("inner", [False, True])
def test_an_output_folder_inside_the_inputs_is_skipped(tmp_path: Path, inner: bool) -> None:
    folder = good_folder(tmp_path)
    out = folder / "out" if inner else tmp_path / "out"
    results(folder, out)
    again = results(folder, out)
    assert again.returncode == 0 and "nothing new" in again.stdout, again.stdout[-2000:]


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGABRT])
def test_a_run_killed_midway_leaves_nothing_stale(tmp_path: Path, sig: signal.Signals) -> None:
    """Issue 40: after an abort (SIGKILL, or SIGABRT as an allocation failure raises it) the
    next run into the same --out starts at once: the lock a dead process left holds nothing,
    the store's log is replayed and checkpointed (no WAL left), and the site is published."""
    folder = good_folder(tmp_path)
    shutil.copy(BWS, folder / BWS.name)
    shutil.copy(BWS.with_suffix(".pbn"), folder / BWS.with_suffix(".pbn").name)
    out = tmp_path / "out"
    cmd = [sys.executable, "-m", "cli.main", "results", str(folder), "--out", str(out)]
    proc = subprocess.Popen(cmd, cwd=tmp_path, env=env(), stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)  # fmt: skip
    try:
        for line in proc.stdout:  # the store is written from here on: clean, scoring
            if "clean: started" in line:
                break
        os.kill(proc.pid, sig)
    finally:
        proc.wait(timeout=120)
    assert proc.returncode == -sig
    again = results(folder, out)
    assert again.returncode == 0, again.stderr[-3000:]
    assert "in use" not in again.stderr and "being updated" not in again.stderr
    published(again, out)
    assert "bridge-game-2026-01-26" in (out / "ranking.csv").read_text()  # the .bws game too
    wal = out / "results.duckdb.wal"
    assert not wal.exists() or wal.stat().st_size < 1 << 20
    assert not Path(f"{out / 'results.duckdb'}.lock").exists()
