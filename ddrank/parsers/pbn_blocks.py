"""PBN text as games, fast: the common way of writing a game read with a few passes over its
text (`_block_game`), anything else handed to the line reader (`pbn_lines`); `_games` is the one
entry point over a whole text, its lines or pieces of whole lines."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator
from operator import itemgetter

from ddrank.parsers.pbn_lines import (
    _IDENTITY_TAGS,
    _SECTION_TAGS,
    _TAG_LINE,
    _Game,
    _LineReader,
)

# A run of non-blank lines (a blank line holds only white space, as `str.strip` sees it).
_RUN = re.compile(r"(?:^[^\S\n]*\S[^\n]*(?:\n|\Z))+", re.M)
_INDENTED = re.compile(r"\n[^\S\n]+\[")
_CARRY_CHARS = 8 << 20  # an unfinished game longer than this goes to the line reader as it is
_BLOCK_LINES = 20_000  # lines joined at once when the caller gives lines one at a time


def _block_game(run: str, line: int) -> _Game | None:
    """One game written the common way, read with a few passes over its text instead of line by
    line: every line that starts with "[" holds one tag alone, none is indented, no `{` comment,
    no `%` line, no quote inside a tag value nor an escape of one (PBN 3.7: `\\"` and `\\\\` are
    the line reader's; another backslash is no escape, `Denomination\\2R`), no `;` in the auction
    or play, no identity tag written twice. None when the run is not such a game: the line
    reader, which knows the whole grammar, reads it then (both give the same games, which a test
    checks)."""
    if run[:1] != "[" or "{" in run or "\n%" in run or '\\"' in run or "\\\\" in run:
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
_MAX_LAYOUT_TAGS = 500  # a real game has 20 to 60 tags
_NOT_LAYOUTS: set[tuple[tuple[str, ...], frozenset[str]]] = set()
_WITH_BODY = re.compile(r'\n\[(\w+) "[^"\n]*"\][^\S\n]*\n(?!\[)')


def _learn_layout(found: list[tuple[str, str]], text: str) -> None:
    """Keep the layout of a game read by `_block_game`, unless a tag that a layout cannot
    repeat (identity, section or table) is repeated."""
    names = [name for name, _value in found]
    if len(names) > _MAX_LAYOUT_TAGS:  # no real game has so many: read tag by tag, no regex
        return
    repeated = {n for n, k in Counter(names).items() if k > 1}  # linear: 125,000 tags in a game
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
