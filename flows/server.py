"""One Prefect API per command: reuse a configured server, else start one temporary server.

Without PREFECT_API_URL every Python process that runs a flow (and every spawned pool worker)
starts its own temporary server, 7-10 s apiece on a 2-core machine. Start one here and export its
URL before any worker exists; drain queued logs and events before stopping it.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import random
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

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
        with no_flow_heartbeats():
            yield url
        return
    from stages.progress import stage

    server = None
    try:
        # 20 s (Prefect's default) is not always enough on a loaded 2-core machine; the stage
        # covers the client's import too (up to half a minute when the machine is busy)
        with stage("prefect-api", heartbeat=1.0):
            server = _server_class()()
            server.start(timeout=120)
    except BaseException:  # an interrupt while it starts must not leave it running
        if server is not None:
            if server.server_process is not None:
                server.server_process.kill()  # not yet serving: nothing to shut down in order
            server.stop()
        raise
    assert server is not None
    os.environ["PREFECT_API_URL"] = server.api_url
    try:
        with no_flow_heartbeats():
            yield server.api_url
    finally:
        _drain_prefect_clients(timeout=2 if stopping() else 10)
        os.environ.pop("PREFECT_API_URL", None)
        with _no_api_logging():  # "Stopping server" must not be shipped to the server stopping
            server.stop()


@contextmanager
def no_flow_heartbeats() -> Iterator[None]:
    """Flow runs of this command send no heartbeat. Prefect 3.9 ends every synchronous flow run
    by joining its heartbeat thread, which sleeps in steps of a second: 0-1 s added to each flow
    run (a no-op flow: 0.78 s per call with heartbeats, 0.19 s without, load 8; the DD stage's
    flow ended 0.65 s after its last write). The heartbeats (one per 180 s) only feed a server
    automation that marks silent flow runs crashed; ddrank creates none, and an interrupted run
    marks its flow run crashed itself (`flows.interrupts`)."""
    from prefect.settings import PREFECT_FLOWS_HEARTBEAT_FREQUENCY, temporary_settings

    with temporary_settings(updates={PREFECT_FLOWS_HEARTBEAT_FREQUENCY: None}):
        yield


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


def _server_class() -> type[TemporaryServer]:
    """The process's temporary Prefect API server (one per process, as Prefect keeps it)."""
    return TemporaryServer


class TemporaryServer:
    """Prefect's temporary API server, as Prefect's `SubprocessASGIServer` starts it (uvicorn
    serving `prefect.server.api.server:create_app`, the UI off), without importing the server's
    code into this process: that import (FastAPI routes, ORM models, about 3.5 CPU-s) is what the
    subprocess does; importing it here too only to subclass it doubled it.

    It runs in a session of its own, which keeps a terminal's Ctrl-C away from it, so an
    interrupted run can still mark its flow run crashed and then stop the server in order; it
    dies with this process, so a `kill -9` of the command never leaves it running. One per
    process (tests/prefect_server.py keeps it up across a test session's runs)."""

    _instance: TemporaryServer | None = None
    _ports = range(8000, 9000)  # Prefect's range for its temporary server

    def __new__(cls) -> TemporaryServer:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
            cls._instance.port = None
            cls._instance.server_process = None
            cls._instance.running = False
        return cls._instance

    port: int | None
    server_process: subprocess.Popen[bytes] | None
    running: bool

    @property
    def api_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/api"

    def _free_port(self) -> int:
        for _ in range(10):
            port = random.choice(self._ports)
            with contextlib.closing(socket.socket(socket.AF_INET, socket.SOCK_STREAM)) as sock:
                try:
                    sock.bind(("127.0.0.1", port))
                except OSError:
                    time.sleep(random.uniform(0.1, 0.5))
                    continue
            return port
        raise RuntimeError("no free port for a temporary Prefect server")

    def _popen(self) -> subprocess.Popen[bytes]:
        import importlib.util

        from ddrank.processes import die_with_parent

        env = {**os.environ, "PREFECT_UI_ENABLED": "0", "PREFECT__SERVER_EPHEMERAL": "1",
               "PREFECT__SERVER_FINAL": "1"}  # fmt: skip
        if "prefect.settings" in sys.modules:  # settings this process may hold beyond its env
            from prefect.settings import get_current_settings

            env.update(get_current_settings().to_environment_variables(exclude_unset=True))
        spec = importlib.util.find_spec("prefect")
        assert spec is not None and spec.origin is not None
        app_dir = str(Path(spec.origin).parent.parent)  # Prefect's own: prefect.__module_path__
        args = [sys.executable, "-m", "uvicorn", "--app-dir", app_dir,
                "--factory", "prefect.server.api.server:create_app", "--host", "127.0.0.1",
                "--port", str(self.port), "--log-level", "error", "--lifespan", "on"]  # fmt: skip
        return subprocess.Popen(args, env=env, start_new_session=True, preexec_fn=die_with_parent)

    def launch(self) -> None:
        """Start the server's process without waiting for it (nor importing Prefect): `ddrank
        run` launches it before importing Prefect, so the two overlap; `start` then waits."""
        if self.running or self.server_process is not None:
            return
        os.environ.setdefault("DO_NOT_TRACK", "1")
        os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
        self.port = self._free_port()
        self.server_process = self._popen()
        atexit.register(self.stop)

    def start(self, timeout: float = 120) -> None:
        """Start the server (unless launched) and wait until it answers (at most `timeout`
        seconds)."""
        if self.running:
            return
        import httpx

        self.launch()
        self.running = True
        try:
            deadline = time.monotonic() + timeout
            with httpx.Client() as client:
                while True:
                    if self.server_process.poll() == 3:  # uvicorn: the port was taken meanwhile
                        self.port = self._free_port()
                        self.server_process = self._popen()
                    elif self.server_process.poll() is not None:
                        raise RuntimeError("the temporary Prefect server exited with code "
                                           f"{self.server_process.returncode}")  # fmt: skip
                    try:
                        if client.get(f"{self.api_url}/health").status_code == 200:
                            _prefect_uses(self.api_url)
                            return
                    except httpx.TransportError:
                        pass
                    if time.monotonic() > deadline:
                        raise RuntimeError(f"the temporary Prefect server did not answer within "
                                           f"{timeout:.0f} s")  # fmt: skip
                    time.sleep(0.1)
        except BaseException:
            self.running = False
            raise

    def stop(self) -> None:
        """Stop the server (SIGTERM, then SIGKILL after 5 s)."""
        proc, self.server_process = self.server_process, None
        if proc is not None:
            proc.terminate()
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if self.running:
            _prefect_uses(None)
        self.running = False


def _prefect_uses(url: str | None) -> None:
    """Make this process's Prefect client use `url` (None: whatever PREFECT_API_URL says).

    Prefect reads its settings once, at import; a client that finds no API URL starts a
    temporary server of its own (`get_client`). Prefect's own temporary server is a singleton
    that client finds and reuses, so refresh the settings as they would be with PREFECT_API_URL
    set, leaving the environment as it was (`prefect_api` exports it for the workers)."""
    from prefect.context import refresh_global_settings_context

    saved = os.environ.get("PREFECT_API_URL")
    if url is not None:
        os.environ["PREFECT_API_URL"] = url
    try:
        refresh_global_settings_context()
    finally:
        if saved is None:
            os.environ.pop("PREFECT_API_URL", None)
        else:
            os.environ["PREFECT_API_URL"] = saved


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
