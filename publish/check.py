"""`ddrank check` in words: per file, then pooled; the same as JSON; README's agreement table.

The checks are ddrank.scoring.verification.conformance's; this module only words them. `name` maps a file's
path to how it is shown (relative to the folder given).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ddrank.scoring.verification.check import Check
from ddrank.scoring.verification.conformance import (
    CHECKED,
    FAILED,
    NO_RESULTS,
    NOT_PUBLISHED,
    UNREADABLE,
    EventCheck,
    FileCheck,
    Pooled,
    is_per_line,
    pooled,
)

Namer = Callable[[str], str]
#: Differing lines listed per kind of value in the text (JSON keeps more).
LINES = 3
JSON_LINES = 20


def _count(n: int) -> str:
    return f"{n:,}"


def check_words(c: Check) -> str:
    """'572 of 616 agree', '... , 2 explained by the file's own numbers'."""
    text = f"{_count(c.agree)} of {_count(c.compared)} agree"
    return text + (f", {len(c.explained)} explained by the file's own numbers"
                   if c.explained else "")  # fmt: skip


def scoring_words(ev: EventCheck) -> str:
    """'none, top 2 per result beaten: why' for matchpoints; the VP scale or rule for teams; the
    reason alone for other kinds."""
    if ev.scoring in ("MP", "INDIVIDUAL"):
        top = f", top {ev.top:g} per result beaten" if ev.top else ""
        how = f"{ev.method}{top}"
    elif ev.scoring in ("TEAMS", "BAM", "TEAMS+KNOCKOUT"):  # a knockout: the reason says it
        how = ev.method
    else:
        how = ""
    return ": ".join(x for x in (how, ev.reason) if x) or "-"


def once(details: Sequence[str]) -> list[str]:
    """Each different line once, in order, with how many times it came ("... (2 lines)"): two
    results of one board with the same names and values are one line to read, not two."""
    from collections import Counter

    seen = Counter(details)
    return [d if seen[d] == 1 else f"{d} ({seen[d]} lines)" for d in dict.fromkeys(details)]


def file_text(fc: FileCheck, name: Namer = str, lines: int = LINES) -> list[str]:
    """A file's report: producer, each event's kind, scoring and why, and every kind of value."""
    producer = f"producer {fc.producer or 'not declared'}" + (f", {fc.format}" if fc.format else "")
    if fc.status in (UNREADABLE, FAILED, NO_RESULTS):
        return [f"{name(fc.path)}: {fc.status} ({fc.note}); {producer}"]
    out = [f"{name(fc.path)}: {producer}"]
    for ev in fc.events:
        out.append(f"  event     {ev.event}: {ev.kind}, {ev.results:,} table results")
        out.append(f"  scoring   {scoring_words(ev)}")
        for c in ev.checks:
            if not c.compared:
                continue
            out.append(f"    {c.what:<24} {check_words(c)}")
            disagree, explained = once(c.disagree), once(c.explained)
            out += [f"      ours/theirs: {d}" for d in disagree[:lines]]
            if len(disagree) > lines:
                out.append(f"      ... and {len(disagree) - lines} more")
            out += [f"      explained: {d}" for d in explained[:lines]]
    if fc.status == NOT_PUBLISHED:
        out.append("  no published values to compare")
    if fc.left_out:
        out.append(f"  left out  {fc.left_out:,} record(s), the first: {fc.left_out_first}")
    if fc.missing:
        out.append(f"  missing   {fc.missing:,} traveller line(s) the movement expects, the "
                   f"first: {fc.missing_first}")  # fmt: skip
    return out


def _share(part: tuple[int, int, int]) -> str:
    s = Pooled.share(part)
    explained = f", {part[2]:,} explained by the files' own numbers" if part[2] else ""
    return (f"{part[1]:,} of {part[0]:,} agree ({s:.2f}%){explained}" if s is not None
            else "none published")  # fmt: skip


def summary_text(files: Sequence[FileCheck], skipped: int = 0, name: Namer = str) -> list[str]:
    """The pooled summary: files by outcome, per-line values, the rest, each kind of value."""
    by = {s: [f for f in files if f.status == s]
          for s in (CHECKED, NOT_PUBLISHED, NO_RESULTS, UNREADABLE, FAILED)}  # fmt: skip
    p = pooled(files)
    out = [f"{len(files)} file{'' if len(files) == 1 else 's'}: {len(by[CHECKED])} with published values, "
           f"{len(by[NOT_PUBLISHED])} without, {len(by[NO_RESULTS])} without table results, "
           f"{len(by[UNREADABLE])} unreadable, {len(by[FAILED])} failed"
           + (f"; {skipped} other files skipped (no reader takes them)" if skipped else ""),  # fmt: skip
           f"per-line values, pooled: {_share(p.per_line)}",
           f"totals, percentages, places, match results, pooled: {_share(p.other)}"]  # fmt: skip
    for c in p.by_kind:
        out.append(f"  {c.what:<24} {check_words(c)}")
    if p.files_short:
        out.append(f"files where a total, percentage or place does not agree: {len(p.files_short)}")
        for f in files:
            if f.path in p.files_short:
                short = [c for c in f.checks() if not is_per_line(c.what)
                         and c.agree + len(c.explained) < c.compared]  # fmt: skip
                out.append(f"  {name(f.path)}: "
                           + ", ".join(f"{c.what} {c.agree}/{c.compared}" for c in short))  # fmt: skip
    for status in (UNREADABLE, FAILED):
        if by[status]:
            out.append(f"{status}: {len(by[status])}")
            out += _why_groups(by[status], name)
    return out


#: "line 7: why" or "refused: line 7: why": the line, and the reason files may share.
_AT_LINE = re.compile(r"^(?:refused: )?line (\d+): (.*)$", re.S)


def _why_groups(files: Sequence[FileCheck], name: Namer) -> list[str]:
    """Files that failed for the same reason, one line per reason, each file with the line it
    failed at: 'x.pbn, line 7: why' for one file; '3 files, why: a.pbn (line 7), b.pbn (line
    9), c.pbn (line 3)' for several (the reason once, never a file's line lost)."""
    why: dict[str, list[tuple[str, str]]] = {}
    for f in files:
        at = _AT_LINE.match(f.note)
        reason, line = (at.group(2), at.group(1)) if at else (f.note, "")
        why.setdefault(reason, []).append((name(f.path), line))
    out = []
    for reason, where in why.items():
        if len(where) == 1:
            shown, line = where[0]
            out.append(f"  {shown}{f', line {line}' if line else ''}: {reason}")
            continue
        listed = [f"{shown} (line {line})" if line else shown for shown, line in where[:3]]
        more = f" and {len(where) - 3} more" if len(where) > 3 else ""
        out.append(f"  {len(where)} files, {reason}: {', '.join(listed)}{more}")
    return out


def _check_json(c: Check) -> dict[str, Any]:
    return {"what": c.what, "per_line": is_per_line(c.what), "compared": c.compared,
            "agree": c.agree, "explained": c.explained[:JSON_LINES],
            "explained_count": len(c.explained), "disagree": c.disagree[:JSON_LINES],
            "disagree_count": len(c.disagree)}  # fmt: skip


def as_json(files: Sequence[FileCheck], skipped: int = 0, name: Namer = str) -> dict[str, Any]:
    """The report as one JSON-able dict: every file, and the pooled agreement."""
    p = pooled(files)

    def part(x: tuple[int, int, int]) -> dict[str, Any]:
        return {"compared": x[0], "agree": x[1], "explained": x[2], "percent": Pooled.share(x)}

    return {
        "files": [
            {
                "file": name(f.path),
                "format": f.format,
                "producer": f.producer,
                "status": f.status,
                "note": f.note,
                "left_out": f.left_out,
                "left_out_first": f.left_out_first,
                "missing": f.missing,
                "missing_first": f.missing_first,
                "events": [
                    {
                        "event": e.event,
                        "kind": e.kind,
                        "scoring": e.scoring,
                        "method": e.method,
                        "reason": e.reason,
                        "results": e.results,
                        "checks": [_check_json(c) for c in e.checks if c.compared],
                    }
                    for e in f.events
                ],
            }
            for f in files
        ],  # fmt: skip
        "skipped": skipped,
        "pooled": {
            "per_line": part(p.per_line),
            "other": part(p.other),
            "by_kind": [_check_json(c) for c in p.by_kind],
            "files_short": [name(x) for x in p.files_short],
        },  # fmt: skip
    }


def readme_table(files: Sequence[FileCheck], name: Namer = str,
                 site: Mapping[str, Mapping[str, Sequence[int]]] | None = None) -> list[str]:  # fmt: skip
    """README's agreement table: one row per file with published values, its producer and kind,
    and (`site`, by file name) the places, totals and percentages its built site shows as the
    scorer printed them ("" for a file that publishes no ranking)."""
    out = [
        "| file | producer | event kind | published values that agree (+ differing where "
        "the file's own numbers prove it wrong) | shown on the site |",
        "|---|---|---|---|---|",
    ]
    for f in sorted((f for f in files if f.status == CHECKED), key=lambda f: name(f.path)):
        kinds = "; ".join(dict.fromkeys(e.kind for e in f.events))
        values = ", ".join(f"{c.agree}/{c.compared} {c.what}"
                           + (f" (+{len(c.explained)} proven)" if c.explained else "")
                           for c in f.checks() if c.compared)  # fmt: skip
        shown = ", ".join(f"{a}/{n} {what}" for what, (a, n) in
                          sorted((site or {}).get(name(f.path), {}).items()))  # fmt: skip
        out.append(f"| `{name(f.path)}` | {f.producer or 'not declared'} | {kinds} | {values} "
                   f"| {shown} |")  # fmt: skip
    return out
