"""PBN conformance warnings: rules of the PBN standard that the reader deliberately tolerates.

The reader keeps records that break these rules because real files break them (exports with long
comment lines, Windows-1252 files read as Latin-1, games with a play but no contract tag). A
warning tells the user where a file departs from the standard without dropping anything. Pure:
text in, `(line, warning)` pairs out; lines are the file's physical lines (split on LF only, so
a C1 character such as NEL does not shift the numbering the way `str.splitlines` would).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ddrank.parsers.pbn_lines import _ANY_TAG, _strip_comments, _unescape

MAX_LINE = 255  # PBN §2.3: at most 255 characters with the line end (the Verifier: 254 + LF)
PER_RULE = 5  # warnings shown per rule and file; the rest is one summary warning
# C0 controls other than tab, LF, CR; DEL; C1 controls (§2.2: ISO 8859-1 printable characters)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_TAG = _ANY_TAG  # a tag, its value a PBN string (escaped quotes and backslashes, PBN 3.7)
# Tag values the standard lists (PBN 2.1 §4.3 player type, §4.4 competition)
_ALLOWED = {
    "Competition": {"Cavendish", "Chicago", "Individuals", "Pairs", "Rubber", "Teams"},
    **{f"{seat}Type": {"human", "program"} for seat in ("West", "North", "East", "South")},
}
_SUMMARY = {"long": f"lines of {MAX_LINE} characters or more", "control": "lines with control characters",
            "tag": "tag warnings"}  # fmt: skip
# §3.6: a play is read against its table's declarer and contract (the Verifier's errors_10 games
# 26-27, "No declarer", "No contract"). Not the deal: files that repeat no board tags within a
# board (rpbridge's 2012 sample) leave it to the game before, which the reader accepts.
_PLAY_NEEDS = ("Declarer", "Contract")


def _tags(line: str, in_comment: bool) -> tuple[list[str], bool]:
    """The text of a line outside `{...}` comments (which may span lines), `%` lines and `;`,
    as the reader strips them: a `{` or `;` inside a quoted value (`"x\\";y"`) is the value's."""
    if not in_comment and line.startswith("%"):
        return [], False
    text, in_comment = _strip_comments(line, in_comment)
    return [text], in_comment


def _game_warnings(tags: dict[str, tuple[int, str]]) -> list[tuple[int, str]]:
    """A game's tag-level rules: listed values, and the tags a Play section needs."""
    out = []
    for name, allowed in _ALLOWED.items():
        if name in tags and tags[name][1] not in allowed and tags[name][1] not in ("", "#"):
            line, value = tags[name]
            out.append(
                (line, f"{name} {value!r} is not a PBN {name} ({', '.join(sorted(allowed))})")
            )
    if "Play" in tags and tags["Play"][1] not in ("", "#"):
        missing = [t for t in _PLAY_NEEDS if t not in tags]
        if "Contract" in tags and not tags["Contract"][1][:1].isdigit() and "Declarer" in missing:
            missing.remove("Declarer")  # an end position (§3.10): a strain, no declarer needed
        if missing:
            out.append((tags["Play"][0], f"a Play section without the {', '.join(missing)} tag"
                        f"{'s' if len(missing) > 1 else ''} it is read against"))  # fmt: skip
    return out


def iter_conformance(lines: Iterable[str]) -> list[tuple[int, str]]:
    """Warnings for the standard's rules the reader tolerates, in line order, at most `PER_RULE`
    per rule then one summary, so a file that breaks a rule on every line gives a short report."""
    scan = _Scan()
    scan.feed(lines, 1)
    scan.end_game()
    return _shown(scan.found)


class _Scan:
    """The rules line by line: every warning, by rule, in line order; the game being read and
    whether a `{` comment is open are kept from one `feed` to the next."""

    def __init__(self) -> None:
        self.found: dict[str, list[tuple[int, str]]] = {"long": [], "control": [], "tag": []}
        self.tags: dict[str, tuple[int, str]] = {}
        self.in_comment = False

    def end_game(self) -> None:
        self.found["tag"] += _game_warnings(self.tags)
        self.tags = {}

    def feed(self, lines: Iterable[str], first: int) -> None:
        """`lines`, the first of which is line `first`."""
        found, tags, in_comment = self.found, self.tags, self.in_comment
        for no, raw in enumerate(lines, first):
            line = raw.rstrip("\r\n")
            if len(line) >= MAX_LINE:
                found["long"].append(
                    (
                        no,
                        f"line is {len(line):,} characters long (PBN: {MAX_LINE} with its "
                        "line end)",
                    )  # fmt: skip
                )
            bad = _CONTROL.search(line)
            if bad:
                found["control"].append(
                    (no, f"control character U+{ord(bad.group()):04X} at column {bad.start() + 1}")
                )
            if not line.strip() and not in_comment:  # an empty line ends a game
                found["tag"] += _game_warnings(tags)
                tags = {}
                continue
            parts, in_comment = _tags(line, in_comment)
            for part in parts:
                for m in _TAG.finditer(part):
                    tags.setdefault(m.group(1), (no, _unescape(m.group(2))))
        self.tags, self.in_comment = tags, in_comment


def _shown(found: dict[str, list[tuple[int, str]]]) -> list[tuple[int, str]]:
    """At most `PER_RULE` warnings of each rule, then one summary; in line order."""
    out: list[tuple[int, str]] = []
    for rule, hits in found.items():
        out += hits[:PER_RULE]
        if len(hits) > PER_RULE:
            first = hits[PER_RULE][0]
            out.append(
                (first, f"and {len(hits) - PER_RULE:,} more {_SUMMARY[rule]} from this line on")
            )
    return sorted(out)


_LONG = re.compile(rf"^[^\n]{{{MAX_LINE},}}", re.M)
# a run of non-blank lines (blank as `str.strip` sees it: the same white space as `\s`)
_RUN = re.compile(r"(?:^[^\S\n]*\S[^\n]*(?:\n|\Z))+", re.M)
# one tag alone on a line, after a line end (its value without a quote, a line end or `\`)
_TAG_LINE = re.compile(r'\n\[(\w+) "([^"\n\\]*)"\][^\S\n]*(?=\n|\Z)')
# the tags `_game_warnings` reads, alone on a line
_NEEDED = frozenset([*_ALLOWED, "Play", *_PLAY_NEEDS])  # the tags `_game_warnings` reads


def conformance_warnings(text: str) -> list[tuple[int, str]]:
    """`iter_conformance` on a whole decoded file, with a few regular expressions over the
    text instead of Python code per line (the line loop was a third of ingest): long lines and
    control characters are found in the whole text at once, and a game written the common way
    (each `[` opens a tag alone on its line, no `{` comment, no backslash) gives its tags in one
    match. Any other run of lines goes through the line loop, so the warnings are exactly
    `iter_conformance`'s (a test compares both on every real file)."""
    found: dict[str, list[tuple[int, str]]] = {"long": [], "control": [], "tag": []}
    lines = _LineNumbers(text)
    for m in _LONG.finditer(text):
        line = m.group().rstrip("\r")
        if len(line) >= MAX_LINE:
            found["long"].append((lines.at(m.start()), f"line is {len(line):,} characters long "
                                  f"(PBN: {MAX_LINE} with its line end)"))  # fmt: skip
    lines = _LineNumbers(text)
    for m in _CONTROL.finditer(text):
        no = lines.at(m.start())
        if not found["control"] or found["control"][-1][0] != no:  # the first of a line only
            column = m.start() - text.rfind("\n", 0, m.start())
            found["control"].append((no, f"control character U+{ord(m.group()):04X} at "
                                     f"column {column}"))  # fmt: skip
    found["tag"] = _tag_warnings(text)
    return _shown(found)


class _LineNumbers:
    """The line of an offset, offsets asked in increasing order (the line ends between two asks
    counted once)."""

    def __init__(self, text: str) -> None:
        self.text, self.pos, self.line = text, 0, 1

    def at(self, offset: int) -> int:
        self.line += self.text.count("\n", self.pos, offset)
        self.pos = offset
        return self.line


def _tag_warnings(text: str) -> list[tuple[int, str]]:
    """The tag warnings of `_Scan`, a run of non-blank lines at a time: read in one match when
    written the common way, else line by line; blank lines between runs end a game unless a
    comment is open."""
    scan = _Scan()
    lines = _LineNumbers(text)
    for m in _RUN.finditer(text):
        run = m.group().removesuffix("\n")
        first = lines.at(m.start())
        if not scan.in_comment:
            scan.end_game()  # the blank lines before the run (or the file's start)
        block = "\n" + run
        found = _TAG_LINE.findall(block) if not scan.in_comment else None
        if (
            found is not None
            and len(found) == run.count("[")
            and "{" not in run
            and ("\\" not in run)
        ):  # each `[` opens a tag alone on its line
            names = dict(found).keys()
            if _ALLOWED.keys() & names or ("Play" in names and not names >= set(_PLAY_NEEDS)):
                scan.tags = {}  # the first of each name, as `setdefault`
                for name in names & _NEEDED:
                    at = block.find(f'\n[{name} "')
                    value = _TAG_LINE.match(block, at).group(2)  # type: ignore[union-attr]
                    scan.tags[name] = (first + block.count("\n", 1, at + 1), value)
        else:
            scan.feed(run.split("\n"), first)
    scan.end_game()
    return scan.found["tag"]
