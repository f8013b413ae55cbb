"""One ranking per event, session, section and direction, as a club would publish it.

The lines are the scoring stage's (`rankings`), each printed as scoring kept it: the scorer's
own place, total and percentage where the file published them (`place_text`, `score_text`,
`pct_text`), else ours at the scorer's decimals. Where the file contradicts itself (ours, from
its own results, is another number at the printed precision), the line says beside the printed
value what its own numbers give, and the agreement is counted.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from ddrank.scoring.verification.printed import own_text

Row = dict[str, Any]
DIRECTIONS = {"NS": "North-South", "EW": "East-West", "N": "North-South", "E": "East-West"}
KINDS = {"teams": "Teams", "butler": "Pairs by Butler IMPs", "individual": "Individuals",
         "pairs": "Pairs"}  # fmt: skip
#: Percentages agree when they round to the same hundredth (sources print 2 to 6 decimals).
PCT_TOLERANCE = 0.005 + 1e-9


@dataclass
class RankingLine:
    place: str  # "1", "9=" (shared)
    pair: str  # pair or team number/name as the source gives it
    players: str
    boards: int | None
    score: float | None
    pct: float | None
    published_pct: float | None = None  # the published percentage where it differs from ours
    #: the total and percentage as the scorer prints them, kept by scoring (`rankings.*_text`)
    score_text: str = ""
    pct_text: str = ""
    #: the decimals the scorer sums each board's value at (None: exact), kept by scoring
    line_decimals: int | None = None
    #: what the pair's summed board values were multiplied by for its total, kept by scoring
    factor: float | None = None
    #: the director's adjustment to the pair's total the file gives (ACBLscore), else None
    adjustment: float | None = None
    #: the line's direction in a ranking of one field (both directions ranked together)
    direction: str = ""
    published_place: str = ""  # set only where it differs from ours
    #: the file's other places (a game file's): "C 5" in a lower strat, "overall 1"
    strat_places: list[str] = field(default_factory=list)
    #: what the file's own numbers give where the printed value is another: ['484.65',
    #: '52.31%', 'place 5'] (ddrank.scoring.verification.printed.own_text)
    own: list[str] = field(default_factory=list)
    #: a team's name and roster as its file publishes them (a teams ranking)
    team_name: str = ""
    roster: str = ""
    #: the masterpoints the file records for the line: [(amount, colour)]
    award: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class Ranking:
    heading: str
    kind: str
    score_label: str  # "MPs", "VPs", "IMPs"
    lines: list[RankingLine] = field(default_factory=list)
    compared_pct: int = 0
    agree_pct: int = 0
    compared_place: int = 0
    agree_place: int = 0
    #: (kind, session, section, direction) as the store's `rankings` key the lines
    key: tuple[str, str, str, str] = ("", "", "", "")
    #: what the page says under the ranking (a ranking shown only as the file published it)
    note: str = ""

    @property
    def numbered(self) -> bool:
        """Pairs are numbered (a club's pair numbers): else the pair is its players' names and
        gets no column of its own."""
        return any(ln.pair and len(ln.pair) <= 6 for ln in self.lines)

    @property
    def strats(self) -> bool:
        return any(ln.strat_places for ln in self.lines)

    @property
    def awards(self) -> bool:
        return any(ln.award for ln in self.lines)

    @property
    def differs(self) -> bool:
        """Some line's printed value is not what the file's own numbers give."""
        return any(ln.own for ln in self.lines)


def number(v: Any) -> float | None:
    """A stored value as a number: None for '', None, NaN or text."""
    if v is None or isinstance(v, bool):
        return None
    try:
        x = float(str(v).strip().rstrip("="))
    except ValueError:
        return None
    return None if math.isnan(x) else x


def heading(kind: str, session: Any, section: Any, direction: Any) -> str:
    """'Session 2, Section A, North-South'; 'Teams'; 'Ranking' for a simple pairs event."""
    parts = []
    if session not in (None, ""):
        parts.append(f"Session {session}")
    if section not in (None, ""):
        parts.append(f"Section {section}")
    if direction not in (None, ""):
        parts.append(DIRECTIONS.get(str(direction).upper(), str(direction)))
    if kind not in ("pairs", ""):
        parts.insert(0, KINDS.get(kind, kind.capitalize()))
    return ", ".join(parts) or "Ranking"


def shared_places(values: list[float | None]) -> list[str]:
    """Places of lines already in ranking order: equal values share a place ('3=')."""
    places = []
    for i, v in enumerate(values):
        first = i
        while first > 0 and v is not None and values[first - 1] is not None \
                and abs(values[first - 1] - v) < 1e-9:  # fmt: skip
            first -= 1
        tied = sum(1 for w in values if v is not None and w is not None and abs(w - v) < 1e-9)
        places.append(f"{first + 1}=" if tied > 1 else str(first + 1))
    return places


def _digits(v: Any) -> str:
    """'2025.04.09' and '2025-04-09' alike."""
    return "".join(c for c in str(v or "") if c.isdigit())


def _key(r: Row) -> tuple[str, str, str]:
    return tuple(str(r.get(k) or "") for k in ("session", "section", "direction"))  # type: ignore[return-value]


def event_standings(event_id: str, standings: list[Row], model_ids: set[str] | frozenset[str],
                    name_date: tuple[str, str]) -> list[Row]:  # fmt: skip
    """The event's published ranking lines (not its matches): by the event model's ids, or by
    the event's name and date where a standing was read with another event id."""
    out = []
    for s in standings:
        if s.get("opponent"):  # a match's published result, not a ranking line
            continue
        same_name = bool(name_date[0]) and str(s.get("event") or "") == name_date[0] and (
            _digits(s.get("date")) == _digits(name_date[1]))  # fmt: skip
        if same_name or str(s.get("event_id") or s.get("event") or "") in {event_id, *model_ids}:
            out.append(s)
    return out


@dataclass
class CumulativeLine:
    """A line of the cumulative ranking one session's file publishes, as printed."""

    place: str
    pair: str
    direction: str
    players: str
    carryover: str  # the total before this session (total minus this session's score)
    session: str
    total: str
    pct: str


def cumulative_of(standings: list[Row]) -> tuple[str, list[CumulativeLine]]:
    """(boards covered, lines in published order) of the cumulative ranking the event's session
    file publishes beside the session's (some PBN scorers); ('', []) where it has none. The
    carry-over is the published total less the session's published score, at the total's
    decimals."""
    rows = [s for s in standings if str(s.get("cumulative_place") or "").strip()]
    if not rows:
        return "", []
    out = []
    for s in rows:
        total, session = str(s.get("cumulative_mp") or ""), str(s.get("published_mp") or "")
        carry = ""
        if number(total) is not None and number(session) is not None:
            decimals = len(total.split(".")[1]) if "." in total else 0
            carry = f"{number(total) - number(session):.{decimals}f}"  # type: ignore[operator]
        out.append(CumulativeLine(str(s["cumulative_place"]).strip(), str(s.get("pair") or ""),
                                  str(s.get("direction") or ""), str(s.get("players") or ""),
                                  carry, session, total, str(s.get("cumulative_pct") or "")))  # fmt: skip
    out.sort(key=lambda ln: (number(ln.place) or math.inf, ln.pair))
    return str(rows[0].get("cumulative_boards") or ""), out


def rankings_of(
    event_id: str,
    rankings: list[Row],
    standings: list[Row],
    mp: bool,
    model_ids: set[str] | frozenset[str] = frozenset(),
    name_date: tuple[str, str] = ("", ""),
    team_label: str = "VPs",
) -> list[Ranking]:
    """The event's rankings, one per kind, session, section and direction, in that order.

    `rankings` name the event as the scoring stage does (`event_id`); `published_standings` by
    the event model's ids (`model_ids`), or, where those differ (a standing read with another
    event id), by the event's name and date (`name_date`). A teams ranking is in `team_label`
    (VPs; a point-a-board event's board points)."""
    groups: dict[tuple, list[Row]] = defaultdict(list)
    for r in rankings:
        if str(r.get("event") or r.get("event_id") or "") == event_id:
            groups[(str(r.get("kind") or ""), *_key(r))].append(r)
    published: dict[tuple, Row] = {}
    extra: dict[tuple, list[Row]] = defaultdict(list)  # a line's strat and overall places
    for s in event_standings(event_id, standings, model_ids, name_date):
        key = (*_key(s), str(s.get("pair") or "").strip())
        if s.get("strat") or s.get("overall"):
            extra[key].append(s)
        else:
            published[key] = s
    order = {"teams": 0, "pairs": 1, "individual": 2, "butler": 3}
    out = []
    used: set[tuple] = set()  # the published lines shown beside a line of ours
    for (kind, session, section, direction), rows in sorted(
        groups.items(), key=lambda kv: (order.get(kv[0][0], 9), kv[0][1:])
    ):
        # in the order the scorer printed its places, else ours
        rows = sorted(rows, key=lambda r: (_first(r.get("place_text")) or number(r.get("rank"))
                                           or math.inf, number(r.get("rank")) or math.inf,
                                           -(number(r.get("score")) or 0)))  # fmt: skip
        tied = Counter(number(r.get("rank")) for r in rows)
        by = [number(r.get("pct")) if number(r.get("pct")) is not None else number(r.get("score"))
              for r in rows]  # fmt: skip
        label = team_label if kind == "teams" else "IMPs" if kind == "butler" or not mp else "MPs"
        rk = Ranking(
            heading(kind, session, section, direction),
            kind,
            label,
            key=(kind, session, section, direction),
        )
        for r, place in zip(rows, shared_places(by), strict=True):
            place = _text(r.get("place_text")) or place  # as the scorer prints it, kept
            pair = str(r.get("pair") or "").strip()
            key = _standing_key(session, section, direction, pair, published)
            pub = published.get(key, {})
            used.add(key)
            pub_pct = number(r.get("published_pct"))
            if pub_pct is None:
                pub_pct = number(pub.get("published_pct"))
            pub_place = str(r.get("published_place") or pub.get("published_place") or "").strip()
            if pub_place.lower() in ("nan", "none"):
                pub_place = ""
            pct = number(r.get("pct"))
            line = RankingLine(place, pair, str(r.get("players") or ""),
                               int(number(r.get("boards")) or 0) or None,
                               number(r.get("score")), pct, score_text=_text(r.get("score_text")),
                               pct_text=_text(r.get("pct_text")),
                               line_decimals=_whole(r.get("line_decimals")),
                               factor=number(r.get("factor")))  # fmt: skip
            if pub_pct is not None and pct is not None:
                rk.compared_pct += 1
                if abs(pub_pct - pct) < PCT_TOLERANCE:
                    rk.agree_pct += 1
                else:
                    line.published_pct = pub_pct
            if pub_place:
                rk.compared_place += 1
                if _place_agrees(pub_place, r, tied):
                    rk.agree_place += 1
                else:
                    line.published_place = pub_place
            line.own = _own(r, line, tied)
            line.strat_places = [
                f"{'overall ' if x.get('overall') else ''}{x.get('strat') or ''} "
                f"{x.get('published_place')}".replace("  ", " ").strip()
                for x in sorted(extra.get(key, []), key=lambda x: (bool(x.get("overall")),
                                                                   str(x.get("strat") or "")))
            ]  # fmt: skip
            line.adjustment = number(pub.get("adjustment")) or None
            line.team_name = str(pub.get("team_name") or "").strip()
            if kind == "teams":
                line.roster = str(pub.get("players") or "")
            line.award = [tuple(a.strip().split(" ", 1)) for a in  # type: ignore[misc]
                          str(pub.get("award") or "").split(";") if a.strip()]  # fmt: skip
            rk.lines.append(line)
        out.append(rk)
    ours = {rk.key[1:] for rk in out}
    pairs = {ln.pair for rk in out for ln in rk.lines}
    unmatched = {k: st for k, st in published.items() if k not in used}
    return out + published_only(unmatched, ours, pairs, mp, team_label)


def published_only(published: dict[tuple, Row], ours: set[tuple[str, str, str]],
                   pairs: set[str], mp: bool, team_label: str) -> list[Ranking]:  # fmt: skip
    """The rankings the file published that scoring has none of (a file holding too few of the
    event's results to score them again: most of their pairs have no line of ours), each line as
    printed, saying so."""
    groups: dict[tuple[str, str, str], list[Row]] = defaultdict(list)
    for (session, section, direction, _pair), st in published.items():
        if (session, section, direction) not in ours and _first(st.get("published_place")):
            groups[(session, section, direction)].append(st)
    out = []
    for (session, section, direction), rows in sorted(groups.items()):
        known = [st for st in rows if str(st.get("pair") or "").strip() in pairs
                 or f"{section}{str(st.get('pair') or '').strip()}" in pairs]  # fmt: skip
        if 2 * len(known) >= len(rows):
            continue  # ranked by ours under other labels (one field, sections together)
        teams = any(_text(st.get("published_vp")) for st in rows)
        kind = "teams" if teams else "pairs"
        rk = Ranking(heading(kind, session, section, direction), kind,
                     team_label if teams else "MPs" if mp else "IMPs",
                     key=(kind, session, section, direction))  # fmt: skip
        for st in sorted(rows, key=lambda x: _first(x.get("published_place")) or math.inf):
            total = _text(st.get("published_vp") or st.get("published_mp")
                          or st.get("published_imps"))  # fmt: skip
            pct = _text(st.get("published_pct"))
            rk.lines.append(RankingLine(
                _text(st.get("published_place")), str(st.get("pair") or "").strip(),
                str(st.get("players") or ""), _whole(st.get("boards")), number(total),
                number(pct), score_text=total, pct_text=pct))  # fmt: skip
        rk.note = ("As the scorer published it: the file holds too few of this ranking's "
                   "results to score it again.")  # fmt: skip
        out.append(rk)
    return out


def _first(v: Any) -> int | None:
    """The first place of a printed place ('7=' -> 7, '4/5' -> 4; None for none)."""
    head = _text(v).rstrip("=").split("/")[0].split("-")[0].strip()
    return int(head) if head.isdigit() else None


def _place_agrees(printed: str, r: Row, tied: Counter) -> bool:
    """The printed place is ours: within our tie (a tie the scorer broke is no disagreement)."""
    pub, rank = _first(printed), number(r.get("rank"))
    if pub is None or rank is None:
        return False
    return rank <= pub < rank + tied[rank]


def _own(r: Row, line: RankingLine, tied: Counter) -> list[str]:
    """What the file's own numbers give where the line prints the scorer's other value: ours at
    the printed decimals (the kept values: `score`, `pct`, `rank`)."""
    out = []
    k_score = _whole(r.get("score_decimals"))
    k_pct = _whole(r.get("pct_decimals"))
    score = own_text(line.score, line.score_text, 2 if k_score is None else k_score)
    if score:
        out.append(score)
    pct = own_text(line.pct, line.pct_text, 2 if k_pct is None else k_pct)
    if pct:
        out.append(f"{pct}%")
    rank = number(r.get("rank"))
    printed = _text(r.get("place_text"))
    if rank is not None and _first(printed) is not None and not _place_agrees(printed, r, tied):
        out.append(f"place {int(rank)}{'=' if tied[rank] > 1 else ''}")
    return out


def _whole(v: Any) -> int | None:
    """A kept whole number (None for none or NaN)."""
    x = number(v)
    return None if x is None else int(x)


def _text(v: Any) -> str:
    """A kept text ('' for none or NaN)."""
    t = "" if v is None else str(v).strip()
    return "" if t.lower() in ("nan", "none") else t


def _standing_key(session: str, section: str, direction: str, pair: str,
                  published: dict[tuple, Row]) -> tuple[str, str, str, str]:  # fmt: skip
    """The published line of a ranking line: the same section and pair, or, in sections ranked
    together ('A+B+C', pair 'B7'), the pair's own section and number."""
    key = (session, section, direction, pair)
    if key in published:
        return key
    for letter in section.split("+") if "+" in section else ():
        if letter and pair.startswith(letter) and pair[len(letter) :].isdigit():
            return (session, letter, direction, pair[len(letter) :])
    if not direction:  # a team's line: its file may give it a "direction" (home/away)
        same = [k for k in published if (k[0], k[1], k[3]) == (session, section, pair)]
        if len(same) == 1:
            return same[0]
    return key


def one_field(rankings: list[Ranking]) -> list[Ranking]:
    """North-South's and East-West's rankings as one, where the scorer ranked them as one field:
    every line has the scorer's printed place and the places run past either direction's pairs
    (Ruter's one field of all pairs). Each line keeps its direction (its scorecard, its label);
    ours were ranked per direction, so their places are not set beside the scorer's."""
    by: dict[tuple[str, str, str], dict[str, Ranking]] = defaultdict(dict)
    for rk in rankings:
        if rk.key[3] in ("NS", "EW"):
            by[rk.key[:3]][rk.key[3]] = rk
    merged: dict[int, Ranking] = {}
    for (kind, session, section), pair in by.items():
        ns, ew = pair.get("NS"), pair.get("EW")
        if ns is None or ew is None or not (ns.lines and ew.lines):
            continue
        lines = ns.lines + ew.lines
        if ns.compared_place < len(ns.lines) or ew.compared_place < len(ew.lines):
            continue
        if max(_first(ln.place) or 0 for ln in lines) <= max(len(ns.lines), len(ew.lines)):
            continue
        rk = Ranking(heading(kind, session, section, ""), kind, ns.score_label,
                     compared_pct=ns.compared_pct + ew.compared_pct,
                     agree_pct=ns.agree_pct + ew.agree_pct, key=(kind, session, section, ""))  # fmt: skip
        for ln, direction in [(x, "NS") for x in ns.lines] + [(x, "EW") for x in ew.lines]:
            ln.direction = direction
            ln.own = [x for x in ln.own if not x.startswith("place ")]
        rk.lines = sorted(lines, key=lambda ln: (_first(ln.place) or math.inf, ln.pair))
        merged[id(ns)], merged[id(ew)] = rk, rk
    out: list[Ranking] = []
    for rk in rankings:
        rk = merged.get(id(rk), rk)
        if rk not in out:
            out.append(rk)
    return out
