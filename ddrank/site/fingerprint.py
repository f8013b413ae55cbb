"""Content fingerprints of the site's pages, so a rebuild renders only what changed.

A page is rendered from its inputs (an event's results, boards, rankings and scorecards; a
player's numbers; the flags every page shows) and from the site's code and templates. The
fingerprint is a hash of the `repr` of those inputs (plain rows, dataclasses; sets passed sorted),
so the same inputs give the same fingerprint in any process; an object whose `repr` does not show
its content (it names its address) gives a new fingerprint every time: an input the fingerprint
cannot read makes the page render again, never go stale.
"""

from __future__ import annotations

import hashlib
import re
import uuid
from functools import cache
from importlib import resources
from typing import Any

#: What the `repr` of an object without a content `repr` holds (`<Foo object at 0x7f...>`).
_ADDRESS = re.compile(r" at 0x[0-9a-f]+>")


def fingerprint(*parts: Any) -> str:
    """The hash of the `repr` of `parts` (plain values, lists, dicts in a fixed order,
    dataclasses): C-speed. The caller passes sets sorted. A part whose `repr` names an object's
    address gets a fingerprint of its own every time: the page is rendered again."""
    text = repr(parts)
    if _ADDRESS.search(text):
        return "unique-" + uuid.uuid4().hex
    return hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()


@cache
def code_version() -> str:
    """A hash of the site's code and templates: a new version of either renders every page."""
    h = hashlib.sha1()
    root = resources.files("ddrank.site")
    stack = [root]
    files = []
    while stack:
        for entry in stack.pop().iterdir():
            if entry.is_dir():
                if entry.name != "__pycache__":
                    stack.append(entry)
            elif entry.name.endswith((".py", ".html", ".css", ".js")):
                files.append(entry)
    for entry in sorted(files, key=lambda e: str(e)):
        h.update(str(entry).encode())
        h.update(entry.read_bytes())
    return h.hexdigest()
