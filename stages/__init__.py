"""One entry point per pipeline stage: plain functions over a `Store` and the run's settings.

The Prefect tasks in `tasks/` are thin wrappers around these; the CLI and the flows reach a stage
only through its task, so what a user runs and what a deployment runs are the same code.
"""
