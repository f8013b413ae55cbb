"""What the Prefect UI shows of a pipeline run (issue 37: Prefect runs the stages itself).

The pipeline flow calls each stage's task with the run: each enabled stage of the one stage list
(`stages.pipeline.STAGES`) is a task run of the `pipeline` flow run, named after the stage; the DD
stage is a `dd_analysis` flow run whose solve units are task runs (`solve-unit-N`), and scoring a
`score-events-and-lehman` flow run. Read back from the Prefect API the run used: the worker's
(tests/prefect_server.py), as a deployment's run uses its server's, so that this test starts no
server of its own (and does not stop the worker's: Prefect's temporary server is one per process).

Real records: the bundled BBO vugraph file (30 table results, 15 deals), DD solved in 2 workers.
"""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LIN = ROOT / "ddrank" / "data" / "sample" / "lin" / "usbf-2010-sf-14502.lin"

pytestmark = pytest.mark.flow


def test_each_stage_and_each_dd_unit_is_a_task_run(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import (
        FlowRunFilter,
        FlowRunFilterId,
        FlowRunFilterParentFlowRunId,
    )
    from prefect_server import worker_api

    from flows.pipeline import pipeline
    from stages.pipeline import STAGES
    from stages.settings import load_settings

    monkeypatch.setenv("DO_NOT_TRACK", "1")
    monkeypatch.setenv("PREFECT_LOCAL_STORAGE_PATH", str(tmp_path / "prefect-results"))
    settings = load_settings(inputs=[str(LIN)], db=str(tmp_path / "store.duckdb"),
                             out=str(tmp_path / "out"), workers=2, partition_size=4,
                             refresh_cache=True)  # fmt: skip
    with worker_api():
        state = pipeline(settings, return_state=True)
        summary = state.result()
        run_id = state.state_details.flow_run_id
        with get_client(sync_client=True) as client:

            def runs_of(flow_run_id: object) -> dict[str, str]:
                found = client.read_task_runs(
                    flow_run_filter=FlowRunFilter(id=FlowRunFilterId(any_=[flow_run_id]))
                )
                return {t.name: t.state_name for t in found}

            stage_runs = runs_of(run_id)
            children = client.read_flow_runs(
                flow_run_filter=FlowRunFilter(
                    parent_flow_run_id=FlowRunFilterParentFlowRunId(any_=[run_id])
                )
            )
            flows = {client.read_flow(f.flow_id).name: f for f in children}
            unit_runs = runs_of(flows["dd_analysis"].id)

    def stage_run(name: str) -> str | None:  # a task run is "<task name>-<suffix>"
        states = [s for n, s in stage_runs.items() if n.rsplit("-", 1)[0] == name]
        return states[0] if len(states) == 1 else None

    enabled = [st for st in STAGES if st.enabled(settings)]
    assert {st.key for st in enabled} >= {"ingest", "clean", "dd", "scoring", "site"}
    for st in enabled:
        if st.key == "dd":
            assert flows["dd_analysis"].state_name == "Completed"
        elif st.key == "scoring":
            assert flows["score-events-and-lehman"].state_name == "Completed"
        else:
            assert stage_run(st.name) == "Completed", (st.name, sorted(stage_runs))
    assert stage_run("publish-artifacts") == "Completed"
    units = {n: s for n, s in unit_runs.items() if n.startswith("solve-unit-")}
    assert units and set(units.values()) == {"Completed"}
    assert summary["dd"]["tables_computed"] == 15 and summary["dd"]["boards_tallied"] == 30


def test_a_command_s_flow_runs_send_no_heartbeat(monkeypatch: pytest.MonkeyPatch) -> None:
    """Prefect 3.9 ends each synchronous flow run by joining its heartbeat thread, which sleeps in
    1-s steps (0-1 s per flow run). Inside `prefect_api`, the block every command runs its flows
    in, a flow run sends no heartbeat, and still runs to Completed on the command's API."""
    from prefect import flow
    from prefect.settings import get_current_settings
    from prefect_server import worker_api

    from flows.server import prefect_api

    monkeypatch.setenv("DO_NOT_TRACK", "1")

    @flow(name="heartbeat-probe")
    def probe() -> int | None:
        return get_current_settings().flows.heartbeat_frequency

    with worker_api(), prefect_api():
        state = probe(return_state=True)
    assert state.is_completed() and state.result() is None
