"""The rankings in words for the terminal: per event, section and direction, with how the event
was scored and how many of its published values that reproduces.

`ranking_text(events)` is the director's full list (`ddrank results`); `ranking_text(events,
top=3)` the short form `ddrank run` ends with. `events` are `stages.rankings.ranking_summary`
rows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

Row = Mapping[str, Any]


def event_title(ev: Row) -> str:
    """'Wednesday AM Pairs, 2025-04-09': the event's name and date, else its key."""
    name = str(ev.get("name") or "").strip()
    if not name:
        return str(ev.get("event") or "")
    date = str(ev.get("date") or "")
    return f"{name}, {date}" if date and date not in name else name


def method_words(ev: Row) -> str:
    """'matchpoints: method none, top 2 per result beaten (why); published values 325 of 325
    agree' for a matchpoint event; the scoring alone for others."""
    scoring = str(ev.get("scoring") or "")
    agree = agreement_words(ev)
    if scoring in ("IMP", "BUTLER"):  # the IMP rule, which names itself
        why = str(ev.get("method_reason") or "")
        return f"{scoring} scoring; {'; '.join(x for x in (why, agree) if x)}".rstrip("; ")
    if scoring in ("TEAMS", "BAM"):  # the VP scale (or point-a-board rule) and why
        how = (
            f"{ev.get('mp_method') or '?'} ({ev['method_reason']})"
            if ev.get("method_reason")
            else ""
        )
        return f"{scoring} scoring; {'; '.join(x for x in (how, agree) if x)}".rstrip("; ")
    if scoring != "MP":
        return f"{scoring or 'unknown'} scoring{'; ' + agree if agree else ''}"
    top = ev.get("mp_top")
    top_text = f", top {float(top):g} per result beaten" if top not in (None, "") else ""
    why = f" ({ev['method_reason']})" if ev.get("method_reason") else ""
    return f"matchpoints: method {ev.get('mp_method') or '?'}{top_text}{why}; {agree or 'no published values to compare'}"


def agreement_words(ev: Row) -> str:
    """'published values 325 of 325 agree' ('' when the source published none)."""
    compared, agree = ev.get("published_compared") or 0, ev.get("published_agree") or 0
    if not compared:
        return ""
    return f"published values {agree} of {compared} agree"


def checks_words(checks: Sequence[Row]) -> str:
    """'matchpoints per line 144/144, final percentage 13/13, place 13/13'."""
    return ", ".join(f"{c['what']} {c['agree']}/{c['compared']}" for c in checks)


def _heading(group: Row, teams: bool = False) -> str:
    section, direction = group.get("section") or "", group.get("direction") or ""
    parts = [f"section {section}" if section else "", {"NS": "North-South", "EW": "East-West"}.get(
        direction, direction)]  # fmt: skip
    kinds = {x.get("kind") for x in group.get("lines", [])}
    if "knockout" in kinds:  # a knockout match: its stage and teams, IMPs over its segments
        return f"match {section}: IMPs" if section else "match: IMPs"
    whole = "all teams" if teams else "all players" if "individual" in kinds else "all pairs"
    return " · ".join(p for p in parts if p) or whole


def _kept(x: Row, key: str) -> str:
    """A value as scoring kept it printed (`rankings.*_text`; '' for none)."""
    t = "" if x.get(key) is None else str(x.get(key)).strip()
    return "" if t.lower() in ("nan", "none") else t


def _line(x: Row) -> str:
    """One ranking line as its scorer prints it (kept by scoring: place, percentage or total at
    the scorer's decimals), the published values beside where they differ."""
    pct = x.get("pct")
    pct_text = _kept(x, "pct_text") or ("" if pct is None else f"{pct:.2f}")
    score = (f"{pct_text:>6}%" if pct is not None else
             f"{_kept(x, 'score_text') or format(x.get('score') or 0, '.2f'):>7}")  # fmt: skip
    place = _kept(x, "place_text") or f"{x.get('rank')}"
    published = []
    pub_pct, pub_place = x.get("published_pct"), str(x.get("published_place") or "")
    if pub_pct is not None and pct is not None and abs(pub_pct - pct) > 0.005 + 1e-9:
        published.append(f"{pub_pct:g}%")
    if pub_place and pub_place.rstrip("=") != place.rstrip("=").split("/")[0]:
        published.append(f"place {pub_place}")
    differs = f"   published {', '.join(published)}" if published else ""
    pair, players = str(x.get("pair") or ""), str(x.get("players") or "")
    if players == pair:  # a team: its name is its number
        return f"  {place:>3}  {score}  {players}{differs}"
    return f"  {place:>3}  {pair:>5}  {score}  {players}{differs}"


def ranking_text(events: Sequence[Row], top: int | None = None) -> str:
    """Every event's final ranking per section and direction (the first `top` places of each
    when given), after a line saying how it was scored and what agrees with the source."""
    out: list[str] = []
    for ev in events:
        out.append(f"{event_title(ev)}: {method_words(ev)}")
        if ev.get("checks"):
            out.append(f"  checked against the source: {checks_words(ev['checks'])}")
        for group in ev.get("groups", []):
            lines = list(group["lines"])
            shown = [x for x in lines if top is None or (x.get("rank") or 0) <= top]
            more = (
                f" (top {top} of {len(lines)})"
                if top is not None and len(shown) < len(lines)
                else ""
            )
            out.append(f" {_heading(group, ev.get('scoring') in ('TEAMS', 'BAM'))}{more}")
            out += [_line(x) for x in shown]
    return "\n".join(out)
