"""Checks in bounded work (issue 40): the unmarked-artificial-score proof rescored every 1- and
2-line combination of a board's disagreeing lines (n^2 rescorings of n lines: a board of 240
lines took 94 s, one of 255 tables 7 min). It now tries at most `MAX_SINGLES` lines alone and
pairs of the `MAX_PAIRED` furthest from ours, whatever the board's size: counted here, not timed.
The board is GENERATED (240 lines, every published value one matchpoint off ours); the proof
still finds an unmarked artificial score when there is one (tests/test_published_scores.py and
the conformance harness on real files)."""

from __future__ import annotations

from types import SimpleNamespace

from ddrank.scoring.arithmetic.matchpoints import matchpoints
from ddrank.scoring.verification import proofs


def line(k: int, score: int, ours: float, published: float) -> SimpleNamespace:
    result = SimpleNamespace(record_id=f"r{k}", adjusted=None, ns_score=score, ns_pair=str(k),
                             published_ns_mp=published, published_ew_mp=None)  # fmt: skip
    return SimpleNamespace(result=result, printed=None, ns_mp=ours, ew_mp=None, field_size=240)


def test_a_board_of_240_disagreeing_lines_is_rescored_a_bounded_number_of_times() -> None:
    scores = [(k * 37) % 500 - 250 for k in range(240)]  # GENERATED
    ours = matchpoints(scores)
    lines = [line(k, s, m, m + 1) for k, (s, m) in enumerate(zip(scores, ours, strict=True))]
    calls = []

    def rescore(rest, n):
        calls.append(len(rest))
        return [line(0, 0, 0.0, 0.0)]  # never agrees: every combination allowed is tried

    assert proofs._unmarked(lines, lines, 0, rescore) == {}
    singles, pairs = proofs.MAX_SINGLES, proofs.MAX_PAIRED * (proofs.MAX_PAIRED - 1) // 2
    assert len(calls) == singles + pairs == 27  # was 240 + 28,680
    assert sorted(set(calls)) == [238, 239]


def test_matchpoints_on_sorted_scores_are_the_pairwise_count() -> None:
    scores = [420, 450, 420, -50, 140, 420, -100, 450]
    pairwise = [float(sum(2 if s > o else 1 if s == o else 0 for o in scores) - 1) for s in scores]
    assert matchpoints(scores) == pairwise == [8.0, 13.0, 8.0, 2.0, 4.0, 8.0, 0.0, 13.0]
