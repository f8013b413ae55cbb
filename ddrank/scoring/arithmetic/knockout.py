"""Knockout matches: two teams, several segments, decided by IMPs; never a VP round robin.

A teams event is a round robin (or Swiss) when its teams meet several opponents, each match
converted to VPs and the VPs ranked. A knockout stage pits each team against one opponent over
several segments (the Spingold's `[Stage "QtrF:1"]` .. `"QtrF:4"`; BBO's `vg|..,Segment 4 of 8,..`)
and the match is won on total IMPs: converting each segment to VPs and ranking the four teams of
two quarter-finals together, as a round robin, says nothing true.

The rule, from what the file says about its structure, never its event name:

* a session label is a stage and a segment: `QtrF:1` is segment 1 of stage `QtrF`, `Segment 4 of
  8` segment 4 of 8 (a label without a segment number is its own stage);
* a stage is a knockout stage when every team in it meets exactly one opponent, and the file
  shows the match is played in segments: the same two teams in two or more segments of the stage,
  or a segment declared "k of n" with n > 1 (a match the file holds one segment of is no evidence
  on its own; another match of the stage in two segments is).

A one-segment stage where each team meets one opponent (one round of a round robin) stays VPs.
Knockout matches keep their IMPs per segment (`team_matches`, no VPs) and get one line per team:
the match's total IMPs over the segments the file holds, the team with more first (rank 1, the
winner, or the leader when the file declares more segments than it holds).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence

from ddrank.scoring.model import PairLine, TeamMatch

_OF = re.compile(r"^(?P<stage>.*?)\s*(?:seg(?:ment)?\.?|session|set)?\s*(?P<k>\d+)\s*(?:of|/)\s*"
                 r"(?P<n>\d+)\s*$", re.IGNORECASE)  # fmt: skip
_SEGMENT = re.compile(r"^(?P<stage>.*?)(?:\s*[:#]\s*|\s+(?:seg(?:ment)?\.?|session|set)\s*|"
                      r"^(?:seg(?:ment)?\.?|session|set)\s*)(?P<k>\d+)\s*$", re.IGNORECASE)  # fmt: skip


def split_segment(label: str) -> tuple[str, int | None, int | None]:
    """(stage, segment, of) of a session label: 'QtrF:1' -> ('QtrF', 1, None), 'Segment 4 of 8'
    -> ('', 4, 8), 'R16' -> ('R16', None, None)."""
    t = label.strip()
    m = _OF.match(t) or _SEGMENT.match(t)
    if m is None:
        return t, None, None
    n = m.groupdict().get("n")
    return m.group("stage").strip(" :-#"), int(m.group("k")), int(n) if n else None


def knockout_stages(matches: Iterable[TeamMatch]) -> set[tuple[str, str]]:
    """(event, stage) of every knockout stage among the matches (see the module's rule)."""
    opponents: dict[tuple[str, str, str], set[str]] = defaultdict(set)
    segments: dict[tuple[str, str, frozenset[str]], set[int | None]] = defaultdict(set)
    declared: dict[tuple[str, str], bool] = defaultdict(bool)
    for m in matches:
        stage, k, n = split_segment(m.session)
        opponents[(m.event, stage, m.team)].add(m.opponent)
        segments[(m.event, stage, frozenset((m.team, m.opponent)))].add(k)
        declared[(m.event, stage)] |= n is not None and n > 1
    out: set[tuple[str, str]] = set()
    for event, stage in {(e, s) for e, s, _ in opponents}:
        if any(len(v) != 1 for (e, s, _), v in opponents.items() if (e, s) == (event, stage)):
            continue
        played = [v for (e, s, _), v in segments.items() if (e, s) == (event, stage)]
        if declared[(event, stage)] or any(
            len({k for k in v if k is not None}) > 1 for v in played
        ):
            out.add((event, stage))
    return out


def is_knockout(m: TeamMatch, stages: set[tuple[str, str]]) -> bool:
    return (m.event, split_segment(m.session)[0]) in stages


def knockout_lines(matches: Sequence[TeamMatch]) -> list[PairLine]:
    """One line per team per knockout match: the stage as its session, the match ('QtrF: A v B',
    with '(1 of 8 segments)' when the file declares more segments than it holds) as its section,
    its IMPs over the segments as its score, 1 for the team ahead (both 1 when level)."""
    lines: dict[tuple[str, str, frozenset[str]], dict[str, PairLine]] = defaultdict(dict)
    held: dict[tuple[str, str, frozenset[str]], set[int | None]] = defaultdict(set)
    declared: dict[tuple[str, str, frozenset[str]], int] = {}
    for m in matches:
        stage, k, n = split_segment(m.session)
        key = (m.event, stage, frozenset((m.team, m.opponent)))
        held[key].add(k)
        if n:
            declared[key] = max(declared.get(key, 0), n)
        line = lines[key].get(m.team) or PairLine(m.event, stage, "", "", m.team, m.team,
                                                  kind="knockout")  # fmt: skip
        lines[key][m.team] = line
        line.boards += m.boards
        line.mp += m.imps_for
    out: list[PairLine] = []
    for key, pair in lines.items():
        label = f"{key[1]}: " * bool(key[1]) + " v ".join(sorted(key[2]))
        if declared.get(key, 0) > len(held[key]):
            label += f" ({len(held[key])} of {declared[key]} segments)"
        best = max(x.mp for x in pair.values())
        for x in pair.values():
            x.section, x.rank = label, 1 if x.mp == best else 2
        out += sorted(pair.values(), key=lambda x: (x.rank, x.pair))
    return out
