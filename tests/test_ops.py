"""Operations (issue 7): inbox reruns on a real PBN file split in two, the watcher's events and
the deployment trigger, prefect.yaml, `ddrank serve`/`watch`, and the run names the Prefect UI
shows. The Dockerfile and docker-compose.yml are checked in tests/test_compose.py.

Only the inbox flow test runs Prefect flows (one API server for the module); everything else
checks files and pure functions.
"""

from __future__ import annotations

import hashlib
import os
import re
import time
from pathlib import Path
from typing import Any

import duckdb
import pytest
import yaml
from typer.testing import CliRunner

from cli.main import app
from flows.inbox import (
    HOURLY,
    INBOX_EVENT,
    ON_EVENT,
    PIPELINE,
    inbox_files,
    known_hashes,
    poll_once,
    scan_inbox,
    served_deployments,
)
from stages.ingest import ingest_paths
from store.inputs import read_records
from store.store import open_connection as connect

ROOT = Path(__file__).resolve().parent.parent
QUALIFIER = ROOT / "ddrank" / "data" / "sample" / "pbn" / "online-qualifier-2021-example2.pbn"
PREFECT_YAML = ROOT / "prefect.yaml"
DOCKERFILE = ROOT / "Dockerfile"


def first_half(path: Path) -> str:
    """The first half of a PBN file's records, cut at a record boundary (each has its [Deal])."""
    records = re.split(r"\n\s*\n(?=\[Event )", path.read_text())
    return "\n\n".join(records[: len(records) // 2]) + "\n"


def sha1(path: Path) -> str:
    return hashlib.sha1(path.read_bytes()).hexdigest()


def write_settled(path: Path, text: str, age: float = 120.0) -> Path:
    """Write a file whose mtime is `age` seconds old, as if its copy finished a while ago."""
    path.write_text(text)
    then = time.time() - age
    os.utime(path, (then, then))
    return path


def copy_settled(src: Path, dst: Path) -> Path:
    return write_settled(dst, src.read_text())


# --- the inbox flow on a real file split in two ------------------------------------------------


def store_snapshot(db: Path) -> dict[str, Any]:
    con = duckdb.connect(str(db), read_only=True)
    try:

        def rows(q: str) -> list[tuple]:
            return con.execute(q).fetchall()

        tables = {r[0] for r in rows("SELECT table_name FROM information_schema.tables")}
        snap = {
            "raw": dict(rows("SELECT record_id, partition_id FROM raw_records")),
            "boards": {r[0]: r for r in rows("SELECT * FROM boards")},
            "exclusions": {r[0]: r for r in rows("SELECT * FROM exclusions")},
            "files": dict(rows("SELECT path, sha1 FROM source_files")),
            "stats": {},
        }
        if "player_board_stats" in tables:
            stats: dict[str, list[tuple]] = {}
            for r in rows("SELECT * FROM player_board_stats ORDER BY record_id, seat"):
                stats.setdefault(r[0], []).append(r)
            snap["stats"] = stats
        return snap
    finally:
        con.close()


@pytest.fixture(scope="module")
def inbox_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Half the qualifier file, then the whole file, then nothing new, then a busy store."""
    from prefect_server import worker_api

    from flows.inbox import inbox_rerun
    from stages.settings import PipelineSettings
    from store import store_lock

    root = tmp_path_factory.mktemp("inbox")
    inbox, db = root / "inbox", root / "ddrank.duckdb"
    inbox.mkdir()
    env = {
        "DO_NOT_TRACK": "1",
        "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
        "PREFECT_LOCAL_STORAGE_PATH": str(root / "prefect-results"),
    }
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    # The regression stage needs 16 players above the paper's thresholds, more than half a
    # qualifier has; thresholds are off here because this test is about reruns, not the model.
    settings = PipelineSettings(
        db=str(db), out=str(root / "out"), inbox=str(inbox), workers=1, runner="thread",
        min_claims=0, min_leads=0, min_cards_declarer=0, min_cards_defender=0, min_auctions=0,
    )  # fmt: skip
    out: dict[str, Any] = {"inbox": inbox, "db": db}
    try:
        with worker_api():  # the worker's Prefect API (tests/prefect_server.py)
            half = write_settled(inbox / "qualifier-part1.pbn", first_half(QUALIFIER))
            out["run1"] = inbox_rerun(settings=settings, settle_seconds=0)
            out["snap1"] = store_snapshot(db)
            full = copy_settled(QUALIFIER, inbox / "qualifier-full.pbn")
            out["run2"] = inbox_rerun(inbox=str(inbox), settings=settings, settle_seconds=0)
            out["snap2"] = store_snapshot(db)
            before = sha1(db)
            out["run3"] = inbox_rerun(settings=settings, settle_seconds=0)
            out["store_unchanged_3"] = sha1(db) == before
            with store_lock(db):  # another run holds the store; a new file waits
                write_settled(inbox / "qualifier-edited.pbn", QUALIFIER.read_text() + "\n")
                out["run4"] = inbox_rerun(settings=settings, settle_seconds=0)
            out["store_unchanged_4"] = sha1(db) == before
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    out["half"], out["full"] = half, full
    return out


def test_first_half_is_ingested_and_judged(inbox_runs: dict[str, Any]) -> None:
    run, snap = inbox_runs["run1"], inbox_runs["snap1"]
    _, half_records = read_records(inbox_runs["half"])
    half_ids = {r.record_id for r in half_records}
    assert 140 <= len(half_ids) <= 160  # about half of the 299 boards
    assert run["status"] == "ran" and run["new_files"] == [str(inbox_runs["half"])]
    assert set(snap["raw"]) == half_ids
    judged = set(snap["boards"]) | set(snap["exclusions"])
    assert judged == half_ids and not set(snap["boards"]) & set(snap["exclusions"])
    assert snap["files"] == {str(inbox_runs["half"]): sha1(inbox_runs["half"])}


def test_whole_file_adds_only_the_second_half_in_new_partitions(
    inbox_runs: dict[str, Any],
) -> None:
    s1, s2, run = inbox_runs["snap1"], inbox_runs["snap2"], inbox_runs["run2"]
    _, full_records = read_records(inbox_runs["full"])
    full_ids = {r.record_id for r in full_records}
    new_ids = full_ids - set(s1["raw"])
    assert len(full_ids) == 299 and len(new_ids) == 299 - len(s1["raw"])
    # only the new file was given to the pipeline; the known half was not re-read
    assert run["status"] == "ran" and run["new_files"] == [str(inbox_runs["full"])]
    assert run["already_ingested"] == [str(inbox_runs["half"])]
    assert set(s2["raw"]) == full_ids
    old_parts = set(s1["raw"].values())
    assert {s2["raw"][r] for r in new_ids}.isdisjoint(old_parts)
    # every new record judged once, and nothing judged before changed (boards, exclusions, stats)
    assert (set(s2["boards"]) | set(s2["exclusions"])) - (
        set(s1["boards"]) | set(s1["exclusions"])
    ) == new_ids
    assert {k: s2["boards"][k] for k in s1["boards"]} == s1["boards"]
    assert {k: s2["exclusions"][k] for k in s1["exclusions"]} == s1["exclusions"]
    assert {k: s2["stats"].get(k) for k in s1["stats"]} == s1["stats"]
    assert {k: s2["raw"][k] for k in s1["raw"]} == s1["raw"]


def test_nothing_new_returns_without_touching_the_store(inbox_runs: dict[str, Any]) -> None:
    run = inbox_runs["run3"]
    assert run["status"] == "nothing-new" and run["pipeline"] is None
    assert sorted(run["already_ingested"]) == sorted(
        [str(inbox_runs["full"]), str(inbox_runs["half"])]
    )
    assert inbox_runs["store_unchanged_3"]


def test_busy_store_is_reported_and_left_alone(inbox_runs: dict[str, Any]) -> None:
    run = inbox_runs["run4"]
    assert run["status"] == "store-busy" and run["pipeline"] is None
    assert inbox_runs["store_unchanged_4"]


# --- inbox scanning and the watcher (no Prefect runs) ------------------------------------------


@pytest.fixture()
def half_store(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A store holding the first half of the qualifier file, and an empty inbox."""
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    half = write_settled(tmp_path / "part1.pbn", first_half(QUALIFIER))
    db = tmp_path / "store.duckdb"
    con = connect(db)
    assert ingest_paths(con, [half]).new > 100
    con.close()
    return inbox, db, half


def test_scan_splits_new_known_and_settling_files(half_store: tuple[Path, Path, Path]) -> None:
    inbox, db, half = half_store
    known = known_hashes(db)
    assert known == {sha1(half)}
    write_settled(inbox / "renamed-half.pbn", half.read_text())  # same content, other name
    copy_settled(QUALIFIER, inbox / "b-full.pbn")
    copy_settled(QUALIFIER, inbox / "c-full-again.pbn")  # same content twice counts once
    (inbox / "d-copying.pbn").write_text(QUALIFIER.read_text())  # modified just now
    write_settled(inbox / "notes.txt", "not a hand record")
    write_settled(inbox / ".hidden.pbn", QUALIFIER.read_text())
    assert [p.name for p in inbox_files(inbox)] == [
        "b-full.pbn", "c-full-again.pbn", "d-copying.pbn", "renamed-half.pbn",
    ]  # fmt: skip
    scan = scan_inbox(inbox, known, settle_seconds=30)
    assert [f.path.name for f in scan.new] == ["b-full.pbn"]
    assert sorted(f.path.name for f in scan.known) == ["c-full-again.pbn", "renamed-half.pbn"]
    assert [p.name for p in scan.settling] == ["d-copying.pbn"]
    assert scan.new[0].sha1 == sha1(QUALIFIER)
    # with no settle time the file being copied is seen too (same content as b: known)
    assert [f.path.name for f in scan_inbox(inbox, known, settle_seconds=0).new] == ["b-full.pbn"]


def test_missing_store_knows_nothing_and_missing_inbox_is_an_error(tmp_path: Path) -> None:
    assert known_hashes(tmp_path / "none.duckdb") == set()
    with pytest.raises(FileNotFoundError, match="DDRANK_INBOX"):
        inbox_files(tmp_path / "no-inbox")


def yaml_deployments() -> dict[str, dict[str, Any]]:
    return {d["name"]: d for d in yaml.safe_load(PREFECT_YAML.read_text())["deployments"]}


def test_watcher_event_matches_the_deployment_trigger(half_store: tuple[Path, Path, Path]) -> None:
    from prefect.events import Event
    from prefect.events.schemas.deployment_triggers import DeploymentEventTrigger

    inbox, db, half = half_store
    write_settled(inbox / "part1-again.pbn", half.read_text())  # content already in the store
    full = copy_settled(QUALIFIER, inbox / "full.pbn")
    sent: list[dict[str, Any]] = []
    announced: set[str] = set()
    assert poll_once(inbox, db, announced, settle_seconds=1, emit=lambda **kw: sent.append(kw))
    assert len(sent) == 1
    event = Event(**sent[0])
    assert event.event == INBOX_EVENT == "ddrank.inbox.file-arrived"
    assert event.resource.id == f"ddrank.inbox.{full}"
    assert event.payload["sha1"] == sha1(full)
    # a second look announces nothing: this watcher already announced that content
    assert poll_once(inbox, db, announced, emit=lambda **kw: sent.append(kw)) == []
    assert len(sent) == 1

    trigger = DeploymentEventTrigger(**yaml_deployments()[ON_EVENT]["triggers"][0])
    assert event.event in trigger.expect
    assert trigger.match.matches(event.resource)
    other = Event(event="prefect.flow-run.Completed", resource={"prefect.resource.id": "prefect.flow-run.1"})  # fmt: skip
    assert not trigger.match.matches(other.resource)


def test_watcher_waits_while_a_run_holds_the_store(half_store: tuple[Path, Path, Path]) -> None:
    """The watcher reads the store only under its lock: DuckDB refuses a writer while any other
    process has the file open (even read-only), so an unguarded read failed a running pipeline
    (found by ops/stack-smoke.sh)."""
    from store import store_lock

    inbox, db, _ = half_store
    full = copy_settled(QUALIFIER, inbox / "full.pbn")
    sent: list[dict[str, Any]] = []
    announced: set[str] = set()
    with store_lock(db):  # a pipeline run in progress
        assert (
            poll_once(inbox, db, announced, settle_seconds=1, emit=lambda **kw: sent.append(kw))
            == []
        )
    assert sent == [] and announced == set()
    new = poll_once(inbox, db, announced, settle_seconds=1, emit=lambda **kw: sent.append(kw))
    assert [f.path for f in new] == [full] and len(sent) == 1


# --- prefect.yaml and served deployments --------------------------------------------------------


def test_prefect_yaml_is_valid_and_entrypoints_are_flows(monkeypatch: pytest.MonkeyPatch) -> None:
    from prefect import Flow
    from prefect.cli.deploy._models import PrefectYamlModel
    from prefect.utilities.importtools import import_object

    model = PrefectYamlModel.model_validate(yaml.safe_load(PREFECT_YAML.read_text()))
    by_name = {d.name: d for d in model.deployments}
    assert set(by_name) == {HOURLY, ON_EVENT, PIPELINE}
    flow_names = {}
    for name, dep in by_name.items():
        path, func = dep.entrypoint.split(":")
        assert (ROOT / path).is_file()
        obj = import_object(f"{path[:-3].replace('/', '.')}.{func}")
        assert isinstance(obj, Flow)
        flow_names[name] = obj.name
        assert dep.work_pool is not None and dep.work_pool.name == "ddrank-process"
    assert flow_names == {HOURLY: "inbox-rerun", ON_EVENT: "inbox-rerun", PIPELINE: "pipeline"}
    hourly = yaml_deployments()[HOURLY]
    assert hourly["schedules"] == [{"interval": 3600}]
    assert hourly["concurrency_limit"]["limit"] == 1
    assert "schedules" not in yaml_deployments()[ON_EVENT]
    # the pull step's working directory is the worker's DDRANK_CODE_DIR (read when a run
    # starts): in the image, where the Dockerfile puts the code
    pull = yaml.safe_load(PREFECT_YAML.read_text())["pull"][0]
    workdir = pull["prefect.deployments.steps.set_working_directory"]["directory"]
    assert workdir == "{{ $DDRANK_CODE_DIR }}"
    image_dir = re.search(r"^ENV DDRANK_CODE_DIR=(\S+)", DOCKERFILE.read_text(), re.M)
    assert image_dir and f"WORKDIR {image_dir[1]}" in DOCKERFILE.read_text()
    from prefect.utilities.templating import apply_values

    monkeypatch.setenv("DDRANK_CODE_DIR", str(ROOT))  # the worker's environment
    resolved = apply_values(pull, {})  # as a run's pull step does: {{ $X }} reads os.environ
    assert resolved["prefect.deployments.steps.set_working_directory"]["directory"] == str(ROOT)


def test_served_deployments_mirror_prefect_yaml() -> None:
    from prefect.events.schemas.deployment_triggers import DeploymentEventTrigger

    served = {d.name: d for d in served_deployments(interval=900)}
    assert set(served) == set(yaml_deployments())
    for name, dep in yaml_deployments().items():
        path, func = dep["entrypoint"].split(":")
        assert served[name].entrypoint == f"{path[:-3].replace('/', '.')}.{func}"
    interval = served[HOURLY].schedules[0].schedule.interval
    assert interval.total_seconds() == 900
    (trigger,) = served[ON_EVENT].triggers
    wanted = DeploymentEventTrigger(**yaml_deployments()[ON_EVENT]["triggers"][0])
    assert (trigger.expect, trigger.match, trigger.parameters) == (
        wanted.expect, wanted.match, wanted.parameters,
    )  # fmt: skip
    assert served[ON_EVENT].schedules == [] and served[PIPELINE].triggers == []
    assert [d.name for d in served_deployments(on_event=False)] == [HOURLY, PIPELINE]


def test_serve_command_serves_the_deployments(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import prefect

    for key in ("DDRANK_INBOX", "DDRANK_DB", "DDRANK_CONFIG"):
        monkeypatch.setenv(key, "")  # restored after the test; serve exports its choice
        monkeypatch.delenv(key)
    got: dict[str, Any] = {}
    monkeypatch.setattr(prefect, "serve", lambda *d, **kw: got.update(deployments=d, **kw))
    res = CliRunner().invoke(
        app,
        [
            "serve",
            "--interval",
            "120",
            "--inbox",
            str(tmp_path / "in"),
            "--db",
            str(tmp_path / "s.duckdb"),
        ],  # fmt: skip
    )
    assert res.exit_code == 0, res.output
    names = [d.name for d in got["deployments"]]
    assert names == [HOURLY, ON_EVENT, PIPELINE] and got["limit"] == 1
    assert got["deployments"][0].schedules[0].schedule.interval.total_seconds() == 120
    assert (tmp_path / "in").is_dir() and os.environ["DDRANK_INBOX"] == str(tmp_path / "in")


def test_cli_help_and_watch_needs_an_api(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    runner = CliRunner()
    serve_help = runner.invoke(app, ["serve", "--help"]).output
    assert "--interval" in serve_help and "prefect server start" in serve_help
    watch_help = runner.invoke(app, ["watch", "--help"]).output
    assert "--once" in watch_help and "ddrank.inbox.file-arrived" in watch_help
    monkeypatch.delenv("PREFECT_API_URL", raising=False)
    res = runner.invoke(app, ["watch", "--once", "--inbox", str(tmp_path)])
    assert res.exit_code == 2 and "PREFECT_API_URL" in res.output


# --- names in the Prefect UI ----------------------------------------------------------------------


def test_run_names_say_the_files_or_the_trigger(monkeypatch: pytest.MonkeyPatch) -> None:
    from flows.run_names import files_label, inbox_name, pipeline_name
    from stages.settings import PipelineSettings

    lin = "ddrank/data/sample/lin/usbf-2010-sf-14502.lin"
    settings = PipelineSettings(inputs=[lin])
    assert pipeline_name({"settings": settings}) == "run: usbf-2010-sf-14502.lin"
    # a deployment run's parameters are JSON
    assert pipeline_name({"settings": {"inputs": [lin, str(QUALIFIER)]}}) == (
        "run: usbf-2010-sf-14502.lin, online-qualifier-2021-example2.pbn"
    )
    assert files_label(["a.lin", "b.pbn", "c/d.dump", "e"]) == "a.lin, b.pbn +2 more"
    assert files_label(["ddrank/data/sample"]) == "sample/" and files_label([]) == "no input files"
    monkeypatch.setenv("DDRANK_INBOX", "/data/inbox")
    assert inbox_name({"settle_seconds": 0}, ON_EVENT) == (
        "inbox on ddrank.inbox.file-arrived: /data/inbox"
    )
    assert inbox_name({}, HOURLY) == "inbox hourly: /data/inbox"
    assert inbox_name({"inbox": "/tmp/in"}, None) == "inbox: /tmp/in"
