"""Each output gets the encoding its reader needs (issue 32, findings 2, 6 and 9).

The hostile file is the bundled vugraph LIN with its players renamed `=1+2`, `+x`, `-y`, `@z`
and `<img src=x onerror=alert(1)>`, its team `Fleisher` followed by that tag too, and its team
`Nickell` wrapped in escape sequences: OSC 0 (window title), OSC 52 (clipboard), CSI 2J (clear
screen) and an 8-bit CSI. `ddrank results`
scores it; then
* every CSV is read back as a spreadsheet program would (`csv`, then the first character of each
  cell): no cell starts a formula, and numbers keep their numeric form;
* the terminal output and the CSVs carry no control character;
* report.md and the Prefect rankings artifact show the HTML as text.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest
from hostile import LIN, ddrank

from publish.encoding import csv_cell, markdown_text, terminal_text
from publish.tables import write_csv

FORMULAS = ("=1+2", "+x", "-y", "@z")
HTML_NAME = "<img src=x onerror=alert(1)>"
ESCAPES = "Nick\x1b]0;pwned\x1b\\ell\x1b]52;c;cm0gLXJmIC8K\x1b\\\x1b[2J\u009b31m"
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # all but tab and line feed


@pytest.fixture(scope="module")
def scored(tmp_path_factory: pytest.TempPathFactory):
    tmp = tmp_path_factory.mktemp("encoding")
    text = LIN.read_text()
    for real, hostile in zip(("Meckstroth", "Levin", "Rodwell", "Weinstein", "Stansby"),
                             (*FORMULAS, HTML_NAME), strict=True):  # fmt: skip
        text = text.replace(real, hostile)
    hostile_file = tmp / "hostile.lin"
    text = text.replace("Fleisher", f"Fleisher{HTML_NAME}")
    hostile_file.write_text(text.replace("Nickell", ESCAPES))
    done = ddrank("results", str(hostile_file), "--out", str(tmp / "out"), cwd=tmp)
    assert done.returncode == 0, done.stdout + done.stderr
    return done, tmp / "out"


def spreadsheet_cells(path: Path) -> list[dict[str, str]]:
    """The rows of a CSV as a spreadsheet program reads them."""
    with path.open(newline="") as fh:
        return list(csv.DictReader(fh))


def starts_a_formula(cell: str) -> bool:
    return cell[:1] in ("=", "+", "-", "@", "\t", "\r") and not re.fullmatch(
        r"[+-]?\d+(\.\d+)?", cell
    )


def test_no_csv_cell_starts_a_formula_and_numbers_stay_numbers(scored) -> None:
    _, out = scored
    csvs = sorted(out.glob("*.csv"))
    assert {p.name for p in csvs} >= {"results.csv", "ranking.csv", "teams.csv", "butler.csv"}
    for path in csvs:
        for row in spreadsheet_cells(path):
            for column, cell in row.items():
                assert not starts_a_formula(cell), (path.name, column, cell)
    results = spreadsheet_cells(out / "results.csv")
    hostile = [r for r in results if "=1+2" in r["ns_players"]]
    assert hostile and {r["ns_players"] for r in hostile} == {"'-y - =1+2"}
    assert {r["ew_players"] for r in hostile} == {"'@z - +x"}
    # the scores are numbers: -420 stays -420, a spreadsheet sums it
    assert {r["ns_score"] for r in results} >= {"-420", "-100", "140"}
    assert all(float(r["ns_score"]) == int(r["ns_score"]) for r in results)
    ranking = spreadsheet_cells(out / "ranking.csv")
    assert [r["pair"] for r in ranking] == [f"Fleisher{HTML_NAME}", "Nickell"]
    assert all(float(r["mp"]) > 0 and r["mp"][0].isdigit() for r in ranking)  # numbers


def test_a_csv_of_formula_names_reads_back_as_text(tmp_path: Path) -> None:
    rows = [{"player": n, "rating": r, "boards": b, "delta": d}
            for n, r, b, d in zip(FORMULAS, (52.5, -1.25, 0.0, 7.0), (30, 31, 32, 33),
                                  ("-3", "+4", "-1+2", "=SUM(A1)"), strict=True)]  # fmt: skip
    path = write_csv(tmp_path / "ratings.csv", rows, ["player", "rating", "boards", "delta"])
    read = spreadsheet_cells(path)
    assert [r["player"] for r in read] == ["'=1+2", "'+x", "'-y", "'@z"]
    assert [r["player"][0] for r in read] == ["'"] * 4
    assert [r["rating"] for r in read] == ["52.5", "-1.25", "0", "7"]  # numbers, not text
    assert [r["boards"] for r in read] == ["30", "31", "32", "33"]
    assert [r["delta"] for r in read] == ["-3", "+4", "'-1+2", "'=SUM(A1)"]


def test_terminal_and_csvs_carry_no_control_characters(scored) -> None:
    done, out = scored
    printed = done.stdout + done.stderr
    assert not CONTROL.search(printed), repr(CONTROL.findall(printed))
    assert "pwned" not in printed and "cm0gLXJmIC8K" not in printed
    assert "Nickell" in done.stdout  # the name itself is still shown
    for path in out.glob("*.csv"):
        text = path.read_text().replace("\r\n", "\n")
        assert not CONTROL.search(text), (path.name, CONTROL.findall(text))
        assert "pwned" not in text


def test_markdown_outputs_show_html_as_text(scored) -> None:
    _, out = scored
    report = (out / "report.md").read_text()
    assert "<img" not in report
    assert "| Fleisher&lt;img src=x onerror=alert(1)&gt; |" in report


def test_the_prefect_rankings_artifact_is_escaped(monkeypatch: pytest.MonkeyPatch) -> None:
    from flows import scoring

    made: list[str] = []
    monkeypatch.setattr(scoring, "create_markdown_artifact",
                        lambda key, markdown, description: made.append(markdown))  # fmt: skip
    line = {
        "rank": 1,
        "direction": "NS",
        "pair": "[x](javascript:alert(1))",
        "players": HTML_NAME,
        "boards": 3,
        "score": 1.0,
        "pct": 50.0,
        "place": "1",  # as stages.scoring.top_lines gives a line: also as its scorer prints it
        "score_text": "1.00",
        "pct_text": "50.00",
    }
    scoring._publish({"top": [{"event": "E|vent <b>", "scoring": "MP", "lines": [line]}]})
    assert len(made) == 1
    assert "<img" not in made[0] and "<b>" not in made[0]
    assert not re.search(r"(?<!\\)\]\(", made[0])  # no link can form: every ] is escaped
    assert "| \\[x\\](javascript:alert(1)) |" in made[0]
    assert "## E\\|vent &lt;b&gt;" in made[0]


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("Team\x1b]0;title\x07", "Team"),  # OSC 0 ended by BEL
        ("A\x1b]52;c;Zm9v\x1b\\B", "AB"),  # OSC 52 ended by ST
        ("A\x1b[2J\x1b[HB", "AB"),  # clear screen, cursor home
        ("A\u009b31mB\u009d0;t\u009cC", "ABC"),  # 8-bit CSI and OSC
        ("A\x00\x08\x7fB\tC\nD", "AB\tC\nD"),  # C0 and DEL dropped, tab and line feed kept
        ("Smith - Jones", "Smith - Jones"),
    ],
)
def test_terminal_text(raw: str, shown: str) -> None:
    assert terminal_text(raw) == shown


def test_csv_cell_and_markdown_text_rules() -> None:
    assert csv_cell(" =1+2") == "' =1+2"  # Excel skips the leading spaces
    assert csv_cell("\t1") == "' 1" and csv_cell("\r1") == "' 1"
    assert csv_cell("-12.5") == "-12.5" and csv_cell("1e-3") == "1e-3"
    assert csv_cell(-3) == -3 and csv_cell(2.5) == 2.5 and csv_cell("") == ""
    assert markdown_text("- item") == "\\- item" and markdown_text("1. first") == "1\\. first"
    assert markdown_text("**b** `c` ![i](x)") == "\\*\\*b\\*\\* \\`c\\` !\\[i\\](x)"
    assert markdown_text("# title") == "\\# title" and markdown_text("a (b) #3") == "a (b) #3"
