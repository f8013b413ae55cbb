"""Texts about a whole run: the Prefect summary artifact and the regression thresholds line."""

from __future__ import annotations

from typing import Any

from ddrank.regression.defaults import regress_flags
from publish.encoding import markdown_text as md


def thresholds_line(thresholds: dict[str, float], db: str) -> str:
    """The scaled Table 9 minima in words, with the `ddrank regress` call that reproduces them."""
    words = ", ".join(f"{k.replace('_', ' ')} {v:g}" for k, v in thresholds.items())
    return (
        f"regression thresholds (Table 9 scaled to this store's size): {words}; "
        f"reproduce with: ddrank regress --db {db} {regress_flags(thresholds)}"
    )


def summary_markdown(summary: dict[str, Any]) -> str:
    ing, audit, dd, names = summary["ingest"], summary["audit"], summary["dd"], summary["names"]
    lines = [
        "# ddrank run",
        "",
        f"* records read {ing['records_read']:,}, **new {ing['new']:,}**, "
        f"already stored {ing['duplicate']:,}",
        f"* raw records {audit['raw_records']:,} = boards {audit['boards']:,} "
        f"+ excluded {audit['excluded']:,} ({'balanced' if audit['balanced'] else 'NOT balanced'})",
        f"* names: {names.get('matched', 0):,} of {names.get('names', 0):,} seat names (one per "
        f"name and event) matched to the ranking list, {names.get('review', 0):,} to review",
        f"* double dummy: {dd.get('tables_computed', 0):,} tables and "
        f"{dd.get('traces_computed', 0):,} traces computed, {dd.get('boards_tallied', 0):,} "
        f"boards tallied, {len(dd.get('quarantined', [])):,} quarantined",
        f"* regression report: `{summary['report'].get('markdown', summary['report'].get('skipped', summary['report'].get('failed')))}`",
        "",
        "## Exclusions (Table 5)",
        "",
        "| reason | boards |",
        "|---|---:|",
    ]
    lines += [f"| {md(r['description'])} | {r['count']:,} |" for r in audit["table5_exclusions"]
              if r["count"] or r["reason"] in ("total", "no_error")]  # fmt: skip
    return "\n".join(lines) + "\n"
