"""Valet layout parser on the real Bermuda Bowl 2013 files, and per-record errors on bad input."""

from __future__ import annotations

from pathlib import Path

import pytest

from ddrank.scoring.intake.results import RecordError, group_boards
from ddrank.scoring.tournament import score_field
from ddrank.types import Seat, Strain
from ddrank.valet import parse_hands, parse_names, parse_scores, round_of_hands_file, table_results

VALET = Path(__file__).resolve().parent.parent / "data" / "valet"
MEN = VALET / "2013-world-men"
WOMEN = VALET / "2013-world-women"


def test_names_and_scores_of_the_mens_field() -> None:
    names, errors = parse_names((MEN / "names.txt").read_text(), "names.txt")
    assert not errors and len(names) == 128
    assert names["1"] == "ALLFREY Alexander"
    scores, errors = parse_scores((MEN / "scores.txt").read_text(), "scores.txt")
    assert not errors and len(scores) == 7388
    first = scores[0]
    assert (first.round, first.board, first.player_ids) == (1, 1, ("103", "72", "110", "52"))
    assert (first.contract, first.declarer, first.tricks, first.lead) == ("1S", "E", "8", "H5")
    assert sum(1 for s in scores if s.lead is None) == 66  # lines without a lead are valid


def test_hands_give_deal_and_vulnerability() -> None:
    text = (MEN / "hands" / "round1.pbn").read_text()
    hands, errors = parse_hands(text, 1, "round1.pbn")
    assert not errors and len(hands) == 16
    b5 = next(h for h in hands if h.board == 5)
    assert (b5.ns_vulnerable, b5.ew_vulnerable, b5.dealer) == (True, False, Seat.N)
    assert b5.deal.to_pbn().startswith("N:85.A53.KJ932.532 742.T976")
    assert round_of_hands_file("round12.pbn") == 12 and round_of_hands_file("x.pbn") is None


def test_women_without_hands_use_the_board_cycle() -> None:
    names, _ = parse_names((WOMEN / "names.txt").read_text())
    scores, _ = parse_scores((WOMEN / "scores.txt").read_text())
    results, errors = table_results(scores, names)
    assert not errors and len(results) == 7386
    r = next(r for r in results if r.board == "R02B20")  # board 20 = board 4: both vulnerable
    assert (r.ns_vulnerable, r.ew_vulnerable) == (True, True)
    passed = [r for r in results if r.passed_out]
    assert len(passed) == 9 and all(r.ns_score == 0 for r in passed)
    sample = results[0]
    assert sample.contract is not None and sample.contract.strain == Strain.S
    assert sample.ns_score == -110  # 1S by E making 8, none vulnerable


def _mens_text() -> tuple[str, dict[str, str]]:
    names, _ = parse_names((MEN / "names.txt").read_text())
    return (MEN / "scores.txt").read_text(), names


def with_field(line: str, index: int, value: str) -> str:
    parts = line.split("|")
    parts[index] = value
    return "|".join(parts)


def test_bad_records_are_reported_and_the_rest_is_scored() -> None:
    text, names = _mens_text()
    lines = text.splitlines()
    # Real lines of round 1 board 1, each damaged in one way; line numbers are 1-based.
    bad = {
        3: with_field(lines[2], 8, ""),  # missing result (trick count)
        4: "|".join(lines[3].split("|")[:7]),  # truncated line: no declarer, no result
        5: with_field(lines[4], 6, "8S"),  # impossible contract
        6: with_field(lines[5], 8, "14"),  # impossible trick count
        7: with_field(lines[6], 6, "2Z"),  # impossible denomination
        8: with_field(lines[7], 7, "Q"),  # no such declarer
    }
    damaged = list(lines)
    for no, line in bad.items():
        damaged[no - 1] = line
    damaged.append(lines[0])  # a duplicate table: line 1 typed in again at the end
    damaged.append(with_field(lines[10], 2, "9999"))  # unknown player id
    scores, parse_errors = parse_scores("\n".join(damaged), "scores.txt")
    results, check_errors = table_results(scores, names)
    grouped, dup_errors = group_boards(results)
    errors = parse_errors + check_errors + dup_errors
    by_line = {e.line: str(e) for e in errors}
    assert all(isinstance(e, RecordError) and e.source == "scores.txt" for e in errors)
    assert "missing result" in by_line[3]
    assert "missing result" in by_line[4] and "got 7" in by_line[4]
    assert "impossible contract '8S'" in by_line[5]
    assert "impossible trick count 14" in by_line[6]
    assert "impossible contract '2Z'" in by_line[7]
    assert "no valid declarer ('Q')" in by_line[8]
    n_total = len(damaged)
    assert "duplicate table" in by_line[n_total - 1] and "scores.txt:1" in by_line[n_total - 1]
    assert "unknown player id(s) 9999" in by_line[n_total]
    assert by_line[3].startswith("scores.txt:3: ")  # file and line first, then the reason
    # every other record is still scored
    scored = score_field(grouped)
    assert len(scored) == n_total - len(errors)
    assert len(errors) == len({e.line for e in errors}) >= 8
    assert len(scored) == 7388 - (len(errors) - 2)


def test_names_file_errors() -> None:
    names, errors = parse_names(
        "1|ALLFREY Alexander\n2\n1|SOMEONE Else\n3|  APTEKER   Alon \n", "names.txt"
    )
    assert names == {"1": "ALLFREY Alexander", "3": "APTEKER Alon"}
    assert [(e.line, e.message.split(",")[0]) for e in errors] == [
        (2, "expected 'id|NAME'"),
        (3, "player id 1 repeated ('SOMEONE Else')"),
    ]


def test_bad_hands_are_reported() -> None:
    text = (MEN / "hands" / "round1.pbn").read_text()
    broken = text.replace("N:54.JT93.AQ98.T42", "N:54.JT93.AQ98.T4", 1)  # 12-card North
    hands, errors = parse_hands(broken, 1, "round1.pbn")
    assert len(hands) == 15 and len(errors) == 1
    assert errors[0].line == 1 and "unusable board" in errors[0].message


@pytest.mark.parametrize("dataset", [MEN, WOMEN])
def test_real_fields_have_no_errors_and_no_fouled_boards(dataset: Path) -> None:
    names, _ = parse_names((dataset / "names.txt").read_text())
    scores, _ = parse_scores((dataset / "scores.txt").read_text())
    results, errors = table_results(scores, names)
    grouped, dup = group_boards(results)
    assert not errors and not dup
    assert len(grouped) == 336 and all(len(g) == 1 for g in grouped.values())


def test_cli_scores_a_damaged_valet_dir_and_lists_the_bad_lines(tmp_path: Path) -> None:
    """`ddrank split/score/lehman --valet` keep going past bad lines and name them in errors.csv."""
    import csv
    import shutil

    import typer
    from typer.testing import CliRunner

    from cli.scoring import register

    d = tmp_path / "women"
    shutil.copytree(WOMEN, d)
    lines = (d / "scores.txt").read_text().splitlines()
    lines[9] = with_field(lines[9], 8, "")  # line 10: missing result
    lines[19] = with_field(lines[19], 6, "0H")  # line 20: impossible contract
    lines.append(lines[29])  # duplicate of line 30
    (d / "scores.txt").write_text("\n".join(lines) + "\n")
    app = typer.Typer()
    register(app)
    runner = CliRunner()
    for cmd in ("split", "score", "lehman"):
        result = runner.invoke(app, [cmd, "--valet", str(d), "--out", str(tmp_path / cmd)])
        assert result.exit_code == 0, result.output
        with (tmp_path / cmd / "errors.csv").open() as fh:
            errors = list(csv.DictReader(fh))
        assert [e["line"] for e in errors] == ["10", "20", str(len(lines))]
        assert "missing result" in errors[0]["message"]
        assert "impossible contract '0H'" in errors[1]["message"]
        assert "duplicate table" in errors[2]["message"]
        assert errors[2]["message"].endswith("scores.txt:30")  # names the first copy too
        assert all(e["source"].endswith("scores.txt") for e in errors)
    with (tmp_path / "split" / "players.csv").open() as fh:
        players = list(csv.DictReader(fh))
    assert len(players) >= 120
    assert sum(int(p["boards"]) for p in players) == 4 * (7386 - 2)
    report = (tmp_path / "lehman" / "lehman_report.md").read_text()
    assert "records left out: 3" in report and report.count("\n| 20 |") == 1
    missing = runner.invoke(app, ["split", "--valet", str(tmp_path / "nowhere")])
    assert missing.exit_code == 2 and "not found" in missing.output
