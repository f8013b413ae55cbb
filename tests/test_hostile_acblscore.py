"""Hostile input, round 2 (issue 40): "a 22 KB ACBLscore file with 2 boards of 255 tables: 7 min
36 s in scoring". The unmarked-artificial-score proof rescored every 1- and 2-line combination of
a board whose published matchpoints disagree with ours (n^2 rescorings of an O(n log n) board).

The hostile file is built here from a real club game of ../shared (no ACBLscore file may be
bundled, SOURCES.md): two boards of its first section get a results structure of 255 tables
(the most a board's one-byte table count holds), each table a copy of one of the board's real
traveller lines, round after round, with the matchpoints ACBLscore stored for its real field of
a few tables; the board index points at them and the header states the new length. Every one of
the 510 lines then disagrees with ours (a top of 254, not the real field's).

Asserted: `ddrank results` on it, beside the bundled vugraph file, in a child process (peak RSS
at most 1 GB): exit 0, the file named in one line (its event published, the rest too), no
traceback; `ddrank check` lists it in one line; and the work is bounded by a count, not a time:
the proof rescores each board at most `MAX_SINGLES` + C(`MAX_PAIRED`, 2) = 27 times, whatever
its 255 lines (it was 255 + 32,385 per board).
"""

from __future__ import annotations

import re
import shutil
import struct
from pathlib import Path

import pytest
from hostile import LIN, PEAK_RSS_LIMIT, ddrank
from test_hostile_files import published
from test_hostile_values import ACBL, needs_shared

from ddrank.parsers.acblscore import parse_acblscore
from ddrank.parsers.acblscore_layout import SLOT_SIZE, SUMMARIES_AT, SUMMARY_SIZE, read_game_file

GAME = ACBL.parent / "750-club__170724.ACE"
TABLES = 255  # a board's table count is one byte


def two_boards_of_255_tables(data: bytes) -> tuple[bytes, str]:
    """The real game file with two boards of its first section at 255 tables each (appended
    results structures, the board index and the header's length patched); and the event's name."""
    game = read_game_file(data)
    sec = game.sections[0]
    at = SUMMARIES_AT + SUMMARY_SIZE * (sec.index - 1)
    index_at = struct.unpack_from("<I", data, at + 8)[0]
    out = bytearray(data)
    boards = [b for b in sec.boards if b.slots][:2]
    assert len(boards) == 2
    for board in boards:
        played = [s for s in board.slots if abs(s.ns_score) < 900 and s.ew_score == -s.ns_score]
        assert len(played) >= 3
        slots = bytearray()
        for k in range(TABLES):
            s = played[k % len(played)]
            slot = bytearray(data[s.offset : s.offset + SLOT_SIZE])
            slot[0], slot[1] = 1 + k // len(played), k + 1  # round, table
            slots += slot
        o = board.offset
        head = data[o + 2 : o + 5] + bytes([TABLES])  # its board number, as stored; 255 tables
        new_at = len(out)
        out += struct.pack("<H", 4 + SLOT_SIZE * TABLES) + head + slots
        (count,) = struct.unpack_from("<H", data, index_at + 4)
        entry = next(index_at + 0x26 + 8 * k for k in range(count)
                     if struct.unpack_from("<I", data, index_at + 0x26 + 8 * k + 4)[0] == o)  # fmt: skip
        struct.pack_into("<HI", out, entry + 2, TABLES, new_at)
    struct.pack_into("<I", out, 6, len(out))
    return bytes(out), game.events[sec.event - 1].name


@pytest.fixture(scope="module")
def hostile_game() -> tuple[bytes, str]:
    if not GAME.is_file():
        pytest.skip(f"{GAME} is absent (../shared): no ACBLscore file may be bundled")
    data, event = two_boards_of_255_tables(GAME.read_bytes())
    boards = [b for s in read_game_file(data).sections for b in s.boards if len(b.slots) == TABLES]
    assert len(boards) == 2
    return data, event


@needs_shared
def test_two_boards_of_255_tables_are_scored_with_bounded_work(hostile_game, tmp_path: Path,
                                                                monkeypatch) -> None:  # fmt: skip
    from ddrank.scoring.verification import proofs
    from stages.check import check_file

    data, _ = hostile_game
    path = tmp_path / "big.ACE"
    path.write_bytes(data)
    rescorings: list[int] = []
    real = proofs._unmarked

    def counted(lines, wrong, k, rescore):
        def one(rest, n):
            rescorings.append(len(rest))
            return rescore(rest, n)

        return real(lines, wrong, k, one)

    monkeypatch.setattr(proofs, "_unmarked", counted)
    result = check_file(path)
    big = [n for n in rescorings if n >= TABLES - 2]  # the two boards' (the rest: a few tables)
    assert big, "the proof never tried the 255-table boards"
    limit = proofs.MAX_SINGLES + proofs.MAX_PAIRED * (proofs.MAX_PAIRED - 1) // 2
    assert limit == 27
    assert len(big) <= 2 * limit, len(big)  # was 2 x (255 + 32,385)
    lines = sum(ev.results for ev in result.events)
    assert lines >= 2 * TABLES


@needs_shared
def test_two_boards_of_255_tables_in_results_and_check(hostile_game, tmp_path: Path) -> None:
    data, event = hostile_game
    folder = tmp_path / "in"
    folder.mkdir()
    shutil.copy(LIN, folder / "good.lin")
    (folder / "big.ACE").write_bytes(data)
    out = tmp_path / "out"
    done = ddrank("results", str(folder), "--out", str(out), cwd=tmp_path, timeout=900)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    assert "Traceback" not in done.stderr
    assert done.peak_rss <= PEAK_RSS_LIMIT, f"peak RSS {done.peak_rss / 2**20:.0f} MB"
    published(done, out)
    # the game's one line: its event scored, compared with what it published (the disagreements
    # are the hostile tables')
    (line,) = [ln for ln in done.lines if ln.startswith(f"{event}, ")]
    assert "matchpoints" in line and re.search(r"published values \d+ of \d+ agree", line), line
    slug = re.sub(r"[^a-z0-9]+", "-", event.lower()).strip("-")
    assert slug in (out / "ranking.csv").read_text()  # the hostile game is published too
    check = ddrank("check", str(folder / "big.ACE"), cwd=tmp_path, timeout=900)
    assert check.returncode == 0, check.stderr[-3000:]
    assert "Traceback" not in check.stderr and check.peak_rss <= PEAK_RSS_LIMIT
    named = [ln for ln in check.lines if ln.startswith(f"{folder / 'big.ACE'}: ")]  # its heading
    assert len(named) == 1 and "producer ACBLscore" in named[0], check.lines[:5]
    # every table result the file holds is scored: none lost in silence
    held = len(parse_acblscore(data, "big.ACE").records)
    (scored,) = [ln for ln in check.lines if ln.split()[0] == "event"]  # the event's line
    assert f"{event} " in scored and f"{held} table results" in scored, scored
    assert held >= 2 * TABLES
