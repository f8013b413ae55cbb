"""What the site's browser tests share: Debian's chromium driven by Playwright (the system
browser only: Playwright never downloads one here), a page that collects console errors, the
phone check, and screenshots for docs/img/ when $DDRANK_SCREENSHOTS is set."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
PHONE = 390  # px: the width a phone's browser shows a page at


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
