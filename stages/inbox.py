"""What is new in the inbox folder: files whose content (SHA-1) the store has not ingested yet.

Read without the writer lock and without Prefect, so the hourly run and the watcher can look
cheaply; `flows/inbox.py` runs the pipeline on what this finds.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from store import Store
from store.inputs.files import FORMATS, file_sha1, walk

RESOURCE_PREFIX = "ddrank.inbox."
#: A file modified this recently may still be being copied in; it waits for the next look.
SETTLE_SECONDS = 5.0


@dataclass(frozen=True, slots=True)
class InboxFile:
    path: Path
    sha1: str

    @property
    def resource_id(self) -> str:
        """The Prefect resource id of this file's arrival event: `ddrank.inbox.<path>`."""
        return f"{RESOURCE_PREFIX}{self.path}"


@dataclass(slots=True)
class InboxScan:
    new: list[InboxFile]
    known: list[InboxFile]
    settling: list[Path]
    busy: str | None = None  # why the store could not be read (another run is writing it)


def inbox_files(inbox: str | Path) -> list[Path]:
    """Hand-record files in the inbox (recursive, sorted; other files and dot-files ignored)."""
    root = Path(inbox)
    if not root.is_dir():
        raise FileNotFoundError(f"inbox {root} is not a folder (set DDRANK_INBOX or --inbox)")
    return sorted(
        p
        for p in walk(root)  # regular files, not recursive: any depth of folders
        if p.suffix.lower() in FORMATS and not p.name.startswith(".")
    )


def known_hashes(db: str | Path) -> set[str]:
    """SHA-1s of every file already ingested, read without taking the writer lock.

    A store that does not exist yet knows nothing. Raises StoreLockedError while another ddrank
    process writes the store (DuckDB refuses even readers then).
    """
    path = Path(db)
    if not path.exists():
        return set()
    with Store(path, read_only=True) as store:
        if ("source_files",) not in store.tuples("table_names"):  # made before any ingest
            return set()
        return {sha for (sha,) in store.tuples("source_file_hashes")}


def scan_inbox(
    inbox: str | Path,
    known: set[str],
    settle_seconds: float = SETTLE_SECONDS,
    now: float | None = None,
) -> InboxScan:
    """Split the inbox into new files, files whose content is known, and files still settling.

    Two inbox files with the same content count once (the first by path).
    """
    now = time.time() if now is None else now
    scan = InboxScan([], [], [])
    seen = set(known)
    for path in inbox_files(inbox):
        if now - path.stat().st_mtime < settle_seconds:
            scan.settling.append(path)
            continue
        f = InboxFile(path, file_sha1(path))
        (scan.known if f.sha1 in seen else scan.new).append(f)
        seen.add(f.sha1)
    return scan
