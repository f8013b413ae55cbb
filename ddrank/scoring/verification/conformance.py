"""Conformance: for each results file, how many of the values it published we reproduce.

`ddrank check` scores every file on its own, with default options, and keeps per file: the
producer the file declares, each event's kind, the scoring chosen and why, and one `Check` per
kind of published value (ddrank.scoring.verification.published). This module holds what that report is made
of and the arithmetic over it: the pooled agreement, and the baseline a change may not fall below
(`baseline_of`, `drops`). Nothing here reads files.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ddrank.scoring.verification.check import Check

#: What a file came to: values compared; read but nothing published; nothing to score; nothing
#: read; reading or scoring raised an error (a bug to report).
CHECKED, NOT_PUBLISHED, NO_RESULTS, UNREADABLE, FAILED = (
    "checked", "no published values", "no table results", "unreadable", "failed")  # fmt: skip
#: The event kinds in words, by `EventInfo.scoring`.
KIND_WORDS = {"MP": "pairs, matchpoints", "IMP": "pairs, cross-IMPs",
              "BUTLER": "pairs, Butler IMPs", "TEAMS": "teams, IMPs to VPs",
              "BAM": "teams, point-a-board", "INDIVIDUAL": "individual, matchpoints",
              "KNOCKOUT": "teams, knockout matches",
              "TEAMS+KNOCKOUT": "teams, IMPs to VPs and knockout matches"}  # fmt: skip


def is_per_line(what: str) -> bool:
    """A value published per table result (matchpoints, IMPs, percentage of one line), as opposed
    to a total, a final percentage, a place or a match's VPs."""
    return what.endswith("per line")


def kind_words(scoring: str) -> str:
    return KIND_WORDS.get(scoring, scoring.lower() or "unknown")


def kind_of(sc: Any) -> str:
    """An event's kind as KIND_WORDS names it: its scoring, or an individual, or a teams event
    whose matches are knockout matches (all of them, or beside a VP stage)."""
    if sc.info.individual:
        return "INDIVIDUAL"
    knockout = [x.kind == "knockout" for x in sc.rankings]
    if sc.info.scoring in ("TEAMS", "BAM") and any(knockout):
        return "KNOCKOUT" if all(knockout) else "TEAMS+KNOCKOUT"
    return str(sc.info.scoring)


@dataclass
class EventCheck:
    """One event of a file: its kind, how it was scored and why, each kind of published value."""

    event: str
    scoring: str  # EventInfo.scoring: MP, IMP, BUTLER, TEAMS, BAM, ...
    method: str  # the method (matchpoints) or VP scale (teams) chosen
    reason: str  # why: what the source declares, or which candidate reproduces most
    results: int  # table results scored
    checks: list[Check] = field(default_factory=list)
    top: float | None = None  # matchpoints per result beaten (matchpoint events)

    @property
    def kind(self) -> str:
        return kind_words(self.scoring)


@dataclass
class FileCheck:
    """One file: what it is, who wrote it, and its events' checks."""

    path: str
    format: str
    producer: str  # the program the file declares ('' when it declares none)
    status: str  # CHECKED, NOT_PUBLISHED, NO_RESULTS, UNREADABLE or FAILED
    note: str = ""  # why unreadable, or what a file without results holds
    events: list[EventCheck] = field(default_factory=list)
    left_out: int = 0  # records left out (unreadable rows, unscorable results, duplicates)
    left_out_first: str = ""  # the first of them, as errors.csv words it
    missing: int = 0  # traveller lines the file's own movement expects and it lacks
    missing_first: str = ""

    def checks(self) -> list[Check]:
        """Every event's checks merged by kind of value."""
        return merge(c for ev in self.events for c in ev.checks)


def merge(checks: Iterable[Check]) -> list[Check]:
    """Checks of one kind summed (their differing lines kept in order)."""
    out: dict[str, Check] = {}
    for c in checks:
        m = out.setdefault(c.what, Check(c.what))
        m.compared += c.compared
        m.agree += c.agree
        m.disagree.extend(c.disagree)
        m.explained.extend(c.explained)
    return list(out.values())


@dataclass(frozen=True)
class Pooled:
    """Agreement over many files: per kind of value, and per-line values against the rest."""

    by_kind: tuple[Check, ...]
    per_line: tuple[int, int, int]  # (compared, agree, explained)
    other: tuple[int, int, int]
    files_short: tuple[str, ...]  # files where some total, percentage or place does not agree

    @staticmethod
    def share(part: tuple[int, int, int]) -> float | None:
        return 100.0 * part[1] / part[0] if part[0] else None


def pooled(files: Sequence[FileCheck]) -> Pooled:
    """The pooled agreement of `files`."""
    by_kind = merge(c for f in files for c in f.checks())
    line = [c for c in by_kind if is_per_line(c.what)]
    rest = [c for c in by_kind if not is_per_line(c.what)]

    def total(cs: list[Check]) -> tuple[int, int, int]:
        return (sum(c.compared for c in cs), sum(c.agree for c in cs),
                sum(len(c.explained) for c in cs))  # fmt: skip

    short = tuple(f.path for f in files
                  if any(c.agree + len(c.explained) < c.compared
                         for c in f.checks() if not is_per_line(c.what)))  # fmt: skip
    return Pooled(tuple(by_kind), total(line), total(rest), short)


# ---------------------------------------------------------------- the baseline

Baseline = dict[str, dict[str, int]]


def baseline_of(files: Iterable[FileCheck], label: Mapping[str, str] | None = None) -> Baseline:
    """{file label: {kind of value: values that agree}} for every file with published values."""
    out: Baseline = {}
    for f in files:
        key = (label or {}).get(f.path, f.path)
        agreed = {c.what: c.agree for c in f.checks() if c.compared}
        if agreed:
            out[key] = dict(sorted(agreed.items()))
    return dict(sorted(out.items()))


def drops(now: Baseline, before: Baseline, present: Iterable[str] | None = None) -> list[str]:
    """Each value kind of each file that agrees less often than `before` says, in words.

    `present`: the files this run could see (a clone without ../shared sees the bundled ones);
    others are not judged."""
    seen = set(present) if present is not None else None
    out = []
    for key, kinds in sorted(before.items()):
        if seen is not None and key not in seen:
            continue
        have = now.get(key, {})
        for what, agreed in sorted(kinds.items()):
            if have.get(what, 0) < agreed:
                out.append(f"{key}: {what} {have.get(what, 0)} agree, the baseline {agreed}")
    return out


def gains(now: Baseline, before: Baseline) -> list[str]:
    """Each value kind that agrees more often than `before` says: a baseline to raise."""
    out = []
    for key, kinds in sorted(now.items()):
        for what, agreed in sorted(kinds.items()):
            old = before.get(key, {}).get(what, 0)
            if agreed > old:
                out.append(f"{key}: {what} {agreed} agree, the baseline {old}")
    return out
