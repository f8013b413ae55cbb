"""Hostile input, round 2 (issue 40): one bad value never costs the good files or the store.

Each hostile file is a real one with one value changed, here in the test: a USEBIO percentage
`inf`, a total `1e999`, a score of 10^23 (../shared: no USEBIO file may be bundled), a PBN score
of 3,000,000,000 (the bundled RealBridge qualifier), an ACBLscore pair entry whose strat is 7 of
3 (../shared). Each goes into a folder beside the bundled vugraph LIN file and runs through
`ddrank results` in a child process. Asserted: no traceback, the bad value named in one line
with its file, the good file published, nothing lost without a word (the record is left out with
why in errors.csv, or the ranking value is dropped with a warning), peak RSS at most 1 GB, and
the store still usable by the next run into the same folder.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from hostile import LIN, Done, ddrank
from test_hostile_files import published

ROOT = Path(__file__).resolve().parents[1]
EVENTS = ROOT.parent / "shared" / "data" / "events"
USEBIO = EVENTS / "compscore-usebio" / "mp_pairs_howell.xml"
ACBL = EVENTS / "acblscore-game" / "long-beach-bridge__170724.ACE"
QUALIFIER = ROOT / "ddrank" / "data" / "sample" / "pbn" / "online-qualifier-2021-example2.pbn"
needs_shared = pytest.mark.skipif(
    not EVENTS.is_dir(),
    reason="../shared/data/events is absent; its USEBIO and ACBLscore files may not be bundled "
    "(SOURCES.md)",
)


def run_beside_good(tmp_path: Path, name: str, data: bytes | str) -> tuple[Done, Path, Path]:
    folder = tmp_path / "in"
    folder.mkdir()
    shutil.copy(LIN, folder / "good.lin")
    bad = folder / name
    bad.write_bytes(data.encode() if isinstance(data, str) else data)
    out = tmp_path / "out"
    return ddrank("results", str(folder), "--out", str(out), cwd=tmp_path), out, bad


def the_store_still_works(tmp_path: Path, out: Path) -> None:
    """The next run into the same --out, with only the good file, succeeds."""
    good = tmp_path / "good-only"
    good.mkdir()
    shutil.copy(LIN, good / "good.lin")
    again = ddrank("results", str(good), "--out", str(out), cwd=tmp_path)
    assert again.returncode == 0, again.stderr[-3000:]


def one_line(done: Done, *words: str) -> str:
    lines = [ln for ln in done.lines if all(w in ln for w in words)]
    assert len(lines) == 1, done.lines[-30:]
    return lines[0]


def one_value(text: str, tag: str, value: str) -> str:
    changed, n = re.subn(rf"<{tag}>[^<]*</{tag}>", f"<{tag}>{value}</{tag}>", text, count=1)
    assert n == 1
    return changed


@needs_shared
@pytest.mark.parametrize(("tag", "value", "field"),
                         [("PERCENTAGE", "inf", "published_pct"),
                          ("TOTAL_SCORE", "1e999", "published_mp")])  # fmt: skip
def test_a_non_finite_ranking_value_is_dropped_with_a_warning(
    tmp_path: Path, tag: str, value: str, field: str
) -> None:
    done, out, bad = run_beside_good(tmp_path, "bad.xml", one_value(USEBIO.read_text(), tag, value))
    assert done.returncode == 0, done.stderr[-3000:]
    line = one_line(done, "bad.xml", "bad value")
    assert field in line and repr(value) in line and "not a finite number" in line
    published(done, out)
    assert (
        "el-wed-10-00am" in (out / "ranking.csv").read_text()
    )  # the USEBIO event is published too
    check = ddrank("check", str(bad), cwd=tmp_path)
    assert check.returncode == 0 and "Traceback" not in check.stderr, check.stderr[-3000:]


@needs_shared
def test_a_score_of_10_to_the_23_is_left_out_as_a_bad_value(tmp_path: Path) -> None:
    text = one_value(USEBIO.read_text(), "SCORE", "1" + "0" * 23)
    done, out, _ = run_beside_good(tmp_path, "bad.xml", text)
    assert done.returncode == 0, done.stderr[-3000:]
    line = one_line(done, "unreadable", "bad.xml")
    assert "bad value: ns_score" in line
    assert "bad value: ns_score" in (out / "errors.csv").read_text()  # left out, with why
    published(done, out)
    the_store_still_works(tmp_path, out)


def qualifier_games(n: int) -> str:
    """The bundled qualifier's first n games (a game starts at its [Event] tag)."""
    text = QUALIFIER.read_text()
    starts = [m.start() for m in re.finditer(r"^\[Event ", text, re.MULTILINE)]
    return text[: starts[n]]


def test_a_pbn_score_past_32_bits_is_left_out_as_a_bad_value(tmp_path: Path) -> None:
    text = qualifier_games(6).replace('[Score "NS 120"]', '[Score "NS 3000000000"]', 1)
    assert "3000000000" in text
    done, out, _ = run_beside_good(tmp_path, "bad.pbn", text)
    assert "Traceback" not in done.stderr
    line = one_line(done, "unreadable", "bad.pbn")
    assert "bad value: ns_score '3000000000'" in line
    assert "bad value" in (out / "errors.csv").read_text()
    published(done, out)
    the_store_still_works(tmp_path, out)


def test_a_huge_par_score_is_left_out_as_a_bad_value(tmp_path: Path) -> None:
    """Issue 40: "... or a huge par score": an `[OptimumScore]` of 10^23 (the store's par column
    is 32-bit) is a bad value of its record, not a traceback that breaks the store."""
    huge = "1" + "0" * 23
    text = qualifier_games(6).replace('[OptimumScore "NS +90"]', f'[OptimumScore "NS {huge}"]', 1)
    assert huge in text
    done, out, _ = run_beside_good(tmp_path, "bad.pbn", text)
    assert "Traceback" not in done.stderr
    line = one_line(done, "unreadable", "bad.pbn")
    assert f"bad value: par_score '{huge}'" in line, line
    assert "bad value: par_score" in (out / "errors.csv").read_text()
    published(done, out)
    the_store_still_works(tmp_path, out)


@needs_shared
def test_an_acblscore_strat_out_of_range_refuses_that_file_only(tmp_path: Path) -> None:
    from ddrank.parsers.acblscore_layout import read_game_file

    data = bytearray(ACBL.read_bytes())
    game = read_game_file(bytes(data))
    entry = next(e for s in game.sections for lst in s.lists for e in lst if e is not None)
    assert data[entry.offset + 0x1E] == entry.strat <= 3
    data[entry.offset + 0x1E] = 7  # one byte: the pair's strat is 7, of the event's 3
    done, out, _ = run_beside_good(tmp_path, "bad.ACE", bytes(data))
    assert "Traceback" not in done.stderr and "IndexError" not in done.stderr
    assert done.returncode == 2, done.lines[-10:]  # some file was refused: the status says so
    line = one_line(done, "error", "bad.ACE")
    assert "strat 7" in line and "damaged" in line
    published(done, out)
