"""The conformance baseline: `ddrank check` over every real results file, against what it agreed.

Every file under `../shared/data/events/` and the bundled ones (`ddrank/data/sample/`,
`tests/data/`) is checked with default options (stages.check). The number of published values
that agree, per file and kind of value, may never drop below `tests/data/conformance-baseline.json`
(tests/test_conformance.py fails on any drop). When a change makes more values agree, raise it:

    python bench/conformance.py --update      # write the baseline from this run
    python bench/conformance.py --readme      # rewrite README's agreement table from this run
    python bench/conformance.py               # compare only: drops and gains, exit 1 on a drop
    python bench/conformance.py --site        # also build each file's site and read its pages

`--site` builds the site of every file that published a ranking (no DD), reads the places,
totals and percentages its event pages show (stages/site_check.py) and keeps the counts in
`tests/data/site-conformance.json`: README's column "shown on the site" is made from them.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ddrank.scoring.verification.conformance import FileCheck, baseline_of, drops, gains  # noqa: E402

#: Where the files are, by the label their names start with in the baseline and the README.
ROOTS = {"events": ROOT.parent / "shared" / "data" / "events",
         "sample": ROOT / "ddrank" / "data" / "sample",
         "tests/data": ROOT / "tests" / "data"}  # fmt: skip
BASELINE = ROOT / "tests" / "data" / "conformance-baseline.json"
SITE = ROOT / "tests" / "data" / "site-conformance.json"
README = ROOT / "README.md"
START, END = "<!-- conformance-table: start -->", "<!-- conformance-table: end -->"


def label(path: str) -> str:
    """'events/ruter-pbn/sm2.pbn': the root's label and the path below it."""
    p = Path(path).resolve()
    for name, root in ROOTS.items():
        if p.is_relative_to(root.resolve()):
            return f"{name}/{p.relative_to(root.resolve())}"
    return path


def run() -> tuple[list[FileCheck], int, list[str]]:
    """(each file's check, files skipped, the roots present) over every root that exists."""
    from stages.check import check_paths

    present = [r for r in ROOTS.values() if r.is_dir()]
    files, skipped = check_paths(present)
    return files, len(skipped), [n for n, r in ROOTS.items() if r.is_dir()]


def load_baseline() -> dict[str, dict[str, int]]:
    return json.loads(BASELINE.read_text())["files"]


def save_baseline(files: list[FileCheck]) -> None:
    data = {"about": "published values that agree, per file and kind of value: "
                     "`python bench/conformance.py --update` writes it (bench/conformance.py)",
            "files": baseline_of(files, {f.path: label(f.path) for f in files})}  # fmt: skip
    BASELINE.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")


def site_column(files: list[FileCheck]) -> dict[str, dict[str, list[int]]]:
    """Per file that published a ranking: [agree, compared] of each value its built site shows
    as the scorer printed it (stages.site_check), beside the same values `check` compares."""
    from stages.site_check import SHOWN, site_file_check

    out: dict[str, dict[str, list[int]]] = {}
    for f in files:
        kinds = {c.what for c in f.checks() if c.compared}
        if not any(k in kinds for ks in SHOWN.values() for k in ks):
            continue
        shown = {c.what: [c.agree, c.compared] for c in site_file_check(Path(f.path))}
        out[label(f.path)] = shown
        print(f"site: {label(f.path)}: {shown}", flush=True)
    return out


def check_column(files: list[FileCheck]) -> dict[str, dict[str, list[int]]]:
    """Per file: [verified, compared] of the places, totals and percentages `check` compares,
    by the site column's names: verified is agree plus differing where the file's own numbers
    prove it wrong (the page prints the scorer's value there, and says what they give)."""
    from stages.site_check import SHOWN

    out: dict[str, dict[str, list[int]]] = {}
    for f in files:
        checks = {c.what: c for c in f.checks() if c.compared}
        row = {}
        for kind, whats in SHOWN.items():
            cs = [checks[w] for w in whats if w in checks]
            if cs:
                row[f"{kind} shown"] = [sum(c.agree + len(c.explained) for c in cs),
                                        sum(c.compared for c in cs)]  # fmt: skip
        if row:
            out[label(f.path)] = row
    return out


def load_site() -> dict[str, dict[str, list[int]]]:
    return json.loads(SITE.read_text())["files"] if SITE.is_file() else {}


def load_checked() -> dict[str, dict[str, list[int]]]:
    """`check`'s column beside the site's: [verified, compared] per file and kind."""
    return json.loads(SITE.read_text()).get("checked", {}) if SITE.is_file() else {}


def save_site(column: dict[str, dict[str, list[int]]],
              checked: dict[str, dict[str, list[int]]]) -> None:  # fmt: skip
    data = {"about": "what each file's built site shows as the scorer printed it (files), and "
                     "what `check` verifies of the same values (checked: agree + proven by the "
                     "file's own numbers): `python bench/conformance.py --site` writes both",
            "files": column,
            "checked": {k: v for k, v in checked.items() if k in column}}  # fmt: skip
    SITE.write_text(json.dumps(data, indent=1, ensure_ascii=False, sort_keys=True) + "\n")


def readme_block(files: list[FileCheck]) -> str:
    """README's agreement table and the pooled figures, between the markers."""
    from publish.check import readme_table, summary_text

    pooled = summary_text(files, 0, label)[:3]  # other files skipped vary with notes added
    table = readme_table(files, label, load_site())
    lines = [START, "", *table, "", *[f"{x}  " for x in pooled], "", END]
    return "\n".join(lines)


def readme_now() -> str:
    """The block README holds now ('' when it has none)."""
    text = README.read_text()
    if START not in text or END not in text:
        return ""
    return text[text.index(START) : text.index(END) + len(END)]


def write_readme(block: str) -> None:
    text = README.read_text()
    old = readme_now()
    if not old:
        raise SystemExit(f"README.md has no {START} ... {END} block to rewrite")
    README.write_text(text.replace(old, block))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--update", action="store_true", help="write the baseline from this run")
    ap.add_argument("--readme", action="store_true", help="rewrite README's agreement table")
    ap.add_argument("--site", action="store_true",
                    help="build each file's site and read what its pages show")  # fmt: skip
    args = ap.parse_args(argv)
    files, skipped, present = run()
    if args.site:
        save_site(site_column(files), check_column(files))
        print(f"wrote {SITE.relative_to(ROOT)}")
    now = baseline_of(files, {f.path: label(f.path) for f in files})
    before = load_baseline() if BASELINE.is_file() else {}
    seen = {label(f.path) for f in files}
    lost, won = drops(now, before, seen), gains(now, before)
    for line in lost:
        print(f"drop: {line}")
    for line in won:
        print(f"gain: {line}")
    if args.update:
        save_baseline(files)
        print(f"wrote {BASELINE.relative_to(ROOT)} ({len(now)} files with published values)")
    if args.readme:
        if "events" not in present:
            raise SystemExit("README's table covers ../shared/data/events, which is absent here")
        write_readme(readme_block(files))
        print("rewrote README.md's agreement table")
    return 1 if lost and not args.update else 0


if __name__ == "__main__":
    raise SystemExit(main())
