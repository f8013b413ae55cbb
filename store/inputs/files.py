"""Which files an ingest reads, and the content digest that says whether a file was read before."""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import BinaryIO

from ddrank.limits import DEFAULT_LIMITS, Limits, RefusedInput
from ddrank.parsers.registry import FORMATS

__all__ = ["FORMATS", "expand_paths", "file_sha1", "input_files", "open_input", "read_input",
           "shown"]  # fmt: skip

#: Bytes read at once by `read_input`: a file is read in bounded chunks, never "all there is".
CHUNK = 1 << 20
#: What ddrank writes into its output folder (its exports, reports and store; the site is a
#: folder): never read back as inputs, so a second `ddrank results DIR --out DIR` reads no CSV
#: of its own and says that nothing is new.
WRITTEN_SUFFIXES = frozenset({".csv", ".md", ".json", ".duckdb", ".wal", ".tmp"})
WRITTEN_FOLDERS = frozenset({"site"})


def shown(path: str | Path) -> str:
    """A file's name as it can be printed and stored, whatever its bytes: a byte that is not
    UTF-8 (a name from another system) shows as `\\xff`, never as an encoding error."""
    text = str(path)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return os.fsencode(text).decode("utf-8", "backslashreplace")
    return text


def named_safely(path: Path) -> None:
    """Refuse a file whose name is not UTF-8: every name is stored and published as text."""
    if shown(path) != str(path):
        raise RefusedInput("its name is not UTF-8 text (rename the file)")


def open_input(path: Path) -> BinaryIO:
    """Open a file to read, refusing what is not a regular file (`RefusedInput`): a FIFO would
    block forever, and a device (`/dev/zero`, also behind a symlink) never ends. Opened without
    blocking first, so that a FIFO is seen for what it is, not waited on."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = (
                "a pipe (FIFO)"
                if stat.S_ISFIFO(mode)
                else (
                    "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "not a regular file"
                )
            )
            raise RefusedInput(f"{shown(path)} is {kind}, not a regular file: only regular "
                               "files are read")  # fmt: skip
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_input(
    path: Path, limits: Limits = DEFAULT_LIMITS, head: bytes = b"", fh: BinaryIO | None = None
) -> bytes:
    """A whole regular file's bytes, read in `CHUNK`s and never more than `max_file_bytes`
    (`LimitExceeded` one byte past it, whatever its size said): the one way ddrank reads a file
    whole, inputs and companions alike. `fh` and `head`: a file already opened and begun."""
    limit = limits.max_file_bytes
    own = fh is None
    fh = open_input(path) if fh is None else fh
    try:
        parts, size = [head], len(head)
        while size <= limit and (block := fh.read(min(CHUNK, limit + 1 - size))):
            parts.append(block)
            size += len(block)
    finally:
        if own:
            fh.close()
    limits.check("max_file_bytes", size, shown(path), exact=size <= limit)
    return b"".join(parts)


def walk(root: Path, skip: frozenset[Path] = frozenset()) -> Iterator[Path]:
    """Every regular file under `root`, without recursion (a folder nested thousands of levels
    deep is walked like a flat one) and without following a link out of the tree or in a loop.
    A folder in `skip` (the output folder) is not entered; when it is `root` itself, what ddrank
    writes there is passed over (`WRITTEN_SUFFIXES`, `WRITTEN_FOLDERS`) and the rest is read."""
    top = root.resolve()
    out = top in skip
    skipped = {_inode(s) for s in skip} - {None}  # by inode: resolving each folder is O(depth)
    stack = [root]
    seen: set[tuple[int, int] | None] = set()
    while stack:
        folder = stack.pop()
        written = out and folder == root
        try:
            key = _inode(folder)
            if key in seen or (folder != root and key in skipped):
                continue
            seen.add(key)
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for e in entries:
            path = Path(e.path)
            try:
                if e.is_symlink():  # only a link to a regular file inside the tree
                    target = path.resolve()
                    if not target.is_relative_to(top) or not target.is_file():
                        continue
                if e.is_dir():
                    if not (written and e.name in WRITTEN_FOLDERS):
                        stack.append(path)
                elif e.is_file() and not (written and _written(path)):
                    yield path
            except (OSError, RuntimeError):  # a link loop, a file gone meanwhile
                continue


def _inode(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_dev, st.st_ino


def _written(path: Path) -> bool:
    """A file of the kinds ddrank writes into its output folder (exports, reports, its store)."""
    return path.suffix.lower() in WRITTEN_SUFFIXES or ".duckdb" in path.name


def expand_paths(paths: Iterable[str | Path], skip: Iterable[str | Path] = ()) -> list[Path]:
    """Files as given, and the hand-record files inside given folders (sorted; regular files
    only: a pipe or a device named `x.pbn` would never end). What ddrank wrote is never an
    input: see `walk` for the folders in `skip` (the output folder)."""
    skipped = frozenset(Path(s).resolve() for s in skip)
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out.extend(sorted(f for f in walk(p, skipped) if f.suffix.lower() in FORMATS))
        elif p.exists():
            out.append(p)
        else:
            raise FileNotFoundError(f"{shown(p)}: no such file or folder")
    return out


def file_sha1(path: Path) -> str:
    """SHA-1 of a file's bytes, read in blocks: the key of `source_files.sha1`."""
    h = hashlib.sha1()
    with open_input(path) as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def input_files(inputs: Iterable[str | Path], skip: Iterable[str | Path] = ()) -> list[Path]:
    """Every regular file under the inputs (folders recursively, hidden files skipped).

    Broader than the readers' extension list on purpose: a changed file that no reader takes
    costs a needless rerun, never a missed one.
    """
    skipped = frozenset(Path(s).resolve() for s in skip)
    files: list[Path] = []
    for p in map(Path, inputs):
        if p.is_dir():
            files += sorted(
                f
                for f in walk(p, skipped)
                if not any(part.startswith(".") for part in f.relative_to(p).parts)
            )
        elif p.is_file():
            files.append(p)
        else:
            raise FileNotFoundError(f"{p}: no such file or folder")
    return files
