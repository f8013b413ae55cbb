"""Is there anything new for `ddrank run`? Decided in a fraction of a second, without Prefect.

A successful pipeline run ends by writing a manifest, `<out>/.ddrank-run.json`: the digest of
every input file, the row count of every table in the store, the settings that shape the results
and the files the run wrote. The next run compares. If the inputs, the store and the settings are
the same and every output file is still there, the run has nothing to do and says so, instead of
starting a Prefect server to learn the same thing (seconds on a 2-core machine). Any difference
(a new or changed file, a record ingested or cleaned by another command, another flag, a deleted
report) runs the whole pipeline, whose stages each skip what they have already done.

This module imports no Prefect, polars or pandas; the store only inside `store_counts`.
"""

from __future__ import annotations

import datetime as dt
import json
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from store.inputs.files import file_sha1, input_files

MANIFEST = ".ddrank-run.json"

#: Settings that only change how fast a run goes, not what it produces.
EXECUTION_ONLY = frozenset(
    {"workers", "dds_threads", "runner", "dask_address", "partition_size", "force"}
)


#: Settings that name a file or folder: compared by where they point, not how they are spelled.
PATH_SETTINGS = ("db", "out", "rankings", "aliases")


def manifest_path(out: str | Path) -> Path:
    return Path(out) / MANIFEST


def file_digests(inputs: Iterable[str | Path]) -> dict[str, str]:
    """Resolved path → sha1 of the content (the digest `source_files` keeps too)."""
    return {str(f.resolve()): file_sha1(f) for f in input_files(inputs)}


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
        return {t: store.table_count(f'"{t}"') for (t,) in store.tuples("base_tables")}


def settings_fingerprint(settings: Any) -> dict[str, Any]:
    """The settings that shape the results, as plain JSON values."""
    data = settings.model_dump(mode="json")
    for key in PATH_SETTINGS:  # `data/x.pbn` from the repo and `repo/data/x.pbn` from above: same
        if isinstance(data.get(key), str):
            data[key] = str(Path(data[key]).resolve())
    if isinstance(data.get("inputs"), list):
        data["inputs"] = sorted(str(Path(p).resolve()) for p in data["inputs"])
    return {k: v for k, v in sorted(data.items()) if k not in EXECUTION_ONLY}


def outputs_written(out: str | Path, since: float) -> list[str]:
    """Files under `out` modified at or after `since` (epoch seconds): this run's outputs."""
    root = Path(out)
    if not root.is_dir():
        return []
    return sorted(
        str(f.relative_to(root))
        for f in root.rglob("*")
        if f.is_file() and f.name != MANIFEST and f.stat().st_mtime >= since - 1
    )


def write_manifest(settings: Any, started: float, summary: dict[str, Any]) -> Path:
    """Record a successful run (called last, so a failed run never looks finished)."""
    path = manifest_path(settings.out)
    path.parent.mkdir(parents=True, exist_ok=True)
    manifest = {
        "finished_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "inputs": file_digests(settings.inputs),
        "store": str(Path(settings.db).resolve()),
        "store_counts": store_counts(settings.db),
        "settings": settings_fingerprint(settings),
        "outputs": outputs_written(settings.out, started),
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


def check(settings: Any) -> Freshness:
    """Compare the inputs, the store, the settings and the outputs with the last manifest."""
    path = manifest_path(settings.out)
    digests = file_digests(settings.inputs)  # first: a missing input is an error in any case
    if getattr(settings, "force", False):
        return Freshness(False, "--force")
    try:
        manifest = json.loads(path.read_text())
    except (OSError, ValueError):
        return Freshness(False, f"no record of a finished run in {path}")
    if digests != manifest.get("inputs"):
        changed = sorted(set(digests.items()) ^ set(manifest.get("inputs", {}).items()))
        return Freshness(False, f"{len({p for p, _ in changed})} input file(s) new or changed")
    if str(Path(settings.db).resolve()) != manifest.get("store"):
        return Freshness(False, "another store")
    if settings_fingerprint(settings) != manifest.get("settings"):
        return Freshness(False, "other settings than the last run")
    counts = store_counts(settings.db)
    if counts is None:
        return Freshness(False, "the store cannot be read (missing, or another process writes it)")
    if counts != manifest.get("store_counts"):
        return Freshness(False, "the store changed since the last run")
    missing = [o for o in manifest.get("outputs", []) if not (Path(settings.out) / o).is_file()]
    if missing:
        return Freshness(False, f"{len(missing)} output file(s) missing, e.g. {missing[0]}")
    return Freshness(True, "nothing new", len(digests), manifest.get("finished_at"),
                     tuple(manifest.get("outputs", [])))  # fmt: skip
