"""The two ways a value is refused: not a real bridge object, or a cleaning rule that failed."""

from __future__ import annotations


class DomainError(ValueError):
    """A value that cannot describe a real bridge object (bad card, 14-card hand, ...)."""


class Reject(Exception):
    """A rule failed; `reason` is a key of one of the reason tables of
    `ddrank.cleaning.reasons`."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail
