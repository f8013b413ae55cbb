"""Ingest throughput per format: results per second on one core, and peak memory.

For each format a real file is replicated into one large file of about `--records` results
(distinct event names or board numbers, so no copy is a duplicate), then read in a fresh child
process (one core: no worker pool) twice: the reader alone (format detection + parse), and the
whole ingest into an empty DuckDB store. The child reports its own peak RSS, once for a file of
a quarter of the size and once for the full size, so the growth of memory with file size shows.
Everything is written to a temporary folder; nothing goes into the repository. The files under
`../shared` are found beside the clone, or where `DDRANK_SHARED` points.

    .venv/bin/python bench/bench_ingest.py [--records 200000] [--formats pbn,scoretable,lin,usebio,bws]
    .venv/bin/python bench/bench_ingest.py --formats '' --many-files 10000   (only the next part)

Many small files against one file (issue 32): `--many-files N` (default 10,000; 0 skips it) one-
table LIN files, generated (labelled so: for scale only) from the real tables of
ddrank/data/sample/lin/usbf-2010-sf-14502.lin: file k holds the event header (its title made
distinct per copy of the 30 tables), the players and one table. The one file holds the same texts,
one after the other: the same records. Both are ingested into an empty store in a fresh process,
by the stage (`stages.ingest.ingest_paths`) and by `ddrank ingest`; the ratio many / one is the
measure (target: within 3x), in one run.

Formats and their real files:
  pbn         per-table PBN: ddrank/data/sample/pbn/worldclass-2012-example3.pbn (7,632 results)
  pbn-dd      per-table PBN with DD tables and notes, ~60 lines a result:
              ddrank/data/sample/pbn/online-qualifier-2021-example2.pbn (299 results)
  scoretable  PBN ScoreTable travellers: ../shared/.../bridgecomposer-pairs/PABC_2025-12-23 (333)
  lin         BBO vugraph LIN: ddrank/data/sample/lin/usbf-2010-sf-14502.lin (30 results)
  usebio      USEBIO XML: ../shared/.../usebio/welwyn-2025-04-09.usebio.xml (144 traveller lines)
  bws         Bridgemate .bws: ../shared/.../bridgemate-acbl/LBC-2026-01-26.bws (270 results), not
              replicated (an MS Access database cannot be written here): read again and again, to
              about as many results. Its tables are read by the MDBTools ODBC driver in a helper
              process (whose CPU time is counted); the bench installs the driver when it can
              (ops/install-bws-driver.sh), else access-parser reads them, about 10x slower.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SAMPLE = ROOT / "ddrank" / "data" / "sample"
EVENTS = Path(os.environ.get("DDRANK_SHARED", ROOT.parent / "shared")) / "data" / "events"
SOURCES = {
    "pbn": SAMPLE / "pbn" / "worldclass-2012-example3.pbn",
    "pbn-dd": SAMPLE / "pbn" / "online-qualifier-2021-example2.pbn",
    "scoretable": EVENTS / "bridgecomposer-pairs" / "PABC_2025-12-23_D251223M.pbn",
    "lin": SAMPLE / "lin" / "usbf-2010-sf-14502.lin",
    "usebio": EVENTS / "usebio" / "welwyn-2025-04-09.usebio.xml",
    "bws": EVENTS / "bridgemate-acbl" / "LBC-2026-01-26.bws",
}
TARGET_RATE = 20_000  # results/s, issue 12


def replicate(fmt: str, source: Path, records: int, out: Path) -> Path:
    """One file of about `records` results made of copies of `source`."""
    if fmt == "bws":
        return source
    from store.inputs.read import read_parsed

    text = source.read_bytes().decode("latin-1")
    per = len(read_parsed(source)[0].records)  # results in one copy
    if fmt in ("pbn", "pbn-dd", "scoretable"):
        copies = -(-records // per)
        path = out / f"{fmt}.pbn"
        with path.open("w", encoding="latin-1") as fh:
            for k in range(copies):
                fh.write(re.sub(r'\[Event "([^"#]*)"\]', rf'[Event "\1 (copy {k})"]', text))
                fh.write("\n\n")
    elif fmt == "lin":
        copies = -(-records // per)
        path = out / "vugraph.lin"
        with path.open("w", encoding="latin-1") as fh:
            for k in range(copies):
                fh.write(re.sub(r"vg\|([^,|]*)", rf"vg|\1 (copy {k})", text) + "\n")
    else:  # usebio: the 24 boards again and again, renumbered, inside the one event
        start, end = text.index("    <BOARD>"), text.rindex("</BOARD>") + len("</BOARD>\n")
        boards = text[start:end]
        copies = -(-records // per)
        boards_per_copy = text.count("<BOARD_NUMBER>")
        chunks = []
        for k in range(copies):
            chunks.append(
                re.sub(
                    r"<BOARD_NUMBER>(\d+)</BOARD_NUMBER>",
                    lambda m, k=k: (
                        f"<BOARD_NUMBER>{int(m.group(1)) + boards_per_copy * k}</BOARD_NUMBER>"
                    ),
                    boards,
                )
            )
        path = out / "event.usebio.xml"
        path.write_text(text[:start] + "".join(chunks) + text[end:], encoding="latin-1")
    return path


def peak_rss_mb() -> float:
    """This process's peak resident memory (VmHWM: unlike ru_maxrss, not inherited from the
    parent that forked it)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def child(path: str, mode: str, repeat: int) -> None:
    """Run in a fresh process: read (or ingest) the file, print results/s and peak RSS."""
    # The readers import their parser on first use (a fast CLI start); import them all before the
    # clock starts, so a rate counts reading, not the import (the code before the refactor
    # imported every parser with its module, outside the timed region too).
    import ddrank.parsers.lin  # noqa: F401
    import ddrank.parsers.pbn  # noqa: F401
    import ddrank.parsers.pbn_conformance  # noqa: F401
    import ddrank.parsers.usebio  # noqa: F401
    import store.inputs.bridgemate  # noqa: F401
    import store.inputs.lin  # noqa: F401
    from store.inputs.read import detect_format, read_parsed
    from store.inputs.stream import StreamedFile, streams

    t0, c0 = time.perf_counter(), time.process_time()
    n = 0
    if mode == "read" and streams(Path(path)):  # a large PBN or LIN: read as ingest reads it
        errors = 0
        for _ in range(repeat):
            for batch in StreamedFile(detect_format(Path(path))).batches(Path(path)):
                n += len(batch)
                errors += sum(1 for r in batch if r.parse_error)
    elif mode == "read":
        for _ in range(repeat):
            parsed, _deals = read_parsed(Path(path))
            n += len(parsed.records)
            errors = sum(1 for r in parsed.records if r.parse_error)
            del parsed
    else:
        from stages.ingest import ingest_paths
        from store.store import open_connection as connect

        with tempfile.TemporaryDirectory() as tmp:
            con = connect(Path(tmp) / "bench.duckdb")
            summary = ingest_paths(con, [path], workers=1)
            n, errors = summary.new, len(summary.unreadable)
            con.close()
    from store.inputs import bws_odbc

    bws_odbc.stop()  # the .bws helper process: its CPU time counts too, once it has ended
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    seconds = time.perf_counter() - t0
    cpu = time.process_time() - c0 + children.ru_utime + children.ru_stime
    peak_mb = peak_rss_mb()
    print(json.dumps({"results": n, "seconds": seconds, "cpu": cpu, "peak_mb": peak_mb,
                      "errors": errors}))  # fmt: skip


def _bws_driver() -> None:
    """Install the MDBTools ODBC driver if it is missing and this user can (root, apt-get)."""
    from store.inputs import bws_odbc

    if bws_odbc.available():
        print("bws: tables read by the MDBTools ODBC driver")
        return
    script = ROOT / "ops" / "install-bws-driver.sh"
    if os.geteuid() == 0 and shutil.which("apt-get"):
        subprocess.run(["bash", str(script)], check=False)
        bws_odbc.available.cache_clear()
    if not bws_odbc.available():
        print(f"bws: the MDBTools ODBC driver is not installed ({script}): access-parser reads it")


def run_child(path: Path, mode: str, repeat: int = 1) -> dict:
    out = subprocess.run(
        [sys.executable, __file__, "--child", str(path), "--mode", mode, "--repeat", str(repeat)],
        check=True, capture_output=True, text=True, cwd=ROOT,
    )  # fmt: skip
    return json.loads(out.stdout.strip().splitlines()[-1])


def one_table_lins(folder: Path, count: int) -> tuple[Path, Path]:
    """`count` one-table LIN files made from the sample's real tables (GENERATED, for scale
    only), and one file holding the same texts in the same order."""
    text = SOURCES["lin"].read_text(encoding="latin-1")
    vg = re.search(r"^vg\|([^|]*)\|", text, re.M)
    pn = re.search(r"^pn\|([^|]*)\|", text, re.M)
    assert vg and pn
    title, rest = vg.group(1).split(",", 1)
    starts = [m.start() for m in re.finditer(r"qx\|", text)]
    tables = [text[a:b].rstrip("\n") for a, b in zip(starts, [*starts[1:], len(text)], strict=True)]
    many = folder / "many"
    many.mkdir()
    one = folder / "one.lin"
    with one.open("w", encoding="latin-1") as whole:
        for k in range(count):
            copy, table = divmod(k, len(tables))
            piece = (f"vg|{title} (generated copy {copy}),{rest}|\npn|{pn.group(1)}|\n"
                     f"{tables[table]}\n")  # fmt: skip
            (many / f"t{k:05d}.lin").write_text(piece, encoding="latin-1")
            whole.write(piece)
    return many, one


def many_child(path: str, how: str) -> None:
    """In a fresh process: ingest `path` (a folder or a file) into an empty store by the stage or
    by the CLI; print the time, the records and the peak RSS."""
    import duckdb

    from stages.ingest import ingest_paths
    from store import Store

    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.duckdb"
        t0, c0 = time.perf_counter(), time.process_time()
        if how == "stage":
            with Store(db) as store:
                summary = ingest_paths(store, [path], workers=1)
            n = summary.new
        else:
            done = subprocess.run([sys.executable, "-m", "cli.main", "ingest", path, "--db",
                                   str(db), "--json"], cwd=ROOT, capture_output=True, text=True,
                                  check=True)  # fmt: skip
            n = json.loads(done.stdout)["new"]
        seconds = time.perf_counter() - t0
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = time.process_time() - c0 + children.ru_utime + children.ru_stime
        con = duckdb.connect(str(db), read_only=True)
        ids = con.execute("select md5(string_agg(record_id, ',' order by record_id)) "
                          "from raw_records").fetchall()[0][0]  # fmt: skip
        con.close()
    peak = max(peak_rss_mb(), children.ru_maxrss / 1024)
    print(json.dumps({"results": n, "seconds": seconds, "cpu": cpu, "peak_mb": peak, "ids": ids}))


def many_files(count: int) -> None:
    print(f"\nMany small files against one file: {count:,} one-table LIN files (GENERATED from the "
          "real tables of ddrank/data/sample/lin, for scale only) against one file of the same "
          "tables; an empty store each time, one process, no worker pool.")  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="ddrank-bench-many-") as tmp:
        many, one = one_table_lins(Path(tmp), count)
        size = sum(f.stat().st_size for f in many.iterdir()) / 2**20
        print(f"{'how':<15} {'input':<22} {'records':>8} {'wall s':>8} {'cpu s':>7} "
              f"{'peak MB':>8}  many / one (wall, cpu)")  # fmt: skip
        for how in ("stage", "ddrank ingest"):
            runs = {}
            for label, path in ((f"{count:,} files", many), ("1 file", one)):
                out = subprocess.run([sys.executable, __file__, "--many-child", str(path),
                                      "--mode", how], check=True, capture_output=True, text=True,
                                     cwd=ROOT)  # fmt: skip
                runs[label] = r = json.loads(out.stdout.strip().splitlines()[-1])
                print(f"{how:<15} {label + f' ({size:.1f} MB)':<22} {r['results']:>8,} "
                      f"{r['seconds']:>8.2f} {r['cpu']:>7.2f} {r['peak_mb']:>8.0f}")  # fmt: skip
            a, b = runs[f"{count:,} files"], runs["1 file"]
            same = "same records" if a["ids"] == b["ids"] else "RECORDS DIFFER"
            ratio = a["seconds"] / b["seconds"]
            print(f"{'':<15} many / one: {ratio:.2f}x wall, {a['cpu'] / b['cpu']:.2f}x cpu "
                  f"({same}; {'within' if ratio <= 3 else 'OVER'} the 3x target)")  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=int, default=200_000)
    ap.add_argument("--formats", default="pbn,pbn-dd,scoretable,lin,usebio,bws")
    ap.add_argument("--child")
    ap.add_argument("--mode", default="read")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--many-files", type=int, default=10_000,
                    help="one-table LIN files against one file (0: skip)")  # fmt: skip
    ap.add_argument("--many-child")
    args = ap.parse_args()
    if args.child:
        child(args.child, args.mode, args.repeat)
        return
    if args.many_child:
        many_child(args.many_child, args.mode)
        return
    print(
        "Rates are results per CPU-second of the one process (wall-clock rates in brackets: on a"
        " shared machine they also count the time other processes held the core)."
    )
    print(f"{'format':<11} {'results':>8} {'MB':>6} {'read/s':>17} {'ingest/s':>17} "
          f"{'peak MB (1/4 size)':>19} {'peak MB':>8}  target {TARGET_RATE:,}/s")  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="ddrank-bench-ingest-") as tmp:
        for fmt in filter(None, args.formats.split(",")):
            source = SOURCES[fmt]
            if not source.exists():
                print(f"{fmt:<11} skipped: {source} is not here")
                continue
            folder = Path(tmp) / fmt
            folder.mkdir()
            quarter_dir = folder / "quarter"
            quarter_dir.mkdir()
            repeat = max(1, args.records // 270) if fmt == "bws" else 1
            if fmt == "bws":
                _bws_driver()
            quarter = replicate(fmt, source, args.records // 4, quarter_dir)
            full = replicate(fmt, source, args.records, folder)
            try:
                small = run_child(quarter, "read", max(1, repeat // 4))
                read = run_child(full, "read", repeat)
                ingest = run_child(full, "ingest") if fmt != "bws" else None
            except subprocess.CalledProcessError as exc:
                print(f"{fmt:<11} failed: {exc.stderr.strip().splitlines()[-1:]}")
                continue
            rate = read["results"] / read["cpu"]
            wall = read["results"] / read["seconds"]
            irate = (
                f"{ingest['results'] / ingest['cpu']:,.0f} ({ingest['results'] / ingest['seconds']:,.0f})"
                if ingest
                else "-"
            )
            mark = "ok" if rate >= TARGET_RATE else "BELOW TARGET"
            size = full.stat().st_size / 2**20
            print(f"{fmt:<11} {read['results']:>8,} {size:>6.1f} {f'{rate:,.0f} ({wall:,.0f})':>17} {irate:>17} "
                  f"{small['peak_mb']:>19.0f} {read['peak_mb']:>8.0f}  {mark}"
                  + (f" ({read['errors']} unreadable)" if read["errors"] else ""))  # fmt: skip
    if args.many_files:
        many_files(args.many_files)


if __name__ == "__main__":
    main()
