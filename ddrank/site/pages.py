"""An event's pages: the event page (rankings, boards) and one page per board (the deal, the
traveller, then each table's auction and play with its DD mistakes marked).

Traveller lines are built in Python, not in the template: a 7,000-result store has 7,000 of them
and jinja's per-cell overhead made them most of the site's time. Every value from the store goes
through `escape`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from markupsafe import Markup, escape

from ddrank.site.board import TableView, suited, table_key, table_view
from ddrank.site.data import SEATS, Event, Row, boards_of, fmt_short, pair_split, slug
from ddrank.site.ranking import number, rankings_of


@dataclass
class BoardPage:
    label: str
    deal_id: str
    rows: list[Row]
    page: str  # path relative to the site: events/e-x/board-7.html
    views: list[TableView] = field(default_factory=list)

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


def board_pages(ev: Event, data: Any, alternatives: dict[tuple[str, int], str]) -> list[BoardPage]:
    """The event's boards, each with its page name and every table's analysis."""
    base = ev.page[: -len(".html")]
    out, used = [], set()
    for label, deal_id, rows in boards_of(ev):
        stem = board_stem(label)
        name, k = stem, 1
        while name in used:
            k += 1
            name = f"{stem}-{k}"
        used.add(name)
        page = BoardPage(label, deal_id, rows, f"{base}/{name}.html")
        taken: set[str] = set()
        for r in rows:
            key = table_key(r, taken)
            r["table_key"] = key
            view = table_view(r, key, data.dd_tables.get(deal_id), alternatives)
            r["view"] = view
            page.views.append(view)
        out.append(page)
    return out


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


def lead_html(r: Row) -> Markup:
    """The opening lead as a card where the source gives it (the play, or a lead card), else the
    seat on lead."""
    card = (r.get("play") or [None])[0] or r.get("lead_card")
    if card:
        return suited(str(card))
    seat = r.get("opening_leader")
    return Markup(f'<span class="muted">{escape(seat)}</span>') if seat else Markup("")


def ours(r: Row, mp: bool) -> tuple[float | None, float | None]:
    """North-South's and East-West's matchpoints (MP) or NS IMPs (IMP): the scoring stage's
    values, else the ones computed here."""
    st = r.get("scored") or {}
    if mp:
        if st.get("ns_mp") is not None:
            return number(st.get("ns_mp")), number(st.get("ew_mp"))
        return r.get("mp_ns"), None
    imps = st.get("imps") if st.get("imps") is not None else r.get("imps_ns")
    return number(imps), None


def published_differs(r: Row, mp: bool) -> str:
    """The published value of the line where it differs from ours ('' where it agrees or the
    source published none); published zeros count."""
    a, b = ours(r, mp)
    if mp:
        pn, pe = number(r.get("published_ns_mp")), number(r.get("published_ew_mp"))
        if pn is None and pe is None:
            return ""
        same = (pn is None or (a is not None and abs(pn - a) < 0.005)) and (
            pe is None or (b is not None and abs(pe - b) < 0.005))  # fmt: skip
        return "" if same else f"{fmt_short(pn)} / {fmt_short(pe)}"
    pi = number(r.get("published_imps"))
    if pi is None or (a is not None and abs(pi - a) < 0.005):
        return ""
    return fmt_short(pi)


def result_row(r: Row, ev: Event, players: Any, root: str, show_published: bool,
               show_table: bool = True, show_analysis: bool = True) -> Markup:  # fmt: skip
    """One traveller line as HTML (the Table and DD-mistakes cells only where the board has
    them)."""

    def name(k: int) -> str:
        p = r["players"][k]
        if not p:
            return ""
        return f'<a href="{escape(root + players.page(p))}">{escape(players.label(p))}</a>'

    def td(value: Any, cls: str = "n") -> str:
        return f'<td class="{cls}">{escape("" if value is None else value)}</td>'

    key = r.get("table_key") or ""
    view: TableView | None = r.get("view")
    table = str(escape(view.label if view else (r.get("table_no") or r.get("room") or "")))
    if view and (view.has_play or view.calls):
        table = f'<a href="#{escape(key)}">{table}</a>'
    if r.get("home_team"):
        teams = [r["home_team"]] + ([r["visit_team"]] if r.get("visit_team") else [])
        table += f'<br><span class="muted">{" v ".join(str(escape(t)) for t in teams)}</span>'
    ns = "".join(x for x in (f'<span class="pairno">{escape(r["ns_pair"])}</span> '
                             if r.get("ns_pair") else "", name(0), "<br>" + name(2) if name(2) else "") if x)  # fmt: skip
    ew = "".join(x for x in (f'<span class="pairno">{escape(r["ew_pair"])}</span> '
                             if r.get("ew_pair") else "", name(1), "<br>" + name(3) if name(3) else "") if x)  # fmt: skip
    result, dd = r.get("result"), r.get("dd_tricks")
    dd_cell = ""
    if dd is not None:
        dd_cell = str(dd)
        if result is not None:
            cls = "plus" if result > dd else "minus" if result < dd else "muted"
            dd_cell += f' <span class="{cls}">({result - dd:+d})</span>'
    contract = r.get("contract")
    adjusted = r.get("adjusted")
    cells = [
        f'<td class="tbl">{table}</td>' if show_table else "", f"<td>{ns}</td>", f"<td>{ew}</td>",
        f"<td>{suited(contract) if contract and contract != 'P' else 'Pass' if contract else escape(adjusted or '')}</td>",
        td(r.get("declarer") or "", ""), f"<td>{lead_html(r)}</td>", td(result),
        td(r.get("ns_points")),
    ]  # fmt: skip
    mp = ev.scoring == "MP"
    a, b = ours(r, mp)
    if mp:
        cells += [td(fmt_short(a)), td(fmt_short(b))]
    else:
        split = r.get("split")
        cells += [td(fmt_short(a)), td(fmt_short(split.bid) if split else ""),
                  td(fmt_short(split.play) if split else "")]  # fmt: skip
    if show_published:
        cells.append(td(published_differs(r, mp)))
    cells.append(f'<td class="n nowrap">{dd_cell}</td>')
    if show_analysis:
        cells.append(f"<td>{mistakes_cell(r)}</td>")
    return Markup(f'<tr id="r-{escape(r["record_id"])}">' + "".join(cells) + "</tr>")


def mistakes_cell(r: Row) -> str:
    """How many DD mistakes the table made and what they cost, linked to the table's analysis;
    '' where nothing could be analysed (no play and no auction recorded)."""
    view: TableView | None = r.get("view")
    if view is None or not (view.play_analysed or view.auction_analysed):
        return ""
    if not view.marks:
        return '<span class="muted">none</span>'
    cost = sum(m.points for m in view.marks)
    return (f'<a href="#{escape(view.key)}" class="mistake">{len(view.marks)} '
            f'({cost:.0f} pts)</a>')  # fmt: skip


def _natural(label: Any) -> tuple[int, int | str]:
    """Team 2 before team 10; names after numbers, in their own order."""
    text = str(label or "")
    return (0, int(text)) if text.isdigit() else (1, text)


#: The event page lists traveller lines missing first, then records left out, then notes.
_PROBLEM_ORDER = {"missing": 0, "left out": 1, "note": 2}


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
                team_matches: list[Row]) -> Iterator[tuple[str, str]]:  # fmt: skip
    """The event page, then one page per board."""
    rankings = rankings_of(ev.event_id, data.optional.get("rankings", []),
                           data.optional.get("published_standings", []), ev.scoring == "MP",
                           ev.model_ids, (ev.name, ev.date), ev.team_label)  # fmt: skip
    matches = sorted((m for m in team_matches if str(m.get("event") or "") == ev.event_id),
                     key=lambda m: (str(m.get("session") or ""), _natural(m.get("team")),
                                    _natural(m.get("opponent"))))  # fmt: skip
    yield render(ev.page, "event.html", ev=ev, rankings=rankings, boards=boards,
                 matches=matches, split=pair_split(ev) if ev.scoring == "IMP" else [],
                 problems=problems_of(ev, data.optional.get("scoring_errors", [])),
                 players=players, board_dir=ev.page[: -len(".html")].split("/")[-1])  # fmt: skip
    for k, b in enumerate(boards):
        first = b.rows[0]
        show_published = any(published_differs(r, ev.scoring == "MP") for r in b.rows)
        show_table = any(r.get("table_no") or r.get("room") for r in b.rows)
        show_analysis = any(v.play_analysed or v.auction_analysed for v in b.views)
        yield render(b.page, "board.html", ev=ev, b=b, f=first, players=players,
                     hands=hands(first.get("deal")), ddt=dd_rows(data.dd_tables.get(b.deal_id)),
                     prev=boards[k - 1] if k else None,
                     next=boards[k + 1] if k + 1 < len(boards) else None,
                     show_published=show_published, seats=SEATS, show_table=show_table,
                     show_analysis=show_analysis,
                     published_any=any(r.get(c) is not None for r in b.rows
                                       for c in ("published_ns_mp", "published_imps")),
                     result_row=partial(result_row, ev=ev, players=players, root="../../",
                                        show_published=show_published, show_table=show_table,
                                        show_analysis=show_analysis))  # fmt: skip
