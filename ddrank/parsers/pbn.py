"""PBN reader: text in, raw table results out, with PBN tag inheritance resolved.

A PBN file is a list of games. Files exported from results services write one board's deal once and
then omit `[Board]`/`[Deal]` (or write "#") for the other tables of that board; endplay's parser
leaves those deals empty and DDS then segfaults, so inheritance is resolved here, explicitly.
Text that cannot be read as a game becomes a record with `parse_error` set, never an exception.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import lru_cache

from ddrank.parsers.adjusted import adjusted_split, sides_split
from ddrank.parsers.pbn_blocks import _games
from ddrank.parsers.pbn_lines import _BOARD_TAGS, _EVENT_TAGS, _SEATS, _Game, _LineReader
from ddrank.parsers.pbn_rankings import SEAT_NAMES, match_standings, names_from_standings, standing
from ddrank.parsers.pbn_tables import (
    Table,
    add_row,
    dd_hex,
    parse_spec,
    split_names,
    tricks_of,
)
from ddrank.parsers.producer import pbn_producer, producer_events
from ddrank.raw import BOARD_GAME, ParsedFile, RawRecord, RawStanding, number_repeats

__all__ = ["_Game", "_LineReader", "_games", "iter_pbn", "ns_value", "parse_pbn", "read_pbn"]

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
_SYNTAX_NAMES = tuple(_TAG_SYNTAX)


def _check_tags(game: _Game) -> list[str]:
    """Tag values that break the PBN standard, as "line N: ..." (the record is then unreadable:
    a value that cannot be read is never guessed)."""
    errors = []
    tags = game.tags
    values = "".join(tags.values())
    if not values.isprintable() and _CONTROL.search(values):  # (isprintable: a fast first test)
        for name, value in tags.items():
            if _CONTROL.search(value):
                line = game.tag_lines.get(name, game.line)
                errors.append(f"line {line}: control character in the {name} tag")
    problems = list(map(_value_problem, _SYNTAX_NAMES, map(tags.get, _SYNTAX_NAMES)))
    if any(problems):
        order = list(tags)  # file order: a set's order changes from run to run
        found = [(order.index(n), n, p) for n, p in zip(_SYNTAX_NAMES, problems, strict=True) if p]
        for _, name, problem in sorted(found):
            errors.append(f"line {game.tag_lines.get(name, game.line)}: {problem}")
    return errors


#: A date as exporters write it where PBN wants `yyyy.mm.dd`: ISO separators, one-digit month or
#: day, a time of day after it ("2013-08-10 19:19", "2013.08.10 19:19:05", "2013-08-10T19:19").
_LOOSE_DATE = re.compile(r"^(\d{4})[-./](\d{1,2})[-./](\d{1,2})"
                         r"(?:(?:\s+|T)\d{1,2}[:.h]\d{2}(?:[:.]\d{2})?)?$", re.IGNORECASE)  # fmt: skip


def _loose_date(value: str) -> str:
    """The PBN form ('2013.08.10') of a date the standard does not allow but that says its year,
    month and day unambiguously (year first), else ''. Day-first and month-first dates
    ('10/08/2013') are not guessed."""
    m = _LOOSE_DATE.match(value.strip())
    if not m or not (1 <= int(m.group(2)) <= 12 and 1 <= int(m.group(3)) <= 31):
        return ""
    return f"{m.group(1)}.{int(m.group(2)):02d}.{int(m.group(3)):02d}"


@lru_cache(maxsize=1 << 16)  # values repeat (boards, seats, contracts)
def _value_problem(name: str, value: str | None) -> str | None:
    """Why a tag value breaks the PBN standard's syntax for that tag (None if it does not)."""
    if value is None:  # the tag is not there
        return None
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
    hand record, whose results another file holds). The file's declared producer is the scorer
    of its events (ddrank.parsers.producer)."""
    standings: list[RawStanding] = []
    notes: list[tuple[int, str]] = []
    records = list(iter_pbn(text.splitlines(), source_file, tables, standings, notes=notes))
    events = producer_events(records, pbn_producer(text), standings) if tables else []
    return ParsedFile("pbn", number_repeats(records), standings, events, notes)


def iter_pbn(
    lines: Iterable[str] | None,
    source_file: str,
    tables: bool = True,
    standings: list[RawStanding] | None = None,
    texts: Iterable[str] | None = None,
    notes: list[tuple[int, str]] | None = None,
) -> Iterator[RawRecord]:
    """The records of a PBN text, one at a time, from its lines (without line ends) or from
    pieces of whole lines (`texts`, see `_games`), so a large file is read in bounded memory. Published rankings are
    appended to `standings`; a table published again is noted in `notes` (line, why).

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
    tabled: dict[tuple[str, str, str], set[tuple[object, ...]]] = {}
    ranked_once: set[tuple[object, ...]] = set()
    loose_date = False  # a [Date] read though the standard does not allow it (noted once)
    for game in _games(lines or [], texts):
        date = game.tags.get("Date")
        if date and _value_problem("Date", date):
            fixed = _loose_date(date)
            if fixed:
                game.tags["Date"] = fixed
                if not loose_date and notes is not None:
                    notes.append((game.tag_lines.get("Date", game.line), (
                        f"Date {date!r} is not a PBN Date (yyyy.mm.dd); read as {fixed!r}, "
                        "the same in every game of this file that writes it so")))  # fmt: skip
                loose_date = True
        tags = dict(game.tags)
        if "#" in tags.values():  # "#" means: same as the previous game.
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
        auction = " ".join(game.section_lines("Auction"))
        play = game.sections.get("Play", "")
        play_tokens = play.split() if isinstance(play, str) else " ".join(play).split()
        while play_tokens and play_tokens[-1] == "*":
            play_tokens.pop()
        (event, date, site, board_no, dealer, deal, vulnerable, bidstart, contract, declarer,
         lead, result, north, east, south, west, scoring, home_team, visit_team,
         room) = map(tags.get, _RECORD_TAGS, _BLANKS)  # fmt: skip
        rec = RawRecord(
            source_file, game.line, "pbn", event, date, site, board_no,
            tags.get("Stage", tags.get("Round", "")), dealer, deal, vulnerable, bidstart, auction,
            contract, declarer, lead, " ".join(play_tokens), "columns", result, north, east,
            south, west, scoring, home_team, visit_team, room, "; ".join(game.errors),
        )  # fmt: skip
        _event_model(rec, tags)
        rows: list[RawRecord] = []
        ranked = len(standings)
        if tables and game.tables:
            dd = _tables(game, tags, rec, rows, standings)
            if dd and not getattr(rec, "dd_tricks", ""):
                rec.dd_tricks = dd  # type: ignore[attr-defined]
        if any(not row.parse_error for row in rows):  # its ScoreTable is the board's traveller
            rec.source_format = BOARD_GAME
        carried = rows or len(standings) > ranked  # its tables gave results or a ranking
        rows = _unrepeated(rows, (rec.event, rec.board_no, rec.deal), tabled, notes)
        standings[ranked:] = [st for st in standings[ranked:] if _once(st, ranked_once)]
        if not (carried and _only_tables(rec)):  # a game that only carries its tables is no
            yield rec  # table result (Ruter: no deal, names or contract; the rows are results)
        for row in rows:
            unnamed_ns = row.ns_pair and not (row.northname or row.southname)
            unnamed_ew = row.ew_pair and not (row.eastname or row.westname)
            unnamed = row.player_numbers and not (row.northname or row.eastname)
            if not row.parse_error and (unnamed_ns or unnamed_ew or unnamed):
                waiting.append(row)
            else:
                yield row
    names_from_standings(waiting, standings)
    yield from waiting


def _same(x: RawRecord | RawStanding) -> tuple[object, ...]:
    """What a published row says, wherever it stands in the file."""
    return tuple(v for f, v in vars(x).items() if f not in ("source_line", "occurrence"))


def _unrepeated(rows: list[RawRecord], board: tuple[str, str, str],
                tabled: dict[tuple[str, str, str], set[tuple[object, ...]]],
                notes: list[tuple[int, str]] | None = None) -> list[RawRecord]:  # fmt: skip
    """A board's `ScoreTable` lists all its results, so a later game of the same event and deal
    whose table holds only rows an earlier one gave publishes them again (the PBN standard's
    files repeat part of a table to show "#"): no new results. Else the rows, remembered."""
    said = {_same(r) for r in rows if not r.parse_error}
    if said and board in tabled and said <= tabled[board]:
        if notes is not None:
            notes.append((rows[0].source_line, f"ScoreTable of board {board[1]} repeats rows an "
                          "earlier game of the event gave for the same deal: read once"))  # fmt: skip
        return [r for r in rows if r.parse_error]
    tabled.setdefault(board, set()).update(said)
    return rows


def _once(st: RawStanding, seen: set[tuple[object, ...]]) -> bool:
    """False for a ranking line the file already gave, word for word (a table published again)."""
    key = _same(st)
    if key in seen:
        return False
    seen.add(key)
    return True


_SPEC_COLUMNS: dict[str, list[str]] = {}
# the tags a table result's fields are read from, in `RawRecord`'s order (see `iter_pbn`)
_RECORD_TAGS = ("Event", "Date", "Site", "Board", "Dealer", "Deal", "Vulnerable", "Auction",
                "Contract", "Declarer", "Play", "Result", "North", "East", "South", "West",
                "Scoring", "HomeTeam", "VisitTeam", "Room")  # fmt: skip
_BLANKS = ("",) * len(_RECORD_TAGS)
_ROW_SPECIAL = re.compile(r'["%\[\]{};]')  # a quote, or what add_row reports or skips


def _rows_valid(rows: list[tuple[int, str]] | str, columns: int) -> bool:
    """Whether add_row would accept every row as it is (no comment, no forbidden character,
    `columns` cells each), judged in one pass over the joined text (`rows` may be that text)."""
    text = rows if isinstance(rows, str) else "\n".join([raw for _, raw in rows])
    key = (text, columns)
    valid = _VALID_ROWS.get(key)
    if valid is None:
        if len(_VALID_ROWS) > 4096:  # a table's rows repeat at every table of its board
            _VALID_ROWS.clear()
        valid = _VALID_ROWS[key] = _rows_text_valid(text, columns)
    return valid


_VALID_ROWS: dict[tuple[str, int], bool] = {}


def _rows_text_valid(text: str, columns: int) -> bool:
    if _ROW_SPECIAL.search(text):
        return False
    if not columns:
        return True
    lines = text.split("\n")
    if lines and not lines[-1]:
        lines.pop()
    return set(map(len, map(str.split, lines))) == {columns}


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
        kept = name in ("ScoreTable", "TotalScoreTable") or (
            name == "OptimumResultTable" and "DoubleDummyTricks" not in tags
        )
        columns = _SPEC_COLUMNS.get(spec)
        if not kept and columns is not None and _rows_valid(rows, len(columns)):
            continue  # rows not kept and nothing to report: not split into cells
        if columns is None:
            columns, errors = parse_spec(spec, line)
            if not errors and len(_SPEC_COLUMNS) < 10_000:  # specs repeat on every board
                _SPEC_COLUMNS[spec] = columns
        else:
            columns, errors = list(columns), []
        table = Table(name, line, columns, errors=errors)
        if errors:
            pass
        elif not kept and _rows_valid(rows, len(columns)):
            pass  # rows not kept and nothing to report: not split into cells
        else:
            for row_line, raw in game.table_rows(name):
                add_row(table, row_line, raw)
        for err in table.errors:
            err_line = int(err.split(":")[0].split()[1])  # the game's place: its event and board
            err_rec = RawRecord(source, err_line, "pbn", event=base.event, date=base.date,
                                board_no=base.board_no, parse_error=f"{name}: {err}")  # fmt: skip
            out.append(err_rec)
        if name == "ScoreTable" and "teamid_home" in (c.casefold() for c in table.columns):
            for row_line, row in table.dicts():  # a teams event's matches, not table results
                standings.extend(match_standings(base, row_line, row))
        elif name == "ScoreTable":
            for row_line, row in table.dicts():
                copies = row.get("multiplicity", "")
                for _ in range(int(copies) if copies.isdigit() and 0 < int(copies) < 10_000 else 1):
                    out.append(_score_row(base, row_line, row))
        elif name == "TotalScoreTable":
            standings.extend(standing(base, row_line, row) for row_line, row in table.dicts())
        elif name == "OptimumResultTable" and "DoubleDummyTricks" not in tags:
            dd = dd_hex(table.dicts())
    return dd


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
    # Score_NS and Score_EW each hold their own side's mark: both are read ("A+"/"A+" is
    # 60/60, neither side at fault); a two-sided mark ("A+/A-", "60/40") anywhere is NS/EW.
    ns_cell, ew_cell = row.get("score_ns", ""), row.get("score_ew", "")
    rec.published_datum = row.get("butlerdatum", "")
    if _SITOUT.match(ns_cell) or _SITOUT.match(ew_cell):  # Ruter's "Bye": who sits out has a number
        rec.phantom = "NS" if not rec.ns_pair else "EW" if not rec.ew_pair else ""
        if rec.phantom:
            _published_imps(rec, row)
            return rec
    adjusted = sides_split(ns_cell, ew_cell)
    for cell in (contract, ns_cell, ew_cell, row.get("score", ""), row.get("result", "")):
        adjusted = adjusted or adjusted_split(cell)
    if adjusted:
        rec.adjusted = adjusted
    else:
        rec.contract = contract
        rec.declarer = declarer
        rec.result = tricks_of(row.get("result", ""), contract)
        rec.lead_card = row.get("lead", "")  # PBN 2.1's ScoreTable column: the card led
        side = _SIDE_OF.get(declarer.strip().upper()[:1], "")
        if row.get("score_ns"):
            rec.ns_score = ns_value(row["score_ns"], "NS")
        elif row.get("score_ew"):
            rec.ns_score = ns_value(row["score_ew"], "EW")
        elif row.get("score"):
            rec.ns_score = ns_value(row["score"], side)
    # an individual publishes each seat's own (North's and South's are the same on a board)
    rec.published_ns_mp = row.get("mp_ns", "") or row.get("mp_north", "")
    rec.published_ew_mp = row.get("mp_ew", "") or row.get("mp_east", "")
    rec.published_ns_pct = row.get("percentage_ns", "") or row.get("percentage_north", "")
    rec.published_ew_pct = row.get("percentage_ew", "") or row.get("percentage_east", "")
    _published_imps(rec, row)
    numbers = [row.get(f"playerid_{key}", "") for key, _ in SEAT_NAMES]
    individual = all(numbers) and not (rec.ns_pair or rec.ew_pair)
    if individual:  # an individual event: each seat is a player, numbered in the event
        rec.player_numbers = "|".join(numbers)
    for key, attr in SEAT_NAMES:
        setattr(rec, attr, row.get(key, ""))
        if not individual:
            setattr(rec, f"{key}_id", row.get(f"playerid_{key}", ""))
    if row.get("names_ns"):
        rec.northname, rec.southname = split_names(row["names_ns"])
    if row.get("names_ew"):
        rec.eastname, rec.westname = split_names(row["names_ew"])
    return rec


def _only_tables(rec: RawRecord) -> bool:
    """The game says nothing of its own: no deal, players, contract, result, score or play."""
    return not any(v.strip() for v in (
        rec.deal, rec.contract, rec.declarer, rec.result, rec.ns_score, rec.auction, rec.play,
        rec.northname, rec.eastname, rec.southname, rec.westname, rec.published_imps,
        rec.published_ns_mp, rec.published_ns_pct, rec.adjusted, rec.parse_error))  # fmt: skip


#: A ScoreTable cell saying the pair without a number sat out (Ruter, Magic Contest: "Bye").
_SITOUT = re.compile(r"^\s*(bye|sit[\s-]*out)\s*$", re.IGNORECASE)


def _published_imps(rec: RawRecord, row: dict[str, str]) -> None:
    """North-South's published IMPs of a row (`IMP_NS`, else minus `IMP_EW`)."""
    if row.get("imp_ns"):
        rec.published_imps = _plain(row["imp_ns"])
    elif row.get("imp_ew"):
        rec.published_imps = _negate(row["imp_ew"])


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
    if mp := tags.get("ScoreMP"):  # (the fields are "" when the tag is not there)
        rec.published_ns_mp = ns_value(mp, "", "NS")
        rec.published_ew_mp = ns_value(mp, "", "EW")
    if pct := tags.get("ScorePercentage"):
        rec.published_ns_pct = ns_value(pct, "", "NS")
        rec.published_ew_pct = ns_value(pct, "", "EW")
    if par := tags.get("OptimumScore"):
        rec.par_score = ns_value(par, "")
    rec.par_contract = tags.get("ParContract", "")
    if "DoubleDummyTricks" in tags:  # kept for the `deals` table of a hand record (not hashed)
        rec.dd_tricks = tags["DoubleDummyTricks"]  # type: ignore[attr-defined]


_SIDE_OF = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}
_NUMBER = re.compile(r"^[+-]?\d+(?:[.,]\d+)?$")


@lru_cache(maxsize=1 << 16)  # scores, IMPs and par repeat from table to table
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
