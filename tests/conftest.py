"""Each pytest-xdist worker gets a Prefect home of its own.

The suite runs on two workers (`-n 2` in pyproject's addopts): many tests wait on a temporary
Prefect server or a subprocess, so the second core is free for the other worker. Two temporary
servers on one Prefect home would share its SQLite database and its result storage; a home per
worker (inherited by every subprocess a test starts) keeps them apart. Set before Prefect is
imported anywhere in the session.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

import pytest

_worker = os.environ.get("PYTEST_XDIST_WORKER")
if _worker and "DDRANK_TEST_PREFECT_HOME" not in os.environ:
    os.environ["DDRANK_TEST_PREFECT_HOME"] = tempfile.mkdtemp(prefix=f"prefect-home-{_worker}-")
    os.environ["PREFECT_HOME"] = os.environ["DDRANK_TEST_PREFECT_HOME"]
    # The home holds a Prefect database and result storage (up to about 12 MB); without this, every
    # suite run left two of them in the temporary folder.
    atexit.register(shutil.rmtree, os.environ["DDRANK_TEST_PREFECT_HOME"], ignore_errors=True)

# A flow called directly in a test starts Prefect's own temporary server; its 20 s default start
# timeout failed once in a suite run on a loaded machine (flows/server.py gives ddrank's own 120 s).
os.environ.setdefault("PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", "120")

#: Files that share a session fixture, and the name of their share: the scheduler below sends
#: each share to one worker, so that its fixture is built once (`lin_pipeline`: one `ddrank`
#: pipeline run over the bundled LIN, about 30 s of CPU, instead of one per worker).
SHARES = {"test_pipeline.py": "lin-pipeline", "test_faults.py": "lin-pipeline",
          "test_scoring_flow.py": "lin-pipeline", "test_site_browser.py": "lin-pipeline"}  # fmt: skip

#: Files with the longest tests (real Prefect runs, fault chains, doc examples, browser sweeps),
#: longest first (`--durations`, 2026-12-07), started first so that the two workers finish
#: together instead of one waiting on a long file at the end.
LONG_FIRST = ("test_faults.py", "test_pipeline.py", "test_scoring_flow.py",
              "test_doc_examples.py", "test_site_phone.py", "test_site_pages_browser.py",
              "test_site_lin_browser.py", "test_dd_engine.py", "test_estimate.py",
              "test_dask_runner.py",
              "test_input_limits.py", "test_hostile_files.py", "test_ops.py",
              "test_site_browser.py", "test_director_cli.py", "test_results_in_process.py",
              "test_mistake_costs.py", "test_store_safety.py", "test_run_once.py")  # fmt: skip


#: Warnings of third-party origin, ignored by the module that raised them (never by message or
#: category alone, so ddrank's own warnings and any new ones stay visible): endplay's dealer
#: parser builds its grammar with pyparsing names deprecated in pyparsing 3.3 (`oneOf`,
#: `delimitedList`, `asKeyword=`, ...), 384 lines of the suite's summary on 2026-12-06.
THIRD_PARTY_WARNINGS = (
    r"ignore::DeprecationWarning:endplay\.",
    r"ignore::DeprecationWarning:pyparsing\.",
)


def pytest_configure(config: pytest.Config) -> None:
    for line in THIRD_PARTY_WARNINGS:
        config.addinivalue_line("filterwarnings", line)


def pytest_collection_modifyitems(items: list) -> None:
    """Long files first (a stable sort: the order within each file is kept). The scheduler
    below keeps this order."""
    rank = {name: k for k, name in enumerate(LONG_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(LONG_FIRST)))


@pytest.hookimpl(tryfirst=True, optionalhook=True)  # optional: runs without xdist too
def pytest_xdist_make_scheduler(config, log):  # noqa: ANN001, ANN201 - xdist's hook
    """`--dist loadfile`, with the files of one share (SHARES) as one unit and the units in
    collection order (longest first) instead of xdist's largest-count-first.

    Why not `--dist loadgroup` with `xdist_group` marks: pytest-xdist 3.8 puts the group into
    `item._nodeid`, which pytest 9.2 no longer reads (node ids live in `item._id`), so every
    test became its own unit and a file's tests, with its module fixtures, were split over both
    workers (seen 2026-11-28 and again 2026-12-07)."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class ShareScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::", 1)[0]
            return SHARES.get(path.rsplit("/", 1)[-1], path)

    config.option.loadscopereorder = False
    return ShareScheduling(config, log)


@pytest.fixture(scope="session", autouse=True)
def _stop_worker_api():  # noqa: ANN202
    """The worker's Prefect API (tests/prefect_server.py), stopped in order at the end."""
    yield
    from prefect_server import stop_worker_api

    stop_worker_api()


@pytest.fixture(scope="session")
def lin_pipeline(tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201 - (Path, CompletedProcess)
    """One uninterrupted `ddrank run` over the bundled LIN (`tmp/full.duckdb`, `tmp/full-out`)
    and its output, shared by the files that need one: tests/test_pipeline.py (read, rerun,
    compared), tests/test_faults.py (the uninterrupted reference), tests/test_scoring_flow.py
    (copied, then a second file added) and tests/test_site_browser.py (its pages, copied; the
    run's progress lines). Its users are one share (SHARES), so one worker runs it once. Tests
    that change the store copy it."""
    from pipeline_run import LIN, run_ddrank

    tmp = tmp_path_factory.mktemp("lin-pipeline")
    done = run_ddrank(tmp, "full", [LIN])
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return tmp / "full.duckdb", done


# The rating benchmark's real slices (tests/test_predict.py, tests/test_rating_variants.py): the
# bundled 2021 online qualifier, and the first six rounds of the Bermuda Bowl 2013 with its DD facts.
def _rating_stream(name: str):  # noqa: ANN202 - bench's Stream, imported lazily
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    from ratingbench import protocol
    from ratingbench.data import load_stream

    return load_stream(next(s for s in protocol.load().streams if s["name"] == name))


@pytest.fixture(scope="module")
def oq():  # noqa: ANN201
    return _rating_stream("OQ2021")


@pytest.fixture(scope="module")
def bb6():  # noqa: ANN201
    from ratingbench.data import Stream

    st = _rating_stream("BB2013")
    rows = [r for r in st.rows if r.period <= 6]
    return Stream(st.name, rows, st.has_dd, {"BB2013": ([1, 2, 3], [4, 5], [6])})


@pytest.fixture(scope="module")
def browser():
    """Headless Debian chromium through Playwright (tests/site_browser.py), or a skip saying how
    to install it."""
    from site_browser import ensure_chromium

    path = ensure_chromium()  # skips, saying why, before Playwright is imported
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, headless=True,
                              args=["--no-sandbox", "--disable-gpu"])  # fmt: skip
        yield b
        b.close()


def _skip_reason(report) -> str:  # noqa: ANN001 - a pytest TestReport
    """A skip's reason, with the many ways of saying "../shared is absent" said as one."""
    longrepr = report.longrepr
    reason = str(longrepr[2] if isinstance(longrepr, tuple) else longrepr).removeprefix("Skipped: ")
    if "shared" in reason and any(w in reason for w in ("absent", "missing", "not found",
                                                        "without", "is in ../shared",
                                                        "may not be bundled")):  # fmt: skip
        return (
            "../shared is absent (the real data that may not be bundled: SOURCES.md); "
            "with it beside the checkout these tests run"
        )
    return reason


def pytest_terminal_summary(terminalreporter) -> None:  # noqa: ANN001 - pytest's reporter
    """Why tests were skipped, once, at the end: one line per reason with its count (most skips
    of a fresh clone are one reason: ../shared is absent)."""
    from collections import Counter

    skipped = terminalreporter.stats.get("skipped", [])
    if not skipped:
        return
    reasons = Counter(_skip_reason(r) for r in skipped)
    terminalreporter.write_line(f"{len(skipped)} skipped, why:")
    for reason, n in reasons.most_common():
        terminalreporter.write_line(f"  {n:4d}  {reason}")
