"""A large text file read in pieces of whole lines, each line UTF-8 or else Latin-1.

Memory holds one block and at most one line over it, so a reader can stream a file of any size.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from ddrank.parsers.registry import MAX_LINE, UTF16_BOMS, UnreadableFile, decode_text

# bytes read at once by iter_texts (one read and decode per block, not per line); smaller than
# MAX_LINE, so that only the first line of a block can be too long
_BLOCK = 1 << 19
_LINE_END_CR = re.compile(r"\r+(?=\n|\Z)")


def too_long(lineno: int) -> UnreadableFile:
    return UnreadableFile(
        f"line {lineno} is longer than {MAX_LINE:,} characters: not a hand record", lineno
    )


def _decode_lines(data: bytes) -> list[str]:
    """Lines of a block (split on LF only), each decoded as UTF-8 or else Latin-1, without
    trailing CRs. A block that is valid UTF-8 is decoded at once (LF never occurs inside a
    multi-byte sequence, so every line of it is valid UTF-8 too)."""
    try:
        lines = data.decode("utf-8").split("\n")
    except UnicodeDecodeError:
        lines = []
        for raw in data.split(b"\n"):
            try:
                lines.append(raw.decode("utf-8"))
            except UnicodeDecodeError:
                lines.append(raw.decode("latin-1"))
    if b"\r" in data:
        lines = [line.rstrip("\r") for line in lines]
    return lines


def _decode_text(data: bytes) -> str:
    """`_decode_lines` joined again by LF: each line UTF-8 or else Latin-1, no trailing CRs."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return "\n".join(_decode_lines(data))
    return _LINE_END_CR.sub("", text) if "\r" in text else text


def read_text(path: Path) -> str:
    """A whole file's text (`ddrank.parsers.registry.decode_text`)."""
    return decode_text(path.read_bytes())


def iter_lines(path: Path) -> Iterator[str]:
    """The lines of a text file, one at a time, each decoded as UTF-8 or else Latin-1.

    Memory holds one block and at most one line over it; a line longer than the limit is
    refused (with its number) once the lines before it are given.
    """
    for text in iter_texts(path):
        yield from text.split("\n")


def iter_texts(path: Path) -> Iterator[str]:
    """The text of a file in pieces of whole lines (about half a megabyte each, joined by line
    ends; a line end also separates one piece from the next): the lines of `iter_lines`, for a
    reader that works on many lines at once."""
    with path.open("rb") as fh:
        if fh.read(2) in UTF16_BOMS:  # UTF-16: rare, small files
            lines = read_text(path).splitlines()
            if lines:
                yield "\n".join(lines)
            return
        fh.seek(0)
        lineno = 0
        rest = b""
        while block := fh.read(_BLOCK):
            data = rest + block
            cut = data.rfind(b"\n")
            if cut < 0:
                if len(data) > MAX_LINE + 1:  # no line end within the limit
                    raise too_long(lineno + 1)
                rest = data
                continue
            # only the first line can be too long: every other one lies within this block
            if data.find(b"\n") > MAX_LINE + 1:
                raise too_long(lineno + 1)
            rest = data[cut + 1 :]
            text = _decode_text(data[:cut])
            lineno += text.count("\n") + 1
            yield text
            if len(rest) > MAX_LINE + 1:
                raise too_long(lineno + 1)
        if rest:  # the last line, without a line end
            if len(rest) > MAX_LINE:
                raise too_long(lineno + 1)
            yield _decode_text(rest)
