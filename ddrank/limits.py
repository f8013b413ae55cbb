"""Resource limits every reader obeys, defined in this one place.

Input files come from anyone: a 4 KB SQLite file whose `bridgedeals` is a recursive view, or a
USEBIO file nested a million levels deep, would otherwise take gigabytes. Each limit is a field
of `Limits` and a setting of the same name (`stages.settings.PipelineSettings`: a flag of `ddrank
run`, `results` and `ingest`, a `DDRANK_*` variable, a `--config` key). A file over a limit is
refused whole, with one line that names the limit and how to raise it; nothing of it is stored.

Who checks what:
* `max_file_bytes`: the store's reading (`store.inputs.read`), from the file's size, before a
  byte is read; also `ddrank.parsers.registry.read_bytes` for bytes handed over directly.
* `max_rows`: every reader's records (table results, hand-record deals, ranking lines) per file;
  the registry checks a whole-file reader's result, streamed readers count as they go, a SQLite
  `bridgedeals` table is counted before any row is read, and a reader of a binary format checks
  each count it reads from the file before allocating for it (`Limits.check_rows`).
* `max_xml_depth`, `max_xml_elements`: the USEBIO reader, element by element as expat reports
  them, so neither a deep nor a wide document is ever held.
* `max_value_chars`: one value (a tag's value, a text node, a start tag with its attributes):
  the USEBIO reader before parsing (start tags) and as text arrives; every reader's values
  (records, rankings, events) before a file is stored. A 990,000-character `[Event]` that 1,000
  games inherit would otherwise be copied per game by the store (gigabytes).
"""

from __future__ import annotations

from dataclasses import dataclass, fields

#: What each limit counts (the found amount's noun, and the limit's unit), for the refusal.
UNITS = {
    "max_file_bytes": ("bytes", "bytes per file"),
    "max_rows": ("rows", "rows per file"),
    "max_xml_depth": ("levels of XML nesting", "levels"),
    "max_xml_elements": ("XML elements", "elements per file"),
    "max_value_chars": ("characters in one value", "characters per value"),
}


@dataclass(frozen=True, slots=True)
class Limits:
    """Bounds on one input file. The defaults take a federation's year in one file (a million
    table results is about 250 MB of PBN) and refuse what only a hostile or broken file holds."""

    #: 1 GiB. Files read whole (USEBIO, CSV, the dump, `.bws`) are held in memory once.
    max_file_bytes: int = 1 << 30
    #: Records of one file: table results, hand-record deals, ranking lines, SQLite rows.
    max_rows: int = 2_000_000
    #: USEBIO nests about 8 levels (USEBIO/EVENT/SESSION/SECTION/BOARD/TRAVELLER_LINE/...).
    max_xml_depth: int = 100
    #: A traveller line is about 15 elements: 1,000,000 is over 60,000 lines in one event (a
    #: large congress has 20,000); a million held elements take about 400 MB.
    max_xml_elements: int = 1_000_000
    #: 64 KiB. The longest value of a real file is a LIN_DATA or a play of a few KB; a name or
    #: an event title is under 100 characters.
    max_value_chars: int = 1 << 16

    def check(self, name: str, found: int, what: str = "", exact: bool = True) -> None:
        """Raise `LimitExceeded` when `found` is over the limit `name`; `exact=False` when the
        counting stopped at the first one over (the message says "more than")."""
        if found > getattr(self, name):
            raise LimitExceeded(name, getattr(self, name), found, what, exact)

    def check_rows(self, found: int, what: str = "", exact: bool = True) -> None:
        """For a reader counting records (or a count field read from a binary file)."""
        self.check("max_rows", found, what, exact)

    def as_dict(self) -> dict[str, int]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


DEFAULT_LIMITS = Limits()


def how_to_raise(name: str) -> str:
    """`--max-rows N` on the command line, `DDRANK_MAX_ROWS`, or `max_rows` in a config file."""
    return (f"raise it with --{name.replace('_', '-')} N (ddrank ingest, run, results), "
            f"DDRANK_{name.upper()}=N, or {name} = N in the --config file")  # fmt: skip


class LimitExceeded(ValueError):
    """A file is over one of the `Limits`: it is refused whole and nothing of it is stored.

    The message is one line: what was found, the limit's name and value, and how to raise it.
    """

    def __init__(self, name: str, limit: int, found: int, what: str = "",
                 exact: bool = True) -> None:  # fmt: skip
        self.name, self.limit, self.found = name, limit, found
        noun, unit = UNITS.get(name, (name, ""))
        counted = f"{what}: " if what else ""
        found_text = f"{found:,}" if exact else f"more than {limit:,}"
        super().__init__(
            f"refused: {counted}{found_text} {noun}, over the limit {name} = {limit:,} {unit}; "
            f"{how_to_raise(name)}"
        )


class RefusedInput(ValueError):
    """A file refused for what it is, not its size (a SQLite `bridgedeals` that is a view):
    no limit can be raised for it, and the message says what to do instead."""

    def __init__(self, why: str) -> None:
        super().__init__(f"refused: {why}")
