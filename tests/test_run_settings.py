"""One settings model: every option of a stage command is an option of `ddrank run` and a field
of the settings a flow or a deployment takes, with the same default."""

from __future__ import annotations

from typing import Any

import pytest
import typer

from cli.main import app
from stages.settings import PipelineSettings

#: Options that belong to one command's own input or output, not to a pipeline setting.
COMMAND_ONLY = {
    "help", "json", "out", "csv_path", "db", "valet", "event", "flow", "via_flow", "as_json", "input",
    "inputs", "files", "paths", "verbose", "config", "name", "names", "limit", "query", "top",
    "strategy_compare", "review", "sample", "rankings_only", "model", "models_dir", "cache_dir",
    # one run of a command: which DD partitions, which store table or CSV the regression reads,
    # which variables it forces into the final model
    "partitions", "table", "input_path", "final_variable",
}  # fmt: skip
#: The stage commands whose options `ddrank run` must offer.
STAGE_COMMANDS = ("ingest", "clean", "match-names", "dd", "regress", "score", "split", "lehman",
                  "rate")  # fmt: skip


def _command(name: str) -> Any:
    return typer.main.get_command(app).commands[name]  # type: ignore[attr-defined]


def _options(cmd: Any) -> dict[str, Any]:
    """A command's options by parameter name (typer's click, whichever package provides it)."""
    return {p.name: p for p in cmd.params if p.param_type_name == "option" and p.name}


def test_every_settings_field_is_a_run_option() -> None:
    run = _options(_command("run"))
    scalar = {n for n, f in PipelineSettings.model_fields.items() if n != "inputs"
              and f.annotation in (str, int, float, bool, str | None, int | None, float | None)}  # fmt: skip
    assert scalar <= set(run), sorted(scalar - set(run))


@pytest.mark.parametrize("command", STAGE_COMMANDS)
def test_stage_options_are_run_options_and_settings_fields(command: str) -> None:
    run = _options(_command("run"))
    own = {n for n in _options(_command(command)) if n not in COMMAND_ONLY}
    assert own <= set(run), f"{command} options missing from `ddrank run`: {sorted(own - set(run))}"
    fields = PipelineSettings.model_fields
    assert own <= set(fields), f"{command} options that are no setting: {sorted(own - set(fields))}"


@pytest.mark.parametrize("command", STAGE_COMMANDS)
def test_stage_defaults_are_the_settings_defaults(command: str) -> None:
    """A stage command's default is the settings' default, so `run` and the stage agree."""
    fields = PipelineSettings.model_fields
    differ = {}
    for name, opt in _options(_command(command)).items():
        if name in COMMAND_ONLY or name not in fields or opt.default is None:
            continue
        default = fields[name].get_default(call_default_factory=True)
        value = getattr(opt.default, "value", opt.default)
        if default is not None and value != default and str(value) != str(default):
            differ[name] = (value, default)
    assert not differ, f"{command}: (command default, settings default) {differ}"


def test_the_written_flags_are_the_settings_flags() -> None:
    """`cli/run_flags.py` (read by `ddrank --help`, which must not import pydantic) is the model."""
    from cli.run_flags import FLAGS
    from cli.run_options import settings_flags

    assert settings_flags() == FLAGS, "settings changed: run `python -m cli.run_options`"
