-- Named queries of the Lehman ratings (stages/ratings.py) over the scored results.

-- name: rating_events
-- Every scored event with its date and content hash: the rating periods, put in date order.
select event, coalesce(date, '') as date, content_hash from scored_events;

-- name: stored_rating_periods
select period_index, event, content_hash from rating_periods order by period_index;

-- name: rating_states_before
-- Each player's last state before period $start: where a recompute from $start begins.
select player, rating, weight, boards, period_index, w, w2, s1, s2 from (
    select *, row_number() over (partition by player order by period_index desc) k
    from rating_history where period_index < $start) where k = 1;

-- name: rating_boards
-- The scored table results of the events to rate (shares from the stored MP % or IMPs), once.
select event, players, ns_pct, imps from scored_results
where event in (select unnest($events)) order by event, record_id;

-- name: delete_rating_history_from!
delete from rating_history where period_index >= $start;

-- name: delete_rating_periods_from!
delete from rating_periods where period_index >= $start;

-- name: rating_period_labels
select period_index, event from rating_periods;

-- name: delete_ratings!
delete from ratings;

-- name: ratings_csv
select player, rating, boards, std_error, last_period from ratings order by rating desc, player;

-- name: rating_table
-- The top of the rating table, for the run summary and its Prefect artifact.
select player, round(rating, 2) rating, boards, round(std_error, 2) std_error, last_period
from ratings where boards >= $min_boards order by rating desc, player limit $limit;

-- name: count_ratings
select count(*) from ratings;

-- Named queries of the skill ratings (stages/skill.py): the DD facts of the scored table results.

-- name: skill_dd_tables
select deal_id, strain, declarer, tricks from dd_tables;

-- name: skill_play_traces
-- Each traced table's DD trace and who played each card (the boards' play seats).
select t.record_id, t.trace, b.play_seats from play_traces t join boards b using (record_id);

-- name: skill_periods
select period, idx from skill_periods;

-- name: skill_states
select player, component, rating, se, boards, last_period from skill_ratings;

-- name: delete_skill_ratings!
delete from skill_ratings;

-- name: delete_skill_periods!
delete from skill_periods;

-- name: skill_ratings_all
select * from skill_ratings order by player, component;

-- name: skill_event_sizes
-- The rated table results (as scored_tables) of each event by date: the skill stage reads whole
-- events a batch at a time, the earliest first (stages.skill.skill_event_batches).
select event, date, year, count(*) as results
from scored_results
where adjusted is null and contract is not null and contract <> ''
group by all;

-- name: skill_dd_tables_of
-- skill_dd_tables, of the deals the events $events played.
select deal_id, strain, declarer, tricks from dd_tables
where deal_id in (select deal_id from scored_results where event in (select unnest($events)));

-- name: skill_play_traces_of
-- skill_play_traces, of the tables of the events $events.
select t.record_id, t.trace, b.play_seats from play_traces t join boards b using (record_id)
where t.record_id in (select record_id from scored_results where event in (select unnest($events)));

-- name: rating_event_results
-- Each scored event's table results: the Lehman stage reads about RESULTS_PER_READ at a time.
select event, coalesce(results, 0) from scored_events;

-- name: skill_event_fingerprints
-- Each event's inputs to the skill ratings, hashed without order: its rated table results (the
-- columns scored_tables_of reads), the DD tables of their deals and their play traces with the
-- seats that played. A changed, added or removed row changes it (stages.skill.rate_store).
with r as (
    select event, record_id, deal_id,
           hash(record_id, session, section, match, board, played, deal_id, names, players,
                contract, declarer, tricks, ns_vulnerable, ew_vulnerable, year, date) as h
    from scored_results
    where adjusted is null and contract is not null and contract <> ''
), d as (
    select deal_id, bit_xor(hash(strain, declarer, tricks)) as h from dd_tables group by deal_id
), t as (
    select t.record_id, hash(t.trace, b.play_seats) as h
    from play_traces t join boards b using (record_id)
)
select r.event, bit_xor(hash(r.h, d.h, t.h)) as fingerprint
from r left join d using (deal_id) left join t using (record_id)
group by r.event;

-- name: skill_events
select event, fingerprint, first_period from skill_events;

-- name: delete_skill_events!
delete from skill_events;

-- name: skill_fit
select prefix_end, prefix_results, complete, params from skill_fit;

-- name: delete_skill_fit!
delete from skill_fit;

-- name: skill_restore
-- The last state before period $period of each skill ($players[i], $components[i]): where an
-- incremental run starts from.
select h.player, h.component, h.mean, h.var, h.boards, h.idx
from skill_history h
join (select unnest($players) as player, unnest($components) as component) k
  using (player, component)
where h.period < $period
qualify row_number() over (partition by h.player, h.component order by h.idx desc) = 1;

-- name: delete_skill_history_from!
delete from skill_history where period >= $period;

-- name: delete_skill_history!
delete from skill_history;

-- name: skill_ratings_from_history!
-- Each skill's last state, in (player, component) order: the stored skill ratings.
insert into skill_ratings
select player, component, mean, sqrt(var), boards, idx
from skill_history
qualify row_number() over (partition by player, component order by idx desc) = 1
order by player, component;
