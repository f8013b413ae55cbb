"""What a command may print on stdout besides its results (tests/test_cli_output.py,
tests/test_cli_messages.py)."""

from __future__ import annotations

import re

#: `ddrank run`'s start-up line: checking the inputs says so when it takes more than a moment.
START_UP = re.compile(r"^\d\d:\d\d:\d\d check the inputs \(what is new\): "
                      r"(started|still under way, [\d.]+ s|done, [\d.]+ s)$")  # fmt: skip


def only_start_up_lines(stdout: str) -> bool:
    """Nothing on stdout but `ddrank run`'s start-up progress (it talks from its first second,
    so on a busy machine a missing input may come after "check the inputs: started")."""
    return all(START_UP.match(line) for line in stdout.splitlines())


def without_start_up_lines(stdout: str) -> list[str]:
    """The lines of `stdout` but the start-up's progress lines."""
    return [line for line in stdout.splitlines() if not START_UP.match(line)]
