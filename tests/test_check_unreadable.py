"""`ddrank check` on files it cannot read: one line per file naming it and the line it failed at,
in the file's own report and in the summary; the reason once, never "line 7: line 7:" nor the
game's first line beside the tag's.

Real files modified here: the PBN standard's own error file (its first game's `[OptimumScore
"100"]` at line 7), the Bridgemate game's hand record with every `OptimumScore` made invalid
(two copies: the same reason in several files is one summary line naming each with its line)
or only the first, and the bundled qualifier with its first `OptimumScore` made invalid.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ERRORS_21 = ROOT / "tests" / "data" / "pbn-verifier" / "errors_21.pbn"
HAND_RECORD = ROOT / "tests" / "data" / "bridgemate" / "LBC-2026-01-26.pbn"
QUALIFIER = ROOT / "ddrank" / "data" / "sample" / "pbn" / "online-qualifier-2021-example2.pbn"


def check(*paths: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "300", "DO_NOT_TRACK": "1"}
    return subprocess.run([sys.executable, "-m", "cli.main", "check", *map(str, paths)], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=300)  # fmt: skip


def test_an_unreadable_file_is_named_with_its_line_once(tmp_path: Path) -> None:
    broken = tmp_path / "broken.pbn"
    text = HAND_RECORD.read_text(encoding="latin-1")
    broken.write_text(re.sub(r'\[OptimumScore "[^"]*"\]', '[OptimumScore "100"]', text),
                      encoding="latin-1")  # fmt: skip
    line = 1 + text[: text.index("[OptimumScore")].count("\n")
    shutil.copy(broken, tmp_path / "broken-too.pbn")
    shutil.copy(ERRORS_21, tmp_path / "errors_21.pbn")
    done = check(tmp_path)
    out = done.stdout
    assert done.returncode == 2, out + done.stderr  # nothing readable
    assert not re.search(r"line \d+: line \d+:", out), out
    per_file = [ln for ln in out.splitlines() if ": unreadable (" in ln]
    assert len(per_file) == 3, out
    assert any(ln.startswith(f"broken.pbn: unreadable (line {line}: ") for ln in per_file), out
    assert any(ln.startswith("errors_21.pbn: unreadable (line 7: ") for ln in per_file), out
    summary = out[out.index("\n3 files:") :]
    assert "unreadable: 3" in summary, summary
    assert (f"  3 files, OptimumScore '100' is not a valid PBN OptimumScore: broken-too.pbn (line "
            f"{line}), broken.pbn (line {line}), errors_21.pbn (line 7)") in summary.splitlines()  # fmt: skip
    alone = check(ERRORS_21).stdout
    assert (f"  {ERRORS_21}, line 7: OptimumScore '100' is not a valid PBN OptimumScore"
            in alone.splitlines()), alone  # fmt: skip
    assert "1 file(s)" not in summary


def test_one_bad_game_is_left_out_at_its_own_line(tmp_path: Path) -> None:
    """One bad game of a hand record leaves a hand record of the other deals; one bad game of a
    results file is a left-out record named by the line of the bad tag (line 47), not by the line
    its game starts at and then the tag's ('x.pbn:3: ...: line 47: ...')."""
    hands = tmp_path / "hands.pbn"
    text = HAND_RECORD.read_text(encoding="latin-1")
    hands.write_text(text.replace('[OptimumScore "NS 980"]', '[OptimumScore "100"]', 1),
                     encoding="latin-1")  # fmt: skip
    line = 1 + text[: text.index('[OptimumScore "NS 980"]')].count("\n")
    qualifier = tmp_path / "qualifier.pbn"
    q = QUALIFIER.read_text(encoding="latin-1")
    at = re.search(r'\[OptimumScore "[^"]*"\]', q)
    assert at is not None
    qualifier.write_text(q[: at.start()] + '[OptimumScore "100"]' + q[at.end() :],
                         encoding="latin-1")  # fmt: skip
    q_line = 1 + q[: at.start()].count("\n")
    done = check(hands, qualifier)
    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    assert (f"hands.pbn: no table results (a hand record: 35 deals; 1 game(s) left out, the first "
            f"at line {line}: OptimumScore '100' is not a valid PBN OptimumScore)") in out  # fmt: skip
    left = next(ln for ln in out.splitlines() if ln.startswith("  left out  "))
    assert f"the first: qualifier.pbn:{q_line}: section " in left, left
    assert left.endswith(": OptimumScore '100' is not a valid PBN OptimumScore"), left
    assert left.count("line ") == 0, left
