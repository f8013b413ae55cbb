"""What a board page shows of one table: the auction, the play trick by trick, each DD mistake.

Pure: from a result row (as `stages/site.py` reads it: auction, play, trace, claim), the deal's DD
table and the stored DD-best cards, build the values the template lays out. Every mistake gets an
anchor (`open-trick-3-card-2`, `t4-call-5`) so that a player page can link to the exact card or
call; the numbers are `ddrank.mistakes.explain`'s, i.e. the counters' own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from markupsafe import Markup, escape

from ddrank.dd.tables import TrickTable
from ddrank.mistakes.costs import CALL_WORDS  # the words a call mistake is told in: one list
from ddrank.mistakes.explain import (
    CallMistake,
    CardMistake,
    call_mistakes,
    card_mistakes,
    claim_mistake,
    tricks_of,
)
from ddrank.types import Auction, Call, Card, Contract, DomainError, Seat, Strain

Row = dict[str, Any]
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣", "N": "NT"}
#: Auction columns, as bridge books print them.
COLUMNS = (Seat.W, Seat.N, Seat.E, Seat.S)


_SUITED = re.compile(r"\b(?:([1-7])(NT|[SHDCN])|([SHDC])(10|[2-9TJQKA]))(?=X|[=+-]|\b)")


def suited(text: str | None) -> Markup:
    """'4H', '4SX', '3NT', 'SA', 'bid 4S by N' -> HTML with suit symbols, coloured; the rest
    escaped. A lone seat letter ('by S') stays a letter; no text (a par score published without
    its contract) is no HTML. Cards and calls repeat on every table, so each text's HTML is
    made once (Markup is immutable)."""
    if text is None:
        return Markup("")
    if type(text) is str:
        return _suited(text)
    return _suited.__wrapped__(text)


@lru_cache(maxsize=8192)
def _suited(text: str) -> Markup:
    out, end = [], 0
    for m in _SUITED.finditer(text):
        out.append(str(escape(text[end : m.start()])))
        level, strain = (m.group(1), m.group(2)) if m.group(1) else ("", m.group(3))
        rank = "" if m.group(1) else ("10" if m.group(4) in ("T", "10") else m.group(4))
        if strain in ("N", "NT"):
            out.append(f"{level}NT")
        else:
            cls = "red" if strain in "HD" else "black"
            out.append(f'{level}<span class="{cls}">{SUIT_SYMBOLS[strain]}</span>{rank}')
        end = m.end()
    out.append(str(escape(text[end:])))
    return Markup("".join(out))


#: Seats by number (0 = North): an enum call per card played costs more than the lookup.
SEAT_OF = tuple(Seat(k) for k in range(4))


@lru_cache(maxsize=1024)
def _card(text: str) -> Card:
    """A card of a play, parsed once per spelling (a Card is immutable)."""
    return Card.parse(text)


def call_html(token: str) -> Markup:
    if token == "P":
        return Markup('<span class="pass">Pass</span>')
    if token in ("X", "XX"):
        return Markup(f'<span class="dbl">{"Dbl" if token == "X" else "Rdbl"}</span>')
    return suited(token)


@dataclass
class Mark:
    """One DD mistake as the pages show it."""

    anchor: str
    where: str  # "Trick 3, card 2" / "Auction, call 5" / "Claim"
    seats: tuple[int, ...]  # who is charged (seat numbers)
    what: Markup  # what was done
    instead: Markup  # what double dummy would have done
    tricks: int | None
    points: float
    kind: str  # lead, declarer, defence, auction, claim
    index: int | None = None  # the card's 0-based index in the play (card mistakes)
    #: the DD value of every legal card there: (card, declarer's tricks), best for the player first
    values: list[tuple[str, int]] = field(default_factory=list)
    card: str = ""  # the card played ('SK'), for a card mistake
    call: int | None = None  # the call's 0-based index in the auction (auction mistakes)


@dataclass
class TableView:
    key: str  # anchor prefix, unique on the board
    label: str
    record_id: str
    calls: list[list[Any]] = field(default_factory=list)  # rows of 4 cells: None or a cell dict
    tricks: list[Row] = field(default_factory=list)
    marks: list[Mark] = field(default_factory=list)
    play_analysed: bool = False
    auction_analysed: bool = False
    claim: str = ""

    @property
    def has_play(self) -> bool:
        return bool(self.tricks)


def table_key(r: Row, taken: set[str]) -> str:
    """'open', 'closed', 'table-3', 'ns1-ew8': the table's anchor prefix, unique on its board."""
    if r.get("room"):
        key = str(r["room"])
    elif r.get("table_no"):
        key = f"table-{r['table_no']}"
    elif r.get("ns_pair") or r.get("ew_pair"):
        key = f"ns{r.get('ns_pair') or ''}-ew{r.get('ew_pair') or ''}"
    else:
        key = f"r{str(r['record_id'])[:8]}"
    key = re.sub(r"[^a-z0-9-]+", "-", key.lower()).strip("-") or f"r{str(r['record_id'])[:8]}"
    if key in taken:
        key = f"{key}-{str(r['record_id'])[:6]}"
    taken.add(key)
    return key


def table_label(r: Row) -> str:
    if r.get("room"):
        return f"{str(r['room']).capitalize()} room"
    if r.get("table_no"):
        return f"Table {r['table_no']}"
    if r.get("ns_pair") or r.get("ew_pair"):
        return f"NS pair {r.get('ns_pair') or '?'} v EW pair {r.get('ew_pair') or '?'}"
    return "Table"


def trick_table(cells: dict[tuple[str, str], int] | None) -> TrickTable | None:
    """The site's {(strain, seat): tricks} as a TrickTable (None unless all 20 cells)."""
    if not cells or len(cells) < 20:
        return None
    values = [0] * 20
    for (strain, seat), tricks in cells.items():
        values[int(Strain.parse(strain)) * 4 + int(Seat.parse(seat))] = int(tricks)
    return TrickTable(tuple(values))


def _contract(r: Row) -> Contract | None:
    text, declarer = (r.get("contract") or "").strip(), r.get("declarer")
    if not text or text == "P" or not declarer:
        return None
    try:
        return Contract.parse(text, declarer=Seat.parse(declarer))
    except DomainError:
        return None


def table_view(r: Row, key: str, dd: dict[tuple[str, str], int] | None,
               alternatives: dict[tuple[str, int], str],
               card_values: dict[tuple[str, int], str] | None = None) -> TableView:  # fmt: skip
    """The auction, the play and the marked mistakes of one table result; `card_values` gives,
    where it was computed, each legal card's DD tricks for the side to play ('SA:9 S2:8')."""
    view = TableView(key, table_label(r), str(r["record_id"]))
    contract = _contract(r)
    vul_ns, vul_ew = bool(r.get("ns_vulnerable")), bool(r.get("ew_vulnerable"))
    year = int(r.get("year") or 0)
    marked_calls: dict[int, list[Mark]] = {}
    auction = None
    if r.get("auction") and r.get("bidstart"):
        try:
            auction = Auction(Seat.parse(r["bidstart"]),
                              tuple(Call.parse(t) for t in str(r["auction"]).split()))  # fmt: skip
        except DomainError:
            auction = None
    table = trick_table(dd)
    if auction is not None and table is not None and (contract or r.get("contract") == "P"):
        view.auction_analysed = True
        for m in call_mistakes(auction, contract, table, vul_ns, vul_ew, year):
            mark = _call_mark(key, m, auction)
            view.marks.append(mark)
            if m.call is not None:
                marked_calls.setdefault(m.call, []).append(mark)
    if auction is not None:
        view.calls = _auction_grid(key, auction, marked_calls)
    play, seats = r.get("play") or [], r.get("play_seats") or []
    if play and contract is not None and len(play) == len(seats):
        cards = [_card(c) for c in play]
        who = [SEAT_OF[int(s)] for s in seats]
        declarer = contract.declarer
        assert declarer is not None
        trace = r.get("trace")
        by_index: dict[int, Mark] = {}
        if trace is not None and len(trace) == len(cards) + 1:
            view.play_analysed = True
            vul = vul_ns if declarer.is_ns else vul_ew
            for m in card_mistakes(contract, declarer, cards, who, tuple(trace), vul, year):
                mark = _card_mark(key, m, alternatives.get((view.record_id, m.index)))
                mark.values = legal_values(
                    (card_values or {}).get((view.record_id, m.index)),
                    m.dd_before,
                    m.seat in (declarer, declarer.partner),
                )
                view.marks.append(mark)
                by_index[m.index] = mark
            claimed = r.get("claim_tricks")
            if claimed is not None:
                cm = claim_mistake(contract, declarer, int(claimed), int(trace[-1]), vul, year)
                view.claim = f"Claimed {claimed} tricks for declarer; DD {trace[-1]}."
                if cm is not None:
                    view.marks.append(Mark(f"{key}-claim", "Claim", tuple(int(s) for s in cm.seats),
                        Markup(escape(f"claim of {cm.claimed} tricks accepted")),
                        Markup(escape(f"{cm.dd_tricks} tricks (double dummy)")),
                        abs(cm.claimed - cm.dd_tricks), cm.points, "claim"))  # fmt: skip
        elif r.get("claim_tricks") is not None:
            view.claim = f"Claimed {r['claim_tricks']} tricks for declarer."
        view.tricks = _tricks(key, cards, who, contract, declarer, trace, by_index)
    return view


def _auction_grid(key: str, auction: Auction, marked: dict[int, list[Mark]]) -> list[list[Any]]:
    cells: list[Any] = [None] * COLUMNS.index(auction.first)
    for k, call in enumerate(auction.calls):
        marks = marked.get(k, [])
        cells.append({"html": call_html(str(call)), "anchor": f"{key}-call-{k + 1}",
                      "marks": marks})  # fmt: skip
    cells += [None] * (-len(cells) % 4)
    return [cells[i : i + 4] for i in range(0, len(cells), 4)]


def _call_mark(key: str, m: CallMistake, auction: Auction) -> Mark:
    seats = tuple(int(s) for s in m.seats)
    side = "".join(s.letter for s in sorted(m.seats))
    if m.call is None:
        anchor, where, what = f"{key}-auction", "Auction", f"{side} made no call"
    else:
        call = auction.calls[m.call]
        anchor = f"{key}-call-{m.call + 1}"
        where = f"Auction, call {m.call + 1}"
        what = f"{auction.seat_of(m.call).letter} {'Pass' if str(call) == 'P' else call}"
    words = CALL_WORDS.get(m.category, m.category.replace("_", " "))
    share = f" (one of {round(1 / m.share)} equal mistakes)" if m.share < 1 else ""
    return Mark(anchor, where, seats, suited(f"{what}: {side} {words}{share}"),
                suited(m.alternative), None, m.points * m.share, "auction",
                call=m.call)  # fmt: skip


def _card_mark(key: str, m: CardMistake, best: str | None) -> Mark:
    who = m.seat.letter + (f" (dummy, for {m.charged.letter})" if m.seat != m.charged else "")
    instead = (Markup(" or ").join(suited(c) for c in best.split())
               if best else Markup('<span class="muted">not computed yet</span>'))  # fmt: skip
    return Mark(f"{key}-trick-{m.trick}-card-{m.position}", f"Trick {m.trick}, card {m.position}",
                (int(m.charged),), Markup(escape(who + " played ")) + suited(str(m.card)),
                instead, m.tricks, m.points, m.kind, m.index, card=str(m.card))  # fmt: skip


def legal_values(text: str | None, dd_before: int, declaring: bool) -> list[tuple[str, int]]:
    """'SA:4 S2:3' (tricks the side to play takes from there with each legal card) as each
    card's declarer tricks, the best for the side to play first; [] where not computed.

    `dd_before` is the declaring side's DD tricks before the card, i.e. with the best card."""
    pairs = []
    for item in (text or "").split():
        card, _, tricks = item.partition(":")
        if tricks.isdigit():
            pairs.append((card, int(tricks)))
    if not pairs:
        return []
    top = max(t for _, t in pairs)
    out = [(c, dd_before - (top - t) if declaring else dd_before + (top - t)) for c, t in pairs]
    return sorted(out, key=lambda ct: (-ct[1] if declaring else ct[1], ct[0]))


def _tricks(key: str, cards: list[Card], who: list[Seat], contract: Contract, declarer: Seat,
            trace: Any, marks: dict[int, Mark]) -> list[Row]:  # fmt: skip
    out = []
    declaring = (declarer, declarer.partner)
    won = 0
    for trick in tricks_of(cards, who, contract.strain):
        cells = []
        for pos, (seat, card) in enumerate(trick.cards):
            index = (trick.number - 1) * 4 + pos
            cells.append({"seat": seat.letter, "html": suited(str(card)),
                          "anchor": f"{key}-trick-{trick.number}-card-{pos + 1}",
                          "mark": marks.get(index)})  # fmt: skip
        if trick.winner is not None and trick.winner in declaring:
            won += 1
        end = (trick.number - 1) * 4 + len(trick.cards)
        dd = None
        if trace is not None and len(trace) > end:
            dd = int(trace[end])
        out.append({"number": trick.number, "leader": trick.leader.letter, "cells": cells,
                    "winner": trick.winner.letter if trick.winner is not None else "",
                    "won": won, "dd": dd})  # fmt: skip
    return out
