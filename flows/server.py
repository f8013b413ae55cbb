"""One Prefect API per command: reuse a configured server, else start one temporary server.

Without PREFECT_API_URL every Python process that runs a flow (and every spawned pool worker)
starts its own temporary server, 7-10 s apiece on a 2-core machine. Start one here and export its
URL before any worker exists; drain queued logs and events before stopping it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def prefect_api() -> Iterator[str]:
    """One Prefect API server for this command, shared by every worker it spawns.

    Without PREFECT_API_URL each process (and each spawned pool worker) starts its own temporary
    server, 7-10 s apiece on these machines. Start one here and export its URL before any worker
    exists; reuse an API that is already configured.
    """
    os.environ.setdefault("DO_NOT_TRACK", "1")
    os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
    url = os.environ.get("PREFECT_API_URL")
    if url:
        yield url
        return
    from prefect.server.api.server import SubprocessASGIServer
    from prefect.settings import (
        PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS,
        temporary_settings,
    )

    from stages.progress import stage

    server = SubprocessASGIServer()
    # 20 s (Prefect's default) is not always enough on a loaded 2-core machine
    with (
        stage("prefect-api"),
        temporary_settings({PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS: 120}),
    ):
        server.start()
    os.environ["PREFECT_API_URL"] = server.api_url
    try:
        yield server.api_url
    finally:
        _drain_prefect_clients()
        os.environ.pop("PREFECT_API_URL", None)
        with _no_api_logging():  # "Stopping server" must not be shipped to the server stopping
            server.stop()


@contextmanager
def _no_api_logging() -> Iterator[None]:
    import logging

    from prefect.logging.handlers import APILogHandler

    removed = []
    for name in ("prefect", "prefect.server", ""):
        log = logging.getLogger(name)
        for handler in list(log.handlers):
            if isinstance(handler, APILogHandler):
                log.removeHandler(handler)
                removed.append((log, handler))
    try:
        yield
    finally:
        for log, handler in removed:
            log.addHandler(handler)


def _drain_prefect_clients() -> None:
    """Send queued logs and events while the server is still up: after it stops, the log worker
    retries a dead address for about a minute at interpreter exit."""
    try:
        from prefect.events.worker import EventsWorker
        from prefect.logging.handlers import APILogWorker

        APILogWorker.drain_all(timeout=10)
        EventsWorker.drain_all(timeout=10)
    except Exception:  # best effort: never fail a finished run over telemetry
        pass
