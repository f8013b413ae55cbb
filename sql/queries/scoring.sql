-- Named queries of event scoring (stages/scoring.py) and of the stages that read its results:
-- the bid/play split (stages/split.py) and the skill ratings (stages/skill.py) read the one
-- results model, `scored_results`, never the boards again.

-- name: scoring_boards
-- Every clean table result with what scoring needs, and where it was read (view scoring_inputs,
-- sql/scoring_schema.sql), of the events $events (all of them when null).
select * from scoring_inputs
where $events is null or coalesce(event, '') in (select unnest($events))
order by year, event, session, section, board_no, record_id;

-- name: scoring_event_sizes
-- Each event name's table results by event id and date (stages.scoring_batches.event_batches cuts the
-- scoring into batches of whole events from it).
select b.event, b.event_id, coalesce(nullif(b.date, ''), r.date) as date, b.year,
       count(*) as results
from boards b left join raw_records r using (record_id)
group by all;

-- name: exclusion_errors
-- Every record cleaning (or the DD stage) left out, where its source has it and why: errors.csv.
select e.reason, e.detail, coalesce(e.source_file, r.source_file) as source_file,
       coalesce(e.source_line, r.source_line) as source_line, r.event, r.session, r.stage,
       r.section, r.round, r.table_no, r.board_no, r.home_team, r.visit_team, r.room,
       -- 1 for a whole file no reader takes (its one record says why): told apart in errors.csv
       (select count(*) from raw_records x where x.source_file = r.source_file) as file_records
from exclusions e left join raw_records r using (record_id)
order by source_file, source_line, e.record_id;

-- name: delete_scoring_errors!
delete from scoring_errors;

-- name: matched_players
-- Name matching's verdicts: (context, raw name) -> ranking name.
select raw_name, context, ranking_name from player_matches where ranking_name is not null;

-- name: event_facts
select * from events;

-- name: published_standings
select * from published_standings;

-- name: scored_event_hashes
select event, content_hash from scored_events;

-- name: delete_scored_results!
delete from scored_results where event in (select unnest($events));

-- name: delete_rankings!
delete from rankings where event in (select unnest($events));

-- name: delete_team_matches!
delete from team_matches where event in (select unnest($events));

-- name: delete_scored_events!
delete from scored_events where event in (select unnest($events));

-- name: export_results
select * from scored_results
where $events is null or event in (select unnest($events))
order by event, session, section, try_cast(board as integer), board, record_id;

-- name: export_pair_rankings
select *, score as mp from rankings
where ($events is null or event in (select unnest($events)))
  and kind in ('pairs', 'teams', 'individual', 'knockout')
order by event, session = '', session, section, direction, rank, pair;

-- name: export_butler_rankings
select *, score as butler, score / nullif(boards, 0) as butler_per_board from rankings
where ($events is null or event in (select unnest($events))) and kind = 'butler'
order by event, rank, pair;

-- name: delete_player_results!
delete from player_results where event in (select unnest($events));

-- name: export_player_results
-- An individual event's players, board by board (ddrank.scoring.arithmetic.individual).
select * from player_results
where $events is null or event in (select unnest($events))
order by event, session, player_number, try_cast(board as integer), board;

-- name: export_team_matches
select * from team_matches
where $events is null or event in (select unnest($events))
order by event, session, section, team;

-- name: scored_tables
-- The one results model, for the stages after scoring (bid/play split, skill ratings): every
-- scored table result that was played (not adjusted), with what comparing tables needs.
select record_id, event, session, section, match, board, played, deal_id, names, players,
       contract, declarer, tricks, ns_vulnerable, ew_vulnerable, year, date
from scored_results
where adjusted is null and contract is not null and contract <> ''
order by event, session, section, match, try_cast(board as integer), board, record_id;

-- name: scored_event_methods
-- Each scored event: how it was scored (method, top, why) and its agreement with the source.
select s.event, e.name, s.date, s.scoring, s.results, s.mp_method, s.mp_top, s.method_reason,
       s.published_compared, s.published_agree
from scored_events s left join events e on e.event_id = s.event
where $events is null or s.event in (select unnest($events))
order by s.date, s.event;

-- name: scored_event_checks
-- Each scored event's published-value checks as scoring made them (JSON), in date order.
select event, checks
from scored_events
where $events is null or event in (select unnest($events))
order by date, event;

-- name: final_rankings
-- Each event's final pair (or team, or player) rankings: the whole-event lines ('' session) where
-- the event has several sessions, else its one session's; every knockout match (its stage is
-- its session).
select r.* from rankings r
where r.kind in ('pairs', 'teams', 'individual', 'knockout')
  and ($events is null or r.event in (select unnest($events)))
  and (r.kind = 'knockout' or r.session = ''
       or not exists (select 1 from rankings t where t.event = r.event
                      and t.kind = r.kind and t.session = ''))
order by r.event, r.section, r.direction, r.rank, r.pair;

-- name: scoring_event_inputs
-- scoring_event_sizes with a fingerprint of the rows `scoring_boards` gives each (an order-free
-- hash of every column): a changed, added or removed row changes it (stages.scoring_groups).
-- What the parts of `scoring_event_inputs_part` add up to (the tests compare them); the stage
-- runs the parts: this one query holds a hash table of every raw record (+280 MB at 1M results).
select event, event_id, date, year, count(*) as results, bit_xor(hash(s)) as fingerprint
from scoring_inputs s group by event, event_id, date, year;

-- name: boards_row_ids
-- The boards' row ids run from 0 to the first (NULL: no boards), `scoring_event_inputs_part` cuts
-- them; the second is how many boards its parts must add up to.
select max(rowid), count(*) from boards;

-- name: scoring_event_inputs_part
-- `scoring_event_inputs` of the boards whose row id is in [$lo, $hi) (stages.scoring_groups adds
-- the parts up: counts summed, fingerprints XORed): the raw records are those boards' only, so
-- the join holds a part, not the archive (issue 37). The columns are the view scoring_inputs',
-- in its order (sql/scoring_schema.sql): the same rows hash the same.
select event, event_id, date, year, count(*) as results, bit_xor(hash(s)) as fingerprint
from (
    select b.record_id, b.deal_id, b.deal, b.event, b.year, b.board_no,
           r.source_file, r.source_line, b.round, b.table_no, b.auction,
           coalesce(len(b.play), 0) > 0 as played_cards,
           b.northname, b.eastname, b.southname, b.westname, b.ns_vulnerable, b.ew_vulnerable,
           b.contract, b.declarer, b.result, b.dealer, b.home_team, b.visit_team, b.room,
           b.event_id, b.session, b.section, b.ns_pair, b.ew_pair,
           b.north_id, b.east_id, b.south_id, b.west_id, b.ns_score, b.ew_score, b.adjusted,
           b.phantom, b.repeat,
           b.published_ns_mp, b.published_ew_mp, b.published_ns_pct, b.published_ew_pct,
           b.published_imps, b.published_datum, b.player_numbers, r.stage,
           coalesce(nullif(b.date, ''), r.date) as date, r.source_format
    from (select * from boards where rowid >= $lo and rowid < $hi) b
    left join (select * from raw_records where record_id in
               (select record_id from boards where rowid >= $lo and rowid < $hi)) r
      using (record_id)
) s
group by event, event_id, date, year;

-- name: event_fact_fingerprints
-- The facts published of each event (by its event id), hashed.
select event_id, null as event, bit_xor(hash(e)) from events e group by event_id;

-- name: standing_fingerprints
-- The standings published of each event (event id, name), hashed.
select event_id, event, bit_xor(hash(s)) from published_standings s group by event_id, event;

-- name: matched_player_fingerprints
-- Name matching's verdicts of each context (event|year), hashed.
select context, bit_xor(hash(raw_name, ranking_name)) from player_matches
where ranking_name is not null group by context;

-- name: stored_scoring_groups
select group_key, fingerprint from scoring_groups;

-- name: scoring_group_states
select group_key, state from scoring_groups where group_key in (select unnest($keys));

-- name: delete_scoring_groups!
delete from scoring_groups where group_key in (select unnest($keys));

-- name: delete_other_scoring_groups!
-- The groups the store no longer holds.
delete from scoring_groups where group_key not in (select unnest($keys));

-- name: forget_scoring_groups!
-- Every group read again at the next scoring (one event was rescored alone, on other options).
delete from scoring_groups;

-- name: scored_tables_of
-- scored_tables, of the events $events only: the split and the skill ratings each read a batch of
-- whole events at a time.
select record_id, event, session, section, match, board, played, deal_id, names, players,
       contract, declarer, tricks, ns_vulnerable, ew_vulnerable, year, date
from scored_results
where adjusted is null and contract is not null and contract <> ''
  and event in (select unnest($events))
order by event, session, section, match, try_cast(board as integer), board, record_id;

-- name: events_without_export_parts
-- The scored events whose part of the exports is not kept, or kept from other scores or by
-- another format (stages.scoring.make_export_parts): (event, content hash, results), in event order.
select s.event, s.content_hash, coalesce(s.results, 0) from scored_events s
where not exists (select 1 from export_parts p where p.event = s.event
                  and p.content_hash is not distinct from s.content_hash and p.version = $version)
order by s.event;

-- name: delete_export_parts!
delete from export_parts where event in (select unnest($events));

-- name: export_part_events
-- The events whose kept export part matches their scores, in the files' (event) order, of the
-- events $events (all of them when null): names only, so the parts are read a few at a time.
select p.event from export_parts p join scored_events s
  on s.event = p.event and s.content_hash is not distinct from p.content_hash
where $events is null or p.event in (select unnest($events))
order by p.event;

-- name: export_part_keys
-- export_part_events with each part's content hash: (event, content_hash), in event order.
select p.event, p.content_hash from export_parts p join scored_events s
  on s.event = p.event and s.content_hash is not distinct from p.content_hash
where $events is null or p.event in (select unnest($events))
order by p.event;

-- name: export_parts_stored
-- Every kept export part, in the table's own order (no sort, no join: a stream through the
-- table; stages.scoring_export.stored_parts puts them in event order). Not the text columns of
-- EXPORT_VERSION 1: empty since, but a scan would read what deleted parts left in them.
select event, content_hash, version, results, teams, packed from export_parts;

-- name: export_parts
-- Each scored event's kept part of results.csv, ranking.csv, teams.csv, butler.csv and report.md,
-- in the files' (event) order, of the events $events (all of them when null).
select p.event, p.content_hash, p.version, p.results, p.teams, p.packed
from export_parts p join scored_events s
  on s.event = p.event and s.content_hash is not distinct from p.content_hash
where $events is null or p.event in (select unnest($events))
order by p.event;

-- name: split_event_hashes
-- The events whose table splits are kept (stages.split), with what they were split from.
select event, content_hash from split_events;

-- name: split_labels_of
-- The pair labels and player names of the kept table splits of the events $events.
-- (a pair's label: its two names in order, as ddrank.scoring.intake.results.pair_label writes it)
select least(north, south) || ' - ' || greatest(north, south), north, south
from split_tables where event in (select unnest($events))
union all
select least(east, west) || ' - ' || greatest(east, west), east, west
from split_tables where event in (select unnest($events));

-- name: delete_split_tables!
-- The kept table splits of the events $events (every event when null).
delete from split_tables where $events is null or event in (select unnest($events));

-- name: delete_split_events!
delete from split_events where $events is null or event in (select unnest($events));

-- name: delete_split_totals!
delete from split_totals;

-- name: split_unfinished
-- A split run that started and did not finish (stages.split: its kept work is not trusted).
select count(*) > 0 from split_state;

-- name: mark_split_unfinished!
insert into split_state values (true);

-- name: mark_split_finished!
delete from split_state;

-- name: delete_split_totals_of!
delete from split_totals
where (kind = 'pair' and label in (select unnest($pairs::varchar[])))
   or (kind = 'player' and label in (select unnest($players::varchar[])));

-- name: split_pair_sides
-- Each kept table split once for each of its pairs (North-South's, then East-West's), with the
-- side it counts from (stages.split._keep_sums): only the labels $labels (every one when null),
-- and of those the part $part of $parts (by the label's hash); by label, then in the order of one
-- pass over every event (the event, the table's place in its pass, the side). A pair's label is
-- its two names in order (ddrank.scoring.intake.results.pair_label: Python orders str by code
-- point, DuckDB a VARCHAR by its UTF-8 bytes, the same order).
select label, side_ns, butler, bid, play, luck, declarer_ns from (
    select least(north, south) || ' - ' || greatest(north, south) as label, event, seq, 0 as side,
           true as side_ns, butler, bid, play, luck, declarer_ns
    from split_tables
    union all
    select least(east, west) || ' - ' || greatest(east, west), event, seq, 1, false, butler, bid,
           play, luck, declarer_ns
    from split_tables
)
where hash(label) % $parts = $part
  and ($labels::varchar[] is null or label in (select unnest($labels::varchar[])))
order by label, event, seq, side;

-- name: split_player_sides
-- `split_pair_sides` for the players: each kept table split once for each of its four players
-- (the seats N, S, E, W, as one pass adds them).
select label, side_ns, butler, bid, play, luck, declarer_ns from (
    select north as label, event, seq, 0 as seat, true as side_ns, butler, bid, play, luck,
           declarer_ns
    from split_tables
    union all
    select south, event, seq, 1, true, butler, bid, play, luck, declarer_ns from split_tables
    union all
    select east, event, seq, 2, false, butler, bid, play, luck, declarer_ns from split_tables
    union all
    select west, event, seq, 3, false, butler, bid, play, luck, declarer_ns from split_tables
)
where hash(label) % $parts = $part
  and ($labels::varchar[] is null or label in (select unnest($labels::varchar[])))
order by label, event, seq, seat;

-- name: split_totals_by_label
-- The kept sums of every pair ($kind 'pair') or player ('player'), by label (pairs.csv's and
-- players.csv's order: a label's bytes, as Python sorts a str).
select * from split_totals where kind = $kind order by label;

-- name: split_event_counts
-- Each kept event's counts and records left out, in the order of one pass.
select * from split_events order by event;
