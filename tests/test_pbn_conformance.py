"""PBN conformance warnings (issue 12): every deliberate error of the PBN Verifier's
`errors_*.pbn` is reported with its line, as an unreadable record, an exclusion, an auction or
play issue, or a conformance warning; the `correct_*.pbn` files and the real event files give
no warning. Each game of an `errors_*.pbn` carries one deliberate error and starts with a
`% ===== game N =====` line, so the expected set is read from the file itself.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ddrank.parsers.pbn_conformance import conformance_warnings
from stages.clean import clean_pending
from stages.ingest import ingest_paths
from store.inputs.text import read_text as _text
from store.store import open_connection as connect

ROOT = Path(__file__).resolve().parent.parent
EVENTS = ROOT.parent / "shared" / "data" / "events"
VERIFIER = ROOT / "tests" / "data" / "pbn-verifier"  # bundled: copyright-free (SOURCES.md)


def _game_starts(path: Path) -> list[int]:
    lines = path.read_bytes().split(b"\n")
    return [k for k, line in enumerate(lines, 1) if re.match(rb"% =+ game \d+ =+", line)]


@pytest.mark.parametrize("name", ["errors_10.pbn", "errors_20.pbn", "errors_21.pbn"])
def test_every_deliberate_error_is_reported_with_its_line(tmp_path: Path, name: str) -> None:
    path = VERIFIER / name
    con = connect(tmp_path / "s.duckdb")
    summary = ingest_paths(con, [path])
    clean_pending(con, workers=1)
    lines = [int(u["line"]) for u in summary.unreadable]
    lines += [int(w["line"]) for w in summary.warnings]
    lines += [r[0] for r in con.execute("SELECT source_line FROM exclusions").fetchall()]
    for issues in ("auction_issues", "play_issues"):
        lines += [r[0] for r in con.execute(
            f"SELECT r.source_line FROM {issues} JOIN raw_records r USING (record_id)"
        ).fetchall()]  # fmt: skip
    starts = _game_starts(path)
    reported = {max(s for s in starts if s <= line) for line in lines if line >= starts[0]}
    assert reported == set(starts)
    assert len(starts) == {"errors_10.pbn": 74, "errors_20.pbn": 23, "errors_21.pbn": 2}[name]


def test_the_errors_only_warnings_can_report() -> None:
    """The four games of errors_10 that reading tolerates: no contract (game 27), tag values
    outside the standard's lists (game 70), lines of 255 characters (game 68), a C1 control
    character on a 350-character line (game 74, line 955: NEL does not shift the numbering)."""
    warnings = conformance_warnings(_text(VERIFIER / "errors_10.pbn"))
    assert (120, "a Play section without the Contract tag it is read against") in warnings
    assert (114, "a Play section without the Declarer tag it is read against") in warnings
    assert {line for line, w in warnings if "255 characters long" in w} == {817, 820, 825}
    assert {line for line, w in warnings if "is not a PBN" in w} == {831, 832}
    assert (955, "control character U+0085 at column 152") in warnings
    assert (955, "line is 350 characters long (PBN: 255 with its line end)") in warnings


#: Real files that break the line-length rule (lines of 255 characters or more, their ScoreTable
#: and TotalScoreTable headers and rows): each warning's line, the sixth the "and N more" summary.
LONG_LINES = {
    "ffb-national-pairs-final-session5.pbn": {76},  # Magic Contest (FFB)
    "indi.pbn": {102, 135, 168, 201, 234, 267},  # Ruter: 62 ScoreTable headers of 292 characters
    "sm2.pbn": {63},  # Ruter: its TotalScoreTable header
    "team.pbn": {73, 74, 75, 76, 77, 78},  # Ruter: 30 match rows of 259 characters
}


def test_real_files_warn_only_where_they_break_the_standard() -> None:
    """The Verifier's correct files (one has 254-character lines, one an end position played
    with no declarer), the bundled samples and club games give no warning; the real PBN files under
    ../shared/data/events (when beside the clone) give exactly their long-line warnings."""
    bundled = [*VERIFIER.glob("*.pbn"), *(ROOT / "tests" / "data" / "bridgemate").glob("*.pbn"),
               *(ROOT / "ddrank" / "data" / "sample" / "pbn").glob("*.pbn")]  # fmt: skip
    files = [p for p in [*bundled, *EVENTS.rglob("*.pbn")] if not p.name.startswith("errors_")]
    assert len(files) >= 7
    warned = {p.name: conformance_warnings(_text(p)) for p in files}
    expected = {name: lines for name, lines in LONG_LINES.items() if name in warned}
    assert {name: {line for line, _ in w} for name, w in warned.items() if w} == expected
    for name in expected:
        assert all("characters long" in w or "255 characters or more" in w
                   for _, w in warned[name]), name  # fmt: skip


def test_one_summary_warning_beyond_five_per_rule() -> None:
    """A file breaking a rule on every line gives five warnings and one summary, not a flood."""
    text = "\n".join(f'[Event "{"x" * 300}"]' for _ in range(40))
    warnings = conformance_warnings(text)
    assert [line for line, _ in warnings] == [1, 2, 3, 4, 5, 6]
    assert warnings[-1] == (6, "and 35 more lines of 255 characters or more from this line on")


def test_a_score_table_published_again_is_not_more_results() -> None:
    """correct_20.pbn's game 45 lists board 1's ScoreTable (multiplicities 2+1+5+...: 155
    results) and its "best 10" ranking; game 46 repeats their first lines with "#" tags. The
    board has 155 results and the ranking 10 lines, not 158 and 12."""
    from ddrank.parsers.pbn import read_pbn

    path = VERIFIER / "correct_20.pbn"
    parsed = read_pbn(_text(path), str(path))
    mixed = [r for r in parsed.records if r.event.startswith("Mixed Pairs") and r.ns_score
             and r.date == "1999.01.29"]  # fmt: skip
    assert len(mixed) == 155
    assert sum(1 for r in mixed if r.ns_score == "500") == 2
    ranked = [st for st in parsed.standings if st.event.startswith("Mixed Pairs")]
    assert sorted(int(st.published_place) for st in ranked) == list(range(1, 11))


def test_the_warnings_read_a_game_at_once_equal_the_line_by_line_rules() -> None:
    """`conformance_warnings` reads a game written the common way in one match (ingest's speed,
    issue 37) and gives exactly the line-by-line rules' warnings (`iter_conformance`): on every
    bundled and real PBN file, and on the 2012 sample's first games rewritten the ways the
    block reading must hand back to the line loop (CRLF, comments over blank lines, escapes,
    indented tags, a `%` line, a blank line of white space, tags that break the rules)."""
    from ddrank.parsers.pbn_conformance import iter_conformance

    bundled = [*VERIFIER.glob("*.pbn"), *(ROOT / "tests" / "data").rglob("*.pbn"),
               *(ROOT / "ddrank" / "data" / "sample" / "pbn").glob("*.pbn")]  # fmt: skip
    texts = {p.name: _text(p) for p in [*bundled, *EVENTS.rglob("*.pbn")]}
    games = _text(ROOT / "ddrank" / "data" / "sample" / "pbn" / "worldclass-2012-example3.pbn")
    head = "\n\n".join(games.split("\n\n")[:12])
    texts |= {
        "crlf": head.replace("\n", "\r\n"),
        "comment over a blank line": head.replace(
            '[Declarer "', '{ a note\n\n[Contract "7N"]}\n[Declarer "', 3
        ),
        "escape": head.replace('[Site "', '[Competition "Te\\"ams"]\n[Site "', 2),
        "indented": head.replace('\n[Declarer "', '\n  [Declarer "', 2),
        "percent line": head.replace('\n[Contract "', '\n% [Contract "x"]\n[Contract "', 2),
        "white blank line": head.replace("\n\n", "\n \u00a0\n", 4),
        "rules broken": head.replace(
            '[Declarer "', '[WestType "robot"]\n[Competition "Swiss"]\n[Decl "', 5
        ).replace('[Contract "', '[Contract "', 1),  # fmt: skip
        "no contract": head.replace('[Contract "', '[Contracts "', 3),
        "several tags a line": head.replace('"]\n[Declarer', '"] [Declarer', 3),
    }
    assert len(texts) >= 19  # the 10 bundled files and 9 rewrites; ../shared's PBN files too
    for name, text in texts.items():
        assert conformance_warnings(text) == iter_conformance(text.split("\n")), name
    assert any("WestType 'robot'" in w for _, w in conformance_warnings(texts["rules broken"]))
    assert any("without the Declarer" in w for _, w in conformance_warnings(texts["rules broken"]))
