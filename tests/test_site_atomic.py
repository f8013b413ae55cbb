"""One long board label can no longer lose the published site (issue 32, finding 5).

The hostile file is the bundled 2021 qualifier with board 11 renumbered to a 400-digit number
(the PBN reader accepts it). Its site is complete, every page linked is written, and the board's
page name is bounded and hashed. A second build over an existing site that fails midway (an
error after some pages; a disk that fills up, for real on a tmpfs) leaves the old site as it was,
byte for byte, and the command exits non-zero with one line.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from hostile import ROOT, ddrank

from ddrank.parsers.values import cut_value

QUALIFIER = ROOT / "ddrank" / "data" / "sample" / "pbn" / "online-qualifier-2021-example2.pbn"
LONG = "9" * 400
HREF = re.compile(r"""(?:href|src)="([^"#?:]+)[^"]*\"""")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    tmp = tmp_path_factory.mktemp("long-label")
    pbn = tmp / "long.pbn"
    pbn.write_text(QUALIFIER.read_text().replace('[Board "11"]', f'[Board "{LONG}"]'))
    db, out = tmp / "s.duckdb", tmp / "out"
    done = ddrank("results", str(pbn), "--out", str(out), "--db", str(db), cwd=tmp)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "site: " in done.stdout
    return db, out


def snapshot(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha1(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}  # fmt: skip


def test_the_site_is_complete_with_a_400_digit_board(built: tuple[Path, Path]) -> None:
    _, out = built
    site = out / "site"
    pages = sorted(site.rglob("*.html"))
    assert (site / "index.html").is_file() and (site / "about.html").is_file()
    assert len(list((site / "players").glob("p-*.html"))) > 100  # every player page
    missing = []
    for page in pages:
        for link in HREF.findall(page.read_text()):
            if not (page.parent / link).resolve().exists():
                missing.append((str(page.relative_to(site)), link))
    assert not missing, missing[:10]
    long_pages = [p for p in pages if p.name.startswith("board-999")]
    assert long_pages, "the 400-digit board has no page"
    assert max(len(p.name) for p in pages) <= 60
    # a label over 256 characters is kept as its first 160 and a digest in every record that
    # carries it (issue 40: no long value copied per record), and the page shows what is kept
    assert cut_value(LONG) in long_pages[0].read_text()
    assert cut_value(LONG).startswith("9" * 160 + "... (cut: 400 characters, sha1 ")


def test_a_build_that_fails_midway_leaves_the_old_site(built: tuple[Path, Path],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    from publish.site import writer
    from stages.site import build_site

    db, out = built
    before = snapshot(out / "site")

    class FailingPages(writer.SitePages):
        def __iter__(self):  # 25 pages, then the file system refuses a name
            for k, page in enumerate(super().__iter__()):
                if k == 25:
                    raise OSError(36, "File name too long", "events/board-x.html")
                yield page

    monkeypatch.setattr(writer, "SitePages", FailingPages)
    with pytest.raises(OSError, match="File name too long"):
        build_site(db, out, fill_par=False)
    assert snapshot(out / "site") == before
    assert not [p for p in out.iterdir() if ".new-" in p.name or ".old-" in p.name]  # no leftover


@pytest.fixture
def small_disk(tmp_path: Path):
    """A real tmpfs (root only)."""
    mnt = tmp_path / "disk"
    mnt.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=32m", "tmpfs", str(mnt)],
                          capture_output=True, text=True)  # fmt: skip
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({done.stderr.strip()}); CI runs as root")
    yield mnt
    subprocess.run(["umount", "-l", str(mnt)], capture_output=True)


def test_a_disk_full_during_the_second_build_keeps_the_old_site(
    built: tuple[Path, Path], small_disk: Path, tmp_path: Path
) -> None:
    db, _ = built
    out = small_disk / "out"
    first = ddrank("report", "--db", str(db), "--out", str(out), cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    # piped, the build says it started and how long it took (a big store's site takes minutes)
    said = [ln.split(" ", 1)[1] for ln in first.stdout.splitlines() if ln[2:3] == ":"]
    assert said[0] == "site: started" and said[-1].startswith("site: done, "), first.stdout
    # a site an older version wrote: no page is the same, so the second build writes every page
    # (a rebuild keeps unchanged pages as hard links, which take no room)
    (out / "site" / ".build.json").unlink()
    for page in (out / "site").rglob("*.html"):
        page.write_text(page.read_text() + "\n")
    before = snapshot(out / "site")
    used = sum((out / "site" / rel).stat().st_size for rel in before)
    free = shutil.disk_usage(small_disk).free
    (small_disk / "ballast").write_bytes(b"\0" * (free - used // 2))  # room for half a site
    second = ddrank("report", "--db", str(db), "--out", str(out), cwd=tmp_path)
    assert second.returncode == 2, second.stdout + second.stderr
    assert "Traceback" not in second.stderr
    errors = [ln for ln in second.lines if ln.startswith("error:")]
    assert len(errors) == 1 and "no space left on the disk" in errors[0], second.lines
    assert snapshot(out / "site") == before
    assert not [p for p in out.iterdir() if ".new-" in p.name or ".old-" in p.name]
