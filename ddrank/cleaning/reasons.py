"""The paper's Tables 5-7: why a board is excluded, or its auction or play unusable, and the
audit notes (kept, not excluded). The order of each table is the precedence between reasons."""

from __future__ import annotations

# Table 5: why a whole board is dropped (in precedence order).
EXCLUSION_REASONS: dict[str, str] = {
    "unreadable": "The source text could not be read as a record.",
    "missing_deal": "Missing deal, and no table result to score either.",
    "malformed_deal": "deal is not a PBN deal (no seat prefix, not four hands of four suits).",
    "unbalanced_deal": "deal had a hand that did not have 13 cards.",
    "card_error": "A player had an invalid card in the deal, or a card appeared twice.",
    "contract_contradiction": "contract differs from the contract deducible from the auction.",
    "declarer_contradiction": "declarer differs from the declarer deducible from the auction.",
    "lead_contradiction": "lead differs from the lead deducible from the declarer.",
    "pass_play_contradiction": 'contract is "P" and play is non-empty.',
    "claim_error": "The declarer claimed fewer tricks than they had already won, "
    "or more tricks than there were remaining.",
    "solver_crash": "The double-dummy solver crashed on this board.",
}
# Table 6: why a kept board's auction is unusable.
AUCTION_ISSUES: dict[str, str] = {
    "missing_auction": "Missing auction.",
    "no_bidstart": "Neither dealer nor the first bidder is known.",
    "pass_rule": "The contract was passed out in the middle of the auction, "
    "or the auction did not end with three passes.",
    "contract_bid_order": "A contract bid was made in a non-increasing fashion.",
    "illegal_double": "A double was made where the contract was already doubled or redoubled, "
    "by the side who bid the last contract, or before any contract bid.",
    "illegal_redouble": "A redouble was made where the contract was not doubled or already "
    "redoubled, by the side who did not bid the last contract, or before any contract bid.",
}
# The paper excluded these; a result without them is still a result for scoring, so they are
# kept and only noted: the audit says which analysis stage can use which result.
AUDIT_NOTES: dict[str, str] = {
    "missing_names": "All names are missing (the paper excluded these): usable for scoring and "
    "DD tables, not for player statistics or the regression.",
    "missing_deal": "No deal (a scoring-only result): usable for scoring, not for DD analysis.",
    "adjusted": "Adjusted score (no contract played): usable for scoring only.",
    "phantom": "A phantom or sit-out pair sat at this table: its side is not players.",
}
# Table 7: why a kept board's play is unusable.
PLAY_ISSUES: dict[str, str] = {
    "missing_play_info": "Missing play, lead, or contract.",
    "multiple_claim": "Dashes appeared in more than one trick.",
    "play_error": "A card is played twice or the player never had it.",
    "renege": "A player reneged.",
    "card_after_dash": "A card is played to a trick after a dash.",
    "first_card_dash": "First card played to a trick is a dash.",
    "unbalanced_play": "The number of legal plays, augmented with dashes if necessary, "
    "is not divisible by 4.",
    "play_order": "The cards are not a legal sequence of tricks (LIN order).",
}
