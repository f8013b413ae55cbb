"""Read a large LIN file in pieces, as the whole-file reader would see it, in bounded memory.

`read_parsed` decodes a file at once (UTF-8, else Latin-1 for the whole file) and the LIN reader
decides from the whole text whether its values are URL-encoded. A file too large to hold is read
twice instead: once in blocks to learn those facts (and to refuse an absurdly long line), then
again in decoded pieces for `ddrank.parsers.lin.iter_lin`.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

BLOCK = 1 << 19  # bytes read at once
# `parsers.lin._ENCODED`, on bytes: at the start of the file, or after a pipe
_ENCODED_AT_START = re.compile(rb"^(?:pn|md)\|[^|]*%2C", re.IGNORECASE)
_ENCODED = re.compile(rb"\|(?:pn|md)\|[^|]*%2C", re.IGNORECASE)


@dataclass
class LinFacts:
    """What the whole-file LIN reader decides from the whole text."""

    encoding: str  # "utf-8", or "latin-1" when any byte sequence is not UTF-8
    has_pipe: bool  # False: the whole text is URL-encoded, pipes too (read it whole)
    url_encoded: bool  # values URL-encoded (`parsers.lin.url_encoded`)
    long_line: int | None  # the first line longer than the limit


def lin_facts(path: Path, max_line: int) -> LinFacts:
    """The facts of a LIN file, read once in blocks."""
    utf8 = codecs.getincrementaldecoder("utf-8")()
    is_utf8, has_pipe, encoded = True, False, False
    long_line: int | None = None
    tail = b""  # from the second-to-last pipe: an encoded pair cut by a block boundary
    line, line_bytes = 1, 0  # the line being read and its bytes so far
    first = True
    with path.open("rb") as fh:
        while block := fh.read(BLOCK):
            if is_utf8:
                try:
                    utf8.decode(block)
                except UnicodeDecodeError:
                    is_utf8 = False
            has_pipe = has_pipe or b"|" in block
            data = tail + block
            if not encoded and (b"%2C" in data or b"%2c" in data):
                encoded = bool((first and _ENCODED_AT_START.search(data)) or _ENCODED.search(data))
            first = False
            cut = data.rfind(b"|")
            cut = data.rfind(b"|", 0, cut) if cut > 0 else cut
            tail = data[cut:] if cut >= 0 else b""
            if long_line is None:
                end = block.find(b"\n")
                if end < 0:
                    line_bytes += len(block)
                else:
                    if line_bytes + end > max_line:
                        long_line = line
                    line += block.count(b"\n")
                    line_bytes = len(block) - block.rfind(b"\n") - 1
                if long_line is None and line_bytes > max_line:
                    long_line = line
    if is_utf8:
        try:
            utf8.decode(b"", final=True)
        except UnicodeDecodeError:
            is_utf8 = False
    return LinFacts("utf-8" if is_utf8 else "latin-1", has_pipe, encoded, long_line)


def lin_pieces(path: Path, encoding: str) -> Iterator[str]:
    """The file's text in decoded pieces; together they are the whole text, byte for byte
    (a character cut by a block boundary is decoded with the next block)."""
    decoder = codecs.getincrementaldecoder(encoding)()
    with path.open("rb") as fh:
        while block := fh.read(BLOCK):
            piece = decoder.decode(block)
            if piece:
                yield piece
        piece = decoder.decode(b"", final=True)
        if piece:
            yield piece
