"""`ddrank run`'s options, made from the run settings model: one field, one flag.

The settings model (`stages/settings.py`) is what a flow and a deployment take as parameters.
Building the command's options from it means every option a stage offers is on `ddrank run` and
on a deployment alike, with the same name, default and help, and none can be forgotten.
"""

from __future__ import annotations

import inspect
import types
import typing
from typing import Annotated, Any, Literal

import typer
from pydantic.fields import FieldInfo

from stages.settings import PipelineSettings

#: Help panel of each settings field; a field not listed shows under "Run".
PANELS: dict[str, str] = {
    "db": "Files", "out": "Files", "inbox": "Files", "rankings": "Files", "aliases": "Files",
    "workers": "Execution", "dds_threads": "Execution", "runner": "Execution",
    "dask_address": "Execution", "partition_size": "Execution", "force": "Execution",
    "response": "Regression", "variables": "Regression", "min_claims": "Regression",
    "min_leads": "Regression", "min_cards_declarer": "Regression",
    "min_cards_defender": "Regression", "min_auctions": "Regression", "vif_limit": "Regression",
}  # fmt: skip
PANEL_BY_PREFIX = (("mp_", "Scoring"), ("cross_imps", "Scoring"), ("butler", "Scoring"),
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


def _flag_type(annotation: Any) -> Any | None:
    """The type a flag can carry (a scalar, or a Literal's choices); None for anything else."""
    args = typing.get_args(annotation)
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        return _flag_type(inner[0]) if len(inner) == 1 else None
    if typing.get_origin(annotation) is Literal:
        return annotation
    return annotation if annotation in (str, int, float, bool) else None


def _default_text(name: str, field: FieldInfo) -> str:
    if name in ("workers",):
        return "the number of CPUs"
    default = field.get_default(call_default_factory=True)
    return "" if default is None else str(default)


def settings_parameters(
    model: type[PipelineSettings] = PipelineSettings,
) -> list[inspect.Parameter]:
    """One keyword parameter (a typer option, default None = "the settings' value") per field."""
    params = []
    for name, field in model.model_fields.items():
        kind = _flag_type(field.annotation)
        if name in NOT_FLAGS or kind is None:
            continue
        flag = "--" + name.replace("_", "-")
        decls = [f"{flag}/--no-{flag[2:]}"] if kind is bool else [flag]
        help_text = (field.description or name.replace("_", " ")).replace("[", "\\[")
        if default := _default_text(name, field):
            help_text += f" Default: {default}."
        option = typer.Option(*decls, help=help_text, rich_help_panel=panel(name),
                              show_default=False)  # fmt: skip
        params.append(inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None,
                                        annotation=Annotated[kind | None, option]))  # fmt: skip
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
