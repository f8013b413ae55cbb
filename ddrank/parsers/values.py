"""Numbers a file may hold: a non-finite or absurd number is a bad value of its record.

Every reader keeps published numbers as printed text; the store keeps them as numbers (a score
in an int32 column, a published total as a float) and scoring compares them digit by digit. A
file from anyone may print `inf`, `1e999` or a score of 10^23: read as it stands, such a value
stops the clean stage for every file of the run (a polars overflow) or the check (`int(inf)`).
`check_values` runs on every reader's result, once: a table result with a bad number gets a
`parse_error` naming the field and the value (so it is left out with that reason, in
errors.csv), and a ranking line's bad number is dropped with a warning (the line is kept).
"""

from __future__ import annotations

import hashlib
import math
import re
from dataclasses import fields
from operator import attrgetter

from ddrank.limits import DEFAULT_LIMITS, LimitExceeded, Limits
from ddrank.raw import ParsedFile, RawEvent, RawRecord, RawStanding

#: A bridge score is at most 7NT redoubled vulnerable with every overtrick and honours (about
#: 3,000); the store's score columns are 32-bit. Anything past this is not a score.
MAX_SCORE = 100_000
#: Any other published number (match points, IMPs, VPs, percentages, totals of a long event).
MAX_NUMBER = 1e9
#: The record fields that hold a score (int32 columns), and those holding another number.
SCORE_FIELDS = ("ns_score", "ew_score", "par_score")
NUMBER_FIELDS = ("published_ns_mp", "published_ew_mp", "published_ns_pct", "published_ew_pct",
                 "published_imps", "published_datum")  # fmt: skip
STANDING_FIELDS = ("published_mp", "published_pct", "published_imps", "published_vp")
_SIDE = re.compile(r"^\s*(?:NS|EW)\s+", re.IGNORECASE)  # PBN "NS 420"


def bad_number(text: str, bound: float) -> str:
    """Why `text` is no usable number ('' when it is fine, or not a number at all: a reader's
    other rules judge words such as 'A60' or 'PASS')."""
    value_text = _SIDE.sub("", str(text)).strip().rstrip("%").replace(",", ".")
    if not value_text:
        return ""
    try:
        value = float(value_text)
    except ValueError:
        return ""
    if not math.isfinite(value):
        return "is not a finite number"
    if abs(value) > bound:
        return f"is beyond ±{bound:,.0f}"
    return ""


def _shown(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:40] + "...")


def record_problem(rec: RawRecord) -> str:
    """The first bad number of a table result, as its `parse_error` words it; '' when none."""
    for name, bound in [*((f, MAX_SCORE) for f in SCORE_FIELDS),
                        *((f, MAX_NUMBER) for f in NUMBER_FIELDS)]:  # fmt: skip
        text = getattr(rec, name)
        why = bad_number(text, bound) if text else ""
        if why:
            return f"bad value: {name} {_shown(text)} {why}"
    return ""


def check_records(records: list[RawRecord]) -> None:
    """Mark each table result holding a bad number (`record_problem`) unreadable, in place."""
    for rec in records:
        if not rec.parse_error:
            problem = record_problem(rec)
            if problem:
                rec.parse_error = problem


def check_standings(standings: list[RawStanding]) -> list[tuple[int, str]]:
    """Drop each bad published number of a ranking line; (line, warning) for each."""
    warnings = []
    for st in standings:
        for name in STANDING_FIELDS:
            text = getattr(st, name)
            why = bad_number(text, MAX_NUMBER) if text else ""
            if why:
                warnings.append((st.source_line, f"bad value: ranking line of {st.pair or '?'}: "
                                                 f"{name} {_shown(text)} {why}; not compared"))  # fmt: skip
                setattr(st, name, "")
    return warnings


def check_values(parsed: ParsedFile) -> ParsedFile:
    """`check_records` on its records and deals, `check_standings` on its rankings."""
    check_records(parsed.records)
    check_records(parsed.deals)
    parsed.warnings = [*parsed.warnings, *check_standings(parsed.standings)]
    return parsed


def _text_names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls) if f.type in ("str", str))


def _texts(cls: type) -> attrgetter:
    """A getter of every text field of a raw type (its values as one tuple)."""
    return attrgetter(*_text_names(cls))


_TEXTS = {RawRecord: _texts(RawRecord), RawStanding: _texts(RawStanding),
          RawEvent: _texts(RawEvent)}  # fmt: skip
_NAMES = {kind: _text_names(kind) for kind in _TEXTS}

#: A value of a field that readers copy from record to record (an event's name, date and place,
#: a board's deal, a player's name: every text field but `_OWN`) longer than this is cut, in
#: every record, ranking line and event that carries it, to its first `CUT_TO` characters and a
#: digest of the whole, with one warning. A real one is under 150 characters; a 60,000-character
#: `[Event]` that 7,632 games inherit would otherwise be held and stored 7,632 times (460 MB,
#: several times over in the store's frames).
SHARED_VALUE_CHARS = 256
CUT_TO = 160
#: Each kind's own text, never copied to other records: a record's auction and play, a ranking
#: line's players (a team's names joined)
_OWN = {RawRecord: frozenset({"auction", "play", "parse_error"}),
        RawStanding: frozenset({"players", "player_ids"}), RawEvent: frozenset()}  # fmt: skip


def cut_value(value: str) -> str:
    """`value`, over `SHARED_VALUE_CHARS`, as what is kept of it: its first `CUT_TO` characters,
    its length and a digest (two values that differ after `CUT_TO` stay two values)."""
    digest = hashlib.sha1(value.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    return f"{value[:CUT_TO]}... (cut: {len(value):,} characters, sha1 {digest})"


def check_lengths(parsed: ParsedFile, limits: Limits = DEFAULT_LIMITS) -> None:
    """Refuse the file (`LimitExceeded`) when one of its values is longer than `max_value_chars`;
    cut a shared value longer than `SHARED_VALUE_CHARS` (`cut_value`), with one warning each.

    A reader shares an inherited value (a PBN `[Event]` that every game after it keeps) among
    its records, but the store writes it once per record: a 990,000-character `[Event]` of a
    1 MB file, inherited by 1,000 games, is a gigabyte there. Checked before anything is stored;
    what is cut is cut before any record id is computed from it (cached ids are dropped)."""
    limit = limits.max_value_chars
    floor = min(limit, SHARED_VALUE_CHARS)
    long: list[tuple[object, type]] = []
    for items, kind in ((parsed.records, RawRecord), (parsed.deals, RawRecord),
                        (parsed.standings, RawStanding), (parsed.events, RawEvent)):  # fmt: skip
        get = _TEXTS[kind]
        for item in items:
            over = False
            for value in get(item):
                if len(value) > floor:
                    if len(value) > limit:
                        line = getattr(item, "source_line", 0)
                        where = f"line {line}: a value" if line else "a value"
                        raise LimitExceeded("max_value_chars", limit, len(value), where)
                    over = True
            if over:
                long.append((item, kind))
    if long:
        parsed.warnings = [*parsed.warnings, *_cut_shared(long)]


def _cut_shared(long: list[tuple[object, type]]) -> list[tuple[int, str]]:
    """Cut each long shared value in place (the same value, one key everywhere); a warning per
    value, at the first line that carries it."""
    keys: dict[str, str] = {}  # (a value shared by identity hashes once: its hash is cached)
    first: dict[str, tuple[int, str, int]] = {}
    for item, kind in long:
        for name in _NAMES[kind]:
            value = getattr(item, name)
            if len(value) <= SHARED_VALUE_CHARS or name in _OWN[kind]:
                continue
            key = keys.get(value)
            if key is None:
                key = keys[value] = cut_value(value)
                first[key] = (getattr(item, "source_line", 0), name, len(value))
            setattr(item, name, key)
        if kind is RawRecord:
            item.__dict__.pop("record_id", None)  # computed from the value before its cut
    return [(line, f"{name} value of {n:,} characters, over {SHARED_VALUE_CHARS}: every record "
                   f"that carries it keeps its first {CUT_TO} characters and a digest, not the "
                   "whole value") for line, name, n in first.values()]  # fmt: skip
