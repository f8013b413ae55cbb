"""A board page's auction and play tables as HTML, built with string joins.

A board page shows each table's auction and its play trick by trick: some 70 cells per table, a
few hundred a page, thousands of pages a site. Laid out by the template, every cell costs a
dozen template lookups and escapes; here each row is one f-string. The values are the same the
template printed (`ddrank.site.board.TableView`): anchors are made of `[a-z0-9-]` only, seats
are letters, a card's or call's HTML is `Markup` already; what a mark says (`instead`) is
escaped as the template escaped it. The page's bytes are the template's, to the byte.
"""

from __future__ import annotations

from typing import Any

from markupsafe import Markup, escape

from ddrank.site.board import TableView


def _flag_title(instead: Any) -> str:
    """The template's `{{ m.instead|striptags }}`: the text without tags, escaped again."""
    return str(escape(Markup(instead).striptags()))


def auction_rows(v: TableView) -> Markup:
    """The auction's rows (`<tr>` each), four calls a row, West first; a marked call flagged."""
    out = []
    for row in v.calls:
        out.append("<tr>")
        for c in row:
            if not c:
                out.append("<td></td>")
                continue
            marks = c["marks"]
            flags = "".join(f'<a class="flag" href="#{m.anchor}-note" title="DD: '
                            f'{_flag_title(m.instead)}">!</a>' for m in marks)  # fmt: skip
            cls = ' class="mistake-at"' if marks else ""
            out.append(f'<td id="{c["anchor"]}"{cls}>{c["html"]}{flags}</td>')
        out.append("</tr>")
    return Markup("".join(out))


def play_rows(v: TableView) -> Markup:
    """The play's rows (`<tr>` a trick): its cards with who played them, a marked card flagged,
    the trick's winner and, when analysed, declarer's DD tricks after it."""
    out = []
    analysed = v.play_analysed
    for t in v.tricks:
        out.append(f'<tr id="{v.key}-trick-{t["number"]}"><td class="n">{t["number"]}</td>\n')
        cells = t["cells"]
        for c in cells:
            mark = c["mark"]
            if mark:
                tricks = mark.tricks
                s = "s" if tricks != 1 else ""
                out.append(f'<td id="{c["anchor"]}" class="mistake-at"><span class="seat">'
                           f'{c["seat"]}</span> {c["html"]}<a class="flag" href="#{mark.anchor}'
                           f'-note" title="DD: {_flag_title(mark.instead)}; cost {tricks} '
                           f'trick{s}">!</a></td>')  # fmt: skip
            else:
                out.append(f'<td id="{c["anchor"]}"><span class="seat">{c["seat"]}</span> '
                           f'{c["html"]}</td>')  # fmt: skip
        out.append("<td></td>" * (4 - len(cells)))
        out.append(f"<td>{escape(t['winner'])}</td>")
        if analysed:
            dd = t["dd"]
            out.append(f'<td class="n">{"" if dd is None else dd}</td>')
        out.append("</tr>")
    return Markup("".join(out))


SEAT_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}
SUIT_SPANS = {s: f'<span class="{"red" if s in "HD" else "black"}">{sym}</span>'
              for s, sym in (("S", "♠"), ("H", "♥"), ("D", "♦"), ("C", "♣"))}  # fmt: skip


def diagram_hands(hands: dict[str, list[tuple[str, str]]]) -> Markup:
    """The deal's four hands (North, West, East, South: the diagram's order), a suit a line."""
    out = []
    for seat in "NWES":
        out.append(f'<div class="hand {seat}"><div class="seat">{SEAT_NAMES[seat]}</div>\n')
        for suit, cards in hands.get(seat, ()):
            text = str(escape(cards)).replace("T", "10")
            out.append(f"<div>{SUIT_SPANS[suit]} {text}</div>")
        out.append("</div>\n")
    return Markup("".join(out))


def dd_table_rows(rows: list[tuple[str, list[Any]]]) -> Markup:
    """The DD table's rows: a declarer, then the tricks in each strain."""
    return Markup("".join(f"<tr><th>{escape(seat)}</th>"
                          + "".join(f"<td>{escape(c)}</td>" for c in cells) + "</tr>"
                          for seat, cells in rows))  # fmt: skip


def who_sat(players: list[str | None], seats: str, root: str, page: Any, label: Any) -> Markup:
    """'N <a>name</a> · E <a>name</a> ...': each seat's player linked to their page."""
    out = []
    for k in range(4):
        p = players[k]
        if p:
            out.append(f'{seats[k]} <a href="{root}{escape(page(p))}">{escape(label(p))}</a>'
                       + (" · " if k < 3 else ""))  # fmt: skip
    return Markup("".join(out))
