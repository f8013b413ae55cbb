"""The published values only IMP pairs events have, against ours: each board's Butler datum
(a PBN's `ButlerDatum`, an XML file's `BOARD_AVERAGE`), each pair's IMP total, and the IMPs a scorer
credits a pair on a board it sat out (PBN `Bye` rows: the pair's average per board played).

A value printed with k decimals agrees when ours, rounded to k decimals, is that value.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from ddrank.scoring.arithmetic.precision import agrees_printed, decimals
from ddrank.scoring.model import PairLine


def place_words(ev: str, *parts: tuple[str, Any]) -> str:
    """'EVENT session 2, section A, board 1, NS 3': a checked value's place, each part only when
    the file gives it (never 's-' or a 'NS' without a pair)."""
    said = [f"{label} {value}".strip() for label, value in parts if value not in (None, "")]
    return f"{ev} {', '.join(said)}" if said else ev


Row = dict[str, Any]


def number_text(value: float | None) -> str:
    """A published number read as a float, back as text with the decimals it needs (<= 2)."""
    if value is None:
        return ""
    return f"{value:.2f}".rstrip("0").rstrip(".") if value != int(value) else f"{value:.0f}"


def imp_checks(scores: Mapping[str, Any], pairs: Sequence[tuple[Row, PairLine | None]],
               add: Any) -> None:  # fmt: skip
    """Add the datum, total-IMPs and sit-out checks of every IMP pairs event to `add(what, ok,
    detail)`; `pairs` are the published standings matched with our lines."""
    for ev, sc in scores.items():
        if sc.info.scoring not in ("IMP", "BUTLER"):
            continue
        _sitout_checks(ev, sc, add)
        if sc.info.imp_rule is not None and sc.info.imp_rule.datum_published:
            continue  # the datums are the file's own: nothing of ours to compare
        seen: set[tuple[str, str, str, str, str]] = set()
        for s in sc.results:
            r = s.result
            if r.published_datum is None or s.datum is None:
                continue
            key = (r.session, r.section, r.board, r.played, number_text(r.published_datum))
            if key in seen:  # one datum per board (and version of it), printed on every line
                continue
            seen.add(key)
            add("Butler datum", abs(s.datum - r.published_datum) < 1e-6,
                f"{place_words(ev, ('session', r.session), ('board', r.board))}: ours "
                f"{s.datum:g}, published "
                f"{r.published_datum:g}")  # fmt: skip
    own = {ev: own_sums(sc.results) for ev, sc in scores.items()
           if sc.info.scoring in ("IMP", "BUTLER")}  # fmt: skip
    for st, line in pairs:
        ev = str(st.get("event_id") or st.get("event") or "")
        sc = scores.get(ev)
        pub = st.get("published_imps")
        if sc is None or sc.info.scoring not in ("IMP", "BUTLER") or decimals(pub) is None:
            continue
        ok = line is not None and agrees_printed(line.mp, pub)
        proof = ""
        lines = own[ev].get((str(st.get("session") or ""), str(st.get("section") or ""),
                             str(st.get("pair") or "")))  # fmt: skip
        if not ok and line is not None and lines:
            total = sum(lines) * line.factor
            if not agrees_printed(total, pub):
                proof = (f"the file's own lines for the pair sum to {sum(lines):g}"
                         f"{f' x {line.factor:g} boards factor' if line.factor != 1 else ''}, "
                         f"not its total {pub}")  # fmt: skip
        add(
            "total IMPs",
            ok,
            f"{ev} pair {st.get('pair')} ({st.get('players', '')}): ours "
            f"{'not found' if line is None else round(line.mp, 4)}, published {pub}",
            proof,
        )


def own_sums(results: Sequence[Any]) -> dict[tuple[str, str, str], list[float]]:
    """The published per-line IMPs of each pair, by (session or '' for all, section, pair)."""
    out: dict[tuple[str, str, str], list[float]] = defaultdict(list)
    for s in results:
        r = s.result
        if r.published_imps is None:
            continue
        for pair, value in ((r.ns_pair, r.published_imps), (r.ew_pair, -r.published_imps)):
            if r.adjusted is not None:
                continue  # an artificial score's sides are not opposite numbers
            out[(r.session, r.section, pair)].append(value)
            if r.session:
                out[("", r.section, pair)].append(value)
    return out


def _sitout_checks(ev: str, sc: Any, add: Any) -> None:
    """A sit-out row's published IMPs against the pair's average per board it played."""
    sitouts = getattr(sc, "sitouts", None) or []
    if not sitouts:
        return
    played: dict[tuple[str, str, str], list[float]] = defaultdict(list)
    for s in sc.results:
        r = s.result
        if s.imps is None:
            continue
        ew = s.ew_imps if s.ew_imps is not None else -s.imps
        played[(r.session, r.section, r.ns_pair)].append(s.imps)
        played[(r.session, r.section, r.ew_pair)].append(ew)
    for r in sitouts:
        pair = r.ew_pair if r.phantom == "NS" else r.ns_pair
        if r.published_imps is None or not pair:
            continue
        pub = r.published_imps if r.phantom == "EW" else -r.published_imps
        got = played.get((r.session, r.section, pair)) or []
        mean = sum(got) / len(got) if got else None
        add("sit-out IMPs", mean is not None and agrees_printed(mean, number_text(pub)),
            f"{place_words(ev, ('session', r.session), ('board', r.board), ('pair', pair))} "
            "sits out: ours "
            f"{'none' if mean is None else round(mean, 4)}, published {pub:g}")  # fmt: skip
