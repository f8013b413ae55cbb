"""Cammarata's split of an IMP comparison into bid, play and the other table's play (2015).

For two tables j, k of one board (North-South's view):

    Butler_jk = IMP(r_j, r_k)                  the real comparison
    Bid_jk    = IMP(e_j, e_k)                  contracts only
    Play_j    = 1/2 IMP(r_j - e_j, e_k) + 1/2 IMP(r_j - e_j, r_k)      (5)
    Play_k    = 1/2 IMP(r_j, r_k - e_k) + 1/2 IMP(e_j, r_k - e_k)      (6)

and Theorem 1 says Butler_jk = Bid_jk + Play_j + Play_k. The expected result e_j is the formal
average of j's contract taking the trick counts of every table in the same denomination with the
same declarer, and IMP is extended bilinearly to such formal sums. IMP depends on a result only
through its North-South score, so a formal sum is held as weights over the board's distinct scores
and IMP(u, v) = u M v^T with M[a, b] = IMP(score_a - score_b).

Per table, averaging over the other tables gives butler = bid + play + luck, where luck is the
other tables' play. Per pair, play splits into declarer play (the pair declared) and defence
(the opponents declared: the negative of their play).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from ddrank.scoring.arithmetic.duplicate import IMP_THRESHOLDS, duplicate_score, imps
from ddrank.scoring.intake.results import TableResult, by_pair_and_player, per_board_row
from ddrank.types import Contract


def imp_matrix(scores: np.ndarray) -> np.ndarray:
    """M[a, b] = IMPs won by score a against score b (WBF table, antisymmetric)."""
    diff = scores[:, None] - scores[None, :]
    n = np.searchsorted(np.asarray(IMP_THRESHOLDS), np.abs(diff), side="right")
    return np.sign(diff) * n


def _ns_score(contract: Contract | None, tricks: int, t: TableResult) -> int:
    """North-South score of `contract` taking `tricks` on table t's board."""
    if contract is None:
        return 0
    assert contract.declarer is not None
    ns = contract.declarer.is_ns
    vul = t.ns_vulnerable if ns else t.ew_vulnerable
    s = duplicate_score(contract, tricks, vul, t.year)
    return s if ns else -s


def _family(t: TableResult) -> tuple[int, int] | None:
    """Tables compared for the expected result: same denomination and same declarer seat."""
    if t.contract is None:
        return None
    assert t.contract.declarer is not None
    return int(t.contract.strain), int(t.contract.declarer)


@dataclass(frozen=True)
class BoardSplit:
    """Every pairwise term of one board (rows j, columns k; North-South's view of table j)."""

    tables: tuple[TableResult, ...]
    butler: np.ndarray  # IMP(r_j, r_k) from the two real scores
    bid: np.ndarray  # IMP(e_j, e_k)
    play_j: np.ndarray  # Play_j in the comparison (j, k), eq. (5)
    play_k: np.ndarray  # Play_k in the comparison (j, k), eq. (6)
    expected: np.ndarray  # e_j as weights over `scores`
    scores: np.ndarray  # the distinct North-South scores the formal sums live on

    def theorem1_residual(self) -> float:
        """max |Butler_jk - Bid_jk - Play_j - Play_k| over j != k (0 up to rounding)."""
        r = self.butler - self.bid - self.play_j - self.play_k
        np.fill_diagonal(r, 0.0)
        return float(np.abs(r).max()) if r.size else 0.0

    def per_table(self) -> list[TableSplit]:
        """Averages over the other tables: butler = bid + play + luck for each table."""
        n = len(self.tables)
        out: list[TableSplit] = []
        if n < 2:
            return out
        off = ~np.eye(n, dtype=bool)
        for j, t in enumerate(self.tables):
            m = off[j]
            out.append(
                TableSplit(
                    t,
                    float(self.butler[j, m].mean()),
                    float(self.bid[j, m].mean()),
                    float(self.play_j[j, m].mean()),
                    float(self.play_k[j, m].mean()),
                )
            )
        return out


@dataclass(frozen=True, slots=True)
class TableSplit:
    """One table's averages over the other tables of its board, North-South's view."""

    result: TableResult
    butler: float
    bid: float
    play: float  # this table's play (declarer's if NS declared, NS defence if EW declared)
    luck: float  # the other tables' play


def split_board(tables: Sequence[TableResult]) -> BoardSplit:
    """Theorem 1 terms for every pair of tables that played one deal."""
    tables = tuple(tables)
    n = len(tables)
    families: dict[tuple[int, int] | None, list[int]] = defaultdict(list)
    for i, t in enumerate(tables):
        families[_family(t)].append(i)
    # Each table's real result and the support of its expected result, as North-South scores.
    support: list[list[int]] = []
    for t in tables:
        peers = families[_family(t)]
        support.append([_ns_score(t.contract, tables[i].tricks, t) for i in peers])
    real = [t.ns_score for t in tables]
    scores = np.array(sorted(set(real).union(*map(set, support))), dtype=float)
    index = {int(s): i for i, s in enumerate(scores)}
    d = len(scores)
    r = np.zeros((n, d))
    e = np.zeros((n, d))
    for j in range(n):
        r[j, index[real[j]]] = 1.0
        for s in support[j]:
            e[j, index[s]] += 1.0 / len(support[j])
    m = imp_matrix(scores)
    # Butler from the two real scores directly, not through the bilinear form, so that the
    # Theorem 1 check also checks the formal sums and the matrix.
    butler = np.array([[imps(a - b) for b in real] for a in real], dtype=float)
    bid = e @ m @ e.T
    dev = r - e
    play_j = 0.5 * (dev @ m @ e.T) + 0.5 * (dev @ m @ r.T)
    play_k = 0.5 * (r @ m @ dev.T) + 0.5 * (e @ m @ dev.T)
    return BoardSplit(tables, butler, bid, play_j, play_k, e, scores)


@dataclass
class SplitTotals:
    """Running IMP sums of one pair or player; `row()` reports them per board."""

    boards: int = 0
    butler: float = 0.0
    bid: float = 0.0
    play: float = 0.0
    defence: float = 0.0
    luck: float = 0.0
    declared: int = 0
    defended: int = 0

    def add(self, s: TableSplit, side_ns: bool) -> None:
        declarer = s.result.declarer
        self.add_values(s.butler, s.bid, s.play, s.luck,
                        None if declarer is None else declarer.is_ns, side_ns)  # fmt: skip

    def add_values(self, butler: float, bid: float, play: float, luck: float,
                   declarer_ns: bool | None, side_ns: bool) -> None:  # fmt: skip
        """`add` from a table's kept values (`declarer_ns`: None when passed out)."""
        sign = 1.0 if side_ns else -1.0
        self.boards += 1
        self.butler += sign * butler
        self.bid += sign * bid
        self.luck += sign * luck
        if declarer_ns is None:
            return  # passed out: no play
        if declarer_ns == side_ns:
            self.play += sign * play
            self.declared += 1
        else:
            self.defence += sign * play  # = -(the opponents' play, in their own view)
            self.defended += 1

    def row(self, label: str) -> dict[str, float | int | str]:
        return per_board_row(label, self.boards, {"butler": self.butler, "bid": self.bid,
                                                  "play": self.play, "defence": self.defence,
                                                  "luck": self.luck})  # fmt: skip


def aggregate_splits(
    splits: Iterable[TableSplit],
) -> tuple[list[dict[str, float | int | str]], list[dict[str, float | int | str]]]:
    """Per-pair and per-player rows (IMPs per board): butler = bid + play + defence + luck."""
    return by_pair_and_player(splits, SplitTotals)


def split_field(
    boards: Iterable[Sequence[TableResult]],
) -> tuple[list[TableSplit], float]:
    """Split every board (one group of same-deal tables each); returns splits and max residual."""
    out: list[TableSplit] = []
    worst = 0.0
    for tables in boards:
        if len(tables) < 2:
            continue
        b = split_board(tables)
        worst = max(worst, b.theorem1_residual())
        out.extend(b.per_table())
    return out, worst if math.isfinite(worst) else math.inf
