"""Read the tables of a Bridgemate `.bws` through the MDBTools ODBC driver, in a helper process.

access-parser (pure Python) reads a club session's `.bws` in about 0.1 s; the MDBTools driver
(C, the maintained `mdbtools` project, Debian's `odbc-mdbtools`) in about 4 ms. The driver is
native code reading a file from outside, so it runs in one helper process: a file that crashes it
costs that file, which is then read with access-parser, not the run. A file the driver complains
about (it prints to the process's stdout and stderr, and may return a damaged table as empty) is
read with access-parser too, whose error names the problem.

`ops/install-bws-driver.sh` installs the driver; without it every `.bws` is read with
access-parser, the same records more slowly.
"""

from __future__ import annotations

import atexit
import os
import pickle
import subprocess
import sys
import tempfile
from functools import cache
from pathlib import Path
from typing import BinaryIO

DRIVER = "MDBTools"
Tables = dict[str, dict[str, list]]  # table -> column -> values, as access-parser gives them
# the helper: `python store/inputs/bws_odbc.py`, pickles in and out over its stdin and stdout
# (started as a script, not with multiprocessing, which would import the caller's whole main
# module, nor with `-m store.inputs.bws_odbc`, which would import DuckDB with the `store` package;
# this file imports nothing but the standard library and, in the helper, pyodbc)
_helper: subprocess.Popen[bytes] | None = None


@cache
def available() -> bool:
    """Whether pyodbc and the MDBTools driver are installed."""
    try:
        import pyodbc
    except ImportError:  # pyodbc needs unixODBC's libodbc
        return False
    return DRIVER in pyodbc.drivers()


def read_tables(path: Path, names: tuple[str, ...]) -> Tables | None:
    """The tables `names` of the file that it has, or None: no driver, a path the connection
    string cannot carry, or the driver failed or complained on this file."""
    global _helper
    if not available() or any(c in str(path) for c in ";{}"):
        return None
    try:
        if _helper is None:
            here = Path(__file__).resolve()
            root = here.parent.parent.parent
            env = {
                **os.environ,
                "PYTHONPATH": os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")]),
            }
            _helper = subprocess.Popen(
                [sys.executable, str(here)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                cwd=root, env=env,
            )  # fmt: skip
            atexit.register(stop)
        assert _helper.stdin is not None and _helper.stdout is not None
        _send(_helper.stdin, (str(path.resolve()), names))
        answer = pickle.load(_helper.stdout)
    except (EOFError, OSError, pickle.UnpicklingError):  # the driver crashed: a new helper next
        stop()
        return None
    if isinstance(answer, BaseException):  # any ODBC error: access-parser reads it, says why
        return None
    tables, complaints = answer
    return None if complaints else tables


def stop() -> None:
    """Stop the helper process (it is started again when needed)."""
    global _helper
    if _helper is not None:
        helper, _helper = _helper, None
        if helper.stdin is not None:
            helper.stdin.close()  # the helper's loop ends at end of input
        try:
            helper.wait(5)
        except subprocess.TimeoutExpired:
            helper.kill()
            helper.wait()
        if helper.stdout is not None:
            helper.stdout.close()


def _send(stream: BinaryIO, message: object) -> None:
    pickle.dump(message, stream, protocol=pickle.HIGHEST_PROTOCOL)
    stream.flush()


def _serve(requests: BinaryIO, answers: BinaryIO) -> None:
    """The helper's loop: a (path, names) in, `_read`'s answer (or its exception) out."""
    while True:
        try:
            path, names = pickle.load(requests)
        except EOFError:
            return
        try:
            answer: object = _read(path, names)
        except Exception as exc:  # noqa: BLE001 - sent back: the caller falls back
            answer = RuntimeError(str(exc))
        _send(answers, answer)


# the columns `ddrank.parsers.bridgemate.join_bws` reads from ReceivedData (the largest table:
# its dates and remarks are left in the file); another table is read whole
COLUMNS = {
    "ReceivedData": ("ID", "Section", "Table", "Round", "Board", "PairNS", "PairEW", "NS/EW",
                     "Contract", "Result", "Erased"),
}  # fmt: skip


def _read(path: str, names: tuple[str, ...]) -> tuple[Tables, str]:
    """In the helper: the tables, and whatever the driver printed about the file meanwhile (a
    table it does not have is no complaint, unless it is ReceivedData)."""
    import pyodbc

    tables: Tables = {}
    with tempfile.TemporaryFile() as said:
        saved = os.dup(1), os.dup(2)
        os.dup2(said.fileno(), 1)
        os.dup2(said.fileno(), 2)
        try:
            con = pyodbc.connect(f"DRIVER={{{DRIVER}}};DBQ={path}", autocommit=True)
            try:
                cur = con.cursor()
                for name in names:
                    columns = ", ".join(f"[{c}]" for c in COLUMNS.get(name, ("*",))).replace(
                        "[*]", "*"
                    )
                    try:
                        cur.execute(f"SELECT {columns} FROM [{name}]")
                    except pyodbc.Error:
                        if name == "ReceivedData":
                            raise
                        said.seek(0)  # an optional table the file does not have
                        said.truncate()
                        continue
                    columns_read = [d[0] for d in cur.description]
                    rows = cur.fetchall()
                    tables[name] = {c: [row[i] for row in rows] for i, c in enumerate(columns_read)}
            finally:
                con.close()
        finally:
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            os.close(saved[0])
            os.close(saved[1])
        said.seek(0)
        return tables, said.read().decode("latin-1").strip()


if __name__ == "__main__":
    _serve(sys.stdin.buffer, sys.stdout.buffer)
