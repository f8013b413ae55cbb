"""A hand-record PBN (Bridgewebs, BridgeComposer) as deals by board number, to join to results.

Results files that carry no deals (USEBIO from a club scorer, a Bridgemate `.bws`) come with a
hand record beside them. Its games have `[Board]`, `[Deal]`, `[Dealer]`, `[Vulnerable]` and,
from BridgeComposer, the par as `[OptimumScore "NS 980"]` and `[ParContract "NS 6S="]`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ddrank.parsers.pbn import _games


@dataclass(frozen=True)
class HandDeal:
    board_no: str
    deal: str  # PBN deal as written, e.g. "N:AQT94.T53.KQ8.T9 ..."
    dealer: str
    vulnerable: str
    par_score: str = ""  # North-South's par, e.g. "980" or "-620"
    par_contract: str = ""  # as published, e.g. "NS 6S="
    line: int = 0


def board_dealer_vulnerability(board: str) -> tuple[str, str]:
    """Dealer and vulnerability of a duplicate board by its number (Law 2), ("", "") if none."""
    try:
        n = int(board)
    except ValueError:
        return "", ""
    if n < 1:
        return "", ""
    k = (n - 1) % 16
    vul = ("None", "NS", "EW", "All", "NS", "EW", "All", "None",
           "EW", "All", "None", "NS", "All", "None", "NS", "EW")[k]  # fmt: skip
    return "NESW"[k % 4], vul


def ns_par_score(optimum_score: str) -> str:
    """PBN `OptimumScore` ("NS 980", "EW 620", "NS -100") as North-South's score ("980", "-620")."""
    side, _, value = optimum_score.strip().partition(" ")
    value = value.strip()
    try:
        number = int(value)
    except ValueError:
        return ""
    if side.upper() == "EW":
        number = -number
    elif side.upper() != "NS":
        return ""
    return str(number)


def hand_record_deals(text: str) -> dict[str, HandDeal]:
    """Deals of a hand-record PBN by board number; the first game of a board gives its deal."""
    deals: dict[str, HandDeal] = {}
    for game in _games(text):
        tags = game.tags
        board = tags.get("Board", "").strip()
        deal = tags.get("Deal", "").strip()
        if not board or not deal or board in deals:
            continue
        deals[board] = HandDeal(
            board_no=board,
            deal=deal,
            dealer=tags.get("Dealer", "").strip(),
            vulnerable=tags.get("Vulnerable", "").strip(),
            par_score=ns_par_score(tags.get("OptimumScore", "")),
            par_contract=tags.get("ParContract", "").strip(),
            line=game.line,
        )
    return deals
