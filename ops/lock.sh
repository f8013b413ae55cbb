#!/usr/bin/env bash
# Write requirements.lock from pyproject.toml: one universal lock (Python 3.11 to 3.13, every
# platform, every extra) of the versions CI tests. Installs take it as constraints, so each
# installs only what it asks for, at the locked versions:
#   uv pip install -p .venv -c requirements.lock --compile-bytecode -e '.[dev]'  # README command 2, .ci/run
#   uv pip install -p .venv -c requirements.lock --compile-bytecode .  # README command 1
#   pip install -c requirements.lock .                        # the Docker image
#
#   ops/lock.sh              # after editing pyproject.toml's dependencies: keep every other pin
#   ops/lock.sh --upgrade    # move every package to the newest release pyproject.toml allows
#   ops/lock.sh --upgrade-package polars   # just one
# Then run the tests and `python ops/check-wheels.py`, and commit the lock with the change.
# Needs uv (`pip install uv`).
set -euo pipefail
cd "$(dirname "$0")/.."
uv=$(command -v uv || echo .venv/bin/uv)
"$uv" pip compile --quiet pyproject.toml --universal --python-version 3.11 --all-extras \
  --output-file requirements.lock "$@"
