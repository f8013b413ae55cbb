"""`ddrank check --site DIR`: what the built pages show, against what each file published.

`ddrank check` compares ddrank's scores with the scorer's; this reads the event pages of a built
site (the HTML a director puts on the web, not the store or the scorer's frames) and counts, for
every ranking line the files published, whether the page shows its place, total and percentage
as the scorer printed them: the same number at the scorer's decimals, the same place (a shared
place is shown as the scorer prints ties: '4=' or '4/5').
"""

from __future__ import annotations

import re
import tempfile
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from ddrank.scoring.arithmetic.precision import decimals
from ddrank.scoring.verification.check import Check
from ddrank.scoring.verification.standings import as_float, standing_kind
from ddrank.site.ranking import DIRECTIONS, heading

Row = Mapping[str, Any]
#: The kinds of value the site column counts, and the check kinds they stand beside.
SHOWN = {"place": ("place",), "total": ("total matchpoints", "team total", "total IMPs"),
         "percentage": ("final percentage",)}  # fmt: skip


@dataclass
class ShownLine:
    """One line of a ranking table as the page shows it."""

    heading: str
    cells: dict[str, str] = field(default_factory=dict)  # class -> text: place, pair, score, pct
    page: tuple[str, str] = ("", "")  # the event its page ranks: (name, date's digits)


class _Rankings(HTMLParser):
    """The ranking tables of a page (`table.ranking`, its `data-heading`), cell by cell."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.name, self.date = "", ""  # the page's title (h1) and the date its facts open with
        self._in: str | None = None
        self.lines: list[ShownLine] = []
        self._heading: str | None = None
        self._cell: str | None = None
        self._line: ShownLine | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        classes = (a.get("class") or "").split()
        if tag == "h1" or (tag == "p" and "facts" in classes):
            self._in = tag
        if tag == "table" and "ranking" in classes and a.get("data-heading") is not None:
            self._heading = a.get("data-heading") or ""  # (not the cumulative standings)
        elif tag == "tr" and self._heading is not None:
            self._line = ShownLine(self._heading)
        elif tag == "td" and self._line is not None:
            names = [c for c in classes if c in ("place", "pair", "score", "pct")]
            self._cell = names[0] if names else None
            if self._cell:
                self._line.cells[self._cell] = ""
        elif self._cell and tag not in ("a",):
            self._cell = None  # a note inside the cell (a team's name and roster, ours beside)

    def handle_endtag(self, tag: str) -> None:
        if tag == self._in:
            self._in = None
        if tag == "td":
            self._cell = None
        elif tag == "tr" and self._line is not None:
            if self._line.cells:
                self.lines.append(self._line)
            self._line = None
        elif tag == "table":
            self._heading = None

    def handle_data(self, data: str) -> None:
        if self._in == "h1":
            self.name += data
        elif self._in == "p" and not self.date:
            self.date = _digits(data.split("·")[0])
        if self._line is not None and self._cell:
            self._line.cells[self._cell] += data.strip()


def shown_lines(site: Path) -> list[ShownLine]:
    """Every ranking line the event pages of the site at `site` show."""
    out: list[ShownLine] = []
    for page in sorted((site / "events").glob("*.html")):
        p = _Rankings()
        p.feed(page.read_text(encoding="utf-8"))
        for ln in p.lines:
            ln.page = (p.name.strip(), p.date)
        out += p.lines
    return out


def _event(st: Row) -> str:
    return str(st.get("event_id") or st.get("event") or "")


def _digits(v: Any) -> str:
    """A date's digits: '2017.07.24' and '2017-07-24' alike."""
    return "".join(c for c in str(v or "") if c.isdigit())


def _first_place(text: str) -> int | None:
    head = text.strip().rstrip("=").split("/")[0].strip()
    return int(head) if head.isdigit() else None


def same_number(shown: str, published: Any) -> bool:
    """The page's text is the published number as printed: the same value, to the decimals the
    scorer printed it with (a value read as a number is compared at its own decimals)."""
    ours, theirs = as_float(shown), as_float(published)
    if ours is None or theirs is None:
        return False
    k = decimals(published)
    return abs(ours - theirs) < 1e-9 and (k is None or decimals(shown) == k
                                          or isinstance(published, float))  # fmt: skip


def _pair(p: Any) -> str:
    t = str(p or "").strip()
    return t.lstrip("0") or t


def site_checks(lines: Sequence[ShownLine], standings: Iterable[Row],
                teams: Iterable[str] = ()) -> list[Check]:  # fmt: skip
    """Each published place, total and percentage against the page line of its pair: on its
    event's page (the page titled with the event's name, dated its date) where the site has
    one, else on any page (a folder's events of one name are told apart by their pages)."""
    pages: dict[tuple[str, str], list[ShownLine]] = defaultdict(list)
    for ln in lines:
        pages[ln.page].append(ln)
    indexes = {page: _index(found) for page, found in pages.items()}
    everywhere = _index(lines)
    checks = {k: Check(f"{k} shown") for k in SHOWN}
    standings = list(standings)
    teams = {*teams, *(_event(st) for st in standings if st.get("published_vp") not in (None, ""))}
    for st in standings:
        if st.get("phantom") or st.get("opponent") or standing_kind(st) != "place":
            continue
        own = (str(st.get("event") or "").strip(), _digits(st.get("date")))
        index, by_pair = indexes.get(own, everywhere)
        kind = "teams" if st.get("published_vp") not in (None, "") else "pairs"
        pair = _pair(st.get("pair"))
        want = heading(kind, st.get("session") or "", st.get("section") or "",
                       st.get("direction") or "")  # fmt: skip
        labelled = _pair(f"{st.get('section') or ''}{st.get('pair') or ''}")  # 'A11' of A+B
        found = (index.get((want, pair)) or _unique(by_pair.get(labelled, []), st)
                 or _unique(by_pair.get(pair, []), st))  # fmt: skip
        ln = found[0] if found else None
        who = f"{st.get('event') or ''} {want} pair {st.get('pair')}"
        place = _first_place(str(st.get("published_place") or ""))
        if place is not None:
            text = ln.cells.get("place", "") if ln else ""
            checks["place"].add(_first_place(text) == place,
                                f"{who}: shown {text or 'nothing'}, published "
                                f"{st.get('published_place')}")  # fmt: skip
        total = st.get("published_vp") or st.get("published_mp") or (
            # a pair of a teams event: its Butler IMPs are no ranking total (`check` counts none)
            None if _event(st) in teams else st.get("published_imps"))  # fmt: skip
        if as_float(total) is not None:
            text = ln.cells.get("score", "") if ln else ""
            checks["total"].add(
                same_number(text, total), f"{who}: shown {text or 'nothing'}, published {total}"
            )
        pct = st.get("published_pct")
        if as_float(pct) is not None:
            text = ln.cells.get("pct", "") if ln else ""
            checks["percentage"].add(
                same_number(text, pct), f"{who}: shown {text or 'nothing'}, published {pct}"
            )
    return [c for c in checks.values() if c.compared]


def _index(lines: Iterable[ShownLine]
           ) -> tuple[dict[tuple[str, str], list[ShownLine]], dict[str, list[ShownLine]]]:  # fmt: skip
    """Lines by (heading, pair) and by pair alone."""
    index: dict[tuple[str, str], list[ShownLine]] = defaultdict(list)
    by_pair: dict[str, list[ShownLine]] = defaultdict(list)
    for ln in lines:
        pair = _pair(ln.cells.get("pair"))
        index[(ln.heading, pair)].append(ln)
        by_pair[pair].append(ln)
    return index, by_pair


def _unique(found: list[ShownLine], st: Row) -> list[ShownLine]:
    """A line found by its pair alone when the page's headings name the ranking otherwise (one
    table with the pair, or the one whose heading names the standing's session and direction;
    none when that is still not one)."""
    if len(found) <= 1:
        return found
    session = str(st.get("session") or "")
    direction = DIRECTIONS.get(str(st.get("direction") or "").upper(), "")
    section = str(st.get("section") or "")
    named = [x for x in found if (not session or f"Session {session}" in x.heading)
             and (not section or section in _sections(x.heading))]  # fmt: skip
    # its direction's ranking; else one field's, where the scorer ranked both directions as one
    named = [x for x in named if not direction or direction in x.heading] or [
        x for x in named if not any(d in x.heading for d in DIRECTIONS.values())]  # fmt: skip
    if not session and len(named) > 1:  # the event's whole ranking, not a session's
        named = [x for x in named if "Session " not in x.heading]
    return named if len(named) == 1 else []


def _sections(text: str) -> set[str]:
    """The sections a ranking's heading names ('Section A+B' -> {'A', 'B'}; none: any)."""
    m = re.search(r"Section ([^,]+)", text)
    return set(m.group(1).split("+")) if m else {""}


def check_site(site: Path, files: Sequence[Path]) -> list[Check]:
    """`ddrank check --site DIR FILES`: the built site at `site` against what `files` published."""
    from ddrank.scoring.model import TEAM_SCORINGS
    from stages.scoring import load_files

    loaded = load_files(files)
    teams = [ev for ev, info in loaded.infos().items() if info.scoring in TEAM_SCORINGS]
    return site_checks(shown_lines(site), loaded.standings, teams)


def build_site_of(files: Sequence[Path], work: Path) -> Path:
    """A store and its site for `files` in `work` (read, cleaned, scored; no DD): the site a
    director publishing these files gets, for the harness to read."""
    from stages import scoring
    from stages.clean import clean_pending
    from stages.ingest import ingest_paths
    from stages.site import build_site
    from store import Store

    db = work / "site.duckdb"
    with Store(db) as store:
        ingest_paths(store, [str(f) for f in files], workers=1)
        clean_pending(store, workers=1)
        scoring.score_and_save(store, scoring.load_store(store))
    build_site(db, work)
    return work / "site"


def site_file_check(path: Path) -> list[Check]:
    """One file's site built in a scratch folder and read back (the harness's site column)."""
    with tempfile.TemporaryDirectory(prefix="ddrank-site-check-") as tmp:
        site = build_site_of([path], Path(tmp))
        return check_site(site, [path])
