"""PBN reader: text in, raw table results out, with PBN tag inheritance resolved.

A PBN file is a list of games. Files exported from results services write one board's deal once and
then omit `[Board]`/`[Deal]` (or write "#") for the other tables of that board; endplay's parser
leaves those deals empty and DDS then segfaults, so inheritance is resolved here, explicitly.
Text that cannot be read as a game becomes a record with `parse_error` set, never an exception.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import lru_cache
from operator import itemgetter

from ddrank.parsers.adjusted import adjusted_split
from ddrank.parsers.pbn_tables import (
    Table,
    add_row,
    dd_hex,
    parse_spec,
    split_names,
    tricks_of,
)
from ddrank.raw import ParsedFile, RawRecord, RawStanding, number_repeats

# one tag on a line, its value free of bare quotes (a quote not after a backslash): otherwise
# the line holds several tags, read by the token path
_TAG = re.compile(r'^\[(\w+)\s+"([^"]*(?:\\"[^"]*)*)"\]\s*$')
_ANY_TAG = re.compile(r'\[\s*(\w+)\s*"((?:[^"\\]|\\.)*)"\s*\]')


def _open_brackets(text: str) -> int:
    """`[` minus `]` outside double quotes: > 0 while a tag is still open."""
    depth, quoted = 0, False
    for ch in text:
        if ch == '"':
            quoted = not quoted
        elif not quoted:
            depth += (ch == "[") - (ch == "]")
    return depth


# Tags that describe the board (and event), shared by every table result of one board.
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
            j = line.find('"', i + 1)
            j = len(line) - 1 if j < 0 else j
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
                            in_brace = True
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
            line, in_brace = _strip_comments(raw_line, in_brace)
            line = line.strip()
            if not line:
                if raw_line.strip():
                    continue  # a line that held only a comment does not end the game
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
                    game.tags[name] = value
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
        if game is not None and (game.tags or game.errors):
            if self.in_brace:
                game.errors.append("file ends inside a {comment}")
            yield game
        self.game = None


# A run of non-blank lines (a blank line holds only white space, as `str.strip` sees it).
_RUN = re.compile(r"(?:^[^\S\n]*\S[^\n]*(?:\n|\Z))+", re.M)
# After a line end: one tag alone on its line.
_TAG_LINE = re.compile(r'\n\[(\w+) "([^"\n]*)"\][^\S\n]*(?=\n|\Z)')
_INDENTED = re.compile(r"\n[^\S\n]+\[")
_CARRY_CHARS = 8 << 20  # an unfinished game longer than this goes to the line reader as it is
_BLOCK_LINES = 20_000  # lines joined at once when the caller gives lines one at a time


def _block_game(run: str, line: int) -> _Game | None:
    """One game written the common way, read with a few passes over its text instead of line by
    line: every line that starts with "[" holds one tag alone, none is indented, no `{` comment,
    no `%` line, no quote inside a tag value, no `;` in the auction or play, no identity tag
    written twice. None when the run is not such a game: the line reader, which knows the whole
    grammar, reads it then (both give the same games, which a test checks)."""
    if run[:1] != "[" or "{" in run or "\n%" in run:
        return None
    text = "\n" + run
    lines_with_tags = text.count("\n[")
    for layout in _LAYOUTS.get(lines_with_tags, ()):
        m = layout.regex.fullmatch(run + "\n")
        if m is not None:
            return layout.game(m, text, line)
    found = _TAG_LINE.findall(text)
    if len(found) != lines_with_tags or (
        text.count("[") != lines_with_tags and _INDENTED.search(text)
    ):
        return None
    tags = dict(found)
    repeats = len(found) - len(tags)
    if repeats and repeats != text.count('\n[Note "') - 1 and _identity_repeated(found):
        return None  # (a game's notes are the tags it repeats most)
    game = _Game(line)
    game.tags = tags
    game._found = text  # type: ignore[assignment]
    game._tag_lines = None
    names = [name for name in _SECTION_TAGS if name in tags]
    if len(names) == 2 and text.find('\n[Play "') < text.find('\n[Auction "'):
        names.reverse()  # in the order they first appear, as the line reader has them
    for name in names:
        body = _body(text, name)
        if body is None or ";" in body:
            return None
        game.sections[name] = body  # type: ignore[assignment]  # see section_lines
    if "Table " in run:
        for name in _table_names(tags):
            pos = text.rfind(f'\n[{name} "')
            body = _body(text, name, pos)
            if body is None:
                return None
            game.tables[name] = (line + text.count("\n", 1, pos + 1), body)
    last = found[-1][0]
    game.current = last if last in _SECTION_TAGS else None
    game.table = last if last.endswith("Table") and last != "Table" else None
    if len(_LAYOUTS.get(len(found), ())) < _MAX_LAYOUTS:
        _learn_layout(found, text)
    return game


class _Layout:
    """The tags of a game, in order, and which of them have data lines: one regular expression
    that reads a whole game of that layout at once. A file's games share a few layouts (they
    differ in their number of notes), so most games are read by one match."""

    def __init__(self, names: list[str], with_body: set[str]) -> None:
        parts = []
        groups = 0
        value_groups = []
        self.sections: list[tuple[str, int]] = []
        self.tables: list[tuple[str, int, int]] = []
        for name in names:
            parts.append(rf'\[{name} "([^"\n]*)"\]\n')
            groups += 1
            value_groups.append(groups)
            if name in with_body or name in _SECTION_TAGS or name.endswith("Table"):
                parts.append(r"((?:[^\s\[%][^\n]*\n)*)")  # data lines, none like a tag
                groups += 1
                if name in _SECTION_TAGS:
                    self.sections.append((name, groups))
                elif name.endswith("Table") and name != "Table":
                    self.tables.append((name, groups - 1, groups))
        self.regex = re.compile("".join(parts))
        self.names = names
        self.values = itemgetter(*(g - 1 for g in value_groups))
        last = names[-1]
        self.current = last if last in _SECTION_TAGS else None
        self.table = last if last.endswith("Table") and last != "Table" else None

    def game(self, m: re.Match[str], text: str, line: int) -> _Game | None:
        """The game that `m`, a match of this layout on a game's text (after its line end `text`
        begins with), reads."""
        groups = m.groups()
        game = _Game(line)
        game.tags = dict(zip(self.names, self.values(groups), strict=True))
        game._found = text  # type: ignore[assignment]
        game._tag_lines = None
        for name, g in self.sections:
            body = groups[g - 1]
            if ";" in body:
                return None
            game.sections[name] = body  # type: ignore[assignment]  # see section_lines
        for name, g_value, g_body in self.tables:
            at = line + text.count("\n", 1, m.start(g_value) + 1)
            game.tables[name] = (at, groups[g_body - 1])
        game.current, game.table = self.current, self.table
        return game


# by their number of tags: tried in turn before a game is read tag by tag
_LAYOUTS: dict[int, list[_Layout]] = {}
_MAX_LAYOUTS = 4  # of one number of tags
_NOT_LAYOUTS: set[tuple[tuple[str, ...], frozenset[str]]] = set()
_WITH_BODY = re.compile(r'\n\[(\w+) "[^"\n]*"\][^\S\n]*\n(?!\[)')


def _learn_layout(found: list[tuple[str, str]], text: str) -> None:
    """Keep the layout of a game read by `_block_game`, unless a tag that a layout cannot
    repeat (identity, section or table) is repeated."""
    names = [name for name, _value in found]
    repeated = {n for n in names if names.count(n) > 1}
    if len(names) < 2 or any(
        n in _IDENTITY_TAGS or n in _SECTION_TAGS or n.endswith("Table") for n in repeated
    ):
        return
    with_body = set(_WITH_BODY.findall(text + "\n"))
    key = (tuple(names), frozenset(with_body))
    if key in _NOT_LAYOUTS or with_body & repeated:
        return
    if all(n.isascii() and n.isidentifier() for n in names):
        layout = _Layout(names, with_body)
        if layout.regex.fullmatch(text[1:] + "\n"):  # (not when a tag line ends with spaces)
            if len(_LAYOUTS) > 1000:
                _LAYOUTS.clear()
            _LAYOUTS.setdefault(len(names), []).append(layout)
            return
    if len(_NOT_LAYOUTS) > 1000:
        _NOT_LAYOUTS.clear()
    _NOT_LAYOUTS.add(key)


_TABLES_OF: dict[tuple[str, ...], list[str]] = {}


def _table_names(tags: dict[str, str]) -> list[str]:
    """The table tags among a game's tags, in order (the same tag names recur game after game)."""
    key = tuple(tags)
    names = _TABLES_OF.get(key)
    if names is None:
        if len(_TABLES_OF) > 10_000:
            _TABLES_OF.clear()
        names = _TABLES_OF[key] = [n for n in key if n.endswith("Table") and n != "Table"]
    return names


def _body(text: str, name: str, pos: int | None = None) -> str | None:
    """The data lines after the last `name` tag of a game's text (None: the tag is not written
    `[Name "`, with one space: left to the line reader)."""
    if pos is None:
        pos = text.rfind(f'\n[{name} "')
    if pos < 0:
        return None
    eol = text.find("\n", pos + 1)
    if eol < 0:
        return ""
    end = text.find("\n[", eol)
    return text[eol + 1 :] if end < 0 else text[eol + 1 : end]


def _identity_repeated(found: list[tuple[str, str]]) -> bool:
    identity = [name for name, _value in found if name in _IDENTITY_TAGS]
    return len(identity) != len(set(identity))


def _line_texts(lines: Iterable[str]) -> Iterator[str]:
    """Lines given one at a time, joined `_BLOCK_LINES` at a time."""
    block: list[str] = []
    for line in lines:
        block.append(line)
        if len(block) >= _BLOCK_LINES:
            yield "\n".join(block)
            block = []
    if block:
        yield "\n".join(block)


def _games(source: str | Iterable[str], texts: Iterable[str] | None = None) -> Iterator[_Game]:
    """The games of a PBN text: a whole text, its lines, or (`texts`) pieces of it, each of
    whole lines joined by line ends (a line end also separates one piece from the next).

    Games are runs of lines between blank lines. A run written the common way is read as one
    block of text (`_block_game`); anything else, and everything while a comment or a tag is
    still open, goes to the line reader.
    """
    if texts is None:
        if isinstance(source, str):
            source = source.splitlines()
        texts = (["\n".join(source)] if source else []) if isinstance(source, list) else (
            _line_texts(source)
        )  # fmt: skip
    reader = _LineReader()
    carry: str | None = None  # the lines after the last blank line, not read yet
    first = 1  # file line number of the first line not given to a reader yet
    for chunk in texts:
        text = chunk if carry is None else carry + "\n" + chunk
        if _has_blank_with_spaces(text):  # rare: blank lines found as the line reader finds them
            lines = text.split("\n")
            cut = len(lines)
            while cut and lines[cut - 1].strip():
                cut -= 1
            if cut:
                yield from _segment_games(reader, lines[:cut], first)
                first += cut
            carry = "\n".join(lines[cut:]) if cut < len(lines) else None
        elif (k := text.rfind("\n\n")) >= 0:
            yield from _text_games(reader, text[: k + 1], first)
            first += text.count("\n", 0, k + 1) + 1
            carry = text[k + 2 :]
        else:
            carry = text
        if carry is not None and len(carry) > _CARRY_CHARS:  # a game too long to hold
            yield from reader.feed(carry.split("\n"), first)
            first += carry.count("\n") + 1
            carry = None
    if carry is not None:
        yield from _text_games(reader, carry, first)
    yield from reader.finish()


_WHITE_LINE = re.compile(r"\n[^\S\n]+(?=\n|\Z)")


def _has_blank_with_spaces(text: str) -> bool:
    """Whether a line of `text` holds white space and nothing else."""
    end = text.find("\n")
    head = text if end < 0 else text[:end]
    return bool(head and head.isspace()) or _WHITE_LINE.search(text) is not None


def _text_games(reader: _LineReader, text: str, first: int) -> Iterator[_Game]:
    """The games of `text`, whose blank lines are empty, starting at line `first`."""
    idle = reader.idle()
    line = first
    for piece in text.split("\n\n"):
        run = piece.lstrip("\n")
        at = line + len(piece) - len(run)
        line += piece.count("\n") + 2
        run = run.rstrip("\n")
        if not run:
            continue
        if not idle:  # a blank line (before this run) ends the reader's game
            yield from reader.feed(("",), at - 1)
            idle = reader.idle()
        if idle and (game := _block_game(run, at)) is not None:
            yield game
            continue
        yield from reader.feed(run.split("\n"), at)
        idle = reader.idle()
    if not idle and text.endswith("\n"):  # the text ends with a blank line
        yield from reader.feed(("",), line)


def _segment_games(reader: _LineReader, lines: list[str], first: int) -> Iterator[_Game]:
    """The games of `lines` (which end with a blank line, or the file ends after them)."""
    text = "\n".join(lines)
    at, line = 0, first  # offset in text and the line number there
    index = 0  # index in `lines` of the first line not read yet
    idle = reader.idle()
    for m in _RUN.finditer(text):
        start = m.start()
        line += text.count("\n", at, start)
        at = start
        run = m.group()
        begin = line - first
        if not idle:  # the blank lines before this run end the reader's game
            yield from reader.feed(lines[index:begin], first + index)
            idle = reader.idle()
        if idle and (game := _block_game(run, line)) is not None:
            yield game
            continue
        index = begin + run.count("\n") + (not run.endswith("\n"))
        yield from reader.feed(lines[begin:index], line)
        idle = reader.idle()
    if index < len(lines) and not idle:
        yield from reader.feed(lines[index:], first + index)


# Tag values the PBN standard fixes, checked as written ("" and "?" mean unknown, "#" inherits).
_TAG_SYNTAX = {
    "Date": re.compile(r"^(\d{4}|\?{4})\.(\d\d|\?\?)\.(\d\d|\?\?)$"),
    "Board": re.compile(r"^\d+$"),
    "Dealer": re.compile(r"^[NESW]$", re.IGNORECASE),
    "Vulnerable": re.compile(r"^(None|Love|-|NS|EW|All|Both)$", re.IGNORECASE),
    "Declarer": re.compile(r"^\^?[NESW]$", re.IGNORECASE),
    # "3N" is how many exporters write 3NT; a bare strain is an end position (PBN 2.0)
    "Contract": re.compile(r"^(Pass|[1-7]?(C|D|H|S|NT|N)(X|XX|R)?)$", re.IGNORECASE),
    "Result": re.compile(r"^(\^?\d{1,2}|(NS|EW) \d{1,2}( (NS|EW) \d{1,2})?)$"),
    "OptimumScore": re.compile(r"^(NS|EW)( [^;]+;)? ?[+-]?\d+$"),
    "Score": re.compile(r"^((NS|EW) )?[+-]?\d+$"),
    "ScorePercentage": re.compile(r"^((NS|EW) )?\d+(\.\d*)?( (NS|EW) \d+(\.\d*)?)?$"),
    "ScoreMP": re.compile(r"^((NS|EW) )?\d+(\.\d*)?( (NS|EW) \d+(\.\d*)?)?$"),
}


_CONTROL = re.compile(r"[\x00-\x1f]")
_SYNTAX_NAMES = tuple(_TAG_SYNTAX)


def _check_tags(game: _Game) -> list[str]:
    """Tag values that break the PBN standard, as "line N: ..." (the record is then unreadable:
    a value that cannot be read is never guessed)."""
    errors = []
    tags = game.tags
    values = "".join(tags.values())
    if not values.isprintable() and _CONTROL.search(values):  # (isprintable: a fast first test)
        for name, value in tags.items():
            if _CONTROL.search(value):
                line = game.tag_lines.get(name, game.line)
                errors.append(f"line {line}: control character in the {name} tag")
    problems = list(map(_value_problem, _SYNTAX_NAMES, map(tags.get, _SYNTAX_NAMES)))
    if any(problems):
        order = list(tags)  # file order: a set's order changes from run to run
        found = [(order.index(n), n, p) for n, p in zip(_SYNTAX_NAMES, problems, strict=True) if p]
        for _, name, problem in sorted(found):
            errors.append(f"line {game.tag_lines.get(name, game.line)}: {problem}")
    return errors


@lru_cache(maxsize=1 << 16)  # values repeat (boards, seats, contracts)
def _value_problem(name: str, value: str | None) -> str | None:
    """Why a tag value breaks the PBN standard's syntax for that tag (None if it does not)."""
    if value is None:  # the tag is not there
        return None
    v = value.strip().removeprefix("##")  # "##" hides a value (PBN 2.0), it stays valid
    if v not in ("", "?", "#") and not _TAG_SYNTAX[name].match(v):
        return f"{name} {value!r} is not a valid PBN {name}"
    if name == "Result" and v.count(" ") == 3:
        tricks = [int(t) for t in v.split()[1::2]]
        if sum(tricks) != 13 or v.split()[0] == v.split()[2]:
            return f"Result {value!r}: the tricks do not add up to 13"
    return None


def parse_pbn(text: str, source_file: str) -> list[RawRecord]:
    """Every game of a PBN text as a raw record, inheritance resolved, and every row of its
    `ScoreTable`s as a raw record of its own."""
    return read_pbn(text, source_file).records


def read_pbn(text: str, source_file: str, tables: bool = True) -> ParsedFile:
    """A PBN file as a ParsedFile: table results (games and `ScoreTable` rows), published
    rankings (`TotalScoreTable`) and events. `tables=False` reads the games alone (a companion
    hand record, whose results another file holds)."""
    standings: list[RawStanding] = []
    records = list(iter_pbn(text.splitlines(), source_file, tables, standings))
    return ParsedFile("pbn", number_repeats(records), standings)


def iter_pbn(
    lines: Iterable[str] | None,
    source_file: str,
    tables: bool = True,
    standings: list[RawStanding] | None = None,
    texts: Iterable[str] | None = None,
) -> Iterator[RawRecord]:
    """The records of a PBN text, one at a time, from its lines (without line ends) or from
    pieces of whole lines (`texts`, see `_games`), so a large file is read in bounded memory. Published rankings are
    appended to `standings`.

    `ScoreTable` rows with pair numbers but no names wait for the `TotalScoreTable` (often at
    the end of the file) that names the pairs; every other record is yielded at once. Identical
    records are not numbered here (`number_repeats` or the caller's running count do that).
    """
    standings = standings if standings is not None else []
    waiting: list[RawRecord] = []
    prev: dict[str, str] = {}
    # Exports name the players of each table once per match: the k-th table result of a board
    # inherits the names of the k-th table result of the previous board.
    names_by_table: dict[int, dict[str, str]] = {}
    table = -1
    for game in _games(lines or [], texts):
        tags = dict(game.tags)
        if "#" in tags.values():  # "#" means: same as the previous game.
            for name, value in list(tags.items()):
                if value == "#":
                    tags[name] = prev.get(name, "")
        same_board = "Board" not in tags or tags.get("Board") == prev.get("Board")
        for name in _EVENT_TAGS:
            if name not in tags and name in prev:
                tags[name] = prev[name]
        if same_board:
            for name in _BOARD_TAGS:
                if name not in tags and name in prev:
                    tags[name] = prev[name]
        if game.tags:
            table = 0 if not same_board else table + 1
            given = {n: tags[n] for n in _SEATS if n in game.tags}
            if given:
                names_by_table[table] = given
            else:
                tags.update(names_by_table.get(table, {}))
            prev = tags
        game.errors.extend(_check_tags(game))
        if game.errors and not game.tags:
            yield RawRecord(source_file, game.line, "pbn", parse_error="; ".join(game.errors))
            continue
        auction = " ".join(game.section_lines("Auction"))
        play = game.sections.get("Play", "")
        play_tokens = play.split() if isinstance(play, str) else " ".join(play).split()
        while play_tokens and play_tokens[-1] == "*":
            play_tokens.pop()
        (event, date, site, board_no, dealer, deal, vulnerable, bidstart, contract, declarer,
         lead, result, north, east, south, west, scoring, home_team, visit_team,
         room) = map(tags.get, _RECORD_TAGS, _BLANKS)  # fmt: skip
        rec = RawRecord(
            source_file, game.line, "pbn", event, date, site, board_no,
            tags.get("Stage", tags.get("Round", "")), dealer, deal, vulnerable, bidstart, auction,
            contract, declarer, lead, " ".join(play_tokens), "columns", result, north, east,
            south, west, scoring, home_team, visit_team, room, "; ".join(game.errors),
        )  # fmt: skip
        _event_model(rec, tags)
        rows: list[RawRecord] = []
        if tables and game.tables:
            dd = _tables(game, tags, rec, rows, standings)
            if dd and not getattr(rec, "dd_tricks", ""):
                rec.dd_tricks = dd  # type: ignore[attr-defined]
        yield rec
        for row in rows:
            unnamed_ns = row.ns_pair and not (row.northname or row.southname)
            unnamed_ew = row.ew_pair and not (row.eastname or row.westname)
            if not row.parse_error and (unnamed_ns or unnamed_ew):
                waiting.append(row)
            else:
                yield row
    _names_from_standings(waiting, standings)
    yield from waiting


_SPEC_COLUMNS: dict[str, list[str]] = {}
# the tags a table result's fields are read from, in `RawRecord`'s order (see `iter_pbn`)
_RECORD_TAGS = ("Event", "Date", "Site", "Board", "Dealer", "Deal", "Vulnerable", "Auction",
                "Contract", "Declarer", "Play", "Result", "North", "East", "South", "West",
                "Scoring", "HomeTeam", "VisitTeam", "Room")  # fmt: skip
_BLANKS = ("",) * len(_RECORD_TAGS)
_ROW_SPECIAL = re.compile(r'["%\[\]{};]')  # a quote, or what add_row reports or skips


def _rows_valid(rows: list[tuple[int, str]] | str, columns: int) -> bool:
    """Whether add_row would accept every row as it is (no comment, no forbidden character,
    `columns` cells each), judged in one pass over the joined text (`rows` may be that text)."""
    text = rows if isinstance(rows, str) else "\n".join([raw for _, raw in rows])
    key = (text, columns)
    valid = _VALID_ROWS.get(key)
    if valid is None:
        if len(_VALID_ROWS) > 4096:  # a table's rows repeat at every table of its board
            _VALID_ROWS.clear()
        valid = _VALID_ROWS[key] = _rows_text_valid(text, columns)
    return valid


_VALID_ROWS: dict[tuple[str, int], bool] = {}


def _rows_text_valid(text: str, columns: int) -> bool:
    if _ROW_SPECIAL.search(text):
        return False
    if not columns:
        return True
    lines = text.split("\n")
    if lines and not lines[-1]:
        lines.pop()
    return set(map(len, map(str.split, lines))) == {columns}


def _tables(
    game: _Game,
    tags: dict[str, str],
    base: RawRecord,
    out: list[RawRecord],
    standings: list[RawStanding],
) -> str:
    """Read a game's tables: ScoreTable rows become records, TotalScoreTable rows standings,
    problems become unreadable records at their line. Returns the OptimumResultTable as
    DoubleDummyTricks hex digits ("" if none)."""
    dd = ""
    source = base.source_file
    for name, (line, rows) in game.tables.items():
        spec = tags.get(name, "")
        kept = name in ("ScoreTable", "TotalScoreTable") or (
            name == "OptimumResultTable" and "DoubleDummyTricks" not in tags
        )
        columns = _SPEC_COLUMNS.get(spec)
        if not kept and columns is not None and _rows_valid(rows, len(columns)):
            continue  # rows not kept and nothing to report: not split into cells
        if columns is None:
            columns, errors = parse_spec(spec, line)
            if not errors and len(_SPEC_COLUMNS) < 10_000:  # specs repeat on every board
                _SPEC_COLUMNS[spec] = columns
        else:
            columns, errors = list(columns), []
        table = Table(name, line, columns, errors=errors)
        if errors:
            pass
        elif not kept and _rows_valid(rows, len(columns)):
            pass  # rows not kept and nothing to report: not split into cells
        else:
            for row_line, raw in game.table_rows(name):
                add_row(table, row_line, raw)
        for err in table.errors:
            out.append(RawRecord(source, int(err.split(":")[0].split()[1]), "pbn",
                                 parse_error=f"{name}: {err}"))  # fmt: skip
        if name == "ScoreTable":
            for row_line, row in table.dicts():
                copies = row.get("multiplicity", "")
                for _ in range(int(copies) if copies.isdigit() and 0 < int(copies) < 10_000 else 1):
                    out.append(_score_row(base, row_line, row))
        elif name == "TotalScoreTable":
            standings.extend(_standing(base, row_line, row) for row_line, row in table.dicts())
        elif name == "OptimumResultTable" and "DoubleDummyTricks" not in tags:
            dd = dd_hex(table.dicts())
    return dd


_SEAT_NAMES = (("north", "northname"), ("east", "eastname"), ("south", "southname"),
               ("west", "westname"))  # fmt: skip


def _score_row(base: RawRecord, line: int, row: dict[str, str]) -> RawRecord:
    """One ScoreTable row as a table result of the game's board."""
    contract = row.get("contract", "")
    declarer = row.get("declarer", "")
    rec = RawRecord(
        source_file=base.source_file, source_line=line, source_format="pbn",
        event=base.event, date=base.date, site=base.site, board_no=base.board_no,
        stage=base.stage, dealer=base.dealer, deal=base.deal, vulnerable=base.vulnerable,
        scoring=base.scoring, home_team=base.home_team, visit_team=base.visit_team,
        organiser=base.organiser, session=base.session, round=row.get("round", base.round),
        section=row.get("section", "") or base.section, table_no=row.get("table", ""),
        ns_pair=row.get("pairid_ns", ""), ew_pair=row.get("pairid_ew", ""),
        par_score=base.par_score, par_contract=base.par_contract,
    )  # fmt: skip
    adjusted = ""
    for cell, side in ((contract, "NS"), (row.get("score_ns", ""), "NS"),
                       (row.get("score_ew", ""), "EW"), (row.get("score", ""), "NS"),
                       (row.get("result", ""), "NS")):  # fmt: skip
        split = adjusted_split(cell)
        if split and side == "EW" and "/" not in cell:  # "A+" in the EW column is EW's mark
            ns, _, ew = split.partition("/")
            split = f"{ew}/{ns}"
        adjusted = adjusted or split
    if adjusted:
        rec.adjusted = adjusted
    else:
        rec.contract = contract
        rec.declarer = declarer
        rec.result = tricks_of(row.get("result", ""), contract)
        side = _SIDE_OF.get(declarer.strip().upper()[:1], "")
        if row.get("score_ns"):
            rec.ns_score = ns_value(row["score_ns"], "NS")
        elif row.get("score_ew"):
            rec.ns_score = ns_value(row["score_ew"], "EW")
        elif row.get("score"):
            rec.ns_score = ns_value(row["score"], side)
    rec.published_ns_mp = row.get("mp_ns", "")
    rec.published_ew_mp = row.get("mp_ew", "")
    rec.published_ns_pct = row.get("percentage_ns", "")
    rec.published_ew_pct = row.get("percentage_ew", "")
    if row.get("imp_ns"):
        rec.published_imps = _plain(row["imp_ns"])
    elif row.get("imp_ew"):
        rec.published_imps = _negate(row["imp_ew"])
    for key, attr in _SEAT_NAMES:
        setattr(rec, attr, row.get(key, ""))
        setattr(rec, f"{key}_id", row.get(f"playerid_{key}", ""))
    if row.get("names_ns"):
        rec.northname, rec.southname = split_names(row["names_ns"])
    if row.get("names_ew"):
        rec.eastname, rec.westname = split_names(row["names_ew"])
    return rec


def _standing(base: RawRecord, line: int, row: dict[str, str]) -> RawStanding:
    """One TotalScoreTable row as a published ranking line."""

    def first(*keys: str) -> str:
        return next((row[k] for k in keys if row.get(k)), "")

    names = first("names", "name", "teamname")
    players = (
        " - ".join(p.strip() for p in names.split(";") if p.strip()) if ";" in names else names
    )
    return RawStanding(
        source_file=base.source_file, source_line=line, event=base.event, date=base.date,
        session=base.session, section=first("section"), direction=first("direction", "line"),
        pair=first("pairid", "pairid_ns", "pairid_ew", "teamid", "pair", "team"),
        team_name=first("teamname", "team_name"), players=players,
        player_ids=first("playerids", "memberid"),
        published_mp=first("totalscoremp", "mp", "totalmp"),
        published_pct=first("totalpercentage", "percentage"),
        published_imps=first("totalscoreimp", "imp", "totalimp"),
        published_vp=first("totalscorevp", "vp", "totalvp"),
        published_place=first("rank"),
    )  # fmt: skip


def _names_from_standings(records: list[RawRecord], standings: list[RawStanding]) -> None:
    """ScoreTable rows without names take them from the TotalScoreTable (by pair number)."""
    # a Mitchell numbers NS and EW pairs separately: match the direction when the ranking has it
    by_pair: dict[tuple[str, str, str], str] = {}
    for st in standings:
        if st.pair and st.players:
            direction = st.direction.upper().replace("-", "")
            for key in ((st.section, direction, st.pair), (st.section, "", st.pair),
                        ("", "", st.pair)):  # fmt: skip
                by_pair.setdefault(key, st.players)
    for rec in records:
        for pair, direction, seats in ((rec.ns_pair, "NS", ("northname", "southname")),
                                       (rec.ew_pair, "EW", ("eastname", "westname"))):  # fmt: skip
            if not pair or getattr(rec, seats[0]) or getattr(rec, seats[1]):
                continue
            names = (
                by_pair.get((rec.section, direction, pair))
                or by_pair.get((rec.section, "", pair))
                or by_pair.get(("", "", pair))
            )
            if names:
                a, b = split_names(names)
                setattr(rec, seats[0], a)
                setattr(rec, seats[1], b)


def _event_model(rec: RawRecord, tags: dict[str, str]) -> None:
    """The event-model fields a per-table PBN game carries in its tags.

    Session is `[Stage]` (the 2012 sample's "QtrF:3"); the section is `[Section]`, else, for a
    teams match, the match itself ("Monaco v Fleisher"): in a knockout, each match of one stage
    plays its own deals, so board 1 of "QtrF:1" is several different deals.
    """
    rec.session = tags.get("Stage", "")
    rec.round = tags.get("Round", "")
    section = tags.get("Section", "")
    if not section and (rec.home_team or rec.visit_team):
        section = " v ".join(sorted((rec.home_team, rec.visit_team)))  # rooms swap home/visit
    rec.section = section
    rec.table_no = tags.get("Table", "")
    declarer_side = _SIDE_OF.get(rec.declarer.strip().upper(), "")
    rec.ns_score = ns_value(tags.get("Score", ""), declarer_side)
    rec.published_imps = ns_value(tags.get("ScoreIMP", ""), declarer_side)
    if mp := tags.get("ScoreMP"):  # (the fields are "" when the tag is not there)
        rec.published_ns_mp = ns_value(mp, "", "NS")
        rec.published_ew_mp = ns_value(mp, "", "EW")
    if pct := tags.get("ScorePercentage"):
        rec.published_ns_pct = ns_value(pct, "", "NS")
        rec.published_ew_pct = ns_value(pct, "", "EW")
    if par := tags.get("OptimumScore"):
        rec.par_score = ns_value(par, "")
    rec.par_contract = tags.get("ParContract", "")
    if "DoubleDummyTricks" in tags:  # kept for the `deals` table of a hand record (not hashed)
        rec.dd_tricks = tags["DoubleDummyTricks"]  # type: ignore[attr-defined]


_SIDE_OF = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}
_NUMBER = re.compile(r"^[+-]?\d+(?:[.,]\d+)?$")


@lru_cache(maxsize=1 << 16)  # scores, IMPs and par repeat from table to table
def ns_value(text: str, declarer_side: str, side_only: str = "") -> str:
    """North-South's value from a PBN score-like tag: "NS 420", "EW -50", "NS 4 EW -4",
    "NS 7N; +1520" (par with its contract) or a bare "420" (the declarer's side, per PBN).

    With `side_only` ("NS"/"EW") the value that side is given, as written (ScoreMP and
    ScorePercentage are per side, not opposite numbers). "" when the tag does not say.
    """
    t = text.replace(";", " ").split()
    if not t:
        return ""
    values: dict[str, str] = {}
    side = ""
    for tok in t:
        up = tok.upper()
        if up in ("NS", "EW"):
            side = up
        elif _NUMBER.match(tok) and side and side not in values:
            values[side] = tok.replace(",", ".")
    if side_only:
        return values.get(side_only, "")
    if "NS" in values:
        return _plain(values["NS"])
    if "EW" in values:
        return _negate(values["EW"])
    if len(t) == 1 and _NUMBER.match(t[0]) and declarer_side:
        return _plain(t[0]) if declarer_side == "NS" else _negate(t[0])
    return ""


def _plain(number: str) -> str:
    return number.lstrip("+").replace(",", ".")


def _negate(number: str) -> str:
    n = _plain(number)
    if n.startswith("-"):
        return n[1:]
    return n if n.strip("0.") == "" else "-" + n
