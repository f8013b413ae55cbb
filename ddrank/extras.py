"""Optional dependencies: the extras of pyproject.toml and a one-line message when one is missing.

The core install carries what `ddrank run` needs. The learned DD estimator (`[estimator]`:
LightGBM, scikit-learn) and the Dask runner (`[dask]`) are extras; code that needs one imports it
through `require`, which stops the command with the line to run instead of a traceback.
"""

from __future__ import annotations

import importlib
from types import ModuleType

#: Which extra installs each optional module.
EXTRA_OF: dict[str, str] = {
    "lightgbm": "estimator",
    "sklearn": "estimator",
    "joblib": "estimator",
    "dask": "dask",
    "distributed": "dask",
    "prefect_dask": "dask",
}


class MissingExtra(SystemExit):
    """An optional dependency is not installed. A SystemExit, so that the command (or a flow
    run, which re-raises it) ends with this one line on stderr, never with a traceback; the
    `ddrank` command exits 2 (bad input: an install to complete)."""

    def __init__(self, module: str, extra: str) -> None:
        self.module, self.extra = module, extra
        super().__init__(
            f"error: {module} is not installed; it comes with the [{extra}] extra: "
            f"pip install 'ddrank[{extra}]'"
        )


def require(module: str, extra: str | None = None) -> ModuleType:
    """`import module`, or stop with the `pip install 'ddrank[extra]'` line that provides it."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        top = module.partition(".")[0]
        if exc.name is not None and exc.name.partition(".")[0] != top or top not in EXTRA_OF:
            raise  # the module is there but something it imports is broken: show that
        raise MissingExtra(module, extra or EXTRA_OF[top]) from None
