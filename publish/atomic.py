"""Publishing is atomic: what people open (the site, the CSV files) is replaced only when its
new version is complete, so a build that fails halfway leaves the last good one as it was.

* `staged_folder(dest)`: build a folder (the site) in a temporary folder beside it, then swap
  the two in one `renameat2(RENAME_EXCHANGE)` (Linux; elsewhere two renames, a moment apart)
  and delete the old one.
* `staged_files(out)`: write a set of files (a run's CSVs and report) in a temporary folder
  inside `out`, then move each into place with `os.replace` (atomic per file).
* `replace_file(path)`: one file written beside its place and renamed over it.

Temporary folders are named `.<name>.new-<pid>-...`; one left by a process that died (a kill -9
mid-build) is removed by the next build.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

_AT_FDCWD = -100
_RENAME_EXCHANGE = 2
_LEFTOVER = re.compile(r"^\.(?P<name>.+)\.(?:new|old)-(?P<pid>\d+)-")


@cache
def _renameat2() -> object | None:
    """libc's renameat2, when this system has it (glibc 2.28+, Linux 3.15+)."""
    name = ctypes.util.find_library("c")
    if not name:
        return None
    try:
        fn = ctypes.CDLL(name, use_errno=True).renameat2
    except (OSError, AttributeError):
        return None
    fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    fn.restype = ctypes.c_int
    return fn


def exchange(a: Path, b: Path) -> bool:
    """Swap two paths in one step; False where the system cannot (the caller renames twice)."""
    fn = _renameat2()
    if fn is None:
        return False
    if fn(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:  # type: ignore[operator]
        return True
    err = ctypes.get_errno()
    if err in (22, 38, 95):  # EINVAL, ENOSYS, EOPNOTSUPP: this filesystem cannot exchange
        return False
    raise OSError(err, os.strerror(err), str(a), None, str(b))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def remove_leftovers(parent: Path, name: str) -> None:
    """Temporary folders of `name` left in `parent` by builds whose process is gone."""
    with contextlib.suppress(OSError):
        for p in parent.iterdir():
            m = _LEFTOVER.match(p.name)
            if m and m["name"] == name and not _alive(int(m["pid"])):
                shutil.rmtree(p, ignore_errors=True)


def _temp_dir(parent: Path, name: str, kind: str) -> Path:
    return Path(tempfile.mkdtemp(prefix=f".{name}.{kind}-{os.getpid()}-", dir=parent))


@contextmanager
def staged_folder(dest: Path) -> Iterator[Path]:
    """Yield an empty folder beside `dest`; when the block completes it becomes `dest` (the old
    `dest` is removed), and when it fails it is removed and `dest` stays as it was."""
    dest = Path(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    remove_leftovers(dest.parent, dest.name)
    new = _temp_dir(dest.parent, dest.name, "new")
    try:
        yield new
    except BaseException:
        shutil.rmtree(new, ignore_errors=True)
        raise
    new.chmod(0o755)  # mkdtemp makes it 0700; a web server must read the site
    if dest.exists() and exchange(new, dest):
        shutil.rmtree(new, ignore_errors=True)  # `new` now holds the old site
        return
    old = None
    if dest.exists():
        old = dest.parent / f"{new.name.replace('.new-', '.old-', 1)}"
        os.rename(dest, old)
    os.rename(new, dest)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


@contextmanager
def staged_files(out: Path) -> Iterator[Path]:
    """Yield an empty folder inside `out` to write a set of files in; when the block completes
    each file replaces its namesake in `out` (atomically, one by one), and when it fails none
    does."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    remove_leftovers(out, "files")
    tmp = _temp_dir(out, "files", "new")
    try:
        yield tmp
        for f in sorted(tmp.iterdir()):
            os.replace(f, out / f.name)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


@contextmanager
def replace_file(path: Path) -> Iterator[Path]:
    """Yield a temporary path beside `path`; it replaces `path` when the block completes."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.new-{os.getpid()}")
    try:
        yield tmp
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
