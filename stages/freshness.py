"""Is there anything new for `ddrank run`? Decided in a fraction of a second, without Prefect.

A successful pipeline run ends by writing a manifest, `<out>/.ddrank-run.json`: the digest of
every input file, the row count of every table in the store, the settings that shape the results
and the files the run wrote. The next run compares. If the inputs' content, the store and the
settings are the same and every output file is still there, the run has nothing to do and says
so, instead of starting a Prefect server to learn the same thing (seconds on a 2-core machine).
Any difference (a new or changed file, a record ingested or cleaned by another command, another
flag, a deleted report) runs the whole pipeline, whose stages each skip what they have already
done. Inputs are compared by content, not by where they are: the same files moved to another
folder (the bundled sample after an editable install) are nothing new.

Inside a run (`stages.run.Run`) the check reads the run's own hashes and store; alone
(`check(settings)`) it hashes and opens the store read-only itself. This module imports no
Prefect, polars or pandas; the store only inside `store_counts`.
"""

from __future__ import annotations

import datetime as dt
import json
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from store.inputs.files import file_sha1, input_files

if TYPE_CHECKING:
    from stages.run import Run

MANIFEST = ".ddrank-run.json"

#: Settings that only change how fast a run goes, not what it produces.
EXECUTION_ONLY = frozenset(
    {"workers", "dds_threads", "runner", "dask_address", "partition_size", "force"}
)


#: Settings that name a file or folder: compared by where they point, not how they are spelled.
PATH_SETTINGS = ("db", "out", "rankings", "aliases")
#: Settings compared by content instead (the manifest's `inputs`): moving the files changes nothing.
BY_CONTENT = frozenset({"inputs"})


def manifest_path(out: str | Path) -> Path:
    return Path(out) / MANIFEST


def file_digests(inputs: Iterable[str | Path]) -> dict[str, str]:
    """sha1 of the content → one file that holds it (the digest `source_files` keeps too)."""
    return {file_sha1(f): str(f) for f in sorted(input_files(inputs), reverse=True)}


def table_counts(store: Any) -> dict[str, int]:
    """Rows per table of an open store."""
    return {t: store.table_count(f'"{t}"') for (t,) in store.tuples("base_tables")}


def store_counts(db: str | Path) -> dict[str, int] | None:
    """Rows per table of the store, or None when it cannot be read (missing or locked)."""
    if not Path(db).is_file():
        return None
    import duckdb

    from store import Store, StoreLockedError

    try:
        store = Store(db, read_only=True)
    except (StoreLockedError, duckdb.Error):
        return None
    with store:
        return table_counts(store)


def settings_fingerprint(settings: Any) -> dict[str, Any]:
    """The settings that shape the results, as plain JSON values."""
    data = settings.model_dump(mode="json")
    for key in PATH_SETTINGS:  # `data/x.pbn` from the repo and `repo/data/x.pbn` from above: same
        if isinstance(data.get(key), str):
            data[key] = str(Path(data[key]).resolve())
    return {k: v for k, v in sorted(data.items()) if k not in EXECUTION_ONLY | BY_CONTENT}


def outputs_written(out: str | Path, since: float, store: str | Path | None = None) -> list[str]:
    """Files under `out` modified at or after `since` (epoch seconds): this run's outputs. Not
    the store's own files (`store`, its WAL and lock, DuckDB's spill folder `<store>.tmp/`):
    they come and go with the store (a spill file written while the run gave DuckDB's cache
    back is gone once the store closes), and the store is compared by its tables' counts."""
    root = Path(out)
    if not root.is_dir():
        return []
    own = str(Path(store).resolve()) if store else None
    return sorted(
        str(f.relative_to(root))
        for f in root.rglob("*")
        if f.is_file()
        and f.name != MANIFEST
        and f.stat().st_mtime >= since - 1
        and not (own and (str(f.resolve()) == own or str(f.resolve()).startswith(own + ".")))
    )


def write_manifest(settings: Any, started: float, summary: dict[str, Any],
                   run: Run | None = None) -> Path:  # fmt: skip
    """Record a successful run (called last, so a failed run never looks finished). Inside a run
    the run's hashes and store are used: no file is hashed twice, the store not opened again."""
    path = manifest_path(settings.out)
    path.parent.mkdir(parents=True, exist_ok=True)
    manifest = {
        "finished_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "inputs": run.inputs.by_content() if run else file_digests(settings.inputs),
        "store": str(Path(settings.db).resolve()),
        "store_counts": table_counts(run.store) if run else store_counts(settings.db),
        "settings": settings_fingerprint(settings),
        "outputs": outputs_written(settings.out, started, settings.db),
        "summary": {k: summary.get(k) for k in ("thresholds", "report") if k in summary},
    }
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(manifest, indent=1, default=str))
    os.replace(tmp, path)
    return path


@dataclass
class Freshness:
    """The verdict, and why: `reason` names the first difference found."""

    nothing_new: bool
    reason: str
    files: int = 0
    since: str | None = None
    outputs: tuple[str, ...] = ()

    def message(self, out: str | Path) -> str:
        if not self.nothing_new:
            return f"running: {self.reason}"
        when = (self.since or "").replace("T", " ").replace("+00:00", " UTC")
        return (
            f"nothing new since {when}: {self.files} file(s) unchanged; "
            f"results in {Path(out)}/ (`ddrank run --force` runs anyway)"
        )

    def as_dict(self) -> dict[str, Any]:
        return {"nothing_new": self.nothing_new, "reason": self.reason, "files": self.files,
                "since": self.since, "outputs": list(self.outputs)}  # fmt: skip


def check(settings: Any, run: Run | None = None) -> Freshness:
    """Compare the inputs' content, the store, the settings and the outputs with the last
    manifest. Inside a run (`run`) its hashes and its open store are used."""
    path = manifest_path(settings.out)
    # first: a missing input is an error in any case
    digests = run.inputs.by_content() if run else file_digests(settings.inputs)
    n_files = len(run.inputs.digests) if run else len(input_files(settings.inputs))
    if getattr(settings, "force", False):
        return Freshness(False, "--force")
    try:
        manifest = json.loads(path.read_text())
    except (OSError, ValueError):
        return Freshness(False, f"no record of a finished run in {path}")
    before = manifest.get("inputs") or {}
    if set(digests) != set(before):
        new = len(set(digests) - set(before))
        gone = len(set(before) - set(digests))
        return Freshness(False, f"{new} input file(s) new or changed" if new
                         else f"{gone} input file(s) no longer given")  # fmt: skip
    if str(Path(settings.db).resolve()) != manifest.get("store"):
        return Freshness(False, "another store")
    if settings_fingerprint(settings) != manifest.get("settings"):
        return Freshness(False, "other settings than the last run")
    counts = table_counts(run.store) if run else store_counts(settings.db)
    if counts is None:
        return Freshness(False, "the store cannot be read (missing, or another process writes it)")
    if counts != manifest.get("store_counts"):
        return Freshness(False, "the store changed since the last run")
    missing = [o for o in manifest.get("outputs", []) if not (Path(settings.out) / o).is_file()]
    if missing:
        return Freshness(False, f"{len(missing)} output file(s) missing, e.g. {missing[0]}")
    return Freshness(True, "nothing new", n_files, manifest.get("finished_at"),
                     tuple(manifest.get("outputs", [])))  # fmt: skip
