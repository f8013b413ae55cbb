"""Ctrl-C or SIGTERM at any moment of a command's start (while Python loads the command, while it
installs its own stop handling, or just after) is one line and exit 130, never a traceback. CI
found the race: a SIGINT that arrived while `main` was installing its handlers stopped the run
with a KeyboardInterrupt traceback (a loaded machine makes the start slow enough to hit it).

The command is the installed `ddrank` script on the bundled Bridgemate game; each signal is sent
for real, at a spread of delays from the start."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BWS = ROOT / "tests" / "data" / "bridgemate" / "LBC-2026-01-26.bws"
SCRIPT = Path(sys.executable).parent / "ddrank"


@pytest.mark.skipif(not SCRIPT.exists(), reason="the ddrank script is not installed beside python")
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_stop_during_start_up_is_one_line_and_exit_130(sig: signal.Signals,
                                                         tmp_path: Path) -> None:  # fmt: skip
    outcomes = []
    for delay in (0.0, 0.1, 0.2, 0.4, 0.7, 1.0):
        proc = subprocess.Popen([str(SCRIPT), "results", str(BWS), "--out", str(tmp_path / "out")],
                                cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)  # fmt: skip
        time.sleep(delay)
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=300)
        outcomes.append((delay, proc.returncode))
        assert "Traceback" not in err and "Traceback" not in out, (delay, err[-2000:])
        if proc.returncode == 0:
            continue  # the command finished before the signal came (a fast machine)
        if proc.returncode == -sig:  # before the interpreter ran a line of ours: killed silently
            assert err == "" and not (tmp_path / "out").exists(), (delay, err[-2000:])
            continue
        assert proc.returncode == 130, (delay, proc.returncode, err[-2000:])
        stops = [ln for ln in err.splitlines() if ln.startswith(f"stopped by {sig.name}")]
        assert len(stops) == 1, (delay, err[-2000:])
    assert any(rc == 130 for _, rc in outcomes), outcomes  # at least one stop was exercised
