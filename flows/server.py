"""One Prefect API per command: reuse a configured server, else start one temporary server.

Without PREFECT_API_URL every Python process that runs a flow (and every spawned pool worker)
starts its own temporary server, 7-10 s apiece on a 2-core machine. Start one here and export its
URL before any worker exists; drain queued logs and events before stopping it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from flows.interrupts import stopping


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
    from stages.progress import stage

    server = None
    try:
        # 20 s (Prefect's default) is not always enough on a loaded 2-core machine; the stage
        # covers the server's import too (up to half a minute when the machine is busy)
        with stage("prefect-api", heartbeat=1.0):
            from prefect.settings import (
                PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS,
                temporary_settings,
            )

            server = _server_class()()
            with temporary_settings({PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS: 120}):
                server.start()
    except BaseException:  # an interrupt while it starts must not leave it running
        if server is not None:
            if server.server_process is not None:
                server.server_process.kill()  # not yet serving: nothing to shut down in order
            server.stop()
        raise
    assert server is not None
    os.environ["PREFECT_API_URL"] = server.api_url
    try:
        yield server.api_url
    finally:
        _drain_prefect_clients(timeout=2 if stopping() else 10)
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


def _server_class() -> type:
    """Prefect's temporary server, started in a session of its own and dying with this process.

    Its own session keeps a terminal's Ctrl-C away from it, so an interrupted run can still mark
    its flow run crashed and then stop the server in order; dying with the parent means a
    `kill -9` of the command never leaves it running."""
    import subprocess

    from prefect.server.api.server import SubprocessASGIServer

    from ddrank.processes import die_with_parent

    class SessionServer(SubprocessASGIServer):
        def _run_uvicorn_command(self) -> subprocess.Popen:
            popen = subprocess.Popen

            def detached(*args: Any, **kwargs: Any) -> subprocess.Popen:
                return popen(*args, start_new_session=True, preexec_fn=die_with_parent, **kwargs)

            subprocess.Popen = detached  # type: ignore[misc] - only for this one call
            try:
                return super()._run_uvicorn_command()
            finally:
                subprocess.Popen = popen  # type: ignore[misc]

    return SessionServer


def _drain_prefect_clients(timeout: float = 10) -> None:
    """Send queued logs and events while the server is still up: after it stops, the log worker
    retries a dead address for about a minute at interpreter exit."""
    try:
        from prefect.events.worker import EventsWorker
        from prefect.logging.handlers import APILogWorker

        APILogWorker.drain_all(timeout=timeout)
        EventsWorker.drain_all(timeout=timeout)
    except Exception:  # best effort: never fail a finished run over telemetry
        pass
