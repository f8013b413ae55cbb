"""USEBIO individual events (`EVENT_TYPE="INDIVIDUAL"`): the players, and who sat where.

An individual's PARTICIPANTS are PLAYER elements, not PAIRs: each with its `PLAYER_NUMBER` in the
event, `PLAYER_NAME`, `NATIONAL_ID_NUMBER` and the published `TOTAL_SCORE`, `PERCENTAGE` and
`PLACE` (the same elements a pair carries, on the player). A traveller line names the four
players by seat, `NORTH_PLAYER_NUMBER` .. `WEST_PLAYER_NUMBER` (`NORTH_PLAYER` .. accepted too),
and carries the usual `NS_MATCH_POINTS` / `EW_MATCH_POINTS`: the side's score each of its two
players takes. The line is kept with `player_numbers` "N|E|S|W" and no pair numbers, which is what
makes the event an individual for scoring (ddrank.scoring.arithmetic.individual).

The USEBIO 1.2 DTD was not at hand when this was written (no network); the element names are the
standard's pattern (`<SEAT>_...`, the pair elements on a player) and are read leniently.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ddrank.raw import RawRecord, RawStanding

if TYPE_CHECKING:
    from ddrank.parsers.usebio import _Node

SEATS = ("NORTH", "EAST", "SOUTH", "WEST")
_FIELDS = (("north", "northname"), ("east", "eastname"), ("south", "southname"),
           ("west", "westname"))  # fmt: skip


def seat_numbers(line: _Node) -> str:
    """'7|44|27|11' from a traveller line naming its four players by seat, else ''."""
    numbers = [line.value(f"{s}_PLAYER_NUMBER") or line.value(f"{s}_PLAYER") for s in SEATS]
    return "|".join(numbers) if all(numbers) else ""


def player_standing(player: _Node, source: str, event: str, date: str, session: str,
                    section: str, imps: bool) -> RawStanding | None:  # fmt: skip
    """A participating player's published line (its number is the standing's `pair`)."""
    number = player.value("PLAYER_NUMBER")
    if not number:
        return None
    total = player.value("TOTAL_SCORE")
    return RawStanding(
        source_file=source, source_line=player.line, event=event, date=date, session=session,
        section=section, pair=number, players=player.value("PLAYER_NAME"),
        player_ids=player.value("NATIONAL_ID_NUMBER"),
        published_mp="" if imps else total, published_imps=total if imps else "",
        published_pct=player.value("PERCENTAGE"), published_place=player.value("PLACE"),
    )  # fmt: skip


def name_seats(rec: RawRecord, players: dict[tuple[str, str, str], tuple[str, str]],
               keys: list[tuple[str, str, str]]) -> None:  # fmt: skip
    """Each seat's name and national id from the participants, by the player's number."""
    for number, (seat, attr) in zip(rec.player_numbers.split("|"), _FIELDS, strict=False):
        found = next((players[(s, t, number)] for s, t, _ in keys if (s, t, number) in players),
                     None)  # fmt: skip
        if found:
            setattr(rec, attr, found[0])
            setattr(rec, f"{seat}_id", found[1])
