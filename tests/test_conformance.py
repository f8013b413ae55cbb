"""`ddrank check` over every real results file: no file may agree on fewer published values than
the committed baseline says (`tests/data/conformance-baseline.json`), and README's agreement
table is the harness's own output. Raise the baseline with `python bench/conformance.py --update`
when a change makes more values agree (bench/conformance.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import conformance as harness  # noqa: E402

from ddrank.scoring.verification.check import Check  # noqa: E402
from ddrank.scoring.verification.conformance import CHECKED, UNREADABLE, baseline_of, drops, gains  # noqa: E402

EVENTS = harness.ROOTS["events"]
NO_SHARED = "../shared/data/events is absent; its files may not be bundled (SOURCES.md)"


@pytest.fixture(scope="module")
def checked() -> tuple[list, int, list[str]]:
    return harness.run()


def test_no_file_agrees_on_fewer_published_values_than_the_baseline(checked) -> None:
    files, _, _ = checked
    labels = {f.path: harness.label(f.path) for f in files}
    now = baseline_of(files, labels)
    lost = drops(now, harness.load_baseline(), set(labels.values()))
    assert not lost, ("published values that agreed before no longer do:\n" + "\n".join(lost)
                      + "\n(a deliberate change? say why, then `python bench/conformance.py --update`)")  # fmt: skip


def test_every_file_is_checked_and_none_crashes_the_harness(checked) -> None:
    files, _, present = checked
    assert not [f.path for f in files if f.status == "failed"]
    bundled = {
        harness.label(f.path): f for f in files if not harness.label(f.path).startswith("events/")
    }
    # the bundled 2021 qualifier publishes its IMPs per table: the harness compares them
    qual = bundled["sample/pbn/online-qualifier-2021-example2.pbn"]
    assert qual.status == CHECKED and qual.events[0].kind == "teams, IMPs to VPs"
    imps = next(c for c in qual.checks() if c.what == "IMPs per line")
    assert imps.compared >= 279 and imps.agree >= 278
    if "events" in present:
        labels = {harness.label(f.path) for f in files}
        assert "events/magic-contest-pbn/ffb-national-pairs-final-session5.pbn" in labels
        assert len([x for x in labels if x.startswith("events/acblscore-game/")]) == 49


@pytest.mark.skipif(not EVENTS.is_dir(), reason=NO_SHARED)
def test_readme_agreement_table_is_the_harness_output(checked) -> None:
    files, _, _ = checked
    assert harness.readme_now() == harness.readme_block(files), (
        "README's agreement table is not this run's: `python bench/conformance.py --readme`"
    )


@pytest.mark.skipif(not EVENTS.is_dir(), reason=NO_SHARED)
def test_check_command_reports_producer_kind_scoring_and_values(tmp_path: Path) -> None:
    """`ddrank check` as a user runs it, on Welwyn (BriAn USEBIO) and a binary file no reader
    takes: the file's producer, kind, method and why, each kind of value, then the pooled lines."""
    junk = tmp_path / "game.bin"
    junk.write_bytes(b"\x00\x01binary\x00" * 50)  # generated: an unreadable file, nothing more
    welwyn = EVENTS / "usebio" / "welwyn-2025-04-09.usebio.xml"
    env = {**os.environ, "COLUMNS": "250"}
    done = subprocess.run([sys.executable, "-m", "cli.main", "check", str(welwyn), str(tmp_path)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    text = done.stdout
    assert "welwyn-2025-04-09.usebio.xml: producer BriAn, usebio" in text
    assert (
        "event     Wednesday AM Pairs (2025-04-09): pairs, matchpoints, 144 table results" in text
    )
    assert "scoring   none, top 2 per result beaten: " in text
    assert "scorer BriAn scores each board on its own top" in text
    assert "matchpoints per line     144 of 144 agree" in text
    assert "final percentage         13 of 13 agree" in text
    assert "game.bin: unreadable (line 1: binary content" in text
    assert (
        "2 files: 1 with published values, 0 without, 0 without table results, 1 unreadable" in text
    )
    assert "per-line values, pooled: 144 of 144 agree (100.00%)" in text
    as_json = subprocess.run([sys.executable, "-m", "cli.main", "check", str(welwyn), "--json"],
                             cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)  # fmt: skip
    report = json.loads(as_json.stdout)
    (f,) = report["files"]
    assert (f["producer"], f["status"], f["events"][0]["method"]) == ("BriAn", CHECKED, "none")
    assert report["pooled"]["other"] == {"compared": 26, "agree": 26, "explained": 0,
                                         "percent": 100.0}  # fmt: skip


def test_baseline_arithmetic() -> None:
    """A drop is judged per file and kind, only on the files this run could see."""
    before = {"a.pbn": {"place": 10, "matchpoints per line": 100}, "b.xml": {"place": 3}}
    now = {"a.pbn": {"place": 9, "matchpoints per line": 120}}
    assert drops(now, before, {"a.pbn"}) == ["a.pbn: place 9 agree, the baseline 10"]
    assert drops(now, before) == ["a.pbn: place 9 agree, the baseline 10",
                                  "b.xml: place 0 agree, the baseline 3"]  # fmt: skip
    assert gains(now, before) == ["a.pbn: matchpoints per line 120 agree, the baseline 100"]
    c = Check("final percentage")
    c.add(True, "x")
    c.add(False, "pair 2: ours 50.1, published 50.3")
    c.add(False, "pair 3: ours 49.9, published 49.7", "its own board MPs sum to 49.9%")
    assert (c.compared, c.agree, len(c.disagree), len(c.explained)) == (3, 1, 1, 1)
    assert UNREADABLE == "unreadable"
