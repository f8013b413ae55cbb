"""Transitional: the run settings live in `stages/settings.py` (one model for CLI, flows and
deployments)."""

from stages.settings import (  # noqa: F401
    RANKINGS_CSV,
    REPO_ROOT,
    SAMPLE_DIR,
    PipelineSettings,
    load_settings,
)
