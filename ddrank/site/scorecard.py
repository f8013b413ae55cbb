"""A pair's personal scorecard (a player's in an individual event): every board it played, with
the opponents, the contract, the lead, the score and the matchpoints or IMPs it got.

The lines are the scoring stage's own (`scored_results`, on each result as `r["scored"]`), taken
the way the scoring stage builds its rankings (`ddrank.scoring.events.pair_rankings`,
`ddrank.scoring.arithmetic.teams.butler_rankings`): a ranking line's boards are the results where its pair
sat in its session, section and direction. Each board shows its value
as the ranking sums it (stored by scoring), with the file's printed value beside where that is
another number; the total is the one the event page shows (the stored, printed total), and the
card says how the boards make it: the stored factor a pair's sum was multiplied by (a pair that
played fewer boards; ACBLscore's factoring to the field's boards and top), the director's
adjustment the file gives, and, where the file contradicts itself, what its boards sum to.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from ddrank.scoring.arithmetic.precision import (
    agrees,
    agrees_printed,
    column_decimals,
    decimals,
    round_half_away,
)
from ddrank.scoring.model import ScoringError, _identity, parse_adjusted
from ddrank.site.data import Event, Row, slug
from ddrank.site.ranking import Ranking, RankingLine, number

SIDES = (("NS", 0, 2), ("EW", 1, 3))


@dataclass
class CardLine:
    """One board of a scorecard, from the pair's side of the table."""

    result: Row
    board: str  # label
    board_page: str  # path relative to the site
    direction: str  # NS / EW
    seats: tuple[int, int]  # the pair's seats
    score: int | None  # the pair's points (its side's sign)
    value: float | None  # matchpoints or IMPs for the pair
    pct: float | None  # the pair's percentage on the board (matchpoints)
    top: float = 0.0  # the board's matchpoint top (0 at IMPs)
    #: what the file's own scores give where the printed value is another number ('' else)
    own: str = ""


@dataclass
class Scorecard:
    """One ranking line's boards; `total` is what the ranking shows."""

    ranking: Ranking
    line: RankingLine
    page: str  # path relative to the site
    lines: list[CardLine] = field(default_factory=list)
    factor: float = 1.0  # IMP total factored for a sit-out (most boards / boards played)
    printed: int | None = None  # decimals each board's value is summed at, as the scorer prints it

    @property
    def sum(self) -> float:
        return sum(c.value or 0.0 for c in self.lines)

    @property
    def total(self) -> float:
        return self.sum * self.factor + (self.line.adjustment or 0.0)

    @property
    def pct(self) -> float | None:
        top = sum(c.top for c in self.lines)
        return 100.0 * self.sum / top if top else None

    @property
    def total_text(self) -> str:
        """The total the event page shows (the stored, printed one); the card's own sum where
        the ranking kept none."""
        return self.line.score_text or _plain(self.total)

    @property
    def pct_text(self) -> str:
        return self.line.pct_text or ("" if self.pct is None else _plain(self.pct))

    @property
    def total_note(self) -> str:
        """What the boards give where that is not the printed total: the file contradicts itself
        (a total that is not the sum of its printed boards), '' where they give it."""
        return _differs(self.total, self.line.score_text)

    @property
    def pct_note(self) -> str:
        """As `total_note`, for the percentage: only where the total differs (the percentage is
        the total's share of the top, which a factored total rounds first)."""
        return _differs(self.pct, self.line.pct_text) if self.total_note else ""


def _plain(value: float) -> str:
    return f"{value:.2f}"


def _differs(value: float | None, kept: str) -> str:
    """`value` at the kept text's decimals where it cannot be the kept text (`agrees_printed`: at
    its decimals, to the significant digits a scorer's arithmetic carries, so 53.846153 is the
    single-precision 700/13); '' where it can, or there is nothing to compare."""
    k = decimals(kept)
    if value is None or k is None or agrees_printed(value, kept):
        return ""
    return f"{round_half_away(value, k):.{k}f}"


def _printed(r: Row, st: Row, direction: str, mp: bool) -> float | None:
    """The value the file printed for one side of a result (its matchpoints, or its IMPs), or
    None where it printed none."""
    ns = direction == "NS"

    def kept(name: str) -> float | None:
        return number(r.get(name) if r.get(name) is not None else st.get(name))

    if mp:
        return kept("published_ns_mp" if ns else "published_ew_mp")
    imps = kept("published_imps")
    return None if imps is None else (imps if ns else -imps)


def _side(st: Row, direction: str) -> tuple[str, str]:
    key = direction.lower()
    return str(st.get(f"{key}_pair") or "").strip(), str(st.get(f"{key}_players") or "").strip()


def _value(st: Row, direction: str, mp: bool) -> tuple[float | None, float | None, float]:
    """(matchpoints or IMPs, percentage, board top) of one side, as the scoring stage adds it."""
    ns = direction == "NS"
    if mp:
        own = number(st.get("ns_mp" if ns else "ew_mp"))
        other = number(st.get("ew_mp" if ns else "ns_mp"))
        pct = number(st.get("ns_pct" if ns else "ew_pct"))
        if own is None:
            return None, None, 0.0
        # a 60/60 split: the top is not own + other
        top = own * 100.0 / pct if st.get("adjusted") and pct else own + (other or 0.0)
        return own, pct, top
    if st.get("adjusted") and st.get("ns_mp") is None:  # each side's own adjustment
        try:
            adj = parse_adjusted(str(st["adjusted"]))
        except ScoringError:
            return None, None, 0.0
        return (adj[0 if ns else 1] - 50.0) * 0.3, None, 0.0
    imps = number(st.get("imps"))
    return (None if imps is None else (imps if ns else -imps)), None, 0.0


def _butler(st: Row, direction: str) -> float | None:
    b = number(st.get("butler"))
    return None if b is None else (b if direction == "NS" else -b)


Entry = tuple[Row, str]  # a result and one side of its table (NS / EW)


def _index(scored: list[Row]) -> tuple[dict[tuple[str, str, str], list[Entry]],
                                        dict[str, list[Entry]]]:  # fmt: skip
    """Each side of each scored result under the keys the scoring stage ranks it by: (session,
    section, pair) and, scored across the field, (session, '', section + pair); and by its
    players (a multi-session total, a Butler ranking)."""
    by_key: dict[tuple[str, str, str], list[Entry]] = defaultdict(list)
    by_players: dict[str, list[Entry]] = defaultdict(list)
    for r in scored:
        st = r["scored"]
        session, section = str(st.get("session") or ""), str(st.get("section") or "")
        for direction, _a, _b in SIDES:
            pair, players = _side(st, direction)
            label = pair or players
            if label:
                by_key[(session, section, label)].append((r, direction))
                if section:
                    by_key[(session, "", section + label)].append((r, direction))
            if players:
                by_players[_identity(players)].append((r, direction))
    return by_key, by_players


def _individual(ev: Event, player_results: list[Row]) -> dict[tuple[str, str, str], list]:
    """(session, section, player number) -> [(result, seat, score, pct, top)] of an individual
    event, from the scoring stage's `player_results` (a player's own score on each board)."""
    by_id = {r["record_id"]: r for r in ev.results}
    tops: dict[str, float] = {}
    rows = [p for p in player_results if p.get("record_id") in by_id]
    for p in rows:
        score, pct = number(p.get("score")), number(p.get("pct"))
        if score is not None and pct:
            tops.setdefault(p["record_id"], score * 100.0 / pct)
    out: dict[tuple[str, str, str], list] = defaultdict(list)
    for p in rows:
        key = (str(p.get("session") or ""), str(p.get("section") or ""),
               str(p.get("player_number") or ""))  # fmt: skip
        pct = number(p.get("pct"))
        top = tops.get(p["record_id"], 0.0) if pct is not None else 0.0
        out[key].append((by_id[p["record_id"]], str(p.get("seat") or "N"),
                         number(p.get("score")), pct, top))  # fmt: skip
    return out


def _individual_card(card: Scorecard, entries: list, board_page: dict[str, str]) -> None:
    """A player's boards in an individual event: their own seat's score on each."""
    for r, seat, score, pct, top in entries:
        k = "NESW".index(seat)
        pts = r.get("ns_points")
        card.lines.append(CardLine(
            r, str(r.get("board_no") or "?"), board_page.get(r["record_id"], ""),
            "NS" if k % 2 == 0 else "EW", (k, (k + 2) % 4),
            None if pts is None else (pts if k % 2 == 0 else -pts), score, pct, top))  # fmt: skip


def scorecards(ev: Event, rankings: Iterable[Ranking], board_page: dict[str, str],
               player_results: list[Row] | None = None) -> list[Scorecard]:  # fmt: skip
    """A scorecard for each line of the event's pair (butler, individual) rankings.

    `board_page` maps a result's record_id to its board page; an individual event's players'
    own scores come from `player_results`."""
    mp = ev.scoring == "MP"
    scored = [r for r in ev.results if r.get("scored")]
    # the precision the file prints its board values with (one for the whole column)
    k_printed = column_decimals(
        number(r.get(c)) for r in scored
        for c in (("published_ns_mp", "published_ew_mp") if mp else ("published_imps",)))  # fmt: skip
    sessions = {str(r["scored"].get("session") or "") for r in scored}
    by_key, by_players = _index(scored)
    players = None
    base = ev.page[: -len(".html")]
    out = []
    for rk in rankings:
        if rk.kind in ("teams", "knockout"):
            continue
        if rk.kind == "individual":
            players = players or _individual(ev, player_results or [])
            for ln in rk.lines:
                page = f"{base}/{slug('|'.join((*rk.key, ln.pair)), 'card')}.html"
                card = Scorecard(rk, ln, page)
                _individual_card(card, players.get((rk.key[1], rk.key[2], ln.pair), []),
                                 board_page)  # fmt: skip
                out.append(card)
            continue
        _kind, session, section, line_dir = rk.key
        totals = session == "" and len(sessions) > 1 and rk.kind != "butler"
        group: list[Scorecard] = []
        for ln in rk.lines:
            card = Scorecard(rk, ln, f"{base}/{slug('|'.join((*rk.key, ln.pair)), 'card')}.html")
            if rk.kind == "butler":
                entries = by_players.get(ln.pair, [])
            elif totals:
                entries = by_players.get(_identity(ln.players), []) if ln.players else [
                    e for k, v in by_key.items() if k[2] == ln.pair for e in v]  # fmt: skip
            else:
                entries = by_key.get((session, section, ln.pair), [])
            for r, direction in entries:
                if line_dir and direction != line_dir:
                    continue
                st = r["scored"]
                if rk.kind == "butler":
                    value, pct, top = _butler(st, direction), None, 0.0
                    printed = None
                else:
                    value, pct, top = _value(st, direction, mp)
                    printed = _printed(r, st, direction, mp)
                a, b = (0, 2) if direction == "NS" else (1, 3)
                pts = r.get("ns_points")
                card.lines.append(CardLine(
                    r, str(r.get("board_no") or "?"), board_page.get(r["record_id"], ""),
                    direction, (a, b), None if pts is None else (pts if a == 0 else -pts),
                    value, pct, top))  # fmt: skip
                if printed is not None:  # the scorer's value beside, where it is another
                    card.lines[-1].own = _own_board(printed, value, k_printed)
            card.factor = ln.factor if ln.factor is not None else 1.0  # as scoring kept it
            group.append(card)
        _as_printed(group)
        out += group
    return out


def _own_board(printed: float, ours: float | None, k: int) -> str:
    """The value the file printed for the board where ours (what its own scores give, as the
    ranking sums them) is another number at the file's printed precision ('' where it is)."""
    if ours is None or agrees(ours, printed, k):
        return ""
    return f"{round_half_away(printed, k):.{k}f}"


def _as_printed(group: list[Scorecard]) -> None:
    """Where the scorer sums each board's value as it prints it (its rulebook; scoring kept the
    decimals with the ranking: `rankings.line_decimals`), each board's stored value on its cards
    is rounded to them (a value the file printed is already), so the card sums as the scorer
    does. Nothing is guessed: no kept decimals, no rounding."""
    for c in group:
        k = c.line.line_decimals
        if k is None:
            continue
        c.printed = k
        for ln in c.lines:
            ln.value = None if ln.value is None else round_half_away(ln.value, k)
