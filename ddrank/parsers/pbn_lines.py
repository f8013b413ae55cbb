"""PBN text as games, line by line: the reader that knows the whole standard (comments,
several tags on a line, sections over many lines, escaped quotes)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

# one tag on a line, its value a PBN string: no bare quote, a backslash only as an escape of the
# next character (PBN 3.7: \" and \\; in `[West "x\"]` the string never closes); otherwise the
# line holds several tags, or a malformed one (the token path)
_TAG = re.compile(r'^\[(\w+)\s+"([^"\\]*(?:\\.[^"\\]*)*)"\]\s*$')
_ANY_TAG = re.compile(r'\[\s*(\w+)\s*"((?:[^"\\]|\\.)*)"\s*\]')


def _open_brackets(text: str) -> int:
    """`[` minus `]` outside double quotes: > 0 while a tag is still open."""
    depth, quoted, escaped = 0, False, False
    for ch in text:
        if escaped:  # `\"` and `\\` inside a string (PBN 3.7) do not close it
            escaped = False
        elif quoted and ch == "\\":
            escaped = True
        elif ch == '"':
            quoted = not quoted
        elif not quoted:
            depth += (ch == "[") - (ch == "]")
    return depth


# Tags that describe the board (and event), shared by every table result of one board.
# After a line end: one tag alone on its line.
_TAG_LINE = re.compile(r'\n\[(\w+) "([^"\n]*)"\][^\S\n]*(?=\n|\Z)')
_BOARD_TAGS = ("Event", "Site", "Date", "Stage", "Board", "Dealer", "Vulnerable", "Deal", "Scoring")
_EVENT_TAGS = ("Event", "Site", "Date", "Stage", "Scoring", "HomeTeam", "VisitTeam", "Round")
_SECTION_TAGS = ("Auction", "Play")
_IDENTITY_TAGS = frozenset(_BOARD_TAGS + ("North", "East", "South", "West"))
_SEATS = ("North", "East", "South", "West")


class _Game:
    __slots__ = ("line", "tags", "sections", "current", "errors", "tables", "table", "_tag_lines",
                 "_found")  # fmt: skip

    def __init__(self, line: int) -> None:
        self.line = line
        self.tags: dict[str, str] = {}
        self._tag_lines: dict[str, int] | None = {}
        self._found = ""  # the text of a game read as a block
        # section tag -> its data lines, without surrounding white space (or their text)
        self.sections: dict[str, list[str] | str] = {}
        self.current: str | None = None
        self.errors: list[str] = []
        # table tag -> (line of the tag, [(line, raw row text)], or the rows' text: `table_rows`)
        self.tables: dict[str, tuple[int, list[tuple[int, str]] | str]] = {}
        self.table: str | None = None

    def section_lines(self, name: str) -> list[str]:
        """The data lines of a section (Auction, Play), without surrounding white space."""
        lines = self.sections.get(name, [])
        if isinstance(lines, str):
            return [row.strip() for row in lines.split("\n") if row]
        return lines

    def table_rows(self, name: str) -> list[tuple[int, str]]:
        """The data lines of a table, (line, text without surrounding white space)."""
        at, rows = self.tables[name]
        if isinstance(rows, str):
            return [(at + k, r.strip()) for k, r in enumerate(rows.split("\n"), 1) if r]
        return rows

    @property
    def tag_lines(self) -> dict[str, int]:
        """Line of each tag (its last occurrence); a game read as a block counts them only when
        asked (an error message), not for every game."""
        if self._tag_lines is None:
            text = self._found  # the game's text, after a line end
            self._tag_lines = {
                m.group(1): self.line + text.count("\n", 1, m.start() + 1)
                for m in _TAG_LINE.finditer(text)
            }
        return self._tag_lines


_ESCAPED = re.compile(r'\\(["\\])')


def _unescape(value: str) -> str:
    """A tag's value with the standard's escapes (`\\"`, `\\\\`) read: `x\\";y` is `x";y`."""
    return _ESCAPED.sub(r"\1", value)


def _closing_quote(line: str, start: int) -> int:
    """Where the string opened before `start` closes: PBN escapes `\\"` and `\\\\` inside a
    string (standard, section 3.7), so `"x\\";y"` is one string. The line's last index when
    it never closes."""
    j = start
    while True:
        j = line.find('"', j)
        if j < 0:
            return len(line) - 1
        k = j - 1  # an odd run of backslashes before it escapes it
        while k >= start and line[k] == "\\":
            k -= 1
        if (j - 1 - k) % 2 == 0:
            return j
        j += 1


def _strip_comments(line: str, in_brace: bool) -> tuple[str, bool]:
    """Remove `{...}` (possibly spanning lines) and `;` rest-of-line comments."""
    if not in_brace and "{" not in line and ";" not in line:
        return line, False  # the common case, kept fast
    out = []
    i = 0
    while i < len(line):
        ch = line[i]
        if in_brace:
            j = line.find("}", i)
            if j < 0:
                return "".join(out), True
            in_brace, i = False, j + 1
            continue
        if ch == "{":
            in_brace = True
        elif ch == ";":
            break
        elif ch == '"':  # keep quoted tag values intact, braces and semicolons included
            j = _closing_quote(line, i + 1)
            out.append(line[i : j + 1])
            i = j + 1
            continue
        else:
            out.append(ch)
        i += 1
    return "".join(out), in_brace


def _tag_kind(name: str) -> tuple[bool, str | None, str | None]:
    """(identity tag, section it opens, table it opens) of a tag name."""
    table = name if name.endswith("Table") and name != "Table" else None
    return name in _IDENTITY_TAGS, name if name in _SECTION_TAGS else None, table


_TAG_KINDS: dict[str, tuple[bool, str | None, str | None]] = {}


class _LineReader:
    """The PBN grammar line by line: comments (`{...}` across lines, `;`, `%`), tags that share
    a line or span several, text outside any game. It reads whatever the block reader
    (`_games`) does not take, and keeps its state from one call of `feed` to the next."""

    def __init__(self) -> None:
        self.game: _Game | None = None
        self.in_brace = False
        self.garbage_at: int | None = None
        self.pending: str | None = None  # a tag not closed yet on its first line
        self.pending_at = 0
        self.brace_at = 0  # the line of the `{` comment open now

    def idle(self) -> bool:
        """Between games, outside any comment or tag: the next game may be read as a block."""
        return self.game is None and not self.in_brace and self.pending is None

    def feed(self, lines: Iterable[str], first: int) -> Iterator[_Game]:
        """The games completed by `lines`, the first of which is line `first` of the file."""
        game = self.game
        in_brace = self.in_brace
        garbage_at = self.garbage_at
        pending = self.pending
        pending_at = self.pending_at
        kinds = _TAG_KINDS
        for lineno, raw_line in enumerate(lines, start=first):
            if not in_brace:
                if raw_line[:1] == "%":
                    continue
                if game is not None and game.table:
                    stripped = raw_line.strip()
                    if stripped and stripped[0] != "[":
                        game.tables[game.table][1].append((lineno, stripped))  # type: ignore[union-attr]
                        if stripped[0] == "{" and "}" not in stripped:
                            in_brace, self.brace_at = True, lineno
                        continue
                if pending is None and "{" not in raw_line and ";" not in raw_line:
                    # the common lines, without comments: one tag, or a section's data line
                    line = raw_line.strip()
                    if line[:1] == "[" and game is not None:
                        m = _TAG.match(line)
                        if m is not None:
                            name, value = m.groups()
                            kind = kinds.get(name)
                            if kind is None:
                                kind = kinds[name] = _tag_kind(name)
                            if kind[0] and name in game.tags:
                                # a repeated identity tag without a blank line starts the next game
                                yield game
                                game = _Game(lineno)
                            if "\\" in value:  # `\\"` and `\\\\` as the standard escapes them
                                value = _unescape(value)
                            game.tags[name] = value
                            game.tag_lines[name] = lineno
                            game.current = kind[1]
                            game.table = kind[2]
                            if kind[2]:
                                game.tables[name] = (lineno, [])
                            elif kind[1]:
                                game.sections[name] = []
                            continue
                    elif line and game is not None and game.tags:
                        if game.current:
                            game.sections[game.current].append(line)  # type: ignore[union-attr]
                        continue  # data lines of other sections (tables, notes) are not needed
            was_in_brace = in_brace
            line, in_brace = _strip_comments(raw_line, in_brace)
            if in_brace and not was_in_brace:
                self.brace_at = lineno
            line = line.strip()
            if not line:
                if raw_line.strip():
                    continue  # a line that held only a comment does not end the game
                if pending is not None and game is not None:  # a tag never closed: this game's
                    game.errors.append(f"line {pending_at}: malformed tag {pending[:80]!r}")
                    pending = None  # loss, never the next game's
                if game is not None and (game.tags or game.errors):
                    yield game
                    game = None
                continue
            if pending is not None or line.startswith("["):
                if game is None:
                    game = _Game(lineno)
                m = _TAG.match(line) if pending is None else None
                if (
                    m is not None
                ):  # (`[Event "a"] [Date "b"]`, two tags on one line, does not match)
                    found = [m.groups()]
                else:  # PBN is token-based: tags may share a line or span several lines
                    if pending is None:
                        pending, pending_at = line, lineno
                    else:
                        pending += " " + line
                    if (
                        line.count('"') % 2 == 0
                        and _open_brackets(pending) > 0
                        and lineno - pending_at < 20
                    ):
                        continue
                    found = [(t.group(1), t.group(2)) for t in _ANY_TAG.finditer(pending)]
                    rest = _ANY_TAG.sub("", pending).strip()
                    if rest or not found:
                        game.errors.append(f"line {pending_at}: malformed tag {pending[:80]!r}")
                        game.current = game.table = None
                        pending = None
                        continue
                    pending = None
                for name, value in found:
                    if name in _IDENTITY_TAGS and name in game.tags:
                        # a repeated identity tag without a blank line starts the next game
                        yield game
                        game = _Game(lineno)
                    game.tags[name] = _unescape(value) if "\\" in value else value
                    game.tag_lines[name] = lineno
                    game.current = name if name in _SECTION_TAGS else None
                    game.table = name if name.endswith("Table") and name != "Table" else None
                    if game.table:
                        game.tables[name] = (lineno, [])
                    if game.current:
                        game.sections[name] = []
                continue
            if game is not None and game.tags:
                if game.current:
                    game.sections[game.current].append(line)  # type: ignore[union-attr]
                continue  # data lines of other sections (tables, notes) are not needed
            # text outside any game: report it once per block, keep going
            if garbage_at is None or garbage_at != lineno - 1:
                g = _Game(lineno)
                g.errors.append(
                    f"line {lineno}: text outside a PBN game: {raw_line.strip()[:80]!r}"
                )
                yield g
            garbage_at = lineno
        self.game, self.in_brace, self.garbage_at = game, in_brace, garbage_at
        self.pending, self.pending_at = pending, pending_at

    def finish(self) -> Iterator[_Game]:
        """The last game of the file, if the file does not end with a blank line."""
        game = self.game
        if self.in_brace:
            if game is None or not (game.tags or game.errors):
                game = _Game(self.brace_at)  # between games: said all the same, with its line
            game.errors.append(f"line {self.brace_at}: a {{comment}} opened here never closes: "
                               "the file ends inside it, and what follows it is not read")  # fmt: skip
        if game is not None and (game.tags or game.errors):
            yield game
        self.game = None
