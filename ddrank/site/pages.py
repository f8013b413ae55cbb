"""An event's pages: the event page (rankings, boards), one page per board (the deal, the
traveller and the frequencies, then each table's auction and play with its DD mistakes marked and
a step-through replay), and one scorecard per pair (`ddrank.site.scorecard`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from ddrank.site.board import TableView, table_key, table_view
from ddrank.site.data import SEATS, Event, Row, boards_of, pair_split, slug
from ddrank.site.frequency import frequencies
from ddrank.site.ranking import Ranking
from ddrank.site.replay import replays
from ddrank.site.scorecard import Scorecard
from ddrank.site.traveller import Columns, card_row, event_decimals, own_differs, result_row


@dataclass
class BoardPage:
    label: str
    deal_id: str
    rows: list[Row]
    page: str  # path relative to the site: events/e-x/board-7.html
    views: list[TableView] = field(default_factory=list)
    hand: Row | None = None  # a hand-record board (no results): its deal, dealer, vul, par

    @property
    def first(self) -> Row:
        """The row the deal, dealer, vulnerability and par are read from."""
        return self.rows[0] if self.rows else (self.hand or {})

    @property
    def name(self) -> str:
        return self.page.rsplit("/", 1)[-1]


#: Characters of a board label kept in its page's name; a longer label (a 400-digit board number
#: a PBN reader accepts) is cut and made unique by a hash, as player pages are named.
MAX_STEM = 40


def board_stem(label: str) -> str:
    """The page name of a board: `board-7`, `board-12a`; bounded whatever the label holds."""
    readable = re.sub(r"[^A-Za-z0-9]+", "-", label).strip("-") or "x"
    if len(readable) <= MAX_STEM:
        return f"board-{readable}"
    return f"board-{readable[: MAX_STEM - 14]}-{slug(label, 'h')[2:]}"


def board_pages(ev: Event, data: Any, alternatives: dict[tuple[str, int], str],
                analyse: bool = True) -> list[BoardPage]:  # fmt: skip
    """The event's boards, each with its page name and (with `analyse`) every table's analysis
    (`analyse_tables` analyses them later, or only some)."""
    base = ev.page[: -len(".html")]
    out, used = [], set()
    groups = boards_of(ev) if not ev.hands else [
        (str(h.get("board_no") or "?"), str(h["deal_id"]), []) for h in ev.hands]  # fmt: skip
    hands = {str(h["deal_id"]): h for h in ev.hands}
    for label, deal_id, rows in groups:
        stem = board_stem(label)
        name, k = stem, 1
        while name in used:
            k += 1
            name = f"{stem}-{k}"
        used.add(name)
        page = BoardPage(label, deal_id, rows, f"{base}/{name}.html", hand=hands.get(deal_id))
        taken: set[str] = set()
        for r in rows:
            r["table_key"] = table_key(r, taken)
        out.append(page)
    if analyse:
        analyse_tables(out, data, alternatives)
    return out


def analyse_tables(boards: list[BoardPage], data: Any, alternatives: dict[tuple[str, int], str],
                   records: set[str] | None = None) -> None:  # fmt: skip
    """Each table's auction, play and DD mistakes (`r["view"]`, and the board's `views`): every
    table's, or only those of `records` (a page kept from the last build renders none, but a
    player page links to its costliest mistakes)."""
    for b in boards:
        for r in b.rows:
            if "view" in r or (records is not None and str(r["record_id"]) not in records):
                continue
            view = table_view(r, r["table_key"], data.dd_tables.get(b.deal_id), alternatives,
                              data.card_values)  # fmt: skip
            r["view"] = view
        b.views = [r["view"] for r in b.rows if "view" in r]


def hands(deal: str | None) -> dict[str, list[tuple[str, str]]]:
    """Canonical 'N:S.H.D.C E... S... W...' -> seat -> [(suit, cards)]; {} without a deal."""
    if not deal:
        return {}
    first = deal[0]
    parts = deal[2:].split()
    start = SEATS.index(first)
    out = {}
    for k, part in enumerate(parts):
        seat = SEATS[(start + k) % 4]
        out[seat] = list(zip("SHDC", (s or "—" for s in part.split(".")), strict=True))
    return out


def dd_rows(table: dict[tuple[str, str], int] | None) -> list[tuple[str, list[Any]]]:
    if not table:
        return []
    return [(seat, [table.get((s, seat), "") for s in "NSHDC"]) for seat in "NSEW"]


def traveller_columns(ev: Event, b: BoardPage, k: int) -> Columns:
    """The board's traveller's columns; `k`: the decimals the event's file prints its values
    with (`event_decimals`)."""
    mp = ev.scoring == "MP"
    return Columns(mp=mp, table=any(r.get("table_no") or r.get("room") for r in b.rows),
                   own=any(own_differs(r, mp, k) for r in b.rows), decimals=k,
                   analysis=any(v.play_analysed or v.auction_analysed for v in b.views),
                   numbered=all(r.get("ns_pair") and r.get("ew_pair") for r in b.rows))  # fmt: skip


def card_links(cards: list[Scorecard]) -> dict[str, str]:
    """'ns|record_id' -> the scorecard of the pair that sat North-South there (a session's
    scorecard before the whole event's)."""
    out: dict[str, str] = {}
    for card in sorted(cards, key=lambda c: c.ranking.key[1] == ""):
        for line in card.lines:
            out.setdefault(f"{line.direction.lower()}|{line.result['record_id']}", card.page)
    return out


#: The event page lists traveller lines missing first, then records left out, then notes.
_PROBLEM_ORDER = {"missing": 0, "left out": 1, "unreadable": 1, "note": 2}


def problems_of(ev: Event, errors: list[Row]) -> list[Row]:
    """The scoring's findings about this event (`scoring_errors`), each with where it is."""
    keys = {ev.event_id, ev.name}
    rows = [dict(e, place=", ".join(f"{n} {e[k]}" for n, k in (
                ("session", "session"), ("section", "section"), ("round", "round"),
                ("table", "table_no"), ("board", "board")) if e.get(k)))
            for e in errors if str(e.get("event") or "") in keys]  # fmt: skip
    return sorted(rows, key=lambda e: (_PROBLEM_ORDER.get(str(e.get("kind")), 3),
                                       str(e.get("source") or ""), e.get("line") or 0))  # fmt: skip


def event_pages(ev: Event, data: Any, players: Any, render: Any, boards: list[BoardPage],
                rankings: list[Ranking], cards: list[Scorecard],
                matches: Any) -> Iterator[tuple[str, str]]:  # fmt: skip
    """The event page, one page per board, then one scorecard per pair."""
    card_page = {(*c.ranking.key, c.line.pair): c.page for c in cards}
    yield render(ev.page, "event.html", ev=ev, rankings=rankings, boards=boards,
                 matches=matches, split=pair_split(ev) if ev.scoring == "IMP" else [],
                 problems=problems_of(ev, data.optional.get("scoring_errors", [])),
                 players=players, card_page=card_page,
                 board_dir=ev.page[: -len(".html")].split("/")[-1])  # fmt: skip
    links = card_links(cards)
    printed = event_decimals(ev.results, ev.scoring == "MP")
    for k, b in enumerate(boards):
        first = b.first
        cols = traveller_columns(ev, b, printed)
        yield render(b.page, "board.html", ev=ev, b=b, f=first, players=players,
                     hands=hands(first.get("deal")),
                     ddt=dd_rows(data.dd_tables.get(b.deal_id) or data.published_dd.get(b.deal_id)
                                 or first.get("dd_cells")),
                     prev=boards[k - 1] if k else None,
                     next=boards[k + 1] if k + 1 < len(boards) else None,
                     cols=cols, seats=SEATS, freq=frequencies(b.rows, cols.mp),
                     replays=replays(b),
                     published_any=any(r.get(c) is not None for r in b.rows
                                       for c in ("published_ns_mp", "published_imps")),
                     result_row=partial(result_row, ev=ev, players=players, root="../../",
                                        cols=cols, cards=links))  # fmt: skip
    for card in cards:
        yield render(card.page, "scorecard.html", ev=ev, card=card, players=players,
                     card_row=partial(card_row, players=players, root="../../"))  # fmt: skip
