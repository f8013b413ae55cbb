"""`ddrank run`'s options, made from the run settings model: one field, one flag.

The settings model (`stages/settings.py`) is what a flow and a deployment take as parameters.
Building the command's options from it means every option a stage offers is on `ddrank run` and
on a deployment alike, with the same name, default and help, and none can be forgotten.
"""

from __future__ import annotations

import inspect
import pprint
import types
import typing
from pathlib import Path
from typing import Annotated, Any, Literal

import typer

#: Help panel of each settings field; a field not listed shows under "Run".
PANELS: dict[str, str] = {
    "db": "Files", "out": "Files", "inbox": "Files", "rankings": "Files", "aliases": "Files",
    "workers": "Execution", "dds_threads": "Execution", "runner": "Execution",
    "dask_address": "Execution", "partition_size": "Execution", "force": "Execution",
    "response": "Regression", "variables": "Regression", "min_claims": "Regression",
    "min_leads": "Regression", "min_cards_declarer": "Regression",
    "min_cards_defender": "Regression", "min_auctions": "Regression", "vif_limit": "Regression",
}  # fmt: skip
PANEL_BY_PREFIX = (("max_", "Input limits"), ("mp_", "Scoring"), ("cross_imps", "Scoring"), ("butler", "Scoring"),
                   ("lehman", "Ratings"), ("skill", "Ratings"), ("min_boards", "Ratings"),
                   ("names", "Names"), ("table_batch", "Double dummy"),
                   ("trace_batch", "Double dummy"), ("refresh_cache", "Double dummy"),
                   ("forward_", "Regression"), ("backward_", "Regression"),
                   ("stepwise_", "Regression"), ("significance", "Regression"),
                   ("log_response", "Regression"), ("cv_", "Regression"))  # fmt: skip
#: Fields that are not flags: `inputs` is the command's argument.
NOT_FLAGS = frozenset({"inputs"})


def panel(name: str) -> str:
    if name in PANELS:
        return PANELS[name]
    return next((p for prefix, p in PANEL_BY_PREFIX if name.startswith(prefix)), "Run")


def _flag_kind(annotation: Any) -> str | list[str] | None:
    """What a flag carries: "str", "int", "float", "bool", a Literal's choices, or None (no flag)."""
    args = typing.get_args(annotation)
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        return _flag_kind(inner[0]) if len(inner) == 1 else None
    if typing.get_origin(annotation) is Literal:
        return [str(a) for a in args]
    return annotation.__name__ if annotation in (str, int, float, bool) else None


def _default_text(name: str, field: Any) -> str:
    if name in ("workers",):
        return "the number of CPUs"
    from ddrank.data import BUNDLED_DIR

    default = field.get_default(call_default_factory=True)
    if default is None:
        return ""
    # a file shipped with the package is shown by its place in the package, not this machine's
    text, root = str(default), str(BUNDLED_DIR)
    if text.startswith(root):
        return f"ddrank/data{text[len(root) :]}, shipped with the package"
    return text


def settings_flags(model: Any = None) -> list[dict[str, Any]]:
    """The run settings as flag descriptions (name, kind, help, panel), read from the model."""
    if model is None:
        from stages.settings import PipelineSettings as model
    flags = []
    for name, field in model.model_fields.items():
        kind = _flag_kind(field.annotation)
        if name in NOT_FLAGS or kind is None:
            continue
        help_text = field.description or name.replace("_", " ")
        if default := _default_text(name, field):
            help_text += f" Default: {default}."
        flags.append({"name": name, "kind": kind, "help": help_text, "panel": panel(name)})
    return flags


_KINDS: dict[str, Any] = {"str": str, "int": int, "float": float, "bool": bool}


def settings_parameters() -> list[inspect.Parameter]:
    """One keyword parameter (a typer option, default None = "the settings' value") per field.

    Built from `cli/run_flags.py`, the settings' flags written out, so that `ddrank --help` does
    not import pydantic; `tests/test_run_settings.py` fails when that file and the model differ
    (regenerate it with `python -m cli.run_options`).
    """
    from cli.run_flags import FLAGS

    params = []
    for flag in FLAGS:
        name, kind = flag["name"], flag["kind"]
        opt = "--" + name.replace("_", "-")
        decls = [f"{opt}/--no-{opt[2:]}"] if kind == "bool" else [opt]
        typ = Literal[tuple(kind)] if isinstance(kind, list) else _KINDS[kind]  # type: ignore[valid-type]
        option = typer.Option(*decls, help=flag["help"].replace("[", "\\["),
                              rich_help_panel=flag["panel"], show_default=False)  # fmt: skip
        params.append(inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None,
                                        annotation=Annotated[typ | None, option]))  # fmt: skip
    return params


def with_settings_options(func: Any) -> Any:
    """Give `func(**kw)` the settings fields as options after its own parameters."""
    own = [p for p in inspect.signature(func, eval_str=True).parameters.values()
           if p.kind is not inspect.Parameter.VAR_KEYWORD]  # fmt: skip
    taken = {p.name for p in own}
    func.__signature__ = inspect.Signature(
        own + [p for p in settings_parameters() if p.name not in taken]
    )
    return func


def write_flags(path: Path = Path(__file__).with_name("run_flags.py")) -> Path:
    """Write the settings' flags to `cli/run_flags.py` (run after changing the settings model)."""
    body = pprint.pformat(settings_flags(), width=96, sort_dicts=False)
    path.write_text(
        '"""The run settings\' flags, written by `python -m cli.run_options` from\n'
        'stages/settings.py (tests/test_run_settings.py checks they agree). Do not edit."""\n\n'
        f"FLAGS = {body}\n"
    )
    return path


if __name__ == "__main__":
    print(f"wrote {write_flags()}")
