"""Adjusted scores as "NS%/EW%", from the ways results files write them."""

from __future__ import annotations

import pytest

from ddrank.parsers.adjusted import adjusted_split


@pytest.mark.parametrize(
    ("text", "split"),
    [
        ("A5050", "50/50"),  # USEBIO <SCORE>A5050</SCORE> (Welwyn board 21)
        ("A6040", "60/40"),
        ("A4060", "40/60"),
        ("A+", "60/40"),  # one mark is North-South's; East-West get the complement
        ("A-", "40/60"),
        ("A=", "50/50"),
        ("A", "50/50"),
        ("AVE+", "60/40"),
        ("A+/A+", "60/60"),  # two marks: each side its own
        ("A-/A-", "40/40"),
        ("60/40", "60/40"),
        ("60%-40%", "60/40"),
        ("50.5/49.5", "50.5/49.5"),
    ],
)
def test_adjusted_forms(text: str, split: str) -> None:
    assert adjusted_split(text) == split


@pytest.mark.parametrize("text", ["", "420", "-50", "4S=", "3NT", "PASS", "A7", "150/200"])
def test_scores_and_contracts_are_not_adjusted(text: str) -> None:
    assert adjusted_split(text) == ""
