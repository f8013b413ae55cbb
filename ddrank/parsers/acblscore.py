"""ACBLscore game files (`.ACA`, `.ACM`, `.ACE`): bytes in, events, travellers and rankings out.

The layout is read by `ddrank.parsers.acblscore_layout`; this module turns it into the event
model. Every game file is read whole or not at all: a truncated or corrupt file is refused whole
(`ParsedFile.refused` names the file's structure that is broken), and nothing of it is kept.

* Events (`RawEvent`): name, club (organiser), date; scoring MP, ACBL's top of 1 per result
  beaten, scorer "ACBLscore"; the sections matchpointed as one field and the sections ranked
  together, as the file's section chains say (`fields`, `rankings`: "A+B;C").
* Travellers (`RawRecord`): one per table result, with session (the session's name), section,
  round, table, pair numbers, both pairs' players and ACBL player numbers, North-South's score,
  and the matchpoints ACBLscore stored for each side (`published_ns_mp`/`_ew_mp`). A game file
  holds no contracts. An artificial score is `adjusted` ("60/40"); a director's split score,
  where East-West's score is not the negative of North-South's, keeps East-West's own score in
  `ew_score`; a side with its own artificial score and the other a real score is both. Boards
  not played at a table (ACBLscore's codes 900, 950, 999) are no result and no record. A pair
  that played a board a second time (a later round) has that side marked `repeat`: ACBLscore
  keeps the result in the board's field and does not count it for the pair.
* Rankings (`RawStanding`): one per pair, with its session score (factored to the full number of
  boards), percentage and place in its ranking (direction; section, or the sections ranked
  together); one more per lower strat the pair is eligible for, with `strat` set. A place shared
  by pairs with equal scores is written "3=". What the director applied to a pair's total is
  kept with it: an adjustment, a carry-over from earlier sessions, and whether the pair may take
  a place at all (`eligible`). The places a pair won an award with in the event's overall
  ranking (every pair across sections and directions, on its total with any carry-over) are
  standings with `overall` set.

`source_line` of a record or standing is the byte offset of its structure in the file.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import replace

from ddrank.limits import DEFAULT_LIMITS, Limits
from ddrank.parsers.acblscore_layout import (
    ARTIFICIAL,
    NOT_PLAYED,
    Board,
    CorruptGameFile,
    Event,
    GameFile,
    PairEntry,
    Section,
    Slot,
    read_game_file,
)
from ddrank.parsers.handrecord import board_dealer_vulnerability
from ddrank.raw import ParsedFile, RawEvent, RawRecord, RawStanding, number_repeats

FORMAT = "acblscore"
SCORER = "ACBLscore"
_MONTHS = {m: k + 1 for k, m in enumerate(
    ("january", "february", "march", "april", "may", "june", "july", "august", "september",
     "october", "november", "december"))}  # fmt: skip
_DATE = re.compile(r"^\s*([A-Za-z]+)\.?\s+(\d{1,2}),?\s+(\d{4})\s*$")


def dates(text: str) -> tuple[str, str]:
    """ACBLscore's "July 24, 2017" as (PBN "2017.07.24", ISO "2017-07-24"); (text, "") otherwise."""
    m = _DATE.match(text)
    month = _MONTHS.get(m.group(1).lower()) if m else None
    if not m or month is None:
        return text, ""
    y, d = m.group(3), int(m.group(2))
    return f"{y}.{month:02d}.{d:02d}", f"{y}-{month:02d}-{d:02d}"


def parse_acblscore(data: bytes, source: str, limits: Limits = DEFAULT_LIMITS) -> ParsedFile:
    """Every event, traveller line and ranking line of a game file, or the file refused whole,
    saying why it cannot be read (nothing is kept from a corrupt file). A file with more rows than
    `limits.max_rows` raises `LimitExceeded` (refused whole), before they are built."""
    try:
        game = read_game_file(data, limits)
        return _Builder(game, source).parsed()
    except CorruptGameFile as exc:  # refused whole, as a cut USEBIO or PBN file: exit 2
        return ParsedFile(FORMAT, [], refused=f"corrupt ACBLscore game file: {exc}")


def _groups(sections: list[Section], link: str) -> list[list[Section]]:
    """Sections joined by a chain of (previous, next) section numbers, in chain order."""
    by_index = {s.index: s for s in sections}
    seen: set[int] = set()
    out: list[list[Section]] = []
    for s in sections:
        if s.index in seen or getattr(s, link)[0] in by_index:
            continue  # not the head of its chain
        group, k = [], s.index
        while k in by_index and k not in seen:
            seen.add(k)
            group.append(by_index[k])
            k = getattr(by_index[k], link)[1]
        out.append(group)
    out += [[s] for s in sections if s.index not in seen]  # a chain with no head (a loop)
    return out


def _joined(groups: Iterable[list[Section]]) -> str:
    """'A+B;C': the groups of sections, '' for a one-section event."""
    gs = list(groups)
    if len(gs) == 1 and len(gs[0]) == 1:
        return ""
    return ";".join("+".join(s.letter for s in g) for g in gs)


def _side(code: int) -> tuple[str, int | None]:
    """('score', points) | ('artificial', percent) | ('none', None) for a stored side score."""
    if code in ARTIFICIAL:
        return "artificial", code - 2000
    if code in NOT_PLAYED or abs(code) >= 900:
        return "none", None
    return "score", code * 10


def _player_id(number: str) -> str:
    """An ACBL player number ("2297795", "K297809") or a club's own number for a non-member
    ("#8476"); "NM" (non-member) and "" are no number: two such players are not one player."""
    return "" if number.upper() in ("", "NM") else number


def _mp(hundredths: int) -> str:
    return f"{hundredths / 100:.2f}"


class _Builder:
    def __init__(self, game: GameFile, source: str) -> None:
        self.game = game
        self.source = source
        self.records: list[RawRecord] = []
        self.standings: list[RawStanding] = []
        self.warnings: list[tuple[int, str]] = []

    def parsed(self) -> ParsedFile:
        events = []
        names = Counter(e.name for e in self.game.events)
        for ev in self.game.events:
            sections = [s for s in self.game.sections if s.event == ev.index]
            if not sections:
                continue
            if names[ev.name] > 1:  # two events of one name in a file are still two events
                ev = replace(ev, name=f"{ev.name} ({', '.join(s.letter for s in sections)})")
            events.append(self._event(ev, sections))
            for sec in sections:
                self._travellers(ev, sec)
            for group in _groups(sections, "ranked_with"):
                self._rankings(ev, group)
        if not self.records and not self.standings:
            raise CorruptGameFile("no section holds a result or a pair")
        return ParsedFile(FORMAT, number_repeats(self.records), self.standings, events,
                          self.warnings)  # fmt: skip

    def _event(self, ev: Event, sections: list[Section]) -> RawEvent:
        _, iso = dates(ev.date)
        return RawEvent(self.source, event=ev.name, organiser=ev.club, date_start=iso,
                        date_end=iso, scoring="MP",
                        movement="howell" if all(s.howell for s in sections) else
                        "mitchell" if not any(s.howell for s in sections) else "",
                        across_field=len(sections) > 1 and len(_groups(sections, "scored_with")) == 1,
                        mp_top="1", scorer=SCORER, federation="ACBL",
                        fields=_joined(_groups(sections, "scored_with")),
                        rankings=_joined(_groups(sections, "ranked_with")),
                        max_score=str(max(s.max_score for s in sections)))  # fmt: skip

    # --- pairs ----------------------------------------------------------------------------------
    def _entry(self, sec: Section, pair: int, direction: int) -> PairEntry | None:
        """The pair entry behind a pair number: by direction in a Mitchell, by the pair map in a
        Howell (where pairs change direction)."""
        if sec.howell:
            where = sec.pair_map.get(pair)
            if where is None:
                return None
            list_no, index = where
        else:
            list_no, index = direction, pair
        entries = sec.lists[list_no - 1]
        return entries[index - 1] if 1 <= index <= len(entries) else None

    def _pairs(self, sec: Section) -> list[tuple[str, str, PairEntry]]:
        """(direction, pair number, entry) of every pair of the section that played."""
        if sec.howell:
            out = []
            for pair in sorted(sec.pair_map):
                e = self._entry(sec, pair, 0)
                if e is not None:
                    out.append(("", str(pair), e))
            return out
        return [(d, str(e.index), e) for d, lst in (("NS", sec.lists[0]), ("EW", sec.lists[1]))
                for e in lst if e is not None]  # fmt: skip

    # --- travellers -----------------------------------------------------------------------------
    def _travellers(self, ev: Event, sec: Section) -> None:
        date, _ = dates(ev.date)
        self._matchpoints_or_not(sec)
        for board in sec.boards:
            if board.stored_as:
                self.warnings.append((board.offset, f"section {sec.letter} board {board.number}: "
                                      f"its results are stored as board {board.stored_as}; read "
                                      f"as board {board.number}, the board index's number"))  # fmt: skip
            played: set[tuple[int, int]] = set()  # (list, pair) that played the board already
            for slot in sorted(board.slots, key=lambda x: x.round):
                rec = self._line(ev, sec, board, slot, date)
                if rec is None:
                    continue
                for side, pair, list_no in (("NS", slot.ns_pair, 1), ("EW", slot.ew_pair, 2)):
                    who = (0, pair) if sec.howell else (list_no, pair)
                    if who in played:
                        rec.repeat = side
                    played.add(who)
                self.records.append(rec)

    def _matchpoints_or_not(self, sec: Section) -> None:
        """Warn when the stored values do not look like matchpoints: on a board, a played
        result's two sides share the board's top (within rounding), and IMPs do not. ACBLscore
        also scores IMP pairs, whose files this reader reads as matchpoints (it knows of no
        byte that says which), so the warning is what tells them apart."""
        tops = []
        for board in sec.boards:
            sums = {s.ns_mp + s.ew_mp for s in board.slots
                    if abs(s.ns_score) < 900 and s.ew_score == -s.ns_score}  # fmt: skip
            if sums:
                tops.append(max(sums) - min(sums) <= 2 and min(sums) > 0)
        if tops and sum(tops) < len(tops) / 2:
            self.warnings.append((sec.boards[0].offset, f"section {sec.letter}: the values "
                                  "stored per result are not matchpoints (their two sides do not "
                                  "share a top): an IMP or other event read as matchpoints"))  # fmt: skip

    def _line(self, ev: Event, sec: Section, board: Board, slot: Slot, date: str
              ) -> RawRecord | None:  # fmt: skip
        (ns_kind, ns), (ew_kind, ew) = _side(slot.ns_score), _side(slot.ew_score)
        if ns_kind == "none" or ew_kind == "none":
            return None  # not played at this table: no result
        dealer, vul = board_dealer_vulnerability(str(board.number))
        rec = RawRecord(self.source, slot.offset, FORMAT, event=ev.name, date=date, site=ev.club,
                        organiser=ev.club, board_no=str(board.number), dealer=dealer,
                        vulnerable=vul, scoring="MP", session=ev.session_name,
                        section=sec.letter, round=str(slot.round), table_no=str(slot.table),
                        ns_pair=str(slot.ns_pair), ew_pair=str(slot.ew_pair),
                        published_ns_mp=_mp(slot.ns_mp), published_ew_mp=_mp(slot.ew_mp))  # fmt: skip
        rec.bidstart = dealer
        if ns_kind == "score" and ew_kind == "score":
            rec.ns_score = str(ns)
            if ew != -ns:  # type: ignore[operator]
                rec.ew_score = str(ew)  # a split score: each side's own
        elif ns_kind == "artificial" and ew_kind == "artificial":
            rec.adjusted = f"{ns}/{ew}"
        elif ns_kind == "artificial":  # North-South artificial, East-West their own score
            rec.adjusted = f"{ns}/{100 - ns}"  # type: ignore[operator]
            rec.ew_score = str(ew)
        else:  # North-South their own score, East-West artificial
            rec.ns_score = str(ns)
            rec.adjusted = f"{100 - ew}/{ew}"  # type: ignore[operator]
        for direction, pair, seats in ((1, slot.ns_pair, ("north", "south")),
                                       (2, slot.ew_pair, ("east", "west"))):  # fmt: skip
            entry = self._entry(sec, pair, direction)
            if entry is None:
                continue
            for seat, player in zip(seats, entry.players, strict=True):
                setattr(rec, f"{seat}name", player.name)
                setattr(rec, f"{seat}_id", _player_id(player.number))
        return rec

    # --- rankings -------------------------------------------------------------------------------
    def _rankings(self, ev: Event, group: list[Section]) -> None:
        """Standings of the pairs of sections ranked together: by direction, each strat."""
        date, _ = dates(ev.date)
        pairs = [(sec, d, p, e) for sec in group for d, p, e in self._pairs(sec)]
        by_direction: dict[str, list[tuple[Section, str, str, PairEntry]]] = defaultdict(list)
        for item in pairs:
            by_direction[item[1]].append(item)
        strats = max((e.strat for *_, e in pairs), default=1)
        for members in by_direction.values():
            for k in range(strats):
                eligible = [m for m in members if m[3].strat >= k + 1]
                places = _places(eligible, k)
                for sec, direction, pair, e in eligible:
                    players = " - ".join(p.name for p in e.players if p.name)
                    self.standings.append(RawStanding(
                        self.source, e.offset, event=ev.name, date=date,
                        session=ev.session_name, section=sec.letter, direction=direction,
                        pair=pair, players=players,
                        player_ids=" - ".join(_player_id(p.number) for p in e.players if p.name),
                        published_mp=_mp(e.session) if k == 0 else "",
                        published_pct=_mp(e.percentage) if k == 0 else "",
                        published_place=places[id(e)],
                        strat=ev.strats[k].letter if k else "",
                        adjustment=_mp(e.adjustment) if e.adjustment and k == 0 else "",
                        carryover=_mp(e.carryover) if e.carryover and k == 0 else "",
                        eligible=e.eligible, award=award_text(e.award) if k == 0 else ""))  # fmt: skip
                    rank = e.ranks[k]
                    if rank.overall_low:  # an award place in the event's overall ranking
                        self.standings.append(RawStanding(
                            self.source, e.offset, event=ev.name, date=date,
                            session=ev.session_name, section=sec.letter, direction=direction,
                            pair=pair, players=players, overall=True,
                            published_place=f"{rank.overall_low}" + ("=" if rank.overall_high else ""),
                            strat=ev.strats[k].letter if k else "", eligible=e.eligible))  # fmt: skip


#: ACBL masterpoint colours by the letter ACBLscore stores.
PIGMENT_NAMES = {"B": "Black", "S": "Silver", "R": "Red", "G": "Gold", "P": "Platinum"}


def award_text(award: tuple[tuple[int, str], ...]) -> str:
    """'1.29 Red; 1.29 Black': a pair entry's masterpoints, each amount with its colour."""
    return "; ".join(f"{points / 100:.2f} {PIGMENT_NAMES.get(p, p)}" for points, p in award)


def _places(members: list[tuple[Section, str, str, PairEntry]], k: int) -> dict[int, str]:
    """Each pair's place in strat k as the file ranks it (on the session's scores, a carry-over
    aside); eligible pairs with equal session scores share the best of their places ("3=")."""

    def key(e: PairEntry) -> tuple[bool, int]:
        return e.eligible, e.session

    best: dict[tuple[bool, int], int] = {}
    ties: dict[tuple[bool, int], int] = defaultdict(int)
    for *_, e in members:
        r = e.ranks[k].rank
        if r:
            best[key(e)] = min(best.get(key(e), r), r)
        ties[key(e)] += 1
    out: dict[int, str] = {}
    for *_, e in members:
        r = best.get(key(e), 0)
        out[id(e)] = "" if not r else f"{r}=" if ties[key(e)] > 1 else str(r)
    return out
