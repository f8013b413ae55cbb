"""PBN reader: text in, raw table results out, with PBN tag inheritance resolved.

A PBN file is a list of games. Files exported from results services write one board's deal once and
then omit `[Board]`/`[Deal]` (or write "#") for the other tables of that board; endplay's parser
leaves those deals empty and DDS then segfaults, so inheritance is resolved here, explicitly.
Text that cannot be read as a game becomes a record with `parse_error` set, never an exception.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ddrank.raw import ParsedFile, RawRecord, number_repeats

_TAG = re.compile(r'^\[(\w+)\s+"(.*)"\]\s*$')
# Tags that describe the board (and event), shared by every table result of one board.
_BOARD_TAGS = ("Event", "Site", "Date", "Stage", "Board", "Dealer", "Vulnerable", "Deal", "Scoring")
_EVENT_TAGS = ("Event", "Site", "Date", "Stage", "Scoring", "HomeTeam", "VisitTeam", "Round")
_SECTION_TAGS = ("Auction", "Play")
_SEATS = ("North", "East", "South", "West")


class _Game:
    __slots__ = ("line", "tags", "sections", "current", "errors")

    def __init__(self, line: int) -> None:
        self.line = line
        self.tags: dict[str, str] = {}
        self.sections: dict[str, list[str]] = {}
        self.current: str | None = None
        self.errors: list[str] = []


def _strip_comments(line: str, in_brace: bool) -> tuple[str, bool]:
    """Remove `{...}` (possibly spanning lines) and `;` rest-of-line comments."""
    if not in_brace and "{" not in line and ";" not in line:
        return line, False  # the common case, kept fast
    out = []
    i = 0
    while i < len(line):
        ch = line[i]
        if in_brace:
            j = line.find("}", i)
            if j < 0:
                return "".join(out), True
            in_brace, i = False, j + 1
            continue
        if ch == "{":
            in_brace = True
        elif ch == ";":
            break
        elif ch == '"':  # keep quoted tag values intact, braces and semicolons included
            j = line.find('"', i + 1)
            j = len(line) - 1 if j < 0 else j
            out.append(line[i : j + 1])
            i = j + 1
            continue
        else:
            out.append(ch)
        i += 1
    return "".join(out), in_brace


def _games(text: str) -> Iterator[_Game]:
    game: _Game | None = None
    in_brace = False
    garbage_at: int | None = None
    for lineno, raw_line in enumerate(text.splitlines(), start=1):
        if raw_line.startswith("%") and not in_brace:
            continue
        line, in_brace = _strip_comments(raw_line, in_brace)
        line = line.strip()
        if not line:
            if raw_line.strip():
                continue  # a line that held only a comment does not end the game
            if game is not None and game.tags:
                yield game
                game = None
            continue
        if line.startswith("["):
            m = _TAG.match(line)
            if game is None:
                game = _Game(lineno)
            if m is None:
                game.errors.append(f"line {lineno}: malformed tag {raw_line.strip()[:80]!r}")
                game.current = None
                continue
            name, value = m.group(1), m.group(2)
            if name in game.tags and name in _BOARD_TAGS + ("North", "East", "South", "West"):
                # a repeated identity tag without a blank line starts the next game
                yield game
                game = _Game(lineno)
            game.tags[name] = value
            game.current = name if name in _SECTION_TAGS else None
            if game.current:
                game.sections[name] = []
            continue
        if game is not None and game.tags:
            if game.current:
                game.sections[game.current].append(line)
            continue  # data lines of other sections (tables, notes) are not needed
        # text outside any game: report it once per block, keep going
        if garbage_at is None or garbage_at != lineno - 1:
            g = _Game(lineno)
            g.errors.append(f"line {lineno}: text outside a PBN game: {raw_line.strip()[:80]!r}")
            yield g
        garbage_at = lineno
    if game is not None and (game.tags or game.errors):
        if in_brace:
            game.errors.append("file ends inside a {comment}")
        yield game


def parse_pbn(text: str, source_file: str) -> list[RawRecord]:
    """Every game of a PBN text as a raw record, inheritance resolved."""
    records: list[RawRecord] = []
    prev: dict[str, str] = {}
    # Exports name the players of each table once per match: the k-th table result of a board
    # inherits the names of the k-th table result of the previous board.
    names_by_table: dict[int, dict[str, str]] = {}
    table = -1
    for game in _games(text):
        tags = dict(game.tags)
        # "#" means: same as the previous game.
        for name, value in list(tags.items()):
            if value == "#":
                tags[name] = prev.get(name, "")
        same_board = "Board" not in tags or tags.get("Board") == prev.get("Board")
        for name in _EVENT_TAGS:
            if name not in tags and name in prev:
                tags[name] = prev[name]
        if same_board:
            for name in _BOARD_TAGS:
                if name not in tags and name in prev:
                    tags[name] = prev[name]
        if game.tags:
            table = 0 if not same_board else table + 1
            given = {n: tags[n] for n in _SEATS if n in game.tags}
            if given:
                names_by_table[table] = given
            else:
                tags.update(names_by_table.get(table, {}))
            prev = tags
        if game.errors and not game.tags:
            records.append(
                RawRecord(source_file, game.line, "pbn", parse_error="; ".join(game.errors))
            )
            continue
        auction = " ".join(game.sections.get("Auction", []))
        play_tokens = " ".join(game.sections.get("Play", [])).split()
        while play_tokens and play_tokens[-1] == "*":
            play_tokens.pop()
        rec = RawRecord(
            source_file=source_file,
            source_line=game.line,
            source_format="pbn",
            event=tags.get("Event", ""),
            date=tags.get("Date", ""),
            site=tags.get("Site", ""),
            board_no=tags.get("Board", ""),
            stage=tags.get("Stage", tags.get("Round", "")),
            dealer=tags.get("Dealer", ""),
            deal=tags.get("Deal", ""),
            vulnerable=tags.get("Vulnerable", ""),
            bidstart=tags.get("Auction", ""),
            auction=auction,
            contract=tags.get("Contract", ""),
            declarer=tags.get("Declarer", ""),
            lead=tags.get("Play", ""),
            play=" ".join(play_tokens),
            play_format="columns",
            result=tags.get("Result", ""),
            northname=tags.get("North", ""),
            eastname=tags.get("East", ""),
            southname=tags.get("South", ""),
            westname=tags.get("West", ""),
            scoring=tags.get("Scoring", ""),
            home_team=tags.get("HomeTeam", ""),
            visit_team=tags.get("VisitTeam", ""),
            room=tags.get("Room", ""),
            parse_error="; ".join(game.errors),
        )
        _event_model(rec, tags)
        records.append(rec)
    return number_repeats(records)


def _event_model(rec: RawRecord, tags: dict[str, str]) -> None:
    """The event-model fields a per-table PBN game carries in its tags.

    Session is `[Stage]` (the 2012 sample's "QtrF:3"); the section is `[Section]`, else, for a
    teams match, the match itself ("Monaco v Fleisher"): in a knockout, each match of one stage
    plays its own deals, so board 1 of "QtrF:1" is several different deals.
    """
    rec.session = tags.get("Stage", "")
    rec.round = tags.get("Round", "")
    section = tags.get("Section", "")
    if not section and (rec.home_team or rec.visit_team):
        section = f"{rec.home_team} v {rec.visit_team}"
    rec.section = section
    rec.table_no = tags.get("Table", "")
    declarer_side = _SIDE_OF.get(rec.declarer.strip().upper(), "")
    rec.ns_score = ns_value(tags.get("Score", ""), declarer_side)
    rec.published_imps = ns_value(tags.get("ScoreIMP", ""), declarer_side)
    rec.published_ns_mp = ns_value(tags.get("ScoreMP", ""), "", side_only="NS")
    rec.published_ew_mp = ns_value(tags.get("ScoreMP", ""), "", side_only="EW")
    rec.published_ns_pct = ns_value(tags.get("ScorePercentage", ""), "", side_only="NS")
    rec.published_ew_pct = ns_value(tags.get("ScorePercentage", ""), "", side_only="EW")
    par = tags.get("OptimumScore", "")
    rec.par_score = ns_value(par, "")
    rec.par_contract = tags.get("ParContract", "")
    if "DoubleDummyTricks" in tags:  # kept for the `deals` table of a hand record (not hashed)
        rec.dd_tricks = tags["DoubleDummyTricks"]  # type: ignore[attr-defined]


_SIDE_OF = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}
_NUMBER = re.compile(r"^[+-]?\d+(?:[.,]\d+)?$")


def ns_value(text: str, declarer_side: str, side_only: str = "") -> str:
    """North-South's value from a PBN score-like tag: "NS 420", "EW -50", "NS 4 EW -4",
    "NS 7N; +1520" (par with its contract) or a bare "420" (the declarer's side, per PBN).

    With `side_only` ("NS"/"EW") the value that side is given, as written (ScoreMP and
    ScorePercentage are per side, not opposite numbers). "" when the tag does not say.
    """
    t = text.replace(";", " ").split()
    if not t:
        return ""
    values: dict[str, str] = {}
    side = ""
    for tok in t:
        up = tok.upper()
        if up in ("NS", "EW"):
            side = up
        elif _NUMBER.match(tok) and side and side not in values:
            values[side] = tok.replace(",", ".")
    if side_only:
        return values.get(side_only, "")
    if "NS" in values:
        return _plain(values["NS"])
    if "EW" in values:
        return _negate(values["EW"])
    if len(t) == 1 and _NUMBER.match(t[0]) and declarer_side:
        return _plain(t[0]) if declarer_side == "NS" else _negate(t[0])
    return ""


def _plain(number: str) -> str:
    return number.lstrip("+").replace(",", ".")


def _negate(number: str) -> str:
    n = _plain(number)
    if n.startswith("-"):
        return n[1:]
    return n if n.strip("0.") == "" else "-" + n


def read_pbn(text: str, source_file: str) -> ParsedFile:
    """A PBN file as a ParsedFile: its table results, published rankings and events."""
    return ParsedFile("pbn", parse_pbn(text, source_file))
