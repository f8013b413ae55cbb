"""The regression report's files: Markdown, HTML, JSON, both figures, the ranking and the
excluded players, written to one folder. The content is built in `ddrank.regression`.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from ddrank.regression.analysis import RegressionAnalysis
from ddrank.regression.blocks import Block, Code, Heading, Image, Paragraph, ReportFiles, Table
from ddrank.regression.numbers import report_json
from ddrank.regression.plots import qq_figure, residuals_vs_predicted_figure
from ddrank.regression.report import build_report
from ddrank.regression.variables import RESPONSE_LABELS
from publish.encoding import csv_cell, one_line

_NON_FINITE = re.compile(r"\b(nan|inf|infinity)\b", re.IGNORECASE)


def _markdown_cell(text: str) -> str:
    """A table cell on one line; raw HTML and links from a player's name are shown as text."""
    text = html.escape(one_line(text), quote=False)
    return re.sub(r"([\\\[\]|])", r"\\\1", text)


def csv_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """The frame with its text cells neutralised against formulas (`publish.encoding`)."""
    text = [c for c in frame.columns
            if frame[c].dtype == object or pd.api.types.is_string_dtype(frame[c])]  # fmt: skip
    return frame.assign(**{c: frame[c].map(csv_cell) for c in text}) if text else frame


def render_markdown(blocks: Sequence[Block]) -> str:
    """GitHub-flavoured Markdown."""
    out: list[str] = []
    for block in blocks:
        if isinstance(block, Heading):
            out.append(f"{'#' * block.level} {block.text}\n")
        elif isinstance(block, Paragraph):
            out.append(f"{block.text}\n")
        elif isinstance(block, Code):
            out.append(f"```\n{block.text}\n```\n")
        elif isinstance(block, Image):
            out.append(f"![{block.caption}]({block.path})\n\n*{block.caption}*\n")
        elif isinstance(block, Table):
            lines = [f"**{block.caption}**", ""]
            lines.append("| " + " | ".join(_markdown_cell(h) for h in block.header) + " |")
            lines.append("|" + "|".join(" --- " for _ in block.header) + "|")
            lines.extend(
                "| " + " | ".join(_markdown_cell(c) for c in row) + " |" for row in block.rows
            )
            if block.note:
                lines.extend(["", f"*{block.note}*" if "**" not in block.note else block.note])
            out.append("\n".join(lines) + "\n")
    return "\n".join(out)


_INLINE_CODE = re.compile(r"`([^`]+)`")
_BOLD = re.compile(r"\*\*([^*]+)\*\*")


def _inline_html(text: str) -> str:
    escaped = html.escape(text, quote=False)
    escaped = _INLINE_CODE.sub(r"<code>\1</code>", escaped)
    return _BOLD.sub(r"<strong>\1</strong>", escaped)


_STYLE = """
body { font-family: system-ui, sans-serif; max-width: 72rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
table { border-collapse: collapse; margin: 0.5rem 0 1.5rem; font-size: 0.9rem; }
caption { text-align: left; font-weight: bold; padding-bottom: 0.3rem; }
th, td { border: 1px solid #ccc; padding: 0.25rem 0.5rem; text-align: left; vertical-align: top; }
th { background: #f3f3f3; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
code { font-size: 0.85em; }
pre { background: #f6f6f6; padding: 0.6rem; }
figure img { max-width: 100%; border: 1px solid #ddd; }
p.note { font-size: 0.85rem; color: #555; }
"""

_NUMERIC = re.compile(r"^[<\-]?\d[\d.]*$")


def render_html(blocks: Sequence[Block], title: str) -> str:
    """A self-describing HTML page (images are linked, not embedded)."""
    body: list[str] = []
    for block in blocks:
        if isinstance(block, Heading):
            body.append(f"<h{block.level}>{_inline_html(block.text)}</h{block.level}>")
        elif isinstance(block, Paragraph):
            body.append(f"<p>{_inline_html(block.text)}</p>")
        elif isinstance(block, Code):
            body.append(f"<pre><code>{html.escape(block.text)}</code></pre>")
        elif isinstance(block, Image):
            body.append(
                f'<figure><img src="{html.escape(block.path)}" alt="{html.escape(block.caption)}">'
                f"<figcaption>{html.escape(block.caption)}</figcaption></figure>"
            )
        elif isinstance(block, Table):
            rows = ["<table>", f"<caption>{_inline_html(block.caption)}</caption>"]
            rows.append(
                "<tr>" + "".join(f"<th>{_inline_html(h)}</th>" for h in block.header) + "</tr>"
            )
            for row in block.rows:
                cells = "".join(
                    f'<td class="num">{_inline_html(c)}</td>'
                    if _NUMERIC.match(c)
                    else f"<td>{_inline_html(c)}</td>"
                    for c in row
                )
                rows.append(f"<tr>{cells}</tr>")
            rows.append("</table>")
            if block.note:
                rows.append(f'<p class="note">{_inline_html(block.note)}</p>')
            body.append("\n".join(rows))
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{html.escape(title)}</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n"
        + "\n".join(body)
        + "\n</body>\n</html>\n"
    )


def _check_finite_text(name: str, text: str) -> None:
    """Refuse to write an output that contains a NaN or an infinity."""
    match = _NON_FINITE.search(text)
    if match:
        start = max(match.start() - 60, 0)
        raise ValueError(
            f"{name} would contain {match.group(0)!r}: ...{text[start : match.end() + 20]}..."
        )


def write_regression_report(
    analysis: RegressionAnalysis, source: str, out_dir: str | Path
) -> dict[str, str]:
    """Write report.md/.html/.json, both figures, the ranking and the exclusions to `out_dir`."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    files = ReportFiles()
    written: dict[str, str] = {}

    texts: dict[str, str] = {}
    if analysis.final is not None:
        label = RESPONSE_LABELS[analysis.dataset.response]
        if analysis.log_response:
            label = f"log(1 + {label})"
        for key, name, figure in (
            (
                "residual_plot",
                files.residual_plot,
                residuals_vs_predicted_figure(analysis.final.model, label),
            ),
            ("qq_plot", files.qq_plot, qq_figure(analysis.final.model)),
        ):
            figure.savefig(out / name, dpi=100)
            written[key] = str(out / name)
    if analysis.ranking is not None:
        texts[files.ranking] = csv_frame(analysis.ranking).to_csv(index=False, float_format="%.10g")
        written["ranking"] = str(out / files.ranking)
    exclusions = pd.DataFrame(
        {
            "name": [e.name for e in analysis.dataset.exclusions],
            "reason": [e.reason for e in analysis.dataset.exclusions],
        }
    )
    texts[files.exclusions] = csv_frame(exclusions).to_csv(index=False)
    written["exclusions"] = str(out / files.exclusions)

    blocks = build_report(analysis, source, files)
    title = f"ddrank regression report: {analysis.dataset.label}"
    texts["report.md"] = render_markdown(blocks)
    texts["report.html"] = render_html(blocks, title)
    written["markdown"] = str(out / "report.md")
    written["html"] = str(out / "report.html")
    written["json"] = str(out / "report.json")
    payload: dict[str, Any] = report_json(analysis, source, sorted(written.values()))
    texts["report.json"] = json.dumps(payload, indent=2, allow_nan=False, ensure_ascii=False)

    for name, text in texts.items():
        # Player names are free text; only check the generated numbers and prose.
        checked = (
            text
            if name != files.exclusions
            else "\n".join(e.reason for e in analysis.dataset.exclusions)
        )
        if name == files.ranking and analysis.ranking is not None:
            checked = analysis.ranking.drop(columns=["name"]).to_csv(index=False)
        _check_finite_text(name, checked)
        (out / name).write_text(text, encoding="utf-8")
    return written
