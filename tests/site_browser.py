"""What the site's browser tests share: Debian's chromium driven by Playwright (the system
browser only: Playwright never downloads one here), a page that collects console errors, the
phone check, and screenshots for docs/img/ when $DDRANK_SCREENSHOTS is set."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
PHONE = 390  # px: the width a phone's browser shows a page at
SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def ensure_chromium() -> str:
    """Debian's chromium, or a skip saying how to get it (a test never installs anything;
    .ci/run installs it, so CI never skips these tests)."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is absent: `apt-get update && apt-get install -y chromium`")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        pytest.skip("playwright is not installed (pip install playwright; no browser download)")
    return CHROMIUM


def open_page(browser, url: str, width: int = 1280):
    """A page at `url`, with every console error and uncaught exception collected."""
    page = browser.new_page(viewport={"width": width, "height": 844 if width < 640 else 1000})
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("requestfailed", lambda r: errors.append(f"failed: {r.url}"))
    page.goto(url)
    page.wait_for_load_state("load")
    return page, errors


def visit(page, errors: list[str], url: str) -> None:
    """`page` (from `open_page`) at `url`, its error list emptied first: one tab for many pages
    (a new tab per page cost about 0.5 s on a busy machine, a navigation about 0.1 s)."""
    errors.clear()
    page.goto(url)
    page.wait_for_load_state("load")


#: Any element wider than the window, or scrolling sideways inside its own box.
OVERFLOW_JS = """() => {
  const w = document.documentElement.clientWidth;
  const out = [];
  if (document.documentElement.scrollWidth > w) out.push('page ' + document.documentElement.scrollWidth);
  for (const e of document.querySelectorAll('main *')) {
    const r = e.getBoundingClientRect();
    if (r.width && r.right > w + 0.5) out.push(e.tagName + '.' + e.className + ' ' + Math.round(r.right));
    if (e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible')
      out.push('scrolls: ' + e.tagName + '.' + e.className);
  }
  return out.slice(0, 5);
}"""


def no_sideways_scroll(page) -> list[str]:
    """What would make a phone scroll sideways ([] when nothing does)."""
    return page.evaluate(OVERFLOW_JS)


def shot(page, name: str, element=None) -> Path | None:
    """A full-page screenshot (or of `element`) into $DDRANK_SCREENSHOTS when set."""
    folder = os.environ.get("DDRANK_SCREENSHOTS")
    if not folder:
        return None
    Path(folder).mkdir(parents=True, exist_ok=True)
    path = Path(folder) / name
    if element is not None:
        element.screenshot(path=str(path))
    else:
        page.screenshot(path=str(path), full_page=True)
    return path


#: OVERFLOW_JS over many pages in one go: each page loads in a `width`-px iframe of the host
#: page (same origin: the site is served over http), `batch` at a time, and the pages where
#: something is wider than the frame come back with what it is. One browser page for thousands
#: of site pages: about 50 ms a page on a busy 2-core machine, against 80-140 ms a navigation.
FRAMES_JS = """async ([urls, width, batch]) => {
  const check = (doc) => {
    const w = doc.documentElement.clientWidth;
    const out = [];
    if (doc.documentElement.scrollWidth > w) out.push('page ' + doc.documentElement.scrollWidth);
    for (const e of doc.querySelectorAll('main *')) {
      const r = e.getBoundingClientRect();
      if (r.width && r.right > w + 0.5) out.push(e.tagName + '.' + e.className + ' ' + Math.round(r.right));
      if (e.scrollWidth > e.clientWidth + 1 && doc.defaultView.getComputedStyle(e).overflowX !== 'visible')
        out.push('scrolls: ' + e.tagName + '.' + e.className);
      if (out.length >= 5) break;
    }
    return out;
  };
  const bad = {};
  const one = (url) => new Promise((resolve) => {
    const f = document.createElement('iframe');
    f.style.width = width + 'px'; f.style.height = '844px'; f.style.border = '0';
    f.onload = () => {
      const out = f.contentDocument ? check(f.contentDocument) : ['not loaded'];
      if (out.length) bad[url] = out;
      f.remove(); resolve();
    };
    f.src = url; document.body.appendChild(f);
  });
  for (let i = 0; i < urls.length; i += batch) await Promise.all(urls.slice(i, i + batch).map(one));
  return bad;
}"""


def sideways_pages(
    browser, site: Path, width: int = PHONE, batch: int = 8, pages: list[str] | None = None
) -> dict[str, list[str]]:
    """Every page of the static site at `site` (or only `pages`, paths relative to it) opened
    `width` px wide: page -> what scrolls sideways on it (an empty dict when nothing does)."""
    import contextlib
    import functools
    import http.server
    import threading

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:  # the test's output stays the test's
            pass

        def handle(self) -> None:  # a frame removed mid-request is not an error
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                super().handle()

    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))  # fmt: skip
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    if pages is None:
        pages = sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html"))
    try:
        host = browser.new_page(viewport={"width": 1280, "height": 900})
        host.goto(base + pages[0])
        host.evaluate("() => { document.body.innerHTML = ''; }")
        bad = host.evaluate(FRAMES_JS, [[base + p for p in pages], width, batch])
        host.close()
    finally:
        server.shutdown()
    return {url.removeprefix(base): out for url, out in bad.items()}


def number(text: str) -> float | None:
    """A number as a page prints it; None for an empty cell."""
    t = text.strip().replace("−", "-")
    return float(t) if t else None


def board_pages(path: Path) -> list[Path]:
    return sorted(path.with_suffix("").glob("board-*.html"))
