"""One Prefect API per command: reuse a configured server, else start a temporary one.

Without PREFECT_API_URL every Python process that runs a flow (and every spawned worker) starts
its own temporary server, 7-10 s apiece on a 2-core machine. Start one here and export its URL
before any worker exists; drain the log queue before stopping it, so no log line is lost.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

OFFLINE_ENV = {"DO_NOT_TRACK": "1", "PREFECT_SERVER_ANALYTICS_ENABLED": "false"}


@contextmanager
def prefect_api() -> Iterator[str]:
    for key, value in OFFLINE_ENV.items():
        os.environ.setdefault(key, value)
    url = os.environ.get("PREFECT_API_URL")
    if url:
        yield url
        return
    from prefect.logging.handlers import APILogWorker
    from prefect.server.api.server import SubprocessASGIServer

    server = SubprocessASGIServer()
    server.start()
    os.environ["PREFECT_API_URL"] = server.api_url
    try:
        yield server.api_url
    finally:
        try:
            APILogWorker.drain_all(timeout=10)
        finally:
            os.environ.pop("PREFECT_API_URL", None)
            server.stop()
