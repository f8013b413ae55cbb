"""Ranking lists and alias tables, parsed from text or rows (no file I/O here).

Two layouts are accepted:

* the project's simple list: ``name, masterpoints, placing_points`` ("Given Surname");
* the WBF web layout: ``code, first, last, country, mp, pp`` (optionally ``rank``), where
  first and last names are separate and the country helps to break ties.

The reference stores entries in a dict keyed by full name, so of two players with the same name
the last one silently wins. Here every row becomes its own :class:`RankingEntry`; when a full name
repeats, the entries get distinct keys (``"Chen Wei [12345]"``) so that neither is lost and the
matcher can see the clash.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

# Header spellings accepted for each field (compared after lowercasing and dropping spaces/_/-).
_FIELD_ALIASES: dict[str, tuple[str, ...]] = {
    "name": ("name", "fullname", "player", "playername"),
    "first": ("first", "firstname", "given", "givenname"),
    "last": ("last", "lastname", "surname", "familyname"),
    "code": ("code", "wbfcode", "id", "wbfid", "playerid"),
    "country": ("country", "nation", "nationality", "nbo"),
    "masterpoints": ("masterpoints", "mp", "mps"),
    "placing_points": ("placingpoints", "pp", "pps"),
}


@dataclass(frozen=True, slots=True)
class RankingEntry:
    """One player of the ranking list.

    ``key`` is unique within a list and is what ``player_matches.ranking_name`` stores;
    it equals ``name`` unless another entry has the same full name.
    """

    key: str
    name: str
    first: str | None = None
    last: str | None = None
    code: str | None = None
    country: str | None = None
    masterpoints: float | None = None
    placing_points: float | None = None


def _norm_header(header: str) -> str:
    return "".join(ch for ch in header.strip().lower() if ch.isalnum())


def _field_map(headers: Iterable[str]) -> dict[str, str]:
    """Map our field names to the row's own header names."""
    by_norm = {_norm_header(h): h for h in headers if h is not None}
    found: dict[str, str] = {}
    for field, spellings in _FIELD_ALIASES.items():
        for spelling in spellings:
            if spelling in by_norm:
                found[field] = by_norm[spelling]
                break
    return found


def _float_or_none(value: Any) -> float | None:
    if value is None:
        return None
    text = str(value).strip().replace(",", ".") if not isinstance(value, int | float) else value
    if text == "":
        return None
    try:
        return float(text)
    except ValueError:
        return None


def _text_or_none(value: Any) -> str | None:
    if value is None:
        return None
    text = " ".join(str(value).split())
    return text or None


def rankings_from_rows(rows: Iterable[Mapping[str, Any]]) -> list[RankingEntry]:
    """Build entries from dict rows of either layout; rows without any name are skipped."""
    rows = list(rows)
    if not rows:
        return []
    fields = _field_map(rows[0].keys())
    if "name" not in fields and not ({"first", "last"} & fields.keys()):
        raise ValueError(
            "ranking list needs a 'name' column or 'first'/'last' columns; "
            f"got {sorted(rows[0].keys())}"
        )
    drafts: list[dict[str, Any]] = []
    for row in rows:
        first = _text_or_none(row.get(fields["first"])) if "first" in fields else None
        last = _text_or_none(row.get(fields["last"])) if "last" in fields else None
        if "name" in fields and _text_or_none(row.get(fields["name"])):
            # Keep the list's own spacing inside the name (the reference splits on single
            # spaces, so a double space is meaningful to the seed strategy).
            name = str(row.get(fields["name"])).strip()
        else:
            name = " ".join(part for part in (first, last) if part)
        if not name:
            continue
        drafts.append(
            {
                "name": name,
                "first": first,
                "last": last,
                "code": _text_or_none(row.get(fields["code"])) if "code" in fields else None,
                "country": _text_or_none(row.get(fields["country"]))
                if "country" in fields
                else None,
                "masterpoints": _float_or_none(row.get(fields["masterpoints"]))
                if "masterpoints" in fields
                else None,
                "placing_points": _float_or_none(row.get(fields["placing_points"]))
                if "placing_points" in fields
                else None,
            }
        )
    counts = Counter(d["name"] for d in drafts)
    seen: Counter[str] = Counter()
    entries: list[RankingEntry] = []
    for draft in drafts:
        name = draft["name"]
        seen[name] += 1
        suffix = draft["code"] or f"#{seen[name]}"
        key = name if counts[name] == 1 else f"{name} [{suffix}]"
        entries.append(RankingEntry(key=key, **draft))
    keys = Counter(e.key for e in entries)
    if any(n > 1 for n in keys.values()):  # duplicate names that also share a code
        again: Counter[str] = Counter()
        for i, e in enumerate(entries):
            if keys[e.key] > 1:
                again[e.key] += 1
                entries[i] = replace(e, key=f"{e.key} #{again[e.key]}")
    return entries


def parse_rankings(text: str) -> list[RankingEntry]:
    """Parse a ranking CSV given as text (simple or WBF layout; ``,`` or ``;`` separated)."""
    text = text.lstrip("\ufeff")
    if not text.strip():
        return []
    first_line = text.splitlines()[0]
    delimiter = ";" if first_line.count(";") > first_line.count(",") else ","
    reader = csv.DictReader(io.StringIO(text), delimiter=delimiter)
    return rankings_from_rows(reader)


def parse_aliases(text: str) -> dict[str, str]:
    """Parse an alias CSV (``raw_name, ranking_name``) into a lookup keyed by the cleaned raw name.

    An empty ranking name (or ``none``) pins the raw name to *no match*, which is how a reviewer
    blocks a wrong automatic match. Lines starting with ``#`` are comments.
    """
    aliases: dict[str, str] = {}
    lines = [
        ln for ln in text.lstrip("\ufeff").splitlines() if ln.strip() and not ln.startswith("#")
    ]
    reader = csv.reader(lines)
    for i, row in enumerate(reader):
        if not row:
            continue
        raw = row[0]
        target = row[1].strip() if len(row) > 1 else ""
        if i == 0 and _norm_header(raw) in {"rawname", "raw", "name"}:
            continue  # header
        if target.lower() == "none":
            target = ""
        aliases[alias_key(raw)] = target
    return aliases


def alias_key(raw_name: str) -> str:
    """The form in which a raw name is looked up in the alias table: trimmed, single-spaced, casefolded."""
    return " ".join(raw_name.split()).casefold()


def resolve_aliases(
    entries: Iterable[RankingEntry], aliases: Mapping[str, str]
) -> dict[str, str | None]:
    """Check alias targets against the list: a target is an entry key or a unique full name.

    Returns alias key -> entry key, or None for a pinned no-match. Unknown targets raise, since a
    silently ignored alias would let the wrong automatic match through.
    """
    entries = list(entries)
    keys = {e.key for e in entries}
    by_name: dict[str, list[str]] = {}
    for e in entries:
        by_name.setdefault(e.name, []).append(e.key)
    resolved: dict[str, str | None] = {}
    unknown: list[str] = []
    for raw, target in aliases.items():
        if not target:
            resolved[raw] = None
        elif target in keys:
            resolved[raw] = target
        elif len(by_name.get(target, [])) == 1:
            resolved[raw] = by_name[target][0]
        else:
            unknown.append(target)
    if unknown:
        raise ValueError(
            "alias targets not in the ranking list (or not unique there): "
            + ", ".join(sorted(set(unknown))[:10])
        )
    return resolved
