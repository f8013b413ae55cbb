"""One temporary Prefect API per pytest-xdist worker, for the tests that run flows in process.

Prefect keeps one temporary server per process (`SubprocessASGIServer` is a singleton); every
`prefect_api()` block and every `prefect_test_harness` started one and stopped it again, 7-10 s
of server start apiece on a 2-core machine (more under load). Here the worker's server starts on
first use and stays up until the session ends (tests/conftest.py drains its logs and stops it);
`worker_api()` exports its address for the block, so `flows.server.prefect_api()` reuses it and
every spawned pool worker inherits it. A test that needs a server start of its own (a run as
`ddrank run` starts it) still clears PREFECT_API_URL and gets one; if that stops this process's
server, the next `worker_api()` starts it again.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager


def _server():  # noqa: ANN202 - Prefect's server object
    from flows.server import _server_class

    return _server_class()()  # Prefect's singleton: the process's one temporary server


@contextmanager
def worker_api() -> Iterator[str]:
    """The worker's Prefect API (started if it is not running), exported as PREFECT_API_URL."""
    os.environ.setdefault("DO_NOT_TRACK", "1")
    os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
    server = _server()
    if not server.running:
        server.start(timeout=120)
    saved = os.environ.get("PREFECT_API_URL")
    os.environ["PREFECT_API_URL"] = server.api_url
    try:
        yield server.api_url
    finally:
        if saved is None:
            os.environ.pop("PREFECT_API_URL", None)
        else:
            os.environ["PREFECT_API_URL"] = saved


def stop_worker_api() -> None:
    """At the session's end: send queued logs and events while the server is up, then stop it
    (after it stops, Prefect's log worker would retry a dead address at interpreter exit)."""
    import sys

    if "prefect" not in sys.modules:
        return  # this worker never ran a flow
    from flows.server import _drain_prefect_clients

    server = _server()
    if server.running:
        _drain_prefect_clients(timeout=10)
        server.stop()
