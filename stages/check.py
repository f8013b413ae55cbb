"""Stage `check`: every results file scored on its own, with default options, against what it
published (`ddrank check`).

Each file is read as `ddrank score FILE` reads it and scored by the same code (stages.scoring),
so what the harness says is what a director gets. A folder is walked for the files a reader
takes, and for binary files no reader takes yet (they count as unreadable: a results format
ddrank does not read is a gap to show, not to hide); text no reader takes (notes, licences, web
pages) is skipped.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from ddrank.parsers.producer import FORMAT_PRODUCERS
from ddrank.parsers.registry import SNIFF_BYTES, UnreadableFile, sniff
from ddrank.raw import ParsedFile
from ddrank.scoring.intake.results import RecordError
from ddrank.scoring.verification.conformance import (
    CHECKED,
    FAILED,
    NO_RESULTS,
    NOT_PUBLISHED,
    UNREADABLE,
    EventCheck,
    FileCheck,
    kind_of,
)
from stages.scoring import load_parsed, score_events
from store.inputs.files import walk
from store.inputs.read import read_parsed

#: A message that names its line already ("line 7: ...", "refused: line 7: ...").
LINE_SAID = re.compile(r"^(refused: )?line \d+: ")


def _head(path: Path) -> bytes:
    with path.open("rb") as fh:
        return fh.read(SNIFF_BYTES)


def _binary(head: bytes) -> bool:
    return b"\x00" in head[:4096]


def files_to_check(paths: Iterable[str | Path]) -> tuple[list[Path], list[Path]]:
    """(files to check, files skipped): given files always; in a folder (recursively, hidden
    files aside) the files a reader takes and binary files no reader takes."""
    chosen: list[Path] = []
    skipped: list[Path] = []
    for p in map(Path, paths):
        if p.is_file():
            chosen.append(p)
            continue
        if not p.is_dir():
            raise FileNotFoundError(f"{p}: no such file or folder")
        for f in sorted(walk(p)):  # not recursive: a folder 1,100 levels deep is walked
            if any(part.startswith(".") for part in f.relative_to(p).parts):
                continue
            try:
                head = _head(f)
                sniff(head)
            except UnreadableFile:
                (chosen if _binary(head) else skipped).append(f)
                continue
            except OSError:
                skipped.append(f)
                continue
            chosen.append(f)
    return chosen, skipped


def producer_of(parsed: ParsedFile) -> str:
    """The program the file declares (its reader reads it: ddrank.parsers.producer), else its
    format's own program where the format has one."""
    named = sorted({ev.scorer for ev in parsed.events if ev.scorer})
    return ", ".join(named) or FORMAT_PRODUCERS.get(parsed.format, "")


def check_file(path: Path) -> FileCheck:
    """One file read, scored with default options and compared with what it published."""
    parsed = read_parsed(path)[0]
    bad = [r for r in parsed.records if r.parse_error]
    good = len(parsed.records) - len(bad)
    producer = producer_of(parsed)
    if parsed.refused:  # refused whole (cut short, damaged, over a limit): nothing of it checked
        return FileCheck(str(path), parsed.format, producer, UNREADABLE, parsed.refused)
    if not good and not parsed.standings:
        why = ""
        if bad:  # "line N: why", where N is the line a reader's message names, else the record's
            why = bad[0].parse_error
            if not LINE_SAID.match(why):
                why = f"line {bad[0].source_line}: {why}"
        if bad and not parsed.deals:
            return FileCheck(str(path), parsed.format, producer, UNREADABLE, why)
        held = f"a hand record: {len(parsed.deals)} deals" if parsed.deals else "nothing to score"
        if bad:  # a hand record with a bad game is still a hand record: the game is said
            held += f"; {len(bad)} game(s) left out, the first at {why}"
        return FileCheck(str(path), parsed.format, producer, NO_RESULTS, held)
    loaded = load_parsed([(path, parsed)])
    scores = score_events(loaded)
    events = [EventCheck(ev, kind_of(sc), sc.method, sc.method_reason, len(sc.results),
                         list(sc.checks), sc.info.mp_top) for ev, sc in scores.items()]  # fmt: skip
    compared = any(c.compared for ev in events for c in ev.checks)
    left_out = [e for e in loaded.errors if e.kind == "left out"]
    missing = [e for e in loaded.errors if e.kind == "missing"]
    return FileCheck(
        str(path), parsed.format, producer, CHECKED if compared else NOT_PUBLISHED,
        "" if events else "no table result could be scored", events, len(left_out),
        _first(left_out), len(missing), _first(missing),
    )  # fmt: skip


def _first(errors: Sequence[RecordError]) -> str:
    """The first of `errors` as errors.csv words it (file name, line, place, why)."""
    return (
        str(errors[0]).replace(errors[0].source, Path(errors[0].source).name, 1) if errors else ""
    )


def check_paths(paths: Sequence[str | Path],
                on_file: Callable[[FileCheck], None] | None = None,
                ) -> tuple[list[FileCheck], list[Path]]:  # fmt: skip
    """Every file under `paths` checked (see `files_to_check`), and the files skipped; `on_file`
    sees each check as it is done. A file whose reading or scoring raises is reported as failed, with the error, and the
    others are still checked."""
    files, skipped = files_to_check(paths)
    out = []
    for f in files:
        try:
            fc = check_file(f)
        except (ValueError, OSError, KeyError, IndexError, TypeError, ArithmeticError) as exc:
            fc = FileCheck(str(f), "", "", FAILED, f"{type(exc).__name__}: {exc}")
        out.append(fc)
        if on_file is not None:
            on_file(fc)
    return out, skipped
