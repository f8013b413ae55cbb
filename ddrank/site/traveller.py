"""A board's traveller: one line per table result, built in Python (a 7,000-result store has
7,000 of them, and jinja's per-cell overhead made them most of the site's time).

Each line is two rows: the traveller's columns, and under them a row that only a phone shows (the
players' names, the table, the DD tricks and mistakes), so that a 390 px screen needs no
horizontal scroll; on a wider screen the names have their own columns and the second row is
hidden. A result that was not played, passed out, or replaced by an artificial adjusted score
says so where its contract would be. Every value from the store goes through `escape`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from markupsafe import Markup, escape

from ddrank.scoring.arithmetic.precision import agrees, column_decimals, round_half_away
from ddrank.scoring.model import ScoringError, parse_adjusted
from ddrank.site.board import TableView, suited
from ddrank.site.data import Event, Row, fmt_short
from ddrank.site.ranking import number

#: Law 12C2's usual artificial adjusted scores, by percentage, as directors write them.
ADJUSTED_WORDS = {60.0: "A+", 50.0: "A=", 40.0: "A−"}


@dataclass(frozen=True)
class Columns:
    """Which optional columns a board's traveller has."""

    mp: bool
    table: bool = True  # a table number or room
    own: bool = False  # what the file's own scores give, where the scorer printed another value
    analysis: bool = True  # DD mistakes
    numbered: bool = True  # every line has pair numbers (a phone shows those, not the names)
    #: the decimals the event's file prints its line values with (one for the whole column)
    decimals: int = 0

    @property
    def count(self) -> int:
        """Cells of a line as a phone shows it (for the second row's colspan)."""
        return 5 + (2 if self.numbered else 0) + (2 if self.mp else 1)


def lead_html(r: Row) -> Markup:
    """The opening lead as a card where the source gives it (the play, or a lead card), else the
    seat on lead."""
    card = (r.get("play") or [None])[0] or r.get("lead_card")
    if card:
        return suited(str(card))
    seat = r.get("opening_leader")
    return Markup(f'<span class="muted">{escape(seat)}</span>') if seat else Markup("")


def ours(r: Row, mp: bool) -> tuple[float | None, float | None]:
    """North-South's and East-West's matchpoints (MP) or NS IMPs (IMP) as the scoring stage
    stored them (none where it did not score the line: nothing is computed here)."""
    st = r.get("scored") or {}
    if mp:
        return number(st.get("ns_mp")), number(st.get("ew_mp"))
    return number(st.get("imps")), None


def published(r: Row, mp: bool) -> tuple[float | None, float | None]:
    """The line's values as its file printed them (None where it printed none)."""
    if mp:
        return number(r.get("published_ns_mp")), number(r.get("published_ew_mp"))
    return number(r.get("published_imps")), None


def shown(r: Row, mp: bool) -> tuple[float | None, float | None]:
    """What the traveller prints: the scorer's value where the file printed one, else ours."""
    pn, pe = published(r, mp)
    a, b = ours(r, mp)
    if pn is None and pe is None:
        return a, b
    return pn, pe if mp else None


def event_decimals(rows: list[Row], mp: bool) -> int:
    """The precision the file prints a traveller's values with: one for the whole column."""
    return column_decimals(x for r in rows for x in published(r, mp))


def own_differs(r: Row, mp: bool, k: int) -> str:
    """What the file's own scores give where the scorer printed another value at its printed
    precision `k` ('28.33' agrees with a printed 28.3): ours at k decimals, '' where it agrees,
    the file printed nothing, or ours is none."""
    pn, pe = published(r, mp)
    a, b = ours(r, mp)
    if a is None or (pn is None and pe is None):
        return ""
    same = (pn is None or agrees(a, pn, k)) and (pe is None or b is None or agrees(b, pe, k))
    if same:
        return ""

    def at_k(v: float | None) -> str:
        return "" if v is None else f"{round_half_away(v, k):.{k}f}"

    return f"{at_k(a)} / {at_k(b)}" if mp and pe is not None else at_k(a)


def status(r: Row) -> tuple[str, str]:
    """(kind, words) of a line that has no contract played: ('adjusted', 'NS 60% (A+) / EW 40%
    (A−)'), ('not-played', 'Not played'); ('', '') for a played line, with or without its
    contract (a score-only file gives the score alone)."""
    contract = r.get("contract")
    if contract:
        return "", ""
    adjusted = r.get("adjusted")
    if adjusted:
        try:
            ns, ew = parse_adjusted(str(adjusted))
        except ScoringError:
            return "adjusted", f"Adjusted score {adjusted}"
        return "adjusted", f"Artificial adjusted score: NS {_pct(ns)}, EW {_pct(ew)}"
    if r.get("phantom"):
        return "not-played", f"Sit-out ({r['phantom']} is a phantom pair)"
    if r.get("ns_score") is not None:
        # a plain score is a result: a score-only file (a game file, some XML files) records the
        # score its table reported and no contract; only `adjusted` marks a director's score
        return "", ""
    return "not-played", "Not played"


def status_html(r: Row, kind: str, words: str) -> str:
    """The words, and on a phone a short form ('Adj. 60/40', 'Assigned 420')."""
    short = {"adjusted": f"Adj. {r.get('adjusted')}"}
    if kind not in short:
        return str(escape(words))
    return (f'<span class="long">{escape(words)}</span>'
            f'<span class="short" title="{escape(words)}">{escape(short[kind])}</span>')  # fmt: skip


def _pct(v: float) -> str:
    word = ADJUSTED_WORDS.get(v)
    return f"{v:g}%" + (f" ({word})" if word else "")


def _names(r: Row, seats: tuple[int, int], players: Any, root: str) -> str:
    out = []
    for k in seats:
        p = r["players"][k]
        if p:
            out.append(f'<a href="{escape(root + players.page(p))}">{escape(players.label(p))}</a>')
    return "<br>".join(out)


def _pair(r: Row, side: str, cards: dict[str, str], root: str) -> str:
    """A pair number, linked to the pair's scorecard where it has one."""
    number_ = r.get(f"{side}_pair")
    if not number_:
        return ""
    page = cards.get(f"{side}|{r['record_id']}")
    text = escape(number_)
    return f'<a href="{escape(root + page)}">{text}</a>' if page else str(text)


def result_row(r: Row, ev: Event, players: Any, root: str, cols: Columns,
               cards: dict[str, str] | None = None) -> Markup:  # fmt: skip
    """One traveller line as HTML: the traveller's row, and the row a phone shows under it.

    `cards` maps 'ns|record_id' / 'ew|record_id' to the pair's scorecard page."""
    cards = cards or {}
    mp = cols.mp

    def td(value: Any, cls: str = "n") -> str:
        return f'<td class="{cls}">{escape("" if value is None else value)}</td>'

    view: TableView | None = r.get("view")
    # the table's number alone under the Table heading; a room by its name
    table = str(escape(r.get("table_no") or (view.label if view else r.get("room") or "")))
    if view and (view.has_play or view.calls):
        table = f'<a href="#{escape(r.get("table_key") or "")}">{table}</a>'
    if r.get("home_team"):
        teams = [r["home_team"]] + ([r["visit_team"]] if r.get("visit_team") else [])
        table += f'<br><span class="muted">{" v ".join(str(escape(t)) for t in teams)}</span>'
    ns_no, ew_no = _pair(r, "ns", cards, root), _pair(r, "ew", cards, root)
    ns_names, ew_names = _names(r, (0, 2), players, root), _names(r, (1, 3), players, root)
    ns = (f'<span class="pairno">{ns_no}</span> ' if ns_no else "") + ns_names
    ew = (f'<span class="pairno">{ew_no}</span> ' if ew_no else "") + ew_names
    dd_cell = dd_html(r)
    kind, words = status(r)
    cells = [f'<td class="c-tbl">{table}</td>' if cols.table else ""]
    if cols.numbered:
        cells += [f'<td class="c-no n">{ns_no}</td>', f'<td class="c-no n">{ew_no}</td>']
    cells += [f'<td class="c-name">{ns}</td>', f'<td class="c-name">{ew}</td>']
    if kind:
        cells.append(f'<td colspan="4" class="status {kind}">{status_html(r, kind, words)}</td>')
    else:
        contract = r.get("contract")
        cells += [f"<td>{suited(contract) if contract != 'P' else 'Pass'}</td>",
                  td(r.get("declarer") or "", ""), f"<td>{lead_html(r)}</td>",
                  td(r.get("result"))]  # fmt: skip
    cells.append(td(r.get("ns_points"), "n c-score"))
    a, b = shown(r, mp)
    if mp:
        cells += [td(fmt_short(a)), td(fmt_short(b))]
    else:
        split = r.get("split")
        cells += [td(fmt_short(a)), td(fmt_short(split.bid) if split else "", "n c-split"),
                  td(fmt_short(split.play) if split else "", "n c-split")]  # fmt: skip
    own = own_differs(r, mp, cols.decimals) if cols.own else ""
    if cols.own:
        cells.append(td(own, "n own c-pub"))
    cells.append(f'<td class="n nowrap c-dd">{dd_cell}</td>')
    mistakes = mistakes_cell(r) if cols.analysis else ""
    if cols.analysis:
        cells.append(f'<td class="c-mist">{mistakes}</td>')
    rid = escape(r["record_id"])
    line = f'<tr id="r-{rid}" class="line{" " + kind if kind else ""}">' + "".join(cells) + "</tr>"
    sub = [f"NS {ns_names.replace('<br>', ' – ')}" if ns_names else "",
           f"EW {ew_names.replace('<br>', ' – ')}" if ew_names else "",
           ("Table " if r.get("table_no") else "") + table.replace("<br>", " ")
           if cols.table and table else "",
           f"DD {dd_cell}" if dd_cell else "", mistakes,
           f'<span class="own">its own numbers give {escape(own)}</span>' if own else ""]  # fmt: skip
    sub_html = " · ".join(x for x in sub if x)
    return Markup(line + f'<tr class="sub"><td colspan="{cols.count}">{sub_html}</td></tr>')


def dd_html(r: Row) -> str:
    """The contract's DD tricks, and tricks made minus them in brackets."""
    result, dd = r.get("result"), r.get("dd_tricks")
    if dd is None:
        return ""
    out = str(dd)
    if result is not None:
        cls = "plus" if result > dd else "minus" if result < dd else "muted"
        out += f' <span class="{cls}">({result - dd:+d})</span>'
    return out


def mistakes_cell(r: Row) -> str:
    """How many DD mistakes the table made and what they cost, linked to the table's analysis;
    '' where nothing could be analysed (no play and no auction recorded)."""
    view: TableView | None = r.get("view")
    if view is None or not (view.play_analysed or view.auction_analysed):
        return ""
    if not view.marks:
        return '<span class="muted">no DD mistake</span>'
    points = sum(m.points for m in view.marks)
    lost = "; ".join(f"{side} lost {cost:.2f}".rstrip("0").rstrip(".") + f" {unit}"
                     for side, (cost, unit) in sorted((r.get("costs") or {}).items())
                     if cost > 0)  # fmt: skip
    # the event's unit first (what `ddrank player` says); DD points only as a labelled aside
    cost = f"{lost} at the table; {points:,.0f} DD points" if lost else f"{points:,.0f} DD points"
    return (f'<a href="#{escape(view.key)}" class="mistake">{len(view.marks)} DD mistake'
            f'{"s" if len(view.marks) != 1 else ""} ({cost})</a>')  # fmt: skip


def card_row(c: Any, players: Any, root: str, mp: bool) -> Markup:
    """One line of a scorecard (`ddrank.site.scorecard.CardLine`) as HTML."""
    r = c.result
    rid = escape(r["record_id"])
    other = "ew" if c.direction == "NS" else "ns"
    opp_pair = (r.get("scored") or {}).get(f"{other}_pair") or r.get(f"{other}_pair") or ""
    names = " – ".join(_names(r, (1, 3) if other == "ew" else (0, 2), players, root).split("<br>"))
    opp = (f'<span class="pairno">{escape(opp_pair)}</span> ' if opp_pair else "") + (
        f'<span class="nm">{names}</span>')  # fmt: skip
    kind, words = status(r)
    if kind:
        played = f'<td colspan="4" class="status {kind}">{status_html(r, kind, words)}</td>'
    else:
        contract = r.get("contract")
        result = r.get("result")
        played = (f"<td>{suited(contract) if contract != 'P' else 'Pass'}</td>"
                  f"<td>{escape(r.get('declarer') or '')}</td><td>{lead_html(r)}</td>"
                  f'<td class="n">{"" if result is None else result}</td>')  # fmt: skip
    score = "" if c.score is None else c.score
    own = (f'<br><span class="own" title="the value the scorer printed for the board">'
           f"printed {escape(c.own)}</span>") if c.own else ""  # fmt: skip
    pct = f'<td class="n">{"" if c.pct is None else f"{c.pct:.0f}"}</td>' if mp else ""
    return Markup(
        f'<tr data-record="{rid}"><td class="n"><a href="{escape(root + c.board_page)}#r-{rid}">'
        f'{escape(c.board)}</a></td><td>{c.direction}</td><td class="opp">{opp}</td>{played}'
        f'<td class="n">{score}</td><td class="n value">{fmt_short(c.value)}{own}</td>{pct}</tr>'
    )
