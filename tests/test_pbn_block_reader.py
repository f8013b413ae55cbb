"""The PBN reader's fast paths read exactly what its line-by-line reader reads.

`_games` reads a game written the common way as one block of text (by a learned layout, or tag
by tag), and gives everything else to `_LineReader`, which knows the whole grammar. Both must
give the same games, on real files and on real files damaged the ways files get damaged
(comments, `%` lines, blank lines with spaces, cut or repeated lines, tags sharing a line),
whether the text comes whole or in pieces of any size.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from ddrank.parsers import pbn
from store.inputs.text import iter_lines, iter_texts

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data"
FILES = sorted(
    p
    for base in (ROOT / "ddrank" / "data", ROOT / "data", ROOT / "tests" / "data", SHARED)
    for p in (base.rglob("*.pbn") if base.exists() else [])
)

DAMAGE = (
    lambda ls, i: ls.insert(i, ""),
    lambda ls, i: ls.insert(i, "  "),
    lambda ls, i: ls.insert(i, "% a comment line"),
    lambda ls, i: ls.insert(i, "{ a comment that goes on"),
    lambda ls, i: ls.insert(i, "}"),
    lambda ls, i: ls.__setitem__(i, ls[i] + " ; trailing comment"),
    lambda ls, i: ls.pop(i),
    lambda ls, i: ls.insert(i, ls[i]),
    lambda ls, i: ls.__setitem__(i, "  " + ls[i]),
    lambda ls, i: ls.__setitem__(i, ls[i][: len(ls[i]) // 2]),
    lambda ls, i: ls.insert(i, '[Board "7"] [Dealer "N"]'),
    lambda ls, i: ls.insert(i, '[Note "x;y {z}"]'),
    lambda ls, i: ls.__setitem__(i, ls[i] + "   "),
    lambda ls, i: ls.insert(i, "\t"),
    lambda ls, i: ls.insert(i, '[Note "x\\\\"]'),  # PBN 3.7: ends in an escaped backslash
    lambda ls, i: ls.insert(i, '[Note "a \\"quote\\" in it"]'),
    lambda ls, i: ls.__setitem__(i, ls[i].replace('"]', '\\"]', 1)),  # a string never closed
)


def games_seen(games: list[pbn._Game]) -> list[object]:
    return [
        (
            g.line,
            list(g.tags.items()),
            sorted(g.tag_lines.items()),
            [(name, g.section_lines(name)) for name in g.sections],
            [(name, g.tables[name][0], g.table_rows(name)) for name in g.tables],
            g.errors,
        )
        for g in games
    ]


def by_line_reader(lines: list[str]) -> list[object]:
    reader = pbn._LineReader()
    return games_seen(list(reader.feed(lines, 1)) + list(reader.finish()))


def in_pieces(lines: list[str], rnd: random.Random) -> list[str]:
    texts, i = [], 0
    while i < len(lines):
        k = rnd.choice((1, 2, 5, 30, 300))
        texts.append("\n".join(lines[i : i + k]))
        i += k
    return texts


def test_real_files_are_here() -> None:
    names = {p.name for p in FILES}
    assert "online-qualifier-2021-example2.pbn" in names  # ~60 lines a result, DD tables, notes
    assert "worldclass-2012-example3.pbn" in names


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_block_reader_equals_line_reader(path: Path) -> None:
    lines = list(iter_lines(path))
    expected = by_line_reader(lines)
    assert games_seen(list(pbn._games(lines))) == expected
    rnd = random.Random(path.name)
    assert games_seen(list(pbn._games([], in_pieces(lines, rnd)))) == expected
    assert games_seen(list(pbn._games([], iter_texts(path)))) == expected
    for _ in range(25):
        damaged = list(lines[: rnd.randint(40, 400)])
        for _ in range(rnd.randint(1, 6)):
            if damaged:
                rnd.choice(DAMAGE)(damaged, rnd.randrange(len(damaged)))
        expected = by_line_reader(damaged)
        assert games_seen(list(pbn._games(damaged))) == expected, damaged
        assert games_seen(list(pbn._games([], in_pieces(damaged, rnd)))) == expected, damaged


def test_most_games_of_the_qualifier_take_the_fast_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    """The speed of `bench/bench_ingest.py --formats pbn-dd` rests on this."""
    path = ROOT / "ddrank" / "data" / "sample" / "pbn" / "online-qualifier-2021-example2.pbn"
    fed: list[int] = []
    feed = pbn._LineReader.feed

    def counting_feed(self: pbn._LineReader, lines: list[str], first: int):  # type: ignore[no-untyped-def]
        fed.append(first)
        return feed(self, lines, first)

    monkeypatch.setattr(pbn._LineReader, "feed", counting_feed)
    games = list(pbn._games([], iter_texts(path)))
    assert len(games) == 299
    # the first game follows the `% PBN 2.1` header lines; a game whose text holds a PBN escape
    # (`[Note "3: 2\\3 ..."]`, PBN 3.7: `2\3`) is the line reader's
    escaped = [g for g in path.read_text().split("\n\n") if "\\\\" in g or '\\"' in g]
    assert len(escaped) == 1
    assert len(fed) <= 2 + 2 * len(escaped)  # (its lines, then the blank line that ends it)
