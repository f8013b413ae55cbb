"""USEBIO 1.x reader: the EBU's XML results interchange format, bytes in, event model out.

A USEBIO file holds one EVENT: its facts (title, date, scoring), the PARTICIPANTS (pairs or teams
with their players' national ids, places, percentages, totals) and the travellers (BOARD ->
TRAVELLER_LINE: pair numbers, contract, declarer, tricks, score and the match points or cross-IMPs
the scorer published), optionally inside SESSION / SECTION / MATCH elements, and sometimes a
HANDSET with the deals. RealBridge adds `LIN_DATA` to each line: the whole auction and play as
URL-encoded LIN, read here with the LIN reader.

Safety: files declare a DTD at an http URL, which is never fetched, and entity declarations are
refused outright (an entity bomb or an external entity fails at once, naming file and line). The
XML is fed to the parser in chunks and each board is dropped once read, so the parse holds one
board's elements at a time.

Conventions (the standard leaves these open):
* The players of a pair are listed without seats: the first sits North (or East), the second South
  (or West), unless the line's LIN names every seat.
* In teams, a line whose DIRECTION is NS is the open room of that MATCH (the TEAM sits North-
  South), EW the closed room; `published_imps` is North-South's share of the board's IMPs
  (point-a-board: `published_ns_mp`/`_ew_mp` are the board points of North-South and East-West).
* The opening lead card (`LEAD`, e.g. `SJ`) is kept as `lead_card` (not part of the record id).
"""

from __future__ import annotations

from xml.parsers.expat import ErrorString, ExpatError, XMLParserType

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import DefusedXMLParser

from ddrank.limits import DEFAULT_LIMITS, LimitExceeded, Limits
from ddrank.parsers.adjusted import adjusted_split
from ddrank.parsers.handrecord import HandDeal, board_dealer_vulnerability, hand_record_deals
from ddrank.parsers.usebio_fields import (
    _PHANTOM,
    _dates,
    _hand_deal,
    _matchpoint_field,
    _merge_lin,
    _movement,
    _negate,
    _number,
    _scoring,
    _scoring_from_lines,
    _seat_fields,
    _team_label,
    _utf8_or_declared,
)
from ddrank.parsers.usebio_individual import name_seats, player_standing, seat_numbers
from ddrank.parsers.usebio_parts import _NotUsebio, _Pending, _Player, check_tags, suit_first
from ddrank.raw import ParsedFile, RawEvent, RawRecord, RawStanding, number_repeats

_CHUNK = 1 << 16


class _Node:
    """One element: tag, attributes, line, children, text. A plain slotted class (not a
    dataclass) with an index of the first child per tag: the reader builds one per element and
    looks children up by tag many times per traveller line, so both are on the hot path."""

    __slots__ = ("tag", "attrs", "line", "children", "parts", "index", "size")

    def __init__(self, tag: str, attrs: dict[str, str], line: int) -> None:
        self.tag = tag
        self.attrs = attrs
        self.line = line
        self.children: list[_Node] = []
        self.parts: list[str] = []
        self.size = 0  # characters of text so far (`max_value_chars`)
        self.index: dict[str, _Node] = {}  # tag -> first child with that tag

    def add(self, child: _Node) -> None:
        self.children.append(child)
        if child.tag not in self.index:
            self.index[child.tag] = child

    def drop_last(self) -> None:
        """Forget the last child (read already), from the children and the index."""
        child = self.children.pop()
        if self.index.get(child.tag) is child:
            del self.index[child.tag]
            for other in self.children:  # an earlier child of the same tag is first again
                if other.tag == child.tag:
                    self.index[child.tag] = other
                    break

    @property
    def text(self) -> str:
        return "".join(self.parts).strip()

    def first(self, tag: str) -> _Node | None:
        return self.index.get(tag)

    def value(self, tag: str) -> str:
        node = self.index.get(tag)
        return "".join(node.parts).strip() if node is not None else ""

    def every(self, tag: str) -> list[_Node]:
        return [c for c in self.children if c.tag == tag]


class _Reader:
    """The parser's target: builds small elements, handles each PARTICIPANTS and BOARD at its end."""

    def __init__(self, source: str, limits: Limits = DEFAULT_LIMITS) -> None:
        self.source = source
        self.limits = limits
        self.elements = 0  # elements started so far (`max_xml_elements`)
        self.expat: XMLParserType | None = None
        self.stack: list[_Node] = []
        self.club = ""
        self.pending: list[_Pending] = []
        self.standings: list[RawStanding] = []
        self.players: dict[tuple[str, str, str], list[_Player]] = {}
        # an individual's players by number: (session, section, number) -> (name, national id)
        self.individuals: dict[tuple[str, str, str], tuple[str, str]] = {}
        self.handset: dict[str, HandDeal] = {}
        self.sessions: set[str] = set()
        self.events: list[tuple[_Node, list[RawRecord]]] = []
        self.current_event: list[RawRecord] | None = None

    # --- expat target interface
    def start(self, tag: str, attrs: dict[str, str]) -> None:
        line = self.expat.CurrentLineNumber if self.expat is not None else 0
        if not self.stack and tag != "USEBIO":
            raise _NotUsebio(f"the root element is <{tag}>, not <USEBIO>")
        self.elements += 1  # the limits hold before the element is: memory stays bounded
        self.limits.check("max_xml_elements", self.elements, exact=False)
        self.limits.check("max_xml_depth", len(self.stack) + 1, f"line {line}", exact=False)
        node = _Node(tag, attrs, line)  # expat hands a fresh dict per element
        if self.stack:
            self.stack[-1].add(node)
        self.stack.append(node)
        if tag == "EVENT":
            self.current_event = []
            self.events.append((node, self.current_event))
        elif tag == "SESSION":
            self.sessions.add(node.attrs.get("SESSION_ID", "").strip())

    def end(self, tag: str) -> None:
        node = self.stack.pop()
        parent = self.stack[-1] if self.stack else None
        if tag == "CLUB" and parent is not None and parent.tag == "USEBIO":
            self.club = node.value("CLUB_NAME")
        elif tag == "PARTICIPANTS":
            self._participants(node)
        elif tag == "MATCH":
            self._match_result(node)
        elif tag == "BOARD" and parent is not None:
            if parent.tag == "HANDSET":
                self._handset_board(node)
            else:
                self._board(node)
            parent.drop_last()  # read: drop it, memory stays one board deep

    def data(self, text: str) -> None:
        if self.stack:
            node = self.stack[-1]
            node.size += len(text)
            if node.size > self.limits.max_value_chars:  # checked as it arrives: never held
                raise LimitExceeded("max_value_chars", self.limits.max_value_chars, node.size,
                                    f"line {node.line}: the text of <{node.tag}>", exact=False)  # fmt: skip
            parts = node.parts
            if parts or not text.isspace():  # (leading white space is stripped anyway)
                parts.append(text)

    def close(self) -> None:
        return None

    # --- context of the element being read
    def _context(self, tag: str) -> _Node | None:
        for node in reversed(self.stack):
            if node.tag == tag:
                return node
        return None

    def _event_facts(self) -> tuple[str, str, str]:
        event = self._context("EVENT")
        if event is None:
            return "", "", ""
        name = event.value("EVENT_DESCRIPTION") or event.value("TITLE")
        pbn_date, _ = _dates(event.value("DATE"))
        return name, pbn_date, _scoring(event)

    def _where(self) -> tuple[str, str]:
        session = self._context("SESSION")
        section = self._context("SECTION")
        return (
            session.attrs.get("SESSION_ID", "").strip() if session is not None else "",
            section.attrs.get("SECTION_ID", "").strip() if section is not None else "",
        )

    # --- participants
    def _participants(self, node: _Node) -> None:
        session, section = self._where()
        name, date, scoring = self._event_facts()
        for pair in node.every("PAIR"):
            self._pair(pair, session, section, name, date, scoring, team_name="")
        for player in node.every("PLAYER"):  # an individual event's participants
            st = player_standing(player, self.source, name, date, session, section,
                                 scoring in ("IMP", "BUTLER"))  # fmt: skip
            if st is not None:
                self.standings.append(st)
                self.individuals[(session, section, st.pair)] = (st.players, st.player_ids)
        for team in node.every("TEAM"):
            team_id = team.attrs.get("TEAM_ID", "").strip()
            team_name = team.attrs.get("TEAM_NAME", "").strip()
            members: list[_Player] = []
            for pair in team.every("PAIR"):
                members += self._pair(pair, session, section, name, date, scoring, team_name)
            total = team.value("TOTAL_SCORE")
            self.standings.append(
                RawStanding(
                    source_file=self.source,
                    source_line=team.line,
                    event=name,
                    date=date,
                    session=session,
                    section=section,
                    pair=team_id,
                    team_name=team_name,
                    players=" - ".join(p.name for p in members),
                    player_ids=" - ".join(p.pid for p in members),
                    published_vp=total if scoring == "TEAMS" else "",
                    published_mp=total if scoring == "BAM" else "",
                    published_imps=total if scoring not in ("TEAMS", "BAM") else "",
                    published_place=team.value("PLACE"),
                    phantom=bool(members) and all(_PHANTOM.search(p.name) for p in members),
                )
            )

    def _match_result(self, match: _Node) -> None:
        """A MATCH's published result, one standing per team (`opponent` set): VPs (teams) or
        board points (point-a-board), compared with ours and read to choose the VP scale."""
        team, opponents = (
            _team_label(match.value("TEAM")),
            _team_label(match.value("OPPOSING_TEAM")),
        )
        scores = (match.value("TEAM_SCORE"), match.value("OPPOSING_TEAM_SCORE"))
        if not (team and opponents) or not all(scores):
            return
        session, section = self._where()
        name, date, scoring = self._event_facts()
        for who, other, score in ((team, opponents, scores[0]), (opponents, team, scores[1])):
            self.standings.append(
                RawStanding(source_file=self.source, source_line=match.line, event=name,
                            date=date, session=session, section=section, pair=who,
                            published_vp=score if scoring != "BAM" else "",
                            published_mp=score if scoring == "BAM" else "", opponent=other)
            )  # fmt: skip

    def _pair(
        self,
        pair: _Node,
        session: str,
        section: str,
        event: str,
        date: str,
        scoring: str,
        team_name: str,
    ) -> list[_Player]:
        number = pair.value("PAIR_NUMBER")
        players = [
            _Player(p.value("PLAYER_NAME"), p.value("NATIONAL_ID_NUMBER"))
            for p in pair.every("PLAYER")
        ]
        self.players[(session, section, number)] = players
        total = pair.value("TOTAL_SCORE") or pair.value("PAIR_IMPS")
        imps_scored = scoring in ("IMP", "BUTLER", "TEAMS", "BAM")  # teams' pairs: cross-IMPs
        self.standings.append(
            RawStanding(
                source_file=self.source,
                source_line=pair.line,
                event=event,
                date=date,
                session=session,
                section=section,
                direction=pair.value("DIRECTION").upper(),
                pair=number,
                team_name=team_name,
                players=" - ".join(p.name for p in players),
                player_ids=" - ".join(p.pid for p in players),
                published_mp=total if not imps_scored else "",
                published_imps=total if imps_scored else "",
                published_pct=pair.value("PERCENTAGE"),
                published_place=pair.value("PLACE"),
                phantom=bool(players) and all(_PHANTOM.search(p.name) for p in players),
            )
        )
        return players

    # --- boards
    def _handset_board(self, node: _Node) -> None:
        hand = _hand_deal(node)
        if hand is not None and hand.board_no not in self.handset:
            self.handset[hand.board_no] = hand

    def _board(self, node: _Node) -> None:
        board = node.value("BOARD_NUMBER")
        event, date, scoring = self._event_facts()
        session, section = self._where()
        match = self._context("MATCH")
        round_no = team = opponents = ""
        if match is not None:
            round_no = match.value("ROUND_NUMBER")
            team, opponents = match.value("TEAM"), match.value("OPPOSING_TEAM")
        dealer, vulnerable = board_dealer_vulnerability(board)
        own = _hand_deal(node)  # a BOARD may carry its own HANDs
        for line in node.every("TRAVELLER_LINE"):
            rec = RawRecord(
                source_file=self.source,
                source_line=line.line,
                source_format="usebio",
                event=event,
                date=date,
                site=self.club,
                organiser=self.club,
                board_no=board,
                dealer=dealer,
                vulnerable=vulnerable,
                scoring={"TEAMS": "IMP", "BUTLER": "IMP"}.get(scoring, scoring),
                session=session,
                section=section,
                round=round_no,
                ns_pair=line.value("NS_PAIR_NUMBER"),
                ew_pair=line.value("EW_PAIR_NUMBER"),
                contract=line.value("CONTRACT"),
                declarer=line.value("PLAYED_BY").upper(),
                result=line.value("TRICKS"),
                published_ns_mp=line.value("NS_MATCH_POINTS"),
                published_ew_mp=line.value("EW_MATCH_POINTS"),
                published_imps=(
                    line.value("NS_CROSS_IMP_POINTS")
                    or line.value("NS_IMPS")
                    or line.value("NS_BUTLER_POINTS")
                ),
                lead_card=suit_first(line.value("LEAD")),
                published_datum=node.value("BOARD_AVERAGE"),
            )
            score = line.value("SCORE")
            split = adjusted_split(score) if _number(score) is None else ""
            if split:
                rec.adjusted = split
                rec.contract = rec.declarer = rec.result = ""
            else:
                rec.ns_score = score
            if own is not None:
                rec.deal, rec.bidstart = own.deal, own.dealer
            rec.player_numbers = seat_numbers(line)
            direction = line.value("DIRECTION").upper()
            if match is not None:
                self._match_line(rec, node, direction, team, opponents)
            lin_seated = False
            lin = line.value("LIN_DATA")
            if lin:
                lin_seated = _merge_lin(rec, lin, self.source)
            keys = [(session, section), (session, ""), ("", "")]
            self.pending.append(_Pending(rec, [(s, t, "") for s, t in keys], lin_seated))
            if self.current_event is not None:
                self.current_event.append(rec)

    def _match_line(
        self, rec: RawRecord, board: _Node, direction: str, team: str, opponents: str
    ) -> None:
        """A teams line: rooms, teams, and the board's IMPs or points from North-South's side."""
        home_ns = direction != "EW"
        rec.room = "Open" if home_ns else "Closed"
        rec.home_team, rec.visit_team = _team_label(team), _team_label(opponents)
        imps = board.value("IMPS")
        if imps:
            rec.published_imps = imps if home_ns else _negate(imps)
        points, against = board.value("TEAM_POINTS"), board.value("OPPOSING_TEAM_POINTS")
        if points or against:
            rec.published_ns_mp, rec.published_ew_mp = (
                (points, against) if home_ns else (against, points)
            )

    # --- after the last byte
    def finish(self, hands_pbn: str | None, errors: list[RawRecord]) -> ParsedFile:
        deals = dict(self.handset)
        if hands_pbn:
            deals.update(hand_record_deals(hands_pbn))
        one_session = len(self.sessions) <= 1  # board numbers name one deal only then
        seated: dict[tuple[object, ...], dict[str, str]] = {}  # the same pairs, line after line
        for item in self.pending:
            rec = item.rec
            if rec.player_numbers:
                name_seats(rec, self.individuals, item.keys)
            elif not item.lin_seated:
                key = (tuple(item.keys), rec.ns_pair, rec.ew_pair)
                fields = seated.get(key)
                if fields is None:
                    fields = seated[key] = _seat_fields(self.players, *key)
                rec.__dict__.update(fields)
            if not rec.deal and one_session and rec.board_no in deals:
                hand = deals[rec.board_no]
                rec.deal, rec.par_score, rec.par_contract = (
                    hand.deal,
                    hand.par_score,
                    hand.par_contract,
                )
                rec.dealer = hand.dealer or rec.dealer
                rec.vulnerable = hand.vulnerable or rec.vulnerable
                rec.bidstart = rec.bidstart or rec.dealer
        events = [self._event(node, recs) for node, recs in self.events]
        records = [p.rec for p in self.pending] + errors
        return ParsedFile(
            format="usebio",
            records=number_repeats(records),
            standings=self.standings,
            events=events,
        )

    def _event(self, node: _Node, recs: list[RawRecord]) -> RawEvent:
        _, iso = _dates(node.value("DATE"))
        scoring = _scoring(node) or _scoring_from_lines(recs)
        across, top = _matchpoint_field(recs) if scoring == "MP" else (False, "")
        directions = any(s.direction for s in self.standings)
        return RawEvent(
            source_file=self.source,
            event=node.value("EVENT_DESCRIPTION") or node.value("TITLE"),
            organiser=self.club,
            date_start=iso,
            date_end=iso,
            scoring=scoring,
            movement=_movement(node.value("WINNER_TYPE"), directions, recs, scoring),
            across_field=across,
            mp_top=top,
            scorer=node.value("PROGRAM_NAME"),
        )


def parse_usebio(data: bytes, source: str, *, hands_pbn: str | None = None,
                 limits: Limits = DEFAULT_LIMITS) -> ParsedFile:  # fmt: skip
    """Every traveller line, published ranking line and event of a USEBIO file.

    `hands_pbn` is the text of the event's hand-record PBN (Bridgewebs writes `x.hands.pbn` beside
    `x.usebio.xml`): its deals are joined to the lines by board number. Never raises for bad data.
    XML that is not well-formed (a file cut short, or damaged) is refused whole
    (`ParsedFile.refused`, naming the line): what it would give is a ranking of the boards
    before the cut, which the scorer never published, so none of it is read. Other bad data (not
    USEBIO, declared entities) is one record with `parse_error` naming the line and the problem.
    Over the XML `limits` it raises `LimitExceeded` at once.
    """
    data = _utf8_or_declared(data)
    check_tags(data, limits)
    reader = _Reader(source, limits)
    # defusedxml's parser installs the guards (entity declarations refused, external references
    # refused, the DTD never fetched); the elements go straight to the reader, no tree is built.
    guarded = DefusedXMLParser(forbid_dtd=False, forbid_entities=True, forbid_external=True)
    expat = reader.expat = guarded.parser
    expat.buffer_text = True
    expat.ordered_attributes = False
    expat.StartElementHandler = reader.start
    expat.EndElementHandler = reader.end
    expat.CharacterDataHandler = reader.data
    errors: list[RawRecord] = []

    def fail(problem: str) -> None:
        line = expat.CurrentLineNumber or 1
        errors.append(RawRecord(source, line, "usebio", parse_error=problem))

    try:
        for start in range(0, len(data), _CHUNK):
            expat.Parse(data[start : start + _CHUNK], False)
        expat.Parse(b"", True)
    except LimitExceeded:  # refused whole, not read in part
        raise
    except _NotUsebio as exc:
        fail(f"not a USEBIO file: {exc}")
    except DefusedXmlException as exc:
        fail(
            "refused: the XML declares entities (an entity bomb or an external entity is how "
            f"such files attack a reader): {type(exc).__name__}"
        )
    except ExpatError as exc:  # cut short or damaged: refused whole (nothing of it published)
        line = exc.lineno or expat.CurrentLineNumber or 1
        return ParsedFile("usebio", [], refused=(
            f"refused: line {line}: not well-formed XML ({ErrorString(exc.code)}, column {exc.offset}): "
            "the file is cut short or damaged, so none of it is read"))  # fmt: skip
    except (LookupError, ValueError) as exc:  # an unknown declared encoding, a bad character
        line = expat.CurrentLineNumber or 1
        return ParsedFile("usebio", [], refused=f"refused: line {line}: unreadable XML: {exc}; none of "
                          "the file is read")  # fmt: skip
    if errors and reader.stack:  # keep the complete lines of the board the error cut short
        board = next((n for n in reversed(reader.stack) if n.tag == "BOARD"), None)
        if board is not None and not any(n.tag == "HANDSET" for n in reader.stack):
            open_line = board.children[-1] if board.children else None
            if open_line is not None and open_line.tag == "TRAVELLER_LINE":
                board.drop_last()  # the line being read when the error struck is incomplete
            reader.stack = reader.stack[: reader.stack.index(board)]
            reader._board(board)
    if not reader.pending and not errors and not reader.standings:
        errors.append(RawRecord(source, 1, "usebio",
                                parse_error="no USEBIO traveller line or participant"))  # fmt: skip
    return reader.finish(hands_pbn, errors)
