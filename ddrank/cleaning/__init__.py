"""Board cleaning: seed §2.1 and the reference behaviour §2, rule by rule, in the paper's order.

`clean_record` (`record.py`) turns one raw record into a clean board or an exclusion; the reason
tables are in `reasons.py`, the auction laws in `auction.py`, the play rules in `play.py`. The
notation of deals, calls, contracts, vulnerability and years belongs to `ddrank.types` and is
re-exported here for the callers that know it under this name.
"""

from ddrank.cleaning.auction import check_auction, restore_leading_passes
from ddrank.cleaning.play import PlayOutcome, clean_play_tokens, validate_play
from ddrank.cleaning.reasons import AUCTION_ISSUES, AUDIT_NOTES, EXCLUSION_REASONS, PLAY_ISSUES
from ddrank.cleaning.record import (
    EVENT_NUMBER_FIELDS,
    EVENT_TEXT_FIELDS,
    CleanBoard,
    CleanResult,
    clean_record,
    has_table_result,
    is_hand_record,
    records_leading_passes,
)
from ddrank.types import (
    Reject,
    auction_contract,
    auction_declarer,
    board_year,
    clean_call_token,
    clean_calls,
    normalise_contract,
    parse_deal,
    vulnerability,
)

__all__ = [
    "AUCTION_ISSUES", "AUDIT_NOTES", "EVENT_NUMBER_FIELDS", "EVENT_TEXT_FIELDS",
    "EXCLUSION_REASONS", "PLAY_ISSUES", "CleanBoard", "CleanResult", "PlayOutcome", "Reject",
    "auction_contract", "auction_declarer", "board_year", "check_auction", "clean_call_token",
    "clean_calls", "clean_play_tokens", "clean_record", "has_table_result", "is_hand_record",
    "normalise_contract", "parse_deal", "records_leading_passes", "restore_leading_passes",
    "validate_play", "vulnerability",
]  # fmt: skip
