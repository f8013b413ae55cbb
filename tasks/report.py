"""Transitional: `audit_tables` moved to `stages.audit` (the clean stage); the regression
thresholds to `stages.regression`, the player table to `publish.artifacts`."""

from __future__ import annotations

from stages.audit import audit_tables  # noqa: F401 - moved to the clean stage
