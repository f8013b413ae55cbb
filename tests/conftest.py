"""Each pytest-xdist worker gets a Prefect home of its own.

The suite runs on two workers (`-n 2` in pyproject's addopts): many tests wait on a temporary
Prefect server or a subprocess, so the second core is free for the other worker. Two temporary
servers on one Prefect home would share its SQLite database and its result storage; a home per
worker (inherited by every subprocess a test starts) keeps them apart. Set before Prefect is
imported anywhere in the session.
"""

from __future__ import annotations

import os
import tempfile

_worker = os.environ.get("PYTEST_XDIST_WORKER")
if _worker and "DDRANK_TEST_PREFECT_HOME" not in os.environ:
    os.environ["DDRANK_TEST_PREFECT_HOME"] = tempfile.mkdtemp(prefix=f"prefect-home-{_worker}-")
    os.environ["PREFECT_HOME"] = os.environ["DDRANK_TEST_PREFECT_HOME"]
