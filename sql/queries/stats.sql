-- Named queries of the per-player statistics (stages/stats.py).

-- name: build_player_stats!
-- Per-player aggregate: the 33 variables of Marriner (2024) Table 3 summed over every board the
-- player sat at, and the 28 rates of Table 4. A rate whose denominator is 0 is NULL: a player who
-- never led has no lead-mistake rate, which the paper wrote as 0.0.
-- `who` is the `board_players` view (sql/player_matches.sql): the matched ranking name once name
-- matching has run, else the raw seat name. Seats without a player (NULL or '') are left out, as
-- the paper left out its placeholder for unmatched names.
CREATE OR REPLACE TABLE player_stats AS
WITH who AS (
    SELECT record_id, CAST(seat AS TINYINT) AS seat, player, CAST(mp AS DOUBLE) AS mp,
           CAST(pp AS DOUBLE) AS pp
    FROM board_players
),
totals AS (
    SELECT
        w.player,
        any_value(w.mp) AS mp,
        any_value(w.pp) AS pp,
        count(*) AS boards,
        sum(s.claims) AS claims,
        sum(s.claim_mistakes) AS claim_mistakes,
        sum(s.weighted_claim_mistakes) AS weighted_claim_mistakes,
        sum(s.leads) AS leads,
        sum(s.lead_mistakes) AS lead_mistakes,
        sum(s.weighted_lead_mistakes) AS weighted_lead_mistakes,
        sum(s.cards_played_as_declarer) AS cards_played_as_declarer,
        sum(s.play_mistakes_as_declarer) AS play_mistakes_as_declarer,
        sum(s.weighted_play_mistakes_as_declarer) AS weighted_play_mistakes_as_declarer,
        sum(s.cards_played_as_defender) AS cards_played_as_defender,
        sum(s.play_mistakes_as_defender) AS play_mistakes_as_defender,
        sum(s.weighted_play_mistakes_as_defender) AS weighted_play_mistakes_as_defender,
        sum(s.auctions_analyzed) AS auctions_analyzed,
        sum(s.defender_missed_current_double) AS defender_missed_current_double,
        sum(s.weighted_defender_missed_current_double) AS weighted_defender_missed_current_double,
        sum(s.defender_erroneously_doubled) AS defender_erroneously_doubled,
        sum(s.weighted_defender_erroneously_doubled) AS weighted_defender_erroneously_doubled,
        sum(s.defender_missed_higher_contract) AS defender_missed_higher_contract,
        sum(s.weighted_defender_missed_higher_contract) AS weighted_defender_missed_higher_contract,
        sum(s.declarer_missed_higher_contract) AS declarer_missed_higher_contract,
        sum(s.weighted_declarer_missed_higher_contract) AS weighted_declarer_missed_higher_contract,
        sum(s.declarer_missed_doubling_opponents_last_bid) AS declarer_missed_doubling_opponents_last_bid,
        sum(s.weighted_declarer_missed_doubling_opponents_last_bid) AS weighted_declarer_missed_doubling_opponents_last_bid,
        sum(s.declarer_missed_opponents_last_redouble) AS declarer_missed_opponents_last_redouble,
        sum(s.weighted_declarer_missed_opponents_last_redouble) AS weighted_declarer_missed_opponents_last_redouble,
        sum(s.declarer_missed_redoubling_opponents_erroneous_double) AS declarer_missed_redoubling_opponents_erroneous_double,
        sum(s.weighted_declarer_missed_redoubling_opponents_erroneous_double) AS weighted_declarer_missed_redoubling_opponents_erroneous_double,
        sum(s.declarer_missed_opponents_last_bid) AS declarer_missed_opponents_last_bid,
        sum(s.weighted_declarer_missed_opponents_last_bid) AS weighted_declarer_missed_opponents_last_bid,
        sum(s.declarer_erroneous_redouble) AS declarer_erroneous_redouble,
        sum(s.weighted_declarer_erroneous_redouble) AS weighted_declarer_erroneous_redouble,
        sum(s.passed_higher_contract) AS passed_higher_contract,
        sum(s.weighted_passed_higher_contract) AS weighted_passed_higher_contract
    FROM player_board_stats s
    JOIN who w ON w.record_id = s.record_id AND w.seat = s.seat
    WHERE w.player IS NOT NULL AND w.player <> ''
    GROUP BY w.player
)
SELECT
    totals.*,
    CASE WHEN claims > 0 THEN claim_mistakes / claims END AS claim_mistakes_per_claim,
    CASE WHEN claims > 0 THEN weighted_claim_mistakes / claims END AS weighted_claim_mistakes_per_claim,
    CASE WHEN leads > 0 THEN lead_mistakes / leads END AS lead_mistakes_per_lead,
    CASE WHEN leads > 0 THEN weighted_lead_mistakes / leads END AS weighted_lead_mistakes_per_lead,
    CASE WHEN cards_played_as_defender > 0 THEN play_mistakes_as_defender / cards_played_as_defender END AS defender_mistakes_per_card_played_as_defender,
    CASE WHEN cards_played_as_defender > 0 THEN weighted_play_mistakes_as_defender / cards_played_as_defender END AS weighted_defender_mistakes_per_card_played_as_defender,
    CASE WHEN cards_played_as_declarer > 0 THEN play_mistakes_as_declarer / cards_played_as_declarer END AS declarer_mistakes_per_card_played_as_declarer,
    CASE WHEN cards_played_as_declarer > 0 THEN weighted_play_mistakes_as_declarer / cards_played_as_declarer END AS weighted_declarer_mistakes_per_card_played_as_declarer,
    CASE WHEN auctions_analyzed > 0 THEN defender_missed_current_double / auctions_analyzed END AS defender_missed_current_double_per_auction,
    CASE WHEN auctions_analyzed > 0 THEN weighted_defender_missed_current_double / auctions_analyzed END AS weighted_defender_missed_current_double_per_auction,
    CASE WHEN auctions_analyzed > 0 THEN defender_erroneously_doubled / auctions_analyzed END AS defender_erroneously_doubled_per_auction,
    CASE WHEN auctions_analyzed > 0 THEN weighted_defender_erroneously_doubled / auctions_analyzed END AS weighted_defender_erroneously_doubled_per_auction,
    CASE WHEN auctions_analyzed > 0 THEN defender_missed_higher_contract / auctions_analyzed END AS defender_missed_higher_contract_per_auction,
    CASE WHEN auctions_analyzed > 0 THEN weighted_defender_missed_higher_contract / auctions_analyzed END AS weighted_defender_missed_higher_contract_per_auction,
    CASE WHEN auctions_analyzed > 0 THEN declarer_missed_higher_contract / auctions_analyzed END AS declarer_missed_higher_contract_per_auction,
    CASE WHEN auctions_analyzed > 0 THEN weighted_declarer_missed_higher_contract / auctions_analyzed END AS weighted_declarer_missed_higher_contract_per_auction,
    CASE WHEN auctions_analyzed > 0 THEN declarer_missed_doubling_opponents_last_bid / auctions_analyzed END AS declarer_missed_doubling_opponents_last_bid_per_auction,
    CASE WHEN auctions_analyzed > 0 THEN weighted_declarer_missed_doubling_opponents_last_bid / auctions_analyzed END AS weighted_declarer_missed_doubling_opponents_last_bid_per_auction,
    CASE WHEN auctions_analyzed > 0 THEN declarer_missed_opponents_last_redouble / auctions_analyzed END AS declarer_missed_opponents_last_redouble_per_auction,
    CASE WHEN auctions_analyzed > 0 THEN weighted_declarer_missed_opponents_last_redouble / auctions_analyzed END AS weighted_declarer_missed_opponents_last_redouble_per_auction,
    CASE WHEN auctions_analyzed > 0 THEN declarer_missed_redoubling_opponents_erroneous_double / auctions_analyzed END AS declarer_missed_redoubling_opponents_erroneous_double_per_auction,
    CASE WHEN auctions_analyzed > 0 THEN weighted_declarer_missed_redoubling_opponents_erroneous_double / auctions_analyzed END AS weighted_declarer_missed_redoubling_opponents_erroneous_double_per_auction,
    CASE WHEN auctions_analyzed > 0 THEN declarer_missed_opponents_last_bid / auctions_analyzed END AS declarer_missed_opponents_last_bid_per_auction,
    CASE WHEN auctions_analyzed > 0 THEN weighted_declarer_missed_opponents_last_bid / auctions_analyzed END AS weighted_declarer_missed_opponents_last_bid_per_auction,
    CASE WHEN auctions_analyzed > 0 THEN declarer_erroneous_redouble / auctions_analyzed END AS declarer_erroneous_redouble_per_auction,
    CASE WHEN auctions_analyzed > 0 THEN weighted_declarer_erroneous_redouble / auctions_analyzed END AS weighted_declarer_erroneous_redouble_per_auction,
    CASE WHEN auctions_analyzed > 0 THEN passed_higher_contract / auctions_analyzed END AS passed_higher_contract_per_auction,
    CASE WHEN auctions_analyzed > 0 THEN weighted_passed_higher_contract / auctions_analyzed END AS weighted_passed_higher_contract_per_auction
FROM totals
ORDER BY player;

-- name: player_stats_count
SELECT count(*) FROM player_stats;

-- name: player_stats_table
-- The per-player table as `ddrank stats` writes it (the layout of dds_final_results.csv).
SELECT player AS name, * FROM player_stats ORDER BY player;
