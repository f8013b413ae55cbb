"""Transitional: par moved to `stages/dd.py` (`compute_par(store)`; its task is `tasks.dd.par_task`).

Prefect-free, as before, for callers that still hold a raw connection (tasks/site.py).
"""

from __future__ import annotations

from typing import Any


def compute_par(con: Any) -> int:
    """Par of every dealt deal with a DD table and no par yet, on a `Store` or a connection."""
    from stages.dd import compute_par as par_of_store
    from store import Store

    return par_of_store(con if isinstance(con, Store) else Store(con=con))
