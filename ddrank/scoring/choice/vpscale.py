"""Which IMP-to-VP scale a teams event is scored on: as the scorer did.

Two candidates:

* the **WBF continuous** 20-VP scale (`teams.wbf_vp`, 2 decimals), the default;
* the **file's own scale**: where the source publishes each match's VPs (an XML file's `MATCH`
  `TEAM_SCORE` / `OPPOSING_TEAM_SCORE`), the step table those matches define, per board count:
  IMP margin -> winner's VPs (the loser gets 20 minus that). It is taken only when it is
  consistent (every match of one board count maps one margin to one VP, more margin never gives
  fewer VPs, winner and loser share 20); an EBU scorer's integer scale reads this way.

The scale that reproduces more published match VPs wins; ties keep WBF continuous. Without
published match VPs the event stays on WBF continuous.

A scale is a tuple of (boards, margin, winner's VPs) steps, so it fits the frozen `EventInfo`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ddrank.scoring.arithmetic.teams import VpScale
from ddrank.scoring.model import TeamMatch
from ddrank.scoring.verification.standings import published_vp

WBF = "wbf continuous"
FILE = "file scale"
TOTAL = 20.0


@dataclass(frozen=True)
class FileScale:
    """The scale the published matches define, whether it is consistent, and how many agree."""

    scale: VpScale
    matches: int  # published matches read (one per pair of teams)
    consistent: bool
    conflicts: tuple[str, ...] = ()

    def words(self) -> str:
        """'3 boards: 0:10 1:11 2:12 3-4:13 ...' (margins observed, as ranges of one VP)."""
        per: dict[int, list[tuple[int, float]]] = defaultdict(list)
        for b, m, vp in self.scale:
            per[b].append((m, vp))
        parts = []
        for b, steps in sorted(per.items()):
            runs: list[list[Any]] = []
            for m, vp in sorted(steps):
                if runs and runs[-1][2] == vp:
                    runs[-1][1] = m
                else:
                    runs.append([m, m, vp])
            text = " ".join(f"{lo}{'' if lo == hi else f'-{hi}'}:{vp:g}" for lo, hi, vp in runs)
            parts.append(f"{b} boards: {text}")
        return "; ".join(parts)


def file_scale(
    matches: Sequence[TeamMatch], table: Mapping[tuple[str, str, str], float]
) -> FileScale:
    """The step table the published match VPs define, from our matches' IMP margins."""
    seen: dict[tuple[int, int], set[float]] = defaultdict(set)
    conflicts: list[str] = []
    read: set[frozenset[str]] = set()
    for m in matches:
        vp = published_vp(table, m)
        margin = m.imps_for - m.imps_against
        if vp is None or margin < 0 or margin != int(margin):
            continue
        read.add(frozenset((m.session, m.team, m.opponent)))
        seen[(m.boards, int(margin))].add(vp)
        other = published_vp(table, TeamMatch(m.event, m.session, m.section, m.opponent, m.team))
        if other is not None and abs(vp + other - TOTAL) > 1e-9:
            conflicts.append(f"{m.team} v {m.opponent}: {vp:g} + {other:g} is not {TOTAL:g}")
    scale = tuple(sorted((b, mg, max(v)) for (b, mg), v in seen.items()))
    for (b, mg), v in sorted(seen.items()):
        if len(v) > 1:
            conflicts.append(f"{b} boards, margin {mg}: VPs {sorted(v)}")
    for (b1, m1, v1), (b2, m2, v2) in zip(scale, scale[1:], strict=False):
        if b1 == b2 and v2 < v1:
            conflicts.append(f"{b1} boards: margin {m2} gets {v2:g}, less than {m1} ({v1:g})")
    return FileScale(scale, len(read), not conflicts and bool(scale), tuple(conflicts))
