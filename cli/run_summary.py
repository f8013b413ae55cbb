"""What `ddrank run` prints at the end: the audit, each stage's outcome and wall time, where the
files are."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from publish.run_summary import thresholds_line
from stages import freshness


def show_summary(result: dict[str, Any], settings: Any) -> None:
    from publish.console import console, print_audit

    if result.get("nothing_new"):
        console.print(freshness.Freshness(**result).message(settings.out), highlight=False,
                      soft_wrap=True)  # fmt: skip
        site = Path(settings.out) / "site" / "index.html"
        if site.is_file():
            console.print(f"site: {site} (open it in a browser)", markup=False)
        return
    ing, dd = result["ingest"], result["dd"]
    console.print(
        f"ingest: {ing['records_read']:,} records read, [bold]{ing['new']:,} new[/], "
        f"{ing['duplicate']:,} already in the store"
    )
    print_audit(result["audit"])
    names = result["names"]
    console.print(names_line(names), markup=False, soft_wrap=True)
    console.print(
        f"double dummy: {dd.get('tables_computed', 0):,} DD tables and "
        f"{dd.get('traces_computed', 0):,} play traces computed; DD mistake statistics for "
        f"{dd.get('players', 0):,} players (those with an analysed board)"
    )
    if dd.get("quarantined"):
        console.print(f"{len(dd['quarantined']):,} board(s) quarantined (solver_crash): "
                      f"{', '.join(dd['quarantined'][:5])}", markup=False)  # fmt: skip
    console.print(thresholds_line(result["thresholds"], settings.db), markup=False, soft_wrap=True)
    report = result["report"]
    console.print(
        f"regression report: {report.get('markdown', report.get('skipped', report.get('failed')))}"
    )
    show_rankings(result.get("scoring") or {})
    show_outputs(result.get("site"), report)
    show_timings(result.get("timings", {}))


def show_rankings(scoring: dict[str, Any], top: int = 3) -> None:
    """Each event's winners per section and direction, how it was scored, what agrees."""
    from publish.console import console
    from publish.rankings import ranking_text

    if scoring.get("rankings"):
        console.print(ranking_text(scoring["rankings"], top=top), markup=False, highlight=False,
                      soft_wrap=True)  # fmt: skip


def show_timings(timings: dict[str, float]) -> None:
    """Each stage's wall time, the slowest visible at a glance."""
    from publish.console import console

    if timings:
        parts = ", ".join(f"{name} {seconds:.1f} s" for name, seconds in timings.items())
        console.print(f"stage wall times: {parts}; total {sum(timings.values()):.1f} s",
                      markup=False)  # fmt: skip


def show_outputs(site: dict[str, Any] | None, report: dict[str, Any]) -> None:
    """The run's last lines: the top of the rating table, the model verdict, where files are."""
    from rich.markup import escape

    from ddrank.site.stats import regression_verdict
    from publish.console import console

    if not site or "failed" in site:
        console.print(f"site: not written ({(site or {}).get('failed', 'no site stage')})",
                      markup=False)  # fmt: skip
        return
    console.print(ratings_line(site), markup=False, soft_wrap=True)
    verdict = site.get("verdict") or regression_verdict(report)
    console.print(f"model: {verdict}", markup=False)
    out = Path(site["site"]).parent.parent
    csvs = sorted(p for p in out.rglob("*.csv") if "site" not in p.relative_to(out).parts)
    if csvs:
        folders = sorted({str(p.parent) for p in csvs})
        console.print(f"CSV files: {len(csvs)} in {', '.join(folders)}", markup=False)
    console.print(
        f"site: {site['events']} events, {site['players']:,} players (everyone seated at a kept "
        f"board) → [bold]{escape(site['site'])}[/] (open it in a browser)"
    )


def ratings_line(site: dict[str, Any]) -> str:
    """What the ratings hold: the top of the list, or how many players are rated when nobody has
    the boards the top list needs (never "none" while the store holds ratings)."""
    least = site.get("min_boards_listed", 30)
    if site.get("ratings"):
        top = "; ".join(f"{r.get('name') or r['player']} {r['rating']:.1f}"
                        for r in site["ratings"][:5])  # fmt: skip
        return f"top Lehman ratings (at least {least} boards): {top}"
    if site.get("rated"):
        return (
            f"ratings: {site['rated']:,} players have a Lehman rating (on the Ratings page "
            f"and `ddrank player`); none has the {least} boards the top list needs yet"
        )
    return "ratings: none yet (no scored event rates its players)"


def names_line(names: dict[str, Any]) -> str:
    """How many seat names were matched to the ranking list. A seat name counts once per event
    (the same name in two events is matched twice), so this is not a count of players."""
    if names.get("skipped"):
        return f"names: not matched ({names['skipped']})"
    scope = f"; ranking list applied to {names['scope']} events" if names.get("scope") else ""
    return (f"names: {names.get('matched', 0):,} of {names.get('names', 0):,} seat names "
            f"(one per name and event) matched to the ranking list{scope}")  # fmt: skip
