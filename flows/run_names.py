"""Flow run names for the Prefect UI: a run says which files it read or which trigger started it.

Prefect's own names ("taupe-warthog") tell a user nothing; these callables go into
`@flow(flow_run_name=...)` and read the run's parameters when it starts. A deployment run gets
its parameters as JSON (a dict, or nothing), a direct call gets the objects: both are handled.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import PurePath
from typing import Any

#: At most this many file names in a run name; the rest are counted.
SHOWN_FILES = 2


def files_label(inputs: list[str] | tuple[str, ...] | None) -> str:
    """`a.lin`, `a.lin, b.pbn`, `a.lin, b.pbn +3 more`; a folder ends with `/`."""
    paths = [PurePath(str(p)) for p in inputs or []]
    if not paths:
        return "no input files"
    names = [p.name + ("/" if not p.suffix else "") for p in paths[:SHOWN_FILES]]
    more = len(paths) - SHOWN_FILES
    return ", ".join(names) + (f" +{more} more" if more > 0 else "")


def _field(settings: Any, name: str) -> Any:
    if isinstance(settings, Mapping):
        return settings.get(name)
    return getattr(settings, name, None)


def pipeline_name(parameters: Mapping[str, Any]) -> str:
    """`run: usbf-2010-sf-14502.lin`: the pipeline's input files (settings.inputs)."""
    settings = parameters.get("settings")
    inputs = _field(settings, "inputs") if settings is not None else None
    if inputs is None:  # no settings given: the run reads PipelineSettings' defaults
        from stages.settings import PipelineSettings

        inputs = PipelineSettings().inputs
    return f"run: {files_label(inputs)}"


def inbox_name(parameters: Mapping[str, Any], deployment: str | None) -> str:
    """`inbox on ddrank.inbox.file-arrived: <folder>`, `inbox hourly: <folder>`, `inbox: <folder>`."""
    from flows.inbox import HOURLY, INBOX_EVENT, ON_EVENT

    settings = parameters.get("settings")
    folder = (
        parameters.get("inbox")
        or (_field(settings, "inbox") if settings is not None else None)
        or os.environ.get("DDRANK_INBOX")
        or "DDRANK_INBOX unset"
    )
    how = {ON_EVENT: f" on {INBOX_EVENT}", HOURLY: " hourly"}.get(deployment or "", "")
    return f"inbox{how}: {folder}"


def pipeline_run_name() -> str:
    """`@flow(flow_run_name=...)` of the pipeline flow."""
    from prefect.runtime import flow_run

    return pipeline_name(flow_run.parameters)


def inbox_run_name() -> str:
    """`@flow(flow_run_name=...)` of the inbox_rerun flow."""
    from prefect.runtime import deployment, flow_run

    return inbox_name(flow_run.parameters, deployment.name)
