"""Hostile input, round 2 (issue 40): PBN strings as the standard defines them, a malformed tag
or an unclosed comment said and costing no more than it must, one value never copied per game,
and no quadratic work in one game's tags; also the USEBIO value-length limit.

Each hostile file is the bundled RealBridge qualifier's first games (or, for USEBIO, a file of
../shared) with one thing changed here; it runs through `ddrank results` in a child process
beside the bundled vugraph LIN file (`test_hostile_values.run_beside_good`).
"""

from __future__ import annotations

import csv
import re

import duckdb
import pytest
from hostile import PEAK_RSS_LIMIT, ddrank
from test_hostile_files import published
from test_hostile_values import (
    EVENTS,
    USEBIO,
    needs_shared,
    one_line,
    qualifier_games,
    run_beside_good,
)

from ddrank.parsers.pbn import iter_pbn
from ddrank.parsers.registry import read_bytes

FOUR = qualifier_games(4)
SECOND = [m.start() for m in re.finditer(r"^\[Event ", FOUR, re.MULTILINE)][1]


def in_second_game(old: str, new: str) -> str:
    """The four games with `old` replaced by `new` once, in the second game."""
    assert old in FOUR[SECOND:]
    return FOUR[:SECOND] + FOUR[SECOND:].replace(old, new, 1)


def table_results(out) -> list[dict[str, str]]:
    with (out / "results.csv").open(newline="") as fh:
        return list(csv.DictReader(fh))


def test_an_escaped_quote_then_a_semicolon_is_part_of_the_name(tmp_path) -> None:
    text = in_second_game('[West "', '[West "x\\";y ')  # `x\";y`: a legal PBN string
    done, out, _ = run_beside_good(tmp_path, "bad.pbn", text)
    assert done.returncode == 0, done.stderr[-3000:]
    published(done, out)
    assert "bad.pbn" not in (out / "errors.csv").read_text()  # nothing left out
    rows = table_results(out)
    assert sum('x";y ' in v for row in rows for v in row.values()) == 1  # the name, unescaped


def test_a_malformed_tag_costs_its_own_game_only(tmp_path) -> None:
    text = in_second_game('[West "', '[West "x')
    text = text[:SECOND] + text[SECOND:].replace('"]\n', "\n", 1)  # its [Event] never closes
    done, out, _ = run_beside_good(tmp_path, "bad.pbn", text)
    line = one_line(done, "unreadable", "bad.pbn")
    assert "malformed tag" in line
    errors = (out / "errors.csv").read_text()
    bad_rows = [ln for ln in errors.splitlines() if "bad.pbn" in ln]
    assert len(bad_rows) == 1 and "malformed tag" in bad_rows[0]  # that game, with why
    parsed = read_bytes(text.encode(), "bad.pbn", "pbn")
    assert len(parsed.records) == 4 and sum(bool(r.parse_error) for r in parsed.records) == 1
    published(done, out)


def test_an_unclosed_comment_is_said_with_its_line(tmp_path) -> None:
    text = FOUR[:SECOND] + "{ a comment that never closes\n" + FOUR[SECOND:]
    done, out, _ = run_beside_good(tmp_path, "bad.pbn", text)
    line = one_line(done, "unreadable", "bad.pbn")
    at = text[:SECOND].count("\n") + 1
    assert f"bad.pbn:{at}:" in line and "never closes" in line
    assert "never closes" in (out / "errors.csv").read_text()
    published(done, out)


def test_a_long_event_inherited_by_every_game_is_refused_whole(tmp_path) -> None:
    title = '[Event "2021 Online Qual: Open R2"]'
    text = qualifier_games(40).replace(title, '[Event "' + "E" * 70_000 + '"]', 1)
    text = text.replace(title, '[Event "#"]')  # "#": the value of the game before (inherited)
    done, out, _ = run_beside_good(tmp_path, "bad.pbn", text)
    assert done.returncode == 2
    line = one_line(done, "bad.pbn", "max_value_chars")
    assert "70,000 characters" in line and "--max-value-chars" in line
    published(done, out)


def test_a_game_of_30000_tags_is_read_in_linear_time(tmp_path) -> None:
    game = qualifier_games(1)
    tags = "".join(f'[Note{i} "v"]\n' for i in range(30_000))
    text = game.replace('[Competition "Teams"]\n', '[Competition "Teams"]\n' + tags, 1)
    parsed = read_bytes(text.encode(), "tags.pbn", "pbn")  # was names.count per tag: n^2
    assert len(parsed.records) == 1 and not parsed.records[0].parse_error


def test_a_game_of_125000_tags_in_results_and_check(tmp_path) -> None:
    """The issue's file: one game of 125,000 tags, 2.3 MB (206 s in `results`, 214 s in `check`,
    `names.count` per tag). Through both commands in a child process: the four games stored,
    nothing left out, the file named once by `check`, peak RSS <= 1 GB. Bounded work is the
    in-process test above (a count of games, no timing here)."""
    tags = "".join(f'[Note{i} "v"]\n' for i in range(125_000))
    text = in_second_game('[Competition "Teams"]\n', '[Competition "Teams"]\n' + tags)
    assert len(text) > 2_000_000
    done, out, bad = run_beside_good(tmp_path, "tags.pbn", text)
    assert done.returncode == 0, done.stderr[-3000:]
    published(done, out)
    assert "tags.pbn" not in (out / "errors.csv").read_text()  # nothing left out
    con = duckdb.connect(str(out / "results.duckdb"), read_only=True)
    try:
        (stored,), = con.execute("select count(*) from raw_records where source_file like "
                                 "'%tags.pbn'").fetchall()  # fmt: skip
    finally:
        con.close()
    assert stored == len(read_bytes(FOUR.encode(), "four.pbn", "pbn").records) == 4
    check = ddrank("check", str(bad), cwd=tmp_path)
    assert check.returncode == 0 and "Traceback" not in check.stderr, check.stderr[-3000:]
    assert check.peak_rss <= PEAK_RSS_LIMIT
    assert len([ln for ln in check.lines if ln.startswith(f"{bad}: ")]) == 1, check.lines[:5]


@needs_shared
@pytest.mark.parametrize("where", ["text", "attributes"])
def test_a_usebio_value_over_the_limit_is_refused_before_it_is_held(tmp_path, where) -> None:
    text = USEBIO.read_text()
    if where == "text":  # a 1 MB EVENT_DESCRIPTION (20 MB aborted the run)
        text = text.replace("</EVENT_DESCRIPTION>", "E" * 1_000_000 + "</EVENT_DESCRIPTION>", 1)
        assert "E" * 1_000_000 in text
    else:  # one element with 100,000 attributes (10 million took 2.5 GB)
        attrs = " ".join(f'a{i}="1"' for i in range(100_000))
        text = re.sub(r"<EVENT\b", "<EVENT " + attrs, text, count=1)
    done, out, _ = run_beside_good(tmp_path, "bad.xml", text)
    assert done.returncode == 2, done.stdout[-2000:]
    line = one_line(done, "bad.xml", "max_value_chars")
    assert "refused" in line
    published(done, out)


def test_a_backslash_at_the_end_of_a_value_is_the_value_s(tmp_path) -> None:
    """PBN 3.7: `\\"` and `\\\\` inside a string. `[West "x\\\\"]` names West `x\\`; the string
    closes there. Read alike by the block reader and the line reader, whole or streamed in
    pieces (as `ddrank results` reads a large file), and published as `x\\`."""
    west = re.search(r'^\[West "[^"]*"\]$', FOUR[SECOND:], re.MULTILINE).group()
    text = in_second_game(west, '[West "x\\\\"]')
    assert '[West "x\\\\"]\n' in text  # what the file holds: x, two backslashes, the quote
    wests = [r.westname for r in read_bytes(text.encode(), "bad.pbn", "pbn").records]
    assert wests.count("x\\") == 1 and all("\\" not in w for w in wests if w != "x\\")
    pieces = [text[:SECOND], text[SECOND:]]  # whole lines each, as the streamed reader gets them
    streamed = [r.westname for r in iter_pbn(None, "bad.pbn", texts=pieces)]
    assert streamed == wests
    done, out, _ = run_beside_good(tmp_path, "bad.pbn", text)
    assert done.returncode == 0, done.stderr[-3000:]
    published(done, out)
    assert "bad.pbn" not in (out / "errors.csv").read_text()
    (names,) = [v for row in table_results(out) for v in row.values() if "\\" in v]
    assert names.endswith(" - x\\")  # the pair's names: East's, then West's, `x\`


def test_an_escaped_quote_never_closed_costs_its_own_game(tmp_path) -> None:
    """`[West "x\\"]`: the quote is escaped, so the string never closes: that game is left out
    with why, the other three are read (the block reader must not read it as `x\\`)."""
    west = re.search(r'^\[West "[^"]*"\]$', FOUR[SECOND:], re.MULTILINE).group()
    text = in_second_game(west, '[West "x\\"]')
    parsed = read_bytes(text.encode(), "bad.pbn", "pbn")
    assert [bool(r.parse_error) for r in parsed.records] == [False, True, False, False]
    assert "malformed tag" in parsed.records[1].parse_error
    assert all("\\" not in r.westname for r in parsed.records)


@needs_shared
def test_the_verifier_s_escaped_string_is_read_as_the_standard_says() -> None:
    """The PBN Verifier's own correct file writes East as `"\\\\\\"\\\\\\"\\"\\\\  \\a"`: an escaped
    backslash, quote, backslash, quote, quote, backslash, two spaces, and `\\a` (no escape)."""
    path = EVENTS / "pbn-verifier" / "correct_10.pbn"
    east = '[East  "\\\\\\"\\\\\\"\\"\\\\  \\a"]'
    text = path.read_bytes().decode("latin-1")
    assert east in text
    parsed = read_bytes(path.read_bytes(), path.name, "pbn")
    (east_read,) = [r.eastname for r in parsed.records if "\\" in r.eastname]
    assert east_read == '\\"\\""\\  \\a'
