-- Named queries of the site stage (stages/site.py): everything the site shows, read in a few
-- batched queries over the whole store (no query per player or per event).
-- `site_who(record_id, seat, player)` is a temporary table the stage makes first (stages/seats.py):
-- a seat's player identified as the scoring stage identifies it.

-- name: site_table_names
-- Tables of the store: the pages of a stage that has not run say so.
select table_name from information_schema.tables;

-- name: site_results
-- Every kept table result with its DD tricks for the contract played, the deal's par, and the par
-- a source published (boards.par_*), shown beside ours.
select b.record_id, b.event_id, b.event, b.year, b.board_no, b.room,
       b.home_team, b.visit_team, b.northname, b.eastname, b.southname, b.westname,
       b.deal_id, b.deal, b.dealer, b.ns_vulnerable, b.ew_vulnerable, b.contract, b.declarer,
       b.result, b.claim_tricks, b.opening_leader, b.auction, b.bidstart,
       r.source_file, r.source_line, nullif(b.scoring, '') as scoring,
       b.session, b.section, b.round, b.table_no, b.ns_pair, b.ew_pair, b.ns_score,
       b.adjusted, b.phantom, b.published_ns_mp, b.published_ew_mp,
       b.published_ns_pct, b.published_ew_pct, b.published_imps, b.date,
       b.par_score as published_par_score, b.par_contract as published_par_contract,
       t.tricks as dd_tricks, p.par_score, p.par_contract,
       b.play, b.play_seats, tr.trace, b.lead_card, b.published_datum, r.site
from boards b
left join raw_records r using (record_id)
left join dd_tables t on t.deal_id = b.deal_id and t.declarer = b.declarer
     and t.strain = substr(b.contract, 2, 1)
left join play_traces tr on tr.record_id = b.record_id
left join dd_par p on p.deal_id = b.deal_id and p.dealer = b.dealer
     and p.vulnerable = case when b.ns_vulnerable and b.ew_vulnerable then 'All'
          when b.ns_vulnerable then 'NS' when b.ew_vulnerable then 'EW' else 'None' end;

-- name: site_scored_results
-- The scoring stage's score of each result (matchpoints, IMPs), joined by record_id in Python.
select * from scored_results;

-- name: site_dd_tables
-- The DD table of every deal on a kept board.
select deal_id, strain, declarer, tricks from dd_tables
where deal_id in (select deal_id from boards);

-- name: site_seats
-- Who sat where, with that seat's DD mistakes on the board (0 when not analysed); `cost` sums
-- the weighted counters, `auction_mistakes` the auction counters.
select w.record_id, w.seat, w.player, s.record_id is not null as analysed,
       coalesce(s.play_mistakes_as_declarer, 0) as declarer_mistakes,
       coalesce(s.play_mistakes_as_defender, 0) as defence_mistakes,
       coalesce(s.lead_mistakes, 0) as lead_mistakes,
       coalesce(s.claim_mistakes, 0) as claim_mistakes,
       coalesce(s.defender_missed_current_double
         + s.defender_erroneously_doubled
         + s.defender_missed_higher_contract
         + s.declarer_missed_higher_contract
         + s.declarer_missed_doubling_opponents_last_bid
         + s.declarer_missed_opponents_last_redouble
         + s.declarer_missed_redoubling_opponents_erroneous_double
         + s.declarer_missed_opponents_last_bid
         + s.declarer_erroneous_redouble
         + s.passed_higher_contract, 0) as auction_mistakes,
       coalesce(s.weighted_claim_mistakes
         + s.weighted_lead_mistakes
         + s.weighted_play_mistakes_as_declarer
         + s.weighted_play_mistakes_as_defender
         + s.weighted_defender_missed_current_double
         + s.weighted_defender_erroneously_doubled
         + s.weighted_defender_missed_higher_contract
         + s.weighted_declarer_missed_higher_contract
         + s.weighted_declarer_missed_doubling_opponents_last_bid
         + s.weighted_declarer_missed_opponents_last_redouble
         + s.weighted_declarer_missed_redoubling_opponents_erroneous_double
         + s.weighted_declarer_missed_opponents_last_bid
         + s.weighted_declarer_erroneous_redouble
         + s.weighted_passed_higher_contract, 0) as cost
from site_who w
left join player_board_stats s on s.record_id = w.record_id and s.seat = w.seat;

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

-- name: site_sources
-- The files ingested, for the index page.
select path, format, records, new_records, cast(ingested_at as varchar) as ingested_at
from source_files order by path;

-- name: site_card_alternatives
-- The DD-best cards at each costly card (stages/dd_explain.py), for the board pages.
-- (`select *`: a store written before `card_values` existed is read as it is.)
select * from dd_card_alternatives;

-- name: site_published_dd
-- The DD tables the files publish (PBN DoubleDummyTricks), by deal: shown where DDS has none.
select deal_id, dd_tricks from published_dd;

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

-- name: site_table_costs
-- What each table's DD mistakes lost it at the table, per side, in the event's unit (a mistake
-- charged to both partners counted once): the board pages' "DD mistakes" column.
select record_id, side, unit, sum(cost) as cost
from (select distinct record_id, side, kind, card_index, call_index, cost, unit
      from mistake_costs where basis = 'table' and cost is not null)
group by record_id, side, unit;
