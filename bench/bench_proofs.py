"""How `ddrank check` scales with the lines of one board whose published matchpoints all disagree
(issue 40: the unmarked-artificial-score proof rescored every 1- and 2-line combination, about
n^4: 240 lines took 94 s).

GENERATED DATA, labelled as such: one USEBIO matchpoint-pairs event of one board with n traveller
lines (n = 40 ... 2,000), scores spread over a realistic range, and published matchpoints that
are each off by one (so every line disagrees and every proof is tried). It is a scale test only;
no value of it is an oracle. Each size is checked once in this process (`stages.check.check_file`)
and the bench prints the time per traveller line, its ratio to the smallest board's, and the
ratio max/min of the time per line over all sizes: flat within 2x is the target.

    .venv/bin/python bench/bench_proofs.py [--sizes 40,80,160,500,1000,2000]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from stages.check import check_file  # noqa: E402

CONTRACTS = [("4S", "N", 10, 420), ("4S", "N", 11, 450), ("3N", "S", 9, 400), ("4S", "N", 9, -50),
             ("2S", "N", 9, 140), ("4H", "E", 10, -420), ("5C", "W", 11, -400),
             ("4SX", "N", 8, -300)]  # fmt: skip


def generated_usebio(n: int) -> str:
    """GENERATED: one board of n lines (pairs 1..n NS, n+1..2n EW), each published matchpoint
    one off its true value, so that no line agrees."""
    lines = [CONTRACTS[(k * 7) % len(CONTRACTS)] for k in range(n)]
    scores = [s for *_, s in lines]
    top = 2 * (n - 1)
    out = []
    for k, (contract, by, tricks, score) in enumerate(lines):
        ns_mp = sum(2 if score > o else 1 if score == o else 0 for o in scores) - 1
        out.append(
            f"<TRAVELLER_LINE><NS_PAIR_NUMBER>{k + 1}</NS_PAIR_NUMBER>"
            f"<EW_PAIR_NUMBER>{n + k + 1}</EW_PAIR_NUMBER><CONTRACT>{contract}</CONTRACT>"
            f"<PLAYED_BY>{by}</PLAYED_BY><TRICKS>{tricks}</TRICKS><SCORE>{score}</SCORE>"
            f"<NS_MATCH_POINTS>{ns_mp + 1}</NS_MATCH_POINTS>"
            f"<EW_MATCH_POINTS>{top - ns_mp - 1}</EW_MATCH_POINTS></TRAVELLER_LINE>"
        )
    pairs = "".join(
        f"<PAIR><PAIR_NUMBER>{p}</PAIR_NUMBER><PLAYER><PLAYER_NAME>Generated {p}a</PLAYER_NAME>"
        f"</PLAYER><PLAYER><PLAYER_NAME>Generated {p}b</PLAYER_NAME></PLAYER></PAIR>"
        for p in range(1, 2 * n + 1)
    )
    return (
        '<?xml version="1.0"?>\n<USEBIO Version="1.2"><CLUB><CLUB_NAME>Generated</CLUB_NAME>'
        '</CLUB><EVENT EVENT_TYPE="MP_PAIRS"><EVENT_DESCRIPTION>GENERATED bench board'
        "</EVENT_DESCRIPTION><PROGRAM_NAME>Generated</PROGRAM_NAME><DATE>01/01/2026</DATE>"
        f'<PARTICIPANTS EVENT_TYPE="MP_PAIRS">{pairs}</PARTICIPANTS>'
        '<SESSION SESSION_ID="1"><SECTION SECTION_ID="A"><BOARD><BOARD_NUMBER>1</BOARD_NUMBER>'
        + "\n".join(out)
        + "</BOARD></SECTION></SESSION></EVENT></USEBIO>\n"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="40,80,160,500,1000,2000",
                    help="traveller lines per board, comma-separated")  # fmt: skip
    sizes = [int(x) for x in ap.parse_args().sizes.split(",")]
    print("GENERATED boards (scale test; no value is an oracle): one board, every line's "
          "published matchpoints off by one")  # fmt: skip
    base = None
    per_lines: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        warm = Path(tmp) / "warm-up.xml"  # imports and first calls, not timed
        warm.write_text(generated_usebio(8))
        check_file(warm)
        for n in sizes:
            path = Path(tmp) / f"generated-{n}.xml"
            path.write_text(generated_usebio(n))
            started = time.perf_counter()
            result = check_file(path)
            seconds = time.perf_counter() - started
            per_line = seconds / n
            base = base or per_line
            per_lines.append(per_line)
            lines = sum(ev.results for ev in result.events) if result.events else 0
            print(f"n = {n:>5} lines: {seconds:8.2f} s, {per_line * 1e3:7.3f} ms per line, "
                  f"ratio {per_line / base:5.2f} ({result.status}, {lines} lines scored)")  # fmt: skip
    ratio = max(per_lines) / min(per_lines)
    print(
        f"time per line, max/min over {len(sizes)} sizes ({sizes[0]} to {sizes[-1]} lines): "
        f"{ratio:.2f} ({'flat within 2x' if ratio <= 2 else 'NOT flat within 2x'}; target <= 2)"
    )


if __name__ == "__main__":
    main()
