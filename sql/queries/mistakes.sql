-- Named queries of the mistake-costs stage (stages/mistakes.py) and the terminal's lookups.

-- name: mistake_event_inputs
-- Per scored event: what its mistake costs are computed from (its scores' hash, how many of its
-- results have a play trace, how many of its deals a DD table).
select s.event,
       any_value(e.content_hash) || '|' || count(t.record_id) || '|'
           || count(distinct d.deal_id) as inputs
from scored_results s
join scored_events e on e.event = s.event
join boards b on b.record_id = s.record_id
left join play_traces t on t.record_id = s.record_id
left join (select distinct deal_id from dd_tables) d on d.deal_id = b.deal_id
group by s.event;

-- name: mistake_event_done
select event, inputs from mistake_cost_events;

-- name: mistake_tables
-- The scored results of the given events that have something to analyse: an auction with the
-- deal's DD table, or a play trace.
select s.record_id, s.event, s.board, b.deal_id, b.contract, b.declarer, b.result,
       b.claim_tricks, b.auction, b.bidstart, b.play, b.play_seats, t.trace,
       b.ns_vulnerable, b.ew_vulnerable, b.year
from scored_results s
join boards b on b.record_id = s.record_id
left join play_traces t on t.record_id = s.record_id
where s.event in (select unnest($events))
  and (t.record_id is not null
       or (b.auction is not null and b.deal_id in (select deal_id from dd_tables)));

-- name: mistake_dd_tables
-- The DD table of each deal of the given events.
select d.deal_id, d.strain, d.declarer, d.tricks
from dd_tables d
where d.deal_id in (select b.deal_id from boards b join scored_results s using (record_id)
                    where s.event in (select unnest($events)));

-- name: mistake_scoring
-- How each event was scored: the unit and the options its costs are valued with.
select event, scoring, mp_method, mp_top from scored_events;

-- name: delete_mistake_costs!
delete from mistake_costs where event in (select unnest($events));

-- name: delete_mistake_cost_events!
delete from mistake_cost_events where event in (select unnest($events));

-- name: player_mistakes
-- One player's costliest mistakes (rank 1 first), with the event and board they were made on.
select * from ranked_mistakes where player = $player and rank <= $top order by rank;

-- name: any_dd_analysis
select exists (select 1 from play_traces) or exists (select 1 from dd_tables);

-- name: any_mistake_costs
select exists (select 1 from mistake_costs);

-- name: rekey_mistake_players
-- Each stored mistake charged to its seat's player as `site_who` (stages/seats.read_who) keys
-- the seats now, one row returned per mistake re-keyed. A seat nobody holds any more charges
-- nobody.
update mistake_costs m
set player = (select w.player from site_who w
              where w.record_id = m.record_id and w.seat = position(m.seat in 'NESW') - 1)
where m.player is distinct from
      (select w.player from site_who w
       where w.record_id = m.record_id and w.seat = position(m.seat in 'NESW') - 1)
returning 1;
