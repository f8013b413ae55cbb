"""Transitional: progress reporting moved to `stages/progress.py` (it defines no task)."""

from stages.progress import Progress, report, reporting, stage

__all__ = ["Progress", "report", "reporting", "stage"]
