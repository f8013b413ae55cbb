-- Named queries of the site stage (stages/site.py): what every page shows (players' totals, the
-- optional tables, the files); each event's rows are read by the event (site_events.sql).
-- `site_who(record_id, seat, player)` is a temporary table the stage makes first (stages/seats.py):
-- a seat's player identified as the scoring stage identifies it.

-- name: site_table_names
-- Tables of the store: the pages of a stage that has not run say so.
select table_name from information_schema.tables;

-- name: site_player_totals
-- The 33 counters (ddrank.mistakes.variables.VARIABLES) summed per player, and boards played
-- (analysed or not).
select w.player, count(*) as boards, count(s.record_id) as analysed_boards,
       sum(coalesce(s.claims, 0)) AS claims,
       sum(coalesce(s.claim_mistakes, 0)) AS claim_mistakes,
       sum(coalesce(s.weighted_claim_mistakes, 0)) AS weighted_claim_mistakes,
       sum(coalesce(s.leads, 0)) AS leads,
       sum(coalesce(s.lead_mistakes, 0)) AS lead_mistakes,
       sum(coalesce(s.weighted_lead_mistakes, 0)) AS weighted_lead_mistakes,
       sum(coalesce(s.cards_played_as_declarer, 0)) AS cards_played_as_declarer,
       sum(coalesce(s.play_mistakes_as_declarer, 0)) AS play_mistakes_as_declarer,
       sum(coalesce(s.weighted_play_mistakes_as_declarer, 0)) AS weighted_play_mistakes_as_declarer,
       sum(coalesce(s.cards_played_as_defender, 0)) AS cards_played_as_defender,
       sum(coalesce(s.play_mistakes_as_defender, 0)) AS play_mistakes_as_defender,
       sum(coalesce(s.weighted_play_mistakes_as_defender, 0)) AS weighted_play_mistakes_as_defender,
       sum(coalesce(s.auctions_analyzed, 0)) AS auctions_analyzed,
       sum(coalesce(s.defender_missed_current_double, 0)) AS defender_missed_current_double,
       sum(coalesce(s.weighted_defender_missed_current_double, 0)) AS weighted_defender_missed_current_double,
       sum(coalesce(s.defender_erroneously_doubled, 0)) AS defender_erroneously_doubled,
       sum(coalesce(s.weighted_defender_erroneously_doubled, 0)) AS weighted_defender_erroneously_doubled,
       sum(coalesce(s.defender_missed_higher_contract, 0)) AS defender_missed_higher_contract,
       sum(coalesce(s.weighted_defender_missed_higher_contract, 0)) AS weighted_defender_missed_higher_contract,
       sum(coalesce(s.declarer_missed_higher_contract, 0)) AS declarer_missed_higher_contract,
       sum(coalesce(s.weighted_declarer_missed_higher_contract, 0)) AS weighted_declarer_missed_higher_contract,
       sum(coalesce(s.declarer_missed_doubling_opponents_last_bid, 0)) AS declarer_missed_doubling_opponents_last_bid,
       sum(coalesce(s.weighted_declarer_missed_doubling_opponents_last_bid, 0)) AS weighted_declarer_missed_doubling_opponents_last_bid,
       sum(coalesce(s.declarer_missed_opponents_last_redouble, 0)) AS declarer_missed_opponents_last_redouble,
       sum(coalesce(s.weighted_declarer_missed_opponents_last_redouble, 0)) AS weighted_declarer_missed_opponents_last_redouble,
       sum(coalesce(s.declarer_missed_redoubling_opponents_erroneous_double, 0)) AS declarer_missed_redoubling_opponents_erroneous_double,
       sum(coalesce(s.weighted_declarer_missed_redoubling_opponents_erroneous_double, 0)) AS weighted_declarer_missed_redoubling_opponents_erroneous_double,
       sum(coalesce(s.declarer_missed_opponents_last_bid, 0)) AS declarer_missed_opponents_last_bid,
       sum(coalesce(s.weighted_declarer_missed_opponents_last_bid, 0)) AS weighted_declarer_missed_opponents_last_bid,
       sum(coalesce(s.declarer_erroneous_redouble, 0)) AS declarer_erroneous_redouble,
       sum(coalesce(s.weighted_declarer_erroneous_redouble, 0)) AS weighted_declarer_erroneous_redouble,
       sum(coalesce(s.passed_higher_contract, 0)) AS passed_higher_contract,
       sum(coalesce(s.weighted_passed_higher_contract, 0)) AS weighted_passed_higher_contract
from site_who w
left join player_board_stats s on s.record_id = w.record_id and s.seat = w.seat
group by w.player;

-- name: site_table_rows
-- A table other stages write (rankings, ratings, ...), whole; the stage names which.
select * from query_table($table);

-- name: site_rating_history_of
-- rating_history's rows of the players $players, in the table's order (stages.site.PlayerRows).
select * from rating_history where player in (select unnest($players)) order by rowid;

-- name: site_skill_ratings_of
-- skill_ratings' rows of the players $players, in the table's order (stages.site.PlayerRows).
select * from skill_ratings where player in (select unnest($players)) order by rowid;

-- name: site_sources
-- The files ingested, for the index page.
select path, format, records, new_records, cast(ingested_at as varchar) as ingested_at
from source_files order by path;

-- name: site_hand_deals
-- Hand-record deals (a file's deals without results): a hand-record site shows them.
select event_id, source_file, session, section, board_no, deal, dealer, vulnerable, par_score,
       par_contract, dd_tricks
from deals;

-- name: site_costly_mistakes
-- Each player's costliest mistakes with their cost in the event's units (sql/mistakes_schema.sql),
-- the rows `ddrank player` prints, for the player pages.
select record_id, player, seat, kind, card_index, call_index, what, instead, tricks, dd_points,
       cost, unit, basis, rank, trick, position
from ranked_mistakes where rank <= $top order by player, rank;

