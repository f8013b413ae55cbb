"""Numbers the docs state about the bundled data, recomputed from that data: a stale count (of
records, boards, deals, or the README's count of tests) fails here."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from stages.clean import clean_pending
from stages.ingest import ingest_paths
from store.store import open_connection as connect

ROOT = Path(__file__).resolve().parent.parent
WORLDCLASS_2012 = ROOT / "ddrank" / "data" / "sample" / "pbn" / "worldclass-2012-example3.pbn"


def test_trick_winner_repair_count(tmp_path: Path) -> None:
    """methodology.md: the buggy trick-winner's columns are re-read on 3,589 table results of the
    2012 file (1,633 distinct deals), and every re-read play validates (it is kept with a play)."""
    con = connect(tmp_path / "s.duckdb")
    try:
        ingest_paths(con, [WORLDCLASS_2012])
        clean_pending(con, 1)
        rows, deals, with_play = con.execute(
            "SELECT count(*), count(DISTINCT deal_id), count(play) FROM boards "
            "WHERE repairs LIKE '%columns realigned (exporter let every trump overtake)%'"
        ).fetchall()[0]
    finally:
        con.close()
    assert (rows, deals, with_play) == (3589, 1633, 3589)


# -- counts the docs quote: a stale one fails -------------------------------------------------

SAMPLE = ROOT / "ddrank" / "data" / "sample"
#: (file, pattern, the counts its groups quote, in order). Each pattern must be found at least
#: once, and every place it is found must quote today's counts of the bundled sample.
QUOTED = [
    ("README.md", r"raw records ([\d,]+) = clean boards ([\d,]+) \+ excluded ([\d,]+)",
     ("records", "boards", "excluded")),
    ("README.md", r"bundled sample \(([\d,]+) records, ([\d,]+) distinct deals\)",
     ("records", "deals")),
    ("README.md", r"On the bundled sample \(([\d,]+) boards\)", ("boards",)),
    ("README.md", r"double-dummy analysis of ([\d,]+) deals", ("deals",)),
    ("docs/performance.md", r"DD plan over\s+([\d,]+) boards", ("boards",)),
]  # fmt: skip


@pytest.fixture(scope="module")
def sample_counts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, int]:
    """The bundled sample read and cleaned (seconds): its records, boards, exclusions, deals."""
    con = connect(tmp_path_factory.mktemp("sample") / "s.duckdb")
    try:
        ingest_paths(con, sorted(p for p in SAMPLE.rglob("*") if p.is_file()))
        clean_pending(con, 1)
        ((records, boards, excluded, deals),) = con.execute(
            "SELECT (SELECT count(*) FROM raw_records), (SELECT count(*) FROM boards), "
            "(SELECT count(*) FROM exclusions), (SELECT count(DISTINCT deal_id) FROM boards)"
        ).fetchall()
    finally:
        con.close()
    return {"records": records, "boards": boards, "excluded": excluded, "deals": deals}


@pytest.mark.parametrize(("doc", "pattern", "names"), QUOTED, ids=[q[1][:40] for q in QUOTED])
def test_quoted_counts_of_the_bundled_sample_are_today_s(
    doc: str, pattern: str, names: tuple[str, ...], sample_counts: dict[str, int]
) -> None:
    text = (ROOT / doc).read_text(encoding="utf-8")
    found = list(re.finditer(pattern, text))
    assert found, f"{doc}: no longer quotes {pattern!r}: update QUOTED here"
    for m in found:
        quoted = {n: int(g.replace(",", "")) for n, g in zip(names, m.groups(), strict=True)}
        line = text.count("\n", 0, m.start()) + 1
        assert quoted == {n: sample_counts[n] for n in names}, f"{doc}:{line}: stale count"


def _default_selection(config: pytest.Config) -> bool:
    """This session collected what README command 2 collects: no paths, `-k`, `-m`, deselection
    or last-failed filter beyond pyproject's addopts (a pytest-xdist worker parses the command
    line it was started with, so it answers the same)."""
    addopts = config.getini("addopts")
    default_m = addopts[addopts.index("-m") + 1] if "-m" in addopts else ""
    return (
        config.args_source == pytest.Config.ArgsSource.TESTPATHS
        and not config.option.keyword
        and config.option.markexpr == default_m
        and not config.getoption("deselect", None)
        and not config.getoption("lf", False)
        and not config.getoption("stepwise", False)
    )


def _collected_by_pytest() -> int:
    """README command 2's collection, in a subprocess (18 s of CPU on the full suite's load)."""
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-n", "0",
                           "-p", "no:cacheprovider"], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)  # fmt: skip
    per_file = re.findall(r"^tests/\S+: (\d+)$", done.stdout, re.M)
    assert per_file, done.stdout[-2000:] + done.stderr[-2000:]
    return sum(map(int, per_file))


def test_the_readme_count_of_tests_is_what_pytest_collects(request: pytest.FixtureRequest) -> None:
    """README command 2 says how many tests it runs; more than 5% off (tests land every day,
    the figure is rounded only by that much) is stale. Run as part of command 2 itself, the
    session's own collection is the count (the two counts were equal on 2026-12-07); run alone, a
    `pytest --collect-only` subprocess collects it."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    (quoted,) = {int(n.replace(",", "")) for n in re.findall(r"runs ([\d,]+) tests", text)}
    if _default_selection(request.config):
        collected = len(request.session.items)
    else:
        collected = _collected_by_pytest()
    assert collected, "pytest collected no test"
    assert abs(quoted - collected) <= 0.05 * collected, (
        f"README says {quoted:,} tests, pytest collects {collected:,}: update README command 2"
    )


# -- results and tables quoted of single bundled files ------------------------------------------

QUALIFIER = SAMPLE / "pbn" / "online-qualifier-2021-example2.pbn"
LIN = SAMPLE / "lin" / "usbf-2010-sf-14502.lin"
#: (file, pattern, the counts its groups quote): the qualifier as `ddrank score` scores it, the
#: vugraph LIN as `ddrank run` stores it.
QUOTED_FILES = [
    ("README.md", r"Of the file's ([\d,]+)\s+tables, ([\d,]+) are scored; `errors.csv` lists the "
     r"other ([\d,]+)", ("qualifier_records", "qualifier_scored", "qualifier_left_out")),
    ("README.md", r"IMPs per line: ([\d,]+)\s+compared, ([\d,]+) agree",
     ("qualifier_imps_compared", "qualifier_imps_agree")),
    ("docs/methodology.md", r"\(([\d,]+) records = ([\d,]+) scored \+ ([\d,]+) left out\)",
     ("qualifier_records", "qualifier_scored", "qualifier_left_out")),
    ("docs/methodology.md", r"RealBridge, ([\d,]+) deals, ([\d,]+) records",
     ("qualifier_deals", "qualifier_records")),
    ("docs/operations.md", r"vugraph file: ([\d,]+) table results, ([\d,]+) DD tables",
     ("lin_records", "lin_deals")),
    ("docs/performance.md", r"\(([\d,]+) \+ ([\d,]+) PBN table results and ([\d,]+) LIN\)",
     ("worldclass_records", "qualifier_records", "lin_records")),
]  # fmt: skip


@pytest.fixture(scope="module")
def file_counts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, int]:
    """Each file read and cleaned on its own (records, distinct deals), and the qualifier scored
    and checked as `ddrank score` / `ddrank check` do (results scored, left out, IMPs agreeing)."""
    from stages.check import check_file

    counts: dict[str, int] = {}
    for name, path in (("qualifier", QUALIFIER), ("lin", LIN), ("worldclass", WORLDCLASS_2012)):
        con = connect(tmp_path_factory.mktemp(name) / "s.duckdb")
        try:
            ingest_paths(con, [path])
            clean_pending(con, 1)
            ((counts[f"{name}_records"], counts[f"{name}_deals"]),) = con.execute(
                "SELECT (SELECT count(*) FROM raw_records), "
                "(SELECT count(DISTINCT deal_id) FROM boards)"
            ).fetchall()
        finally:
            con.close()
    fc = check_file(QUALIFIER)
    imps = next(c for ev in fc.events for c in ev.checks if c.what == "IMPs per line")
    counts.update(qualifier_scored=sum(ev.results for ev in fc.events),
                  qualifier_left_out=fc.left_out, qualifier_imps_compared=imps.compared,
                  qualifier_imps_agree=imps.agree)  # fmt: skip
    return counts


@pytest.mark.parametrize(("doc", "pattern", "names"), QUOTED_FILES,
                         ids=[q[1][:40] for q in QUOTED_FILES])  # fmt: skip
def test_quoted_counts_of_bundled_files_are_today_s(
    doc: str, pattern: str, names: tuple[str, ...], file_counts: dict[str, int]
) -> None:
    text = (ROOT / doc).read_text(encoding="utf-8")
    found = list(re.finditer(pattern, text))
    assert found, f"{doc}: no longer quotes {pattern!r}: update QUOTED_FILES here"
    for m in found:
        quoted = {n: int(g.replace(",", "")) for n, g in zip(names, m.groups(), strict=True)}
        line = text.count("\n", 0, m.start()) + 1
        assert quoted == {n: file_counts[n] for n in names}, f"{doc}:{line}: stale count"
