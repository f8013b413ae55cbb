"""Check that every locked dependency has a wheel for each supported Python on Linux x86-64.

    python ops/check-wheels.py                 # 3.11, 3.12 and 3.13 (pyproject's classifiers)
    python ops/check-wheels.py --python 3.13   # one version

For each version it keeps the lines of requirements.lock whose environment marker holds there
(CPython on x86-64 Linux), then asks pip to download exactly those releases as wheels for that
interpreter (`pip download --no-deps --only-binary=:all: --python-version X --platform ...`, into
a temporary folder that is removed). A release with no matching wheel (only an sdist, or no
cp3X/abi3 build) fails the check with pip's message. `.ci/run` runs it; it needs the package
registry, and takes about a minute a version with an empty pip cache, seconds with a warm one.
"""

from __future__ import annotations

import argparse
import platform
import re
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

try:
    from packaging.requirements import Requirement
except ImportError:  # a bare venv: pip's own copy
    from pip._vendor.packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "requirements.lock"
#: The glibc Linux wheel tags a current x86-64 distribution accepts (Debian 12 has glibc 2.36;
#: numpy 2.5 for Python 3.12+ is built for manylinux_2_28 only).
#: Releases the registry has only as a source archive, each checked to be pure Python by hand:
#: pip builds them on any Python. The check downloads their sdist instead of a wheel.
SDIST_ONLY: dict[str, str] = {
    "access-parser": "0.0.6: pure Python (one module, no extension), published as an sdist only",
}
PLATFORMS = ("manylinux_2_28_x86_64", "manylinux_2_17_x86_64", "manylinux2014_x86_64",
             "manylinux_2_5_x86_64", "manylinux1_x86_64")  # fmt: skip


def supported_versions() -> list[str]:
    """The `Programming Language :: Python :: 3.X` classifiers of pyproject.toml."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    pattern = re.compile(r"^Programming Language :: Python :: (3\.\d+)$")
    return [m[1] for c in project.get("classifiers", []) if (m := pattern.match(c))]


def pins_for(version: str, lock: Path = LOCK) -> list[str]:
    """`name==version` of every lock line that applies to CPython `version` on x86-64 Linux."""
    env = {
        "python_version": version, "python_full_version": f"{version}.0",
        "implementation_name": "cpython", "platform_python_implementation": "CPython",
        "sys_platform": "linux", "platform_system": "Linux", "os_name": "posix",
        "platform_machine": "x86_64", "extra": "",
    }  # fmt: skip
    pins = []
    for line in lock.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith(("#", "-")):
            continue
        req = Requirement(line)
        if req.marker is None or req.marker.evaluate(env):
            pins.append(f"{req.name}{req.specifier}")
    return pins


def _download(
    pins: list[str], version: str, dest: Path, binary: bool
) -> subprocess.CompletedProcess:
    listing = dest / "pins.txt"
    listing.write_text("\n".join(pins) + "\n")
    kind = (
        [
            "--only-binary=:all:",
            "--python-version",
            version,
            "--implementation",
            "cp",
            *(f"--platform={p}" for p in PLATFORMS),
        ]
        if binary
        else ["--no-binary=:all:"]
    )
    cmd = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
           *kind, "--dest", str(dest / "files"), "-r", str(listing)]  # fmt: skip
    return subprocess.run(cmd, capture_output=True, text=True)


def _name(pin: str) -> str:
    return re.split(r"[=<>!~ ;]", pin, maxsplit=1)[0].lower().replace("_", "-")


def check(version: str, pure: set[str]) -> bool:
    """Download the version's wheels; a pin in `pure` (a `py3-none-any` wheel already fetched
    for another version) is skipped: it fits every Python that its Requires-Python admits, and
    the universal lock was resolved against every version's Requires-Python. Adds to `pure`."""
    pins = pins_for(version)
    sdists = [p for p in pins if _name(p) in SDIST_ONLY]
    todo = [p for p in pins if p not in sdists and p not in pure]
    with tempfile.TemporaryDirectory(prefix=f"ddrank-wheels-{version}-") as tmp:
        proc = _download(todo, version, Path(tmp), binary=True)
        wheels = sorted(p.name for p in (Path(tmp) / "files").glob("*.whl"))
        if sdists and proc.returncode == 0:
            proc = _download(sdists, version, Path(tmp), binary=False)
    if proc.returncode != 0:
        print(f"Python {version}: FAILED, a locked release has no wheel\n"
              f"{proc.stdout[-2000:]}{proc.stderr[-3000:]}")  # fmt: skip
        return False
    by_name = {_name(w.split("-")[0]): w for w in wheels}
    pure |= {p for p in todo if by_name.get(_name(p), "").endswith("-none-any.whl")}
    compiled = [w for w in wheels if not w.endswith("-none-any.whl")]
    print(f"Python {version}: all {len(pins)} locked releases have wheels "
          f"({len(compiled)} platform wheels fetched, {len(wheels) - len(compiled)} pure ones, "
          f"{len(pins) - len(todo) - len(sdists)} pure ones known from an earlier version)"
          + "".join(f"; {p} as sdist ({SDIST_ONLY[_name(p)]})" for p in sdists))  # fmt: skip
    return len(wheels) == len(todo)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--python", action="append", help="Version(s) to check (default: all).")
    args = parser.parse_args()
    versions = args.python or supported_versions()
    print(f"wheels for {', '.join(versions)} on Linux x86-64 ({platform.python_version()} runs "
          f"this), from {LOCK.name}")  # fmt: skip
    pure: set[str] = set()
    results = [check(v, pure) for v in versions]
    return 0 if results and all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
