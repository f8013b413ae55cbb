"""PBN reader: text in, raw table results out, with PBN tag inheritance resolved.

A PBN file is a list of games. Files exported from results services write one board's deal once and
then omit `[Board]`/`[Deal]` (or write "#") for the other tables of that board; endplay's parser
leaves those deals empty and DDS then segfaults, so inheritance is resolved here, explicitly.
Text that cannot be read as a game becomes a record with `parse_error` set, never an exception.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from ddrank.parsers.adjusted import adjusted_split
from ddrank.parsers.pbn_tables import (
    Table,
    add_row,
    dd_hex,
    parse_spec,
    split_names,
    tricks_of,
)
from ddrank.raw import ParsedFile, RawRecord, RawStanding, number_repeats

# one tag on a line, its value free of bare quotes (a quote not after a backslash): otherwise
# the line holds several tags, read by the token path
_TAG = re.compile(r'^\[(\w+)\s+"([^"]*(?:\\"[^"]*)*)"\]\s*$')
_ANY_TAG = re.compile(r'\[\s*(\w+)\s*"((?:[^"\\]|\\.)*)"\s*\]')


def _open_brackets(text: str) -> int:
    """`[` minus `]` outside double quotes: > 0 while a tag is still open."""
    depth, quoted = 0, False
    for ch in text:
        if ch == '"':
            quoted = not quoted
        elif not quoted:
            depth += (ch == "[") - (ch == "]")
    return depth


# Tags that describe the board (and event), shared by every table result of one board.
_BOARD_TAGS = ("Event", "Site", "Date", "Stage", "Board", "Dealer", "Vulnerable", "Deal", "Scoring")
_EVENT_TAGS = ("Event", "Site", "Date", "Stage", "Scoring", "HomeTeam", "VisitTeam", "Round")
_SECTION_TAGS = ("Auction", "Play")
_IDENTITY_TAGS = frozenset(_BOARD_TAGS + ("North", "East", "South", "West"))
_SEATS = ("North", "East", "South", "West")


class _Game:
    __slots__ = ("line", "tags", "sections", "current", "errors", "tables", "table", "tag_lines")

    def __init__(self, line: int) -> None:
        self.line = line
        self.tags: dict[str, str] = {}
        self.tag_lines: dict[str, int] = {}
        self.sections: dict[str, list[str]] = {}
        self.current: str | None = None
        self.errors: list[str] = []
        # table tag -> (line of the tag, [(line, raw row text)])
        self.tables: dict[str, tuple[int, list[tuple[int, str]]]] = {}
        self.table: str | None = None


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


def _tag_kind(name: str) -> tuple[bool, str | None, str | None]:
    """(identity tag, section it opens, table it opens) of a tag name."""
    table = name if name.endswith("Table") and name != "Table" else None
    return name in _IDENTITY_TAGS, name if name in _SECTION_TAGS else None, table


_TAG_KINDS: dict[str, tuple[bool, str | None, str | None]] = {}


def _games(lines: str | Iterable[str]) -> Iterator[_Game]:
    """The games of a PBN text (a whole text, or its lines one at a time)."""
    if isinstance(lines, str):
        lines = lines.splitlines()
    game: _Game | None = None
    in_brace = False
    garbage_at: int | None = None
    pending: str | None = None  # a tag not closed yet on its first line
    pending_at = 0
    kinds = _TAG_KINDS
    for lineno, raw_line in enumerate(lines, start=1):
        if not in_brace:
            if raw_line[:1] == "%":
                continue
            if game is not None and game.table:
                stripped = raw_line.strip()
                if stripped and stripped[0] != "[":
                    game.tables[game.table][1].append((lineno, stripped))  # judged by pbn_tables
                    if stripped[0] == "{" and "}" not in stripped:
                        in_brace = True
                    continue
            if pending is None and "{" not in raw_line and ";" not in raw_line:
                # the common lines, without comments: one tag, or a section's data line
                line = raw_line.strip()
                if line[:1] == "[" and game is not None:
                    m = _TAG.match(line)
                    if m is not None:
                        name, value = m.groups()
                        kind = kinds.get(name)
                        if kind is None:
                            kind = kinds[name] = _tag_kind(name)
                        if kind[0] and name in game.tags:
                            # a repeated identity tag without a blank line starts the next game
                            yield game
                            game = _Game(lineno)
                        game.tags[name] = value
                        game.tag_lines[name] = lineno
                        game.current = kind[1]
                        game.table = kind[2]
                        if kind[2]:
                            game.tables[name] = (lineno, [])
                        elif kind[1]:
                            game.sections[name] = []
                        continue
                elif line and game is not None and game.tags:
                    if game.current:
                        game.sections[game.current].append(line)
                    continue  # data lines of other sections (tables, notes) are not needed
        line, in_brace = _strip_comments(raw_line, in_brace)
        line = line.strip()
        if not line:
            if raw_line.strip():
                continue  # a line that held only a comment does not end the game
            if game is not None and (game.tags or game.errors):
                yield game
                game = None
            continue
        if pending is not None or line.startswith("["):
            if game is None:
                game = _Game(lineno)
            m = _TAG.match(line) if pending is None else None
            if m is not None:  # (`[Event "a"] [Date "b"]`, two tags on one line, does not match)
                found = [m.groups()]
            else:  # PBN is token-based: tags may share a line or span several lines
                if pending is None:
                    pending, pending_at = line, lineno
                else:
                    pending += " " + line
                if (
                    line.count('"') % 2 == 0
                    and _open_brackets(pending) > 0
                    and lineno - pending_at < 20
                ):
                    continue
                found = [(t.group(1), t.group(2)) for t in _ANY_TAG.finditer(pending)]
                rest = _ANY_TAG.sub("", pending).strip()
                if rest or not found:
                    game.errors.append(f"line {pending_at}: malformed tag {pending[:80]!r}")
                    game.current = game.table = None
                    pending = None
                    continue
                pending = None
            for name, value in found:
                if name in _IDENTITY_TAGS and name in game.tags:
                    # a repeated identity tag without a blank line starts the next game
                    yield game
                    game = _Game(lineno)
                game.tags[name] = value
                game.tag_lines[name] = lineno
                game.current = name if name in _SECTION_TAGS else None
                game.table = name if name.endswith("Table") and name != "Table" else None
                if game.table:
                    game.tables[name] = (lineno, [])
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


# Tag values the PBN standard fixes, checked as written ("" and "?" mean unknown, "#" inherits).
_TAG_SYNTAX = {
    "Date": re.compile(r"^(\d{4}|\?{4})\.(\d\d|\?\?)\.(\d\d|\?\?)$"),
    "Board": re.compile(r"^\d+$"),
    "Dealer": re.compile(r"^[NESW]$", re.IGNORECASE),
    "Vulnerable": re.compile(r"^(None|Love|-|NS|EW|All|Both)$", re.IGNORECASE),
    "Declarer": re.compile(r"^\^?[NESW]$", re.IGNORECASE),
    # "3N" is how many exporters write 3NT; a bare strain is an end position (PBN 2.0)
    "Contract": re.compile(r"^(Pass|[1-7]?(C|D|H|S|NT|N)(X|XX|R)?)$", re.IGNORECASE),
    "Result": re.compile(r"^(\^?\d{1,2}|(NS|EW) \d{1,2}( (NS|EW) \d{1,2})?)$"),
    "OptimumScore": re.compile(r"^(NS|EW)( [^;]+;)? ?[+-]?\d+$"),
    "Score": re.compile(r"^((NS|EW) )?[+-]?\d+$"),
    "ScorePercentage": re.compile(r"^((NS|EW) )?\d+(\.\d*)?( (NS|EW) \d+(\.\d*)?)?$"),
    "ScoreMP": re.compile(r"^((NS|EW) )?\d+(\.\d*)?( (NS|EW) \d+(\.\d*)?)?$"),
}


_CONTROL = re.compile(r"[\x00-\x1f]")


def _check_tags(game: _Game) -> list[str]:
    """Tag values that break the PBN standard, as "line N: ..." (the record is then unreadable:
    a value that cannot be read is never guessed)."""
    errors = []
    tags = game.tags
    if _CONTROL.search("".join(tags.values())):
        for name, value in tags.items():
            if _CONTROL.search(value):
                line = game.tag_lines.get(name, game.line)
                errors.append(f"line {line}: control character in the {name} tag")
    for name, value in tags.items():  # file order: a set's order changes from run to run
        if name not in _TAG_SYNTAX:
            continue
        key = (name, value)
        problem = _VALUE_PROBLEMS.get(key, False)
        if problem is False:
            if len(_VALUE_PROBLEMS) > 50_000:  # values repeat (boards, seats, contracts)
                _VALUE_PROBLEMS.clear()
            problem = _VALUE_PROBLEMS[key] = _value_problem(name, value)
        if problem:
            errors.append(f"line {game.tag_lines.get(name, game.line)}: {problem}")
    return errors


_VALUE_PROBLEMS: dict[tuple[str, str], str | None] = {}


def _value_problem(name: str, value: str) -> str | None:
    """Why a tag value breaks the PBN standard's syntax for that tag (None if it does not)."""
    v = value.strip().removeprefix("##")  # "##" hides a value (PBN 2.0), it stays valid
    if v not in ("", "?", "#") and not _TAG_SYNTAX[name].match(v):
        return f"{name} {value!r} is not a valid PBN {name}"
    if name == "Result" and v.count(" ") == 3:
        tricks = [int(t) for t in v.split()[1::2]]
        if sum(tricks) != 13 or v.split()[0] == v.split()[2]:
            return f"Result {value!r}: the tricks do not add up to 13"
    return None


def parse_pbn(text: str, source_file: str) -> list[RawRecord]:
    """Every game of a PBN text as a raw record, inheritance resolved, and every row of its
    `ScoreTable`s as a raw record of its own."""
    return read_pbn(text, source_file).records


def read_pbn(text: str, source_file: str, tables: bool = True) -> ParsedFile:
    """A PBN file as a ParsedFile: table results (games and `ScoreTable` rows), published
    rankings (`TotalScoreTable`) and events. `tables=False` reads the games alone (a companion
    hand record, whose results another file holds)."""
    standings: list[RawStanding] = []
    records = list(iter_pbn(text.splitlines(), source_file, tables, standings))
    return ParsedFile("pbn", number_repeats(records), standings)


def iter_pbn(
    lines: Iterable[str],
    source_file: str,
    tables: bool = True,
    standings: list[RawStanding] | None = None,
) -> Iterator[RawRecord]:
    """The records of a PBN text, one at a time, from its lines (without line ends), so a large
    file is read in bounded memory. Published rankings are appended to `standings`.

    `ScoreTable` rows with pair numbers but no names wait for the `TotalScoreTable` (often at
    the end of the file) that names the pairs; every other record is yielded at once. Identical
    records are not numbered here (`number_repeats` or the caller's running count do that).
    """
    standings = standings if standings is not None else []
    waiting: list[RawRecord] = []
    prev: dict[str, str] = {}
    # Exports name the players of each table once per match: the k-th table result of a board
    # inherits the names of the k-th table result of the previous board.
    names_by_table: dict[int, dict[str, str]] = {}
    table = -1
    for game in _games(lines):
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
        game.errors.extend(_check_tags(game))
        if game.errors and not game.tags:
            yield RawRecord(source_file, game.line, "pbn", parse_error="; ".join(game.errors))
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
        rows: list[RawRecord] = []
        if tables and game.tables:
            dd = _tables(game, tags, rec, rows, standings)
            if dd and not getattr(rec, "dd_tricks", ""):
                rec.dd_tricks = dd  # type: ignore[attr-defined]
        yield rec
        for row in rows:
            unnamed_ns = row.ns_pair and not (row.northname or row.southname)
            unnamed_ew = row.ew_pair and not (row.eastname or row.westname)
            if not row.parse_error and (unnamed_ns or unnamed_ew):
                waiting.append(row)
            else:
                yield row
    _names_from_standings(waiting, standings)
    yield from waiting


_ROW_SPECIAL = re.compile(r'["%\[\]{};]')  # a quote, or what add_row reports or skips


def _rows_valid(rows: list[tuple[int, str]], columns: int) -> bool:
    """Whether add_row would accept every row as it is (no comment, no forbidden character,
    `columns` cells each), judged in one pass over the joined text."""
    if _ROW_SPECIAL.search("\n".join([raw for _, raw in rows])):
        return False
    return not columns or set(map(len, map(str.split, [raw for _, raw in rows]))) == {columns}


def _tables(
    game: _Game,
    tags: dict[str, str],
    base: RawRecord,
    out: list[RawRecord],
    standings: list[RawStanding],
) -> str:
    """Read a game's tables: ScoreTable rows become records, TotalScoreTable rows standings,
    problems become unreadable records at their line. Returns the OptimumResultTable as
    DoubleDummyTricks hex digits ("" if none)."""
    dd = ""
    source = base.source_file
    for name, (line, rows) in game.tables.items():
        spec = tags.get(name, "")
        columns, errors = parse_spec(spec, line)
        table = Table(name, line, columns, errors=errors)
        kept = name in ("ScoreTable", "TotalScoreTable") or (
            name == "OptimumResultTable" and "DoubleDummyTricks" not in tags
        )
        if errors:
            pass
        elif not kept and _rows_valid(rows, len(columns)):
            pass  # rows not kept and nothing to report: not split into cells
        else:
            for row_line, raw in rows:
                add_row(table, row_line, raw)
        for err in table.errors:
            out.append(RawRecord(source, int(err.split(":")[0].split()[1]), "pbn",
                                 parse_error=f"{name}: {err}"))  # fmt: skip
        if name == "ScoreTable":
            for row_line, row in table.dicts():
                copies = row.get("multiplicity", "")
                for _ in range(int(copies) if copies.isdigit() and 0 < int(copies) < 10_000 else 1):
                    out.append(_score_row(base, row_line, row))
        elif name == "TotalScoreTable":
            standings.extend(_standing(base, row_line, row) for row_line, row in table.dicts())
        elif name == "OptimumResultTable" and "DoubleDummyTricks" not in tags:
            dd = dd_hex(table.dicts())
    return dd


_SEAT_NAMES = (("north", "northname"), ("east", "eastname"), ("south", "southname"),
               ("west", "westname"))  # fmt: skip


def _score_row(base: RawRecord, line: int, row: dict[str, str]) -> RawRecord:
    """One ScoreTable row as a table result of the game's board."""
    contract = row.get("contract", "")
    declarer = row.get("declarer", "")
    rec = RawRecord(
        source_file=base.source_file, source_line=line, source_format="pbn",
        event=base.event, date=base.date, site=base.site, board_no=base.board_no,
        stage=base.stage, dealer=base.dealer, deal=base.deal, vulnerable=base.vulnerable,
        scoring=base.scoring, home_team=base.home_team, visit_team=base.visit_team,
        organiser=base.organiser, session=base.session, round=row.get("round", base.round),
        section=row.get("section", "") or base.section, table_no=row.get("table", ""),
        ns_pair=row.get("pairid_ns", ""), ew_pair=row.get("pairid_ew", ""),
        par_score=base.par_score, par_contract=base.par_contract,
    )  # fmt: skip
    adjusted = ""
    for cell, side in ((contract, "NS"), (row.get("score_ns", ""), "NS"),
                       (row.get("score_ew", ""), "EW"), (row.get("score", ""), "NS"),
                       (row.get("result", ""), "NS")):  # fmt: skip
        split = adjusted_split(cell)
        if split and side == "EW" and "/" not in cell:  # "A+" in the EW column is EW's mark
            ns, _, ew = split.partition("/")
            split = f"{ew}/{ns}"
        adjusted = adjusted or split
    if adjusted:
        rec.adjusted = adjusted
    else:
        rec.contract = contract
        rec.declarer = declarer
        rec.result = tricks_of(row.get("result", ""), contract)
        side = _SIDE_OF.get(declarer.strip().upper()[:1], "")
        if row.get("score_ns"):
            rec.ns_score = ns_value(row["score_ns"], "NS")
        elif row.get("score_ew"):
            rec.ns_score = ns_value(row["score_ew"], "EW")
        elif row.get("score"):
            rec.ns_score = ns_value(row["score"], side)
    rec.published_ns_mp = row.get("mp_ns", "")
    rec.published_ew_mp = row.get("mp_ew", "")
    rec.published_ns_pct = row.get("percentage_ns", "")
    rec.published_ew_pct = row.get("percentage_ew", "")
    if row.get("imp_ns"):
        rec.published_imps = _plain(row["imp_ns"])
    elif row.get("imp_ew"):
        rec.published_imps = _negate(row["imp_ew"])
    for key, attr in _SEAT_NAMES:
        setattr(rec, attr, row.get(key, ""))
        setattr(rec, f"{key}_id", row.get(f"playerid_{key}", ""))
    if row.get("names_ns"):
        rec.northname, rec.southname = split_names(row["names_ns"])
    if row.get("names_ew"):
        rec.eastname, rec.westname = split_names(row["names_ew"])
    return rec


def _standing(base: RawRecord, line: int, row: dict[str, str]) -> RawStanding:
    """One TotalScoreTable row as a published ranking line."""

    def first(*keys: str) -> str:
        return next((row[k] for k in keys if row.get(k)), "")

    names = first("names", "name", "teamname")
    players = (
        " - ".join(p.strip() for p in names.split(";") if p.strip()) if ";" in names else names
    )
    return RawStanding(
        source_file=base.source_file, source_line=line, event=base.event, date=base.date,
        session=base.session, section=first("section"), direction=first("direction", "line"),
        pair=first("pairid", "pairid_ns", "pairid_ew", "teamid", "pair", "team"),
        team_name=first("teamname", "team_name"), players=players,
        player_ids=first("playerids", "memberid"),
        published_mp=first("totalscoremp", "mp", "totalmp"),
        published_pct=first("totalpercentage", "percentage"),
        published_imps=first("totalscoreimp", "imp", "totalimp"),
        published_vp=first("totalscorevp", "vp", "totalvp"),
        published_place=first("rank"),
    )  # fmt: skip


def _names_from_standings(records: list[RawRecord], standings: list[RawStanding]) -> None:
    """ScoreTable rows without names take them from the TotalScoreTable (by pair number)."""
    # a Mitchell numbers NS and EW pairs separately: match the direction when the ranking has it
    by_pair: dict[tuple[str, str, str], str] = {}
    for st in standings:
        if st.pair and st.players:
            direction = st.direction.upper().replace("-", "")
            for key in ((st.section, direction, st.pair), (st.section, "", st.pair),
                        ("", "", st.pair)):  # fmt: skip
                by_pair.setdefault(key, st.players)
    for rec in records:
        for pair, direction, seats in ((rec.ns_pair, "NS", ("northname", "southname")),
                                       (rec.ew_pair, "EW", ("eastname", "westname"))):  # fmt: skip
            if not pair or getattr(rec, seats[0]) or getattr(rec, seats[1]):
                continue
            names = (
                by_pair.get((rec.section, direction, pair))
                or by_pair.get((rec.section, "", pair))
                or by_pair.get(("", "", pair))
            )
            if names:
                a, b = split_names(names)
                setattr(rec, seats[0], a)
                setattr(rec, seats[1], b)


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
        section = " v ".join(sorted((rec.home_team, rec.visit_team)))  # rooms swap home/visit
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
