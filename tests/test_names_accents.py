"""The bundled WBF ranking list keeps its accents (issue 29).

The list came from the paper's outputs, whose scrape of the WBF site had turned every accented
letter into a space ("J r me Rombaut", "Herv  Mouiel"); name matching then renamed correctly spelt
players to those forms. The 17 damaged names are restored letter for letter.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ddrank.names import FuzzyMatcher, parse_rankings
from ddrank.names.tokens import parse_entry
from stages.names import load_rankings

ROOT = Path(__file__).resolve().parent.parent
RANKINGS_CSV = ROOT / "ddrank" / "data" / "rankings" / "wbf-open-rankings.csv"
PAPER = ROOT / "data" / "paper" / "dds_final_results.csv"

RESTORED = {  # the paper's damaged form -> the name as the player writes it
    "Herv  Mouiel": "Hervé Mouiel", "M rten Gustawsson": "Mårten Gustawsson",
    "V ronique Bessis": "Véronique Bessis", "Dani le Avon": "Danièle Avon",
    "Mikl s Dumbovich": "Miklós Dumbovich", "Ir ne Saesseli": "Irène Saesseli",
    "J r me Grenthe": "Jérôme Grenthe", "Jos  Ignacio Torres": "José Ignacio Torres",
    "J r me Rombaut": "Jérôme Rombaut", "B n dicte Cronier": "Bénédicte Cronier",
    "Dani le Gaviard": "Danièle Gaviard",
    "Val rie Carcassonne (Labaere)": "Valérie Carcassonne (Labaere)",
    "Jean-Fran ois Allix": "Jean-François Allix", "Jo o Silva Neto": "João Silva Neto",
    "Ren  Hermans": "René Hermans", "J r mie Tignel": "Jérémie Tignel",
    "Paul O Hara": "Paul O'Hara",
}  # fmt: skip


@pytest.fixture(scope="module")
def entries():  # noqa: ANN201
    return load_rankings(RANKINGS_CSV)


def test_the_bundled_list_is_utf8_and_keeps_every_accent(entries) -> None:  # noqa: ANN001
    text = RANKINGS_CSV.read_bytes().decode("utf-8")  # raises if it is not UTF-8
    names = {e.name for e in entries}
    assert set(RESTORED.values()) <= names
    assert not set(RESTORED) & names
    assert "Jérôme Rombaut,772.0,4.5" in text and "Miklós Dumbovich,218.0,1.0" in text


def test_no_entry_has_a_lost_letter(entries) -> None:  # noqa: ANN001
    """The names module reads a space inside a word ("J r me") or a double space ("Herv  ") as a
    lost letter (a one-letter wildcard `?` in the entry's keys): no bundled entry has one."""
    damaged = [e.name for e in entries
               if any("?" in k.key for k in parse_entry(e).surnames)
               or any("?" in g for g in parse_entry(e).given)]  # fmt: skip
    assert damaged == []
    # the detector itself still sees the damage in a list that has it (a user's own list)
    (bad,) = parse_rankings("name,masterpoints,placing_points\nJ r me Rombaut,772.0,4.5\n")
    assert any("?" in g for g in parse_entry(bad).given)


def test_restored_letters_are_the_ones_the_paper_lost() -> None:
    """Each restored name is the damaged one with each space-for-a-letter filled, and the paper's
    outputs (which keep the damage: they are what the paper published) hold the damaged form with
    the same points."""
    paper = {line.split(",")[0]: line.split(",")[1:3] for line in PAPER.read_text().splitlines()}
    listed = {line.rsplit(",", 2)[0]: line.rsplit(",", 2)[1:]
              for line in RANKINGS_CSV.read_text(encoding="utf-8").splitlines()}  # fmt: skip
    for damaged, name in RESTORED.items():
        assert len(name) == len(damaged)
        assert all(a == b or a == " " for a, b in zip(damaged, name, strict=True)), name
        assert paper[damaged] == listed[name], name


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("Jerome Rombaut#20899", "Jérôme Rombaut"),  # 2021 qualifier: the record lost them
        ("Miklos Dumbovich#34233", "Miklós Dumbovich"),
        ("CRONIER Benedicte", "Bénédicte Cronier"),  # Valet 2013
        ("Jérôme Rombaut", "Jérôme Rombaut"),  # a record that kept them keeps them
        ("Herve Mouiel", "Hervé Mouiel"),
    ],
)
def test_matching_renames_to_the_accented_name(entries, raw: str, expected: str) -> None:  # noqa: ANN001
    assert FuzzyMatcher(entries).match(raw).ranking_name == expected
