"""Golden outputs: record what ddrank writes, then show exactly what a change altered.

A refactor must keep behaviour. This script runs the product as a user does and keeps every
file it writes, normalised only where a run cannot be identical (temporary paths, clocks):

* `ddrank run --json` on the bundled sample (or `--inputs`) into a fresh store and `out/`:
  every CSV, JSON and Markdown file, every site page, and the JSON summary it prints;
* `ddrank score FILE --json` on every event file under `--events` (default
  `../shared/data/events`), one output folder per file.

    python bench/golden.py record bench/out/golden/before          # minutes (DDS on the sample)
    python bench/golden.py compare bench/out/golden/before bench/out/golden/after
    python bench/golden.py check bench/out/golden/before           # record to a temp dir, compare

`compare` prints one line per file that differs, appears or disappears, with the first
differing lines, and ends with `identical` or `N file(s) differ`. Its exit code is 0 only when
everything is identical. `--skip-run` / `--skip-score` record (and compare) one half only.
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_EVENTS = ROOT.parent / "shared" / "data" / "events"
SAMPLE = ROOT / "ddrank" / "data" / "sample"
#: What a user's results are made of; binary store files and caches are not compared.
KEPT_SUFFIXES = {".csv", ".json", ".md", ".html", ".txt", ".svg", ".js", ".css"}
SKIPPED_NAMES = {".ddrank-run.json"}  # holds the run's clock and digests of the store file
#: Event files `score` is run on: data, not the folder's notes and licences.
SKIPPED_EVENT_FILES = {"SOURCES.md", "LICENSE.txt"}
#: Keys of a printed JSON summary that carry the clock or the machine, not results.
VOLATILE_KEYS = re.compile(r"seconds|elapsed|wall|timing|duration|started|finished|_at$|"
                           r"api_url|^pid$|created")  # fmt: skip
CLOCK = re.compile(r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:\.\d+)?(?: ?UTC|Z|[+-]\d\d:?\d\d)?")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("record", "check"):
        p = sub.add_parser(name)
        p.add_argument("dir", type=Path, help="where to record (record) / the baseline (check)")
        p.add_argument("--inputs", nargs="*", default=[str(SAMPLE)],
                       help="inputs of `ddrank run` (default: the bundled sample)")  # fmt: skip
        p.add_argument("--events", type=Path, default=DEFAULT_EVENTS,
                       help="folder whose event files are each scored with `ddrank score`")  # fmt: skip
        p.add_argument("--skip-run", action="store_true", help="do not record `ddrank run`")
        p.add_argument("--skip-score", action="store_true", help="do not record `ddrank score`")
    p = sub.add_parser("compare")
    p.add_argument("before", type=Path)
    p.add_argument("after", type=Path)
    p.add_argument("--lines", type=int, default=6, help="differing lines shown per file")
    args = ap.parse_args(argv)

    if args.cmd == "record":
        record(args.dir, args.inputs, args.events, args.skip_run, args.skip_score)
        return 0
    if args.cmd == "compare":
        return compare(args.before, args.after, args.lines)
    with tempfile.TemporaryDirectory(prefix="golden-") as tmp:
        after = Path(tmp) / "after"
        record(after, args.inputs, args.events, args.skip_run, args.skip_score)
        halves = tuple(h for h, skip in (("run/", args.skip_run), ("score/", args.skip_score))
                       if not skip)  # fmt: skip
        return compare(args.dir, after, 6, halves)


def record(dest: Path, inputs: list[str], events: Path, skip_run: bool, skip_score: bool) -> None:
    """Run the product and keep its normalised outputs under `dest`."""
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    meta: dict[str, object] = {"commit": _git("rev-parse", "HEAD"), "inputs": inputs,
                               "events": str(events)}  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="golden-work-") as work:
        work_dir = Path(work)
        if not skip_run:
            started = time.monotonic()
            out = work_dir / "run-out"
            printed = _ddrank(["run", *inputs, "--db", str(work_dir / "run.duckdb"),
                               "--out", str(out), "--json"], work_dir)  # fmt: skip
            _keep_tree(out, dest / "run", work_dir)
            _keep_json(printed, dest / "run" / "_printed.json", work_dir)
            meta["run_seconds"] = round(time.monotonic() - started, 1)
            print(f"golden: ddrank run recorded in {meta['run_seconds']} s", file=sys.stderr)
        if not skip_score:
            files = sorted(f for f in events.rglob("*")
                           if f.is_file() and f.name not in SKIPPED_EVENT_FILES)  # fmt: skip
            started = time.monotonic()
            for i, f in enumerate(files, 1):
                rel = f.relative_to(events)
                out = work_dir / "score" / rel
                printed = _ddrank(["score", str(f), "--out", str(out), "--json"], work_dir,
                                  check=False)  # fmt: skip
                target = dest / "score" / rel
                _keep_tree(out, target, work_dir)
                _keep_json(printed, target / "_printed.json", work_dir)
                print(f"golden: score {i}/{len(files)} {rel}", file=sys.stderr)
            meta["score_files"] = len(files)
            meta["score_seconds"] = round(time.monotonic() - started, 1)
    (dest / "_meta.json").write_text(json.dumps(meta, indent=2) + "\n")
    n = sum(1 for p in dest.rglob("*") if p.is_file())
    print(f"golden: {n} files recorded in {dest}")


def compare(before: Path, after: Path, lines: int,
            halves: tuple[str, ...] = ("run/", "score/")) -> int:  # fmt: skip
    """Print what differs between two recordings (only the `halves` recorded); 0 when identical."""
    a, b = _index(before), _index(after)
    differ = 0
    for rel in sorted(set(a) | set(b)):
        if not rel.startswith(halves):
            continue
        if rel not in b:
            print(f"- {rel}: gone")
        elif rel not in a:
            print(f"+ {rel}: new")
        elif a[rel] == b[rel] or _same_but_random_ids(before / rel, after / rel):
            continue
        else:
            print(f"~ {rel}")
            old = (before / rel).read_text(errors="replace").splitlines()
            new = (after / rel).read_text(errors="replace").splitlines()
            diff = [d for d in difflib.unified_diff(old, new, lineterm="", n=0)
                    if not d.startswith(("---", "+++", "@@"))]  # fmt: skip
            for d in diff[:lines]:
                print(f"    {d[:200]}")
            if len(diff) > lines:
                print(f"    ... {len(diff) - lines} more changed lines")
        differ += 1
    print("identical" if not differ else f"{differ} file(s) differ")
    return 1 if differ else 0


#: matplotlib names SVG elements with salted random hashes (`m1a2b3c4d5e`, `p0f9e...`).
SVG_IDS = re.compile(r"\b([mp])[0-9a-f]{10}\b")


def _same_but_random_ids(a: Path, b: Path) -> bool:
    """Two files equal once matplotlib's random element ids are blanked (SVG, or pages inlining it)."""
    if a.suffix not in (".svg", ".html"):
        return False
    blank = [SVG_IDS.sub(r"\1<id>", p.read_text(errors="replace")) for p in (a, b)]
    return blank[0] == blank[1]


def _ddrank(args: list[str], work: Path, check: bool = True) -> str:
    """`ddrank ARGS` with this checkout's code (not whatever `ddrank` is on PATH)."""
    env = dict(os.environ, COLUMNS="200", NO_COLOR="1", DDRANK_GOLDEN="1")
    env.pop("DDRANK_CONFIG", None)
    proc = subprocess.run([sys.executable, "-m", "cli.main", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True)  # fmt: skip
    if check and proc.returncode != 0:
        sys.stderr.write(proc.stdout[-4000:] + proc.stderr[-4000:])
        raise SystemExit(f"golden: ddrank {' '.join(args)} exited {proc.returncode}")
    return proc.stdout if proc.returncode == 0 else f'{{"exit_code": {proc.returncode}}}'


def _keep_tree(src: Path, dest: Path, work: Path) -> None:
    if not src.is_dir():
        return
    for f in sorted(src.rglob("*")):
        if f.is_file() and f.suffix in KEPT_SUFFIXES and f.name not in SKIPPED_NAMES:
            target = dest / f.relative_to(src)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(_normalise_text(f.read_text(errors="replace"), work))


def _keep_json(printed: str, target: Path, work: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    start = printed.find("{")
    try:
        data = json.loads(printed[start:]) if start >= 0 else {"printed": printed}
    except json.JSONDecodeError:
        data = {"printed": printed}
    text = json.dumps(_drop_volatile(data), indent=2, sort_keys=True, default=str)
    target.write_text(_normalise_text(text, work) + "\n")


def _drop_volatile(value: object) -> object:
    if isinstance(value, dict):
        return {k: ("<volatile>" if VOLATILE_KEYS.search(str(k)) else _drop_volatile(v))
                for k, v in value.items()}  # fmt: skip
    if isinstance(value, list):
        return [_drop_volatile(v) for v in value]
    return value


def _normalise_text(text: str, work: Path) -> str:
    for path, label in ((str(work.resolve()), "<WORK>"), (str(work), "<WORK>"),
                        (str(ROOT), "<ROOT>"), (str(ROOT.parent), "<PARENT>")):  # fmt: skip
        # reports in Markdown escape the path's underscores (a temporary folder's name may
        # have some): both spellings are the same folder
        text = text.replace(path, label).replace(path.replace("_", "\\_"), label)
    text = CLOCK.sub("<TIME>", text)
    return text


def _index(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha1(p.read_bytes()).hexdigest()
            for p in root.rglob("*") if p.is_file()}  # fmt: skip


def _git(*args: str) -> str:
    proc = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True)
    return proc.stdout.strip()


if __name__ == "__main__":
    raise SystemExit(main())
