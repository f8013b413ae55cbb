"""Which files an ingest reads, and the content digest that says whether a file was read before."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path

from ddrank.parsers.registry import FORMATS

__all__ = ["FORMATS", "expand_paths", "file_sha1", "input_files"]


def file_sha1(path: Path) -> str:
    """SHA-1 of a file's bytes, read in blocks: the key of `source_files.sha1`."""
    h = hashlib.sha1()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def expand_paths(paths: Iterable[str | Path]) -> list[Path]:
    """Files as given, and the hand-record files inside given folders (sorted, recursive; regular
    files only: a pipe or a device named `x.pbn` would never end)."""
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out.extend(
                sorted(f for f in p.rglob("*") if f.suffix.lower() in FORMATS and f.is_file())
            )
        elif p.exists():
            out.append(p)
        else:
            raise FileNotFoundError(f"{p}: no such file or folder")
    return out


def input_files(inputs: Iterable[str | Path]) -> list[Path]:
    """Every regular file under the inputs (folders recursively, hidden files skipped).

    Broader than the readers' extension list on purpose: a changed file that no reader takes
    costs a needless rerun, never a missed one.
    """
    files: list[Path] = []
    for p in map(Path, inputs):
        if p.is_dir():
            files += sorted(
                f
                for f in p.rglob("*")
                if f.is_file() and not any(part.startswith(".") for part in f.relative_to(p).parts)
            )
        elif p.is_file():
            files.append(p)
        else:
            raise FileNotFoundError(f"{p}: no such file or folder")
    return files
