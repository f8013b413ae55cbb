"""The store's lock and a store that cannot be written (issue 32, findings 4 and 8).

* The lock file is opened with O_NOFOLLOW: a symbolic link (or a hard link) placed at
  `<db>.lock` is refused and the file it points to is left as it was; a lock file left by a dead
  process is taken over.
* A store that cannot be written (`chattr +i`, a read-only bind mount) gives exit 2 and one line
  for `ingest`; `audit` and `report` only read it (read-only open) and still work, and `report`
  whose output folder cannot be written gives exit 2 and one line. Root is needed for both
  (CI runs as root); elsewhere the tests skip and say so.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from hostile import LIN, PEAK_RSS_LIMIT, counts, ddrank

from store import store_lock
from store.store import LockRefusedError


def test_the_lock_refuses_a_symlink_and_leaves_its_target_alone(tmp_path: Path) -> None:
    db = tmp_path / "s.duckdb"
    target = tmp_path / "precious.txt"
    target.write_text("keep me\n")
    Path(f"{db}.lock").symlink_to(target)
    symlink = r"s\.duckdb\.lock is a symbolic link"
    with pytest.raises(LockRefusedError, match=symlink), store_lock(db):
        pytest.fail("the lock was taken through a symlink")
    assert target.read_text() == "keep me\n"
    assert Path(f"{db}.lock").is_symlink()  # not removed either: the user decides
    # a dangling symlink is refused too (O_CREAT would otherwise create its target)
    Path(f"{db}.lock").unlink()
    Path(f"{db}.lock").symlink_to(tmp_path / "made-by-the-lock")
    with pytest.raises(LockRefusedError), store_lock(db):
        pass
    assert not (tmp_path / "made-by-the-lock").exists()


def test_the_lock_refuses_a_hard_link(tmp_path: Path) -> None:
    db = tmp_path / "s.duckdb"
    target = tmp_path / "precious.txt"
    target.write_text("keep me\n")
    os.link(target, f"{db}.lock")
    with pytest.raises(LockRefusedError, match="hard link"), store_lock(db):
        pass
    assert target.read_text() == "keep me\n"


def test_a_refused_lock_is_one_line_and_exit_2(tmp_path: Path) -> None:
    db = tmp_path / "s.duckdb"
    Path(f"{db}.lock").symlink_to(tmp_path / "elsewhere")
    done = ddrank("run", str(LIN), "--db", str(db), "--out", str(tmp_path / "out"),
                  "--no-double-dummy", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    errors = [ln for ln in done.lines if "symbolic link" in ln]
    assert len(errors) == 1, done.lines
    assert not (tmp_path / "elsewhere").exists() and not db.exists()


def test_a_stale_lock_of_a_dead_process_is_taken_over(tmp_path: Path) -> None:
    """A lock file whose writer died holds no lock (the OS released it): the next run takes it."""
    db = tmp_path / "s.duckdb"
    Path(f"{db}.lock").write_text("pid 999999 since 2026-01-01 00:00:00")
    with store_lock(db):
        assert Path(f"{db}.lock").read_text().startswith(f"pid {os.getpid()} since ")
    assert not Path(f"{db}.lock").exists()


# --- a store that cannot be written -------------------------------------------------------------


@pytest.fixture(scope="module")
def stored_once(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The LIN ingested and cleaned by `ddrank ingest` and `ddrank clean`, once for the module
    (each test hurts its own copy: `_stored`)."""
    tmp = tmp_path_factory.mktemp("stored")
    db = tmp / "s.duckdb"
    done = ddrank("ingest", str(LIN), "--db", str(db), cwd=tmp)
    assert done.returncode == 0, done.stderr
    assert ddrank("clean", "--db", str(db), cwd=tmp).returncode == 0
    return db


def _stored(tmp_path: Path, once: Path) -> Path:
    """A copy of the module's ingested and cleaned store, in a folder of its own."""
    db = tmp_path / "store" / "s.duckdb"
    db.parent.mkdir()
    shutil.copy2(once, db)
    if Path(f"{once}.wal").exists():
        shutil.copy2(f"{once}.wal", f"{db}.wal")
    return db


@pytest.fixture
def immutable(tmp_path: Path, stored_once: Path):
    """A store made immutable with `chattr +i` (root, and a filesystem with the attribute)."""
    db = _stored(tmp_path, stored_once)
    if shutil.which("chattr") is None:
        pytest.skip("chattr is not installed here")
    done = subprocess.run(["chattr", "+i", str(db)], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"chattr +i does not work here ({done.stderr.strip()}): needs root and a "
                    "filesystem with the immutable attribute")  # fmt: skip
    yield db
    subprocess.run(["chattr", "-i", str(db)], check=True)


@pytest.fixture
def read_only_mount(tmp_path: Path, stored_once: Path):
    """The store's folder bind-mounted read-only at another place (root)."""
    db = _stored(tmp_path, stored_once)
    mnt = tmp_path / "ro"
    mnt.mkdir()
    done = subprocess.run(["mount", "--bind", str(db.parent), str(mnt)], capture_output=True,
                          text=True)  # fmt: skip
    if done.returncode != 0:
        pytest.skip(f"cannot bind-mount here ({done.stderr.strip()}): needs root")
    try:
        subprocess.run(["mount", "-o", "remount,bind,ro", str(mnt)], check=True)
        yield mnt / db.name
    finally:
        subprocess.run(["umount", "-l", str(mnt)], capture_output=True)


def _one_error_line(done, *words: str) -> str:
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    assert done.peak_rss <= PEAK_RSS_LIMIT, f"peak RSS {done.peak_rss / 2**20:.0f} MB"
    errors = [ln for ln in done.lines if ln.startswith("error:")]
    assert len(errors) == 1, done.lines
    for w in words:
        assert w in errors[0], errors[0]
    return errors[0]


@pytest.mark.parametrize("kind", ["immutable", "read_only_mount"])
def test_a_store_that_cannot_be_written(kind: str, request, tmp_path: Path) -> None:
    db: Path = request.getfixturevalue(kind)
    before = counts(db)
    pbn = LIN.parents[1] / "pbn" / "online-qualifier-2021-example2.pbn"
    why = "Operation not permitted" if kind == "immutable" else "Read-only file system"
    _one_error_line(ddrank("ingest", str(pbn), "--db", str(db), cwd=tmp_path),
                    "cannot be written", why, str(db))  # fmt: skip
    assert counts(db) == before
    # audit only reads: it opens the store read-only and works
    audit = ddrank("audit", "--db", str(db), "--json", cwd=tmp_path)
    assert audit.returncode == 0, audit.stderr
    assert '"raw_records": 30' in audit.stdout
    # report reads the store read-only and writes the site elsewhere
    out = tmp_path / "out"
    report = ddrank("report", "--db", str(db), "--out", str(out), cwd=tmp_path)
    assert report.returncode == 0, report.stderr
    assert (out / "site" / "index.html").is_file()
    # ... and an output folder that cannot be written is one line and exit 2
    if kind == "read_only_mount":
        _one_error_line(ddrank("report", "--db", str(db), "--out", str(db.parent / "out"),
                               cwd=tmp_path), "Read-only file system")  # fmt: skip
    assert counts(db) == before


@pytest.mark.parametrize("command", ["score", "split", "lehman", "dd", "stats"])
def test_commands_on_a_store_that_cannot_be_written_say_one_line(command: str, immutable: Path,
                                                                 tmp_path: Path) -> None:  # fmt: skip
    """Issue 40: every command that writes the store says so in one line (exit 2), no traceback
    of StoreNotWritableError, whichever command opened it."""
    before = counts(immutable)
    extra = ["--csv", str(tmp_path / "stats.csv")] if command == "stats" else []
    done = ddrank(command, "--db", str(immutable), *extra, cwd=tmp_path)
    _one_error_line(done, "cannot be written", str(immutable))
    assert counts(immutable) == before
