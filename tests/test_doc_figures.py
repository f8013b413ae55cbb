"""Every time figure in the prose of README.md and docs/*.md comes from a dated measurement.

The same command takes 2 s on an idle machine and 20 s at load 20, and a figure without its date
and load cannot be checked or re-measured (issue 38, "Docs as tests"). The rule, in full:

* A time figure is a number with a time unit (`35 ms`, `2.5 s`, `about 10 minutes`, `1 h 45 min`,
  `two minutes`) in prose: fenced blocks (outputs, which carry their own date: see
  test_doc_examples), inline code spans (formulas, commands) and HTML comments are not prose.
* A figure is a setting or a target, not a measurement, when the words just before it say so
  (`every`, `after`, `at most`, `up to`, `more than`, `within`, `timeout`, `limit`, `target`,
  `default`, a comparison sign, a backticked setting's name) or "later" follows it; those need no
  source.
* A measured figure is sourced when its paragraph, or its section above it (from the nearest
  heading down), gives a date (2026-11-25 or 25 Nov 2026) and the machine's load (a load
  average, "load not recorded", or "idle"/"quiet").
* Or when its paragraph links a record (a docs/*.md page or a bench/results/ file) that holds the
  same figure, written the same way, in a dated section: the README's two commands quote
  docs/performance.md, "The two commands", this way, so re-measuring them is one table row.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NUMBER = r"(\d[\d,]*(\.\d+)?|\b(one|two|three|four|five|six|seven|eight|nine|ten|a few|half an?)\b)"
UNIT = r"(ms|s|seconds?|min|minutes?|h|hours?|CPU-seconds|CPU-s)"
FIGURE = re.compile(rf"(?<![\w.-]){NUMBER}(\s*[-–]\s*{NUMBER})?\s{UNIT}(?![\w/])")
SETTING_BEFORE = re.compile(
    r"(\bevery|\bafter|\bmore than|\bat most|\bup to|\bwithin|\btimeout|\blimit|\btarget|"
    r"\bdefault|[<>≤≥=]|`\s*\(?)\s*(about\s*)?$",
    re.I,
)
SETTING_AFTER = re.compile(r"^\s*later\b")
DATE = re.compile(
    r"\b20\d\d-\d\d-\d\d\b|\b\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\w* 20\d\d\b"
)
LOAD = re.compile(r"\bload\b|\bidle\b|\bquiet\b|nothing else running", re.I)
LINK = re.compile(r"\((?:\.\./)?((?:docs|bench/results)/[\w./-]+?|[\w-]+\.md)(#[\w-]+)?\)")
FENCE = re.compile(r"^```.*?^```[^\n]*$", re.M | re.S)


def doc_files() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def prose(text: str) -> str:
    """The text a reader reads as sentences: blocks, comments and code spans blanked, lines kept."""
    text = re.sub(r"<!--.*?-->", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    text = FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    return re.sub(r"`[^`\n]*`", "``", text)


def paragraphs(text: str) -> list[tuple[int, str, str]]:
    """(first line, paragraph, its section's text above it) of one document's prose; a
    subsection's text above it includes its parent sections' (a `###` under a dated `##`)."""
    found, lines, start = [], [], 0
    sections: list[tuple[int, str]] = [(0, "")]  # (heading level, text so far), outermost first
    for n, line in enumerate([*prose(text).split("\n"), ""], 1):
        heading = re.match(r"#+ ", line)
        if heading or not line.strip():
            if lines:
                found.append((start, "\n".join(lines), "\n".join(t for _, t in sections)))
                level, so_far = sections[-1]
                sections[-1] = (level, so_far + "\n" + "\n".join(lines))
                lines = []
            if heading:
                level = len(heading.group(0)) - 1
                sections = [s for s in sections if s[0] < level] + [(level, line)]
            continue
        start = start if lines else n
        lines.append(line)
    return found


def measured(paragraph: str) -> list[str]:
    """The paragraph's time figures that are measurements (not settings or targets)."""
    return [" ".join(m.group(0).split()) for m in FIGURE.finditer(paragraph)
            if not SETTING_BEFORE.search(paragraph[: m.start()][-30:])
            and not SETTING_AFTER.match(paragraph[m.end():])]  # fmt: skip


def dated(text: str) -> bool:
    return bool(DATE.search(text) and LOAD.search(text))


def dated_figures(path: Path) -> set[str]:
    """Figures a record holds in a dated paragraph or section (what another page may quote)."""
    if not path.is_file():
        return set()
    text = path.read_text(encoding="utf-8")
    if path.suffix != ".md":
        return {m.group(0) for m in FIGURE.finditer(text)} if dated(text) else set()
    return {f for _, para, section in paragraphs(text) if dated(section + para)
            for f in measured(para)}  # fmt: skip


def unsourced() -> list[str]:
    bad = []
    for path in doc_files():
        for line, para, section in paragraphs(path.read_text(encoding="utf-8")):
            figures = measured(para)
            if not figures or dated(para) or dated(section + "\n" + para):
                continue
            quoted = set()
            for m in LINK.finditer(para):
                target = (path.parent / m.group(1)).resolve()
                quoted |= dated_figures(target if target.exists() else ROOT / m.group(1))
            missing = [f for f in figures if f not in quoted]
            if missing:
                bad.append(f"{path.relative_to(ROOT)}:{line}: {', '.join(missing)}")
    return bad


def test_every_time_figure_has_a_dated_source() -> None:
    bad = unsourced()
    assert not bad, (
        "time figures with no date and load in their paragraph or section, and not quoted from a "
        "dated record they link (say when, at what load, or link where it was measured):\n"
        + "\n".join(bad)
    )


def test_the_rule_finds_what_it_should() -> None:
    """The rule itself, on sentences the docs write: a measurement without a source is found; a
    date and load, a setting, a formula in code, or a quote of a dated record are not."""
    assert measured("a club night takes about 2 seconds, 1 h 45 min to\ntrain") == [
        "2 seconds", "1 h", "45 min"]  # fmt: skip
    assert measured("a line every 10 seconds, at most two minutes, still running 10 s later") == []
    assert measured("`Total = 0.55 s + 0.45 g` and 4H by South") == []
    assert not dated("took 88.7 s under a load average of 4-5")
    assert dated("took 88.7 s (2026-11-25, load 4-5)")
    assert dated("took 88.7 s on 25 Nov 2026, load not recorded")
    text = (
        "## A\n\nMeasured 2026-12-07 at load 3.\n\nThen it took 9 s.\n\n### A.1\n\nIt took 9 s."
        "\n\n## B\n\nIt took 9 s.\n"
    )
    assert [dated(s + p) for _, p, s in paragraphs(text)] == [True, True, True, False]


def test_the_readme_quotes_the_two_commands_row_by_row() -> None:
    """README commands 1 and 2: each time the README gives is in docs/performance.md's table of
    the two commands, whose rows carry the date, commit and load (re-measuring them is editing
    one row and the README's sentence; this test catches one without the other)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    para = next(
        p for _, p, _ in paragraphs(readme) if "command 1" in p and "command 2" in p.lower()
    )
    figures = measured(para)
    assert figures, "the README says how long its two commands take"
    table = dated_figures(ROOT / "docs" / "performance.md")
    assert set(figures) <= table, f"not in docs/performance.md: {set(figures) - table}"
