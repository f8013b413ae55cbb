"""A PBN file's published rankings and match results: `TotalScoreTable` rows as ranking lines,
a teams `ScoreTable` of matches (Ruter) as each team's match result, and the names a ranking gives
the table results that only carry pair (or player) numbers."""

from __future__ import annotations

from ddrank.parsers.pbn_tables import split_names
from ddrank.raw import RawRecord, RawStanding

SEAT_NAMES = (("north", "northname"), ("east", "eastname"), ("south", "southname"),
              ("west", "westname"))  # fmt: skip


def match_standings(base: RawRecord, line: int, row: dict[str, str]) -> list[RawStanding]:
    """A Ruter teams ScoreTable row (`Round;Table;TeamId_Home;TeamId_Away;MatchDetails;VP_Home;
    VP_Away`) as each team's published match result: its IMPs (`MatchDetails` "200,25,8": the
    last two are home's and away's IMPs) and VPs against the other team, the round its session."""
    home, away = row.get("teamid_home", ""), row.get("teamid_away", "")
    details = [d.strip() for d in row.get("matchdetails", "").split(",")]
    imps = details[-2:] if len(details) >= 2 else ["", ""]
    out = []
    for team, other, vp, imp in ((home, away, row.get("vp_home", ""), imps[0]),
                                 (away, home, row.get("vp_away", ""), imps[1])):  # fmt: skip
        if team and other:
            out.append(RawStanding(source_file=base.source_file, source_line=line,
                                   event=base.event, date=base.date,
                                   session=row.get("round", "") or base.session, pair=team,
                                   published_vp=vp, published_imps=imp, opponent=other))  # fmt: skip
    return out


#: A ranking line's direction as written ("N-S", Ruter; Swedish "Ö-V", Norwegian "Ø-V", German
#: "O-W", French "E-O") as the event model keeps it ("NS").
_DIRECTIONS = {"N-S": "NS", "NS": "NS", "E-W": "EW", "EW": "EW", "Ö-V": "EW", "Ø-V": "EW",
               "O-V": "EW", "O-W": "EW", "E-O": "EW"}  # fmt: skip


def standing(base: RawRecord, line: int, row: dict[str, str]) -> RawStanding:
    """One TotalScoreTable row as a published ranking line."""

    def first(*keys: str) -> str:
        return next((row[k] for k in keys if row.get(k)), "")

    names = first("names", "name", "roster", "teamname")
    players = (
        " - ".join(p.strip() for p in names.split(";") if p.strip()) if ";" in names else names
    )
    # One session of a longer event (Magic Contest, Ruter): `Total*` and `Rank` are cumulative
    # over `NrBoards`, this session's own values are `Session*` over `NrBoardsSession`.
    total_boards, session_boards = first("nrboards"), first("nrboardssession")
    cumulative: dict[str, str] = {}
    if (total_boards.isdigit() and session_boards.isdigit()
            and int(total_boards) > int(session_boards)):  # fmt: skip
        cumulative = {"cumulative_place": first("rank"), "cumulative_mp": first("totalscoremp"),
                      "cumulative_pct": first("totalpercentage"),
                      "cumulative_boards": total_boards}  # fmt: skip
        row = {**row, "totalscoremp": row.get("sessionscoremp", ""),
               "totalpercentage": row.get("sessionpercentage", ""),
               "rank": row.get("sessionrank", "")}  # fmt: skip
    return RawStanding(
        source_file=base.source_file, source_line=line, event=base.event, date=base.date,
        session=base.session, section=first("section"),
        direction=_DIRECTIONS.get(first("direction", "line").upper(), first("direction", "line")),
        pair=first("pairid", "pairid_ns", "pairid_ew", "teamid", "playerid", "pair", "team"),
        team_name=first("teamname", "team_name"), players=players,
        player_ids=first("playerids", "memberid"),
        # a teams ranking's bare `MP` is masterpoints (Ruter), a pairs ranking's its matchpoints
        published_mp=first("totalscoremp", "totalmp") or ("" if "totalscorevp" in row else
                                                          first("mp")),  # fmt: skip
        published_pct=first("totalpercentage", "percentage"),
        published_imps=first("totalscoreimp", "imp", "totalimp"),
        published_vp=first("totalscorevp", "vp", "totalvp"),
        published_place=first("rank"), boards=first("nrboardssession", "nrboards"),
        **cumulative,
    )  # fmt: skip


def names_from_standings(records: list[RawRecord], standings: list[RawStanding]) -> None:
    """ScoreTable rows without names take them from the TotalScoreTable (by pair number)."""
    # a Mitchell numbers NS and EW pairs separately: match the direction when the ranking has it
    by_pair: dict[tuple[str, str, str], str] = {}
    for st in standings:
        if st.pair and st.players:
            direction = st.direction.upper().replace("-", "")
            for key in ((st.section, direction, st.pair), (st.section, "", st.pair),
                        ("", "", st.pair)):  # fmt: skip
                by_pair.setdefault(key, st.players)
    players = {st.pair: (st.players, st.player_ids) for st in standings if st.pair and st.players}
    for rec in records:
        if rec.player_numbers:  # an individual: each seat's player by number
            for number, (name, attr) in zip(rec.player_numbers.split("|"), SEAT_NAMES,
                                            strict=False):  # fmt: skip
                name_id = players.get(number)
                if name_id and not getattr(rec, attr):
                    setattr(rec, attr, name_id[0])
                    setattr(rec, f"{name}_id", name_id[1])
            continue
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
