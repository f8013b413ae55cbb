"""Each ranking line as its scorer prints it: the place, total and percentage, once.

The scoring stage keeps these beside the numbers (`rankings.place_text`, `score_text`,
`pct_text`, with the rulebook and its decimals), and every output prints them as kept: no page,
CSV or terminal line recomputes a place or guesses decimals again.

* **Decimals**: the producer's rulebook's, else those its published ranking is printed with,
  else two.
* **Values**: where the file published the line's value, the scorer's printed digits (55.63 for
  55.625, as the scorer rounded it), whether or not ours agrees: a director publishes what the
  scorer printed. Else ours, rounded half away from zero to those decimals. Where the file
  contradicts itself (ours, from its own results, is another number at its printed precision),
  the outputs say beside the printed value what its own numbers give (`score`, `pct` and `rank`
  are ours: `own_text`).
* **Places**: the scorer's printed place where it published one ("32" of a tie it broke, "7=");
  else ours, a shared place as the rulebook prints it ("4=" or "4/5").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ddrank.scoring.arithmetic.precision import agrees_printed, decimals, round_half_away
from ddrank.scoring.model import PairLine, ScoredEvent
from ddrank.scoring.rulebooks import DEFAULT, Rulebook, rulebook_for

Row = Mapping[str, Any]
#: Decimals of a value no rulebook and no published ranking states.
DEFAULT_DECIMALS = 2


@dataclass(frozen=True, slots=True)
class Printed:
    """One ranking line as printed."""

    place: str
    score: str
    pct: str
    rulebook: str  # its producer's rulebook ('' = none known)
    score_decimals: int
    pct_decimals: int
    #: the decimals each board's value is summed at, where the scorer sums them as printed
    line_decimals: int | None = None


def rulebook_of(sc: ScoredEvent) -> Rulebook:
    """The rulebook the event's file declares (`DEFAULT` when its producer has none)."""
    return rulebook_for(sc.info.scorer) or DEFAULT


def _texts(values: Iterable[Any]) -> list[str]:
    return [str(v).strip().rstrip("%").strip() for v in values if decimals(v) is not None]


def event_decimals(sc: ScoredEvent, standings: Iterable[Row]) -> tuple[int, int]:
    """(total decimals, percentage decimals) the event's scorer prints."""
    book = rulebook_of(sc)
    rows = list(standings)
    totals = _texts(published_total(st) for st in rows)
    pcts = _texts(st.get("published_pct") for st in rows)
    k_total = book.total_decimals
    if k_total is None:
        k_total = max((decimals(t) or 0 for t in totals), default=DEFAULT_DECIMALS)
    k_pct = book.pct_decimals
    if k_pct is None:
        k_pct = max((decimals(t) or 0 for t in pcts), default=DEFAULT_DECIMALS)
    return k_total, k_pct


def published_total(st: Row) -> Any:
    """A published line's total as printed: VPs (teams), matchpoints or IMPs."""
    return st.get("published_vp") or st.get("published_mp") or st.get("published_imps")


def line_decimals(sc: ScoredEvent) -> int | None:
    """The decimals the event's scoring summed each board's value at (its producer sums them
    as printed: `MpRule.round_lines`, `ImpRule.line_decimals`), None when summed exact."""
    mp, imp = sc.info.mp_rule, sc.info.imp_rule
    if mp is not None and mp.round_lines:
        return mp.line_decimals
    return imp.line_decimals if imp is not None else None


def value_text(ours: float | None, published: Any, k: int) -> str:
    """The value as the scorer prints it: its printed digits where it published the value (ours
    agreeing or not), else ours at `k` decimals, halves away from zero ('' for none)."""
    if decimals(published) is not None:
        return str(published).strip().rstrip("%").strip()
    if ours is None:
        return ""
    return f"{round_half_away(ours, k):.{k}f}"


def own_text(ours: float | None, printed: str, k: int) -> str:
    """What the file's own numbers give (ours, at the printed value's decimals, else `k`) where
    that is not the printed value ('' where it is, or where ours is none)."""
    if ours is None or not printed or agrees_printed(ours, printed):
        return ""
    places = decimals(printed)
    places = k if places is None else places
    return f"{round_half_away(ours, places):.{places}f}"


def _published_place(st: Row | None) -> int | None:
    text = str((st or {}).get("published_place") or "").strip().rstrip("=").strip()
    return int(text) if text.isdigit() else None


def printed_lines(sc: ScoredEvent, pairs: Sequence[tuple[Row, PairLine | None]]
                  ) -> dict[int, Printed]:  # fmt: skip
    """id(line) -> the line as printed, for every ranking line of `sc`; `pairs` are the
    published standings matched with our lines (ddrank.scoring.verification.standings.match_standings)."""
    book = rulebook_of(sc)
    own = {id(x) for x in sc.rankings}
    published = {id(line): st for st, line in pairs if line is not None and id(line) in own}
    k_total, k_pct = event_decimals(sc, (st for st, line in pairs if line is not None
                                         and id(line) in own))  # fmt: skip
    tied = Counter((x.session, x.section, x.direction, x.rank) for x in sc.rankings)
    out: dict[int, Printed] = {}
    for x in sc.rankings:
        st = published.get(id(x))
        width = tied[(x.session, x.section, x.direction, x.rank)]
        pub = _published_place(st)
        text = str((st or {}).get("published_place") or "").strip()
        # the scorer's own place where it printed one (a tie it broke too), else ours
        place = text if pub is not None else book.place_text(x.rank, width)
        total = published_total(st or {})
        out[id(x)] = Printed(place, value_text(x.mp, total, k_total),
                             value_text(x.pct, (st or {}).get("published_pct"), k_pct),
                             book.name, k_total, k_pct, line_decimals(sc))  # fmt: skip
    return out
