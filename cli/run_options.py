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

#: The help panels, in the order `--help` shows them: what a director needs first (the inputs,
#: --out, the scoring method, what to publish), then the analysis, then the paper's regression,
#: then the expert settings. `ddrank results --help | head -40` shows every director option.
DIRECTOR = "For directors: output, scoring method, what to publish"
ANALYSIS = "Analysis: names and ratings"
REGRESSION = "The paper's regression"
EXPERT_RUN = "Expert: store, files and execution"
EXPERT_DD = "Expert: double-dummy solver"
EXPERT_LEHMAN = "Expert: Lehman rating settings"
EXPERT_LIMITS = "Expert: input limits"
PANEL_ORDER = (DIRECTOR, ANALYSIS, REGRESSION, EXPERT_RUN, EXPERT_DD, EXPERT_LEHMAN,
               EXPERT_LIMITS)  # fmt: skip
#: Help panel of each settings field; a field not listed (nor matched by a prefix below) shows
#: under the expert settings.
PANELS: dict[str, str] = {
    "out": DIRECTOR, "mp_method": DIRECTOR, "mp_top": DIRECTOR, "double_dummy": DIRECTOR,
    "ratings": DIRECTOR, "force": DIRECTOR,
    "names_scope": ANALYSIS, "names_strategy": ANALYSIS, "rankings": ANALYSIS,
    "aliases": ANALYSIS, "min_boards": ANALYSIS, "lehman_scale": ANALYSIS,
    "cross_imps_divide_by": ANALYSIS, "butler_drop_count": ANALYSIS,
    "butler_drop_percent": ANALYSIS,
    "db": EXPERT_RUN, "inbox": EXPERT_RUN, "workers": EXPERT_RUN, "dds_threads": EXPERT_RUN,
    "runner": EXPERT_RUN, "dask_address": EXPERT_RUN, "partition_size": EXPERT_RUN,
    "regression": REGRESSION,
}  # fmt: skip
PANEL_BY_PREFIX = (("max_", EXPERT_LIMITS), ("lehman", EXPERT_LEHMAN), ("skill", ANALYSIS),
                   ("table_batch", EXPERT_DD), ("trace_batch", EXPERT_DD),
                   ("refresh_cache", EXPERT_DD), ("response", REGRESSION),
                   ("variables", REGRESSION), ("min_", REGRESSION), ("vif_", REGRESSION),
                   ("forward_", REGRESSION), ("backward_", REGRESSION),
                   ("stepwise_", REGRESSION), ("significance", REGRESSION),
                   ("log_response", REGRESSION), ("cv_", REGRESSION))  # fmt: skip
#: Fields that are not flags: `inputs` is the command's argument.
NOT_FLAGS = frozenset({"inputs"})


def panel(name: str) -> str:
    if name in PANELS:
        return PANELS[name]
    return next((p for prefix, p in PANEL_BY_PREFIX if name.startswith(prefix)), EXPERT_RUN)


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
    if default is None or default is False:  # an off switch is off unless given
        return ""
    # a file shipped with the package is named, not shown by this machine's path (nor by its
    # place in the package: a long path cannot wrap in an 80-column help)
    text, root = str(default), str(BUNDLED_DIR)
    if text.startswith(root):
        return f"{Path(text).name}, shipped with the package"
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
        flag = {"name": name, "kind": kind, "help": help_text, "panel": panel(name)}
        if kind == "bool" and field.default is False:
            flag["default_on"] = False
        flags.append(flag)
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
        # a switch that is off unless asked is one flag (`--force`): its `--no-` twin would only
        # widen the help's name column
        on_off = kind == "bool" and flag.get("default_on", True)
        decls = [f"{opt}/--no-{opt[2:]}"] if on_off else [opt]
        typ = Literal[tuple(kind)] if isinstance(kind, list) else _KINDS[kind]  # type: ignore[valid-type]
        help_text, metavar = flag["help"], None
        if isinstance(kind, list) and len("|".join(kind)) > 14:  # a short metavar, the choices in
            metavar = "CHOICE"  # the help: a long one would squeeze the option names at 80 columns
            help_text += f" One of: {', '.join(kind)}."
        option = typer.Option(*decls, help=help_text.replace("[", "\\["), metavar=metavar,
                              rich_help_panel=flag["panel"], show_default=False)  # fmt: skip
        params.append(inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None,
                                        annotation=Annotated[typ | None, option]))  # fmt: skip
    return params


#: The director's options, in this order, at the top of their panel.
DIRECTOR_ORDER = ("out", "mp_method", "mp_top", "double_dummy", "ratings", "force", "verbose",
                  "json")  # fmt: skip


def _panel_of(param: inspect.Parameter) -> str | None:
    """The help panel an option was given (None: typer's own "Options"; arguments come first)."""
    for meta in typing.get_args(param.annotation)[1:]:
        if isinstance(meta, typer.models.ArgumentInfo):
            return "Arguments"
        if isinstance(meta, typer.models.OptionInfo):
            return meta.rich_help_panel
    return None


def _help_rank(param: inspect.Parameter) -> tuple[int, int]:
    where = _panel_of(param)
    panel_rank = (-1 if where == "Arguments" else
                  PANEL_ORDER.index(where) if where in PANEL_ORDER else len(PANEL_ORDER))  # fmt: skip
    first = (
        DIRECTOR_ORDER.index(param.name) if param.name in DIRECTOR_ORDER else len(DIRECTOR_ORDER)
    )
    return panel_rank, first


def with_settings_options(func: Any) -> Any:
    """Give `func(**kw)` the settings fields as options after its own parameters, in the help
    panels' order (`PANEL_ORDER`): typer shows the panels in the order their options come."""
    own = [p for p in inspect.signature(func, eval_str=True).parameters.values()
           if p.kind is not inspect.Parameter.VAR_KEYWORD]  # fmt: skip
    taken = {p.name for p in own}
    params = own + [p for p in settings_parameters() if p.name not in taken]
    params = [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in params]
    func.__signature__ = inspect.Signature(sorted(params, key=_help_rank))  # a stable sort
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
