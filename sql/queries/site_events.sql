-- Named queries of the site read one event at a time (stages/site_reader.py): the event list and
-- its counts, each player's events and partners, then each batch of events' rows. Python holds
-- one batch of events (bounded by results, not by the archive) and the per-player counts.
-- `site_who(record_id, seat, player)` is the seats' temporary table (stages/seats.py).

-- name: site_event_keys
-- The distinct columns an event's label is made of (`ddrank.scoring.intake.records.event_label`):
-- a few rows per event, labelled in Python.
select distinct event_id, event, date, year from boards;

-- name: make_site_event_of!
-- `site_event_of(record_id, ev, pos)`: each result's event (`ev`, the stage's number of its
-- label) and its place in the results booklet's order over the whole store (session, section,
-- board number, deal, room, table: the order `stages.site._traveller_order` sorted rows in).
create or replace temp table site_event_of as
with k as (
    select unnest(cast($event_ids as varchar[])) as event_id,
           unnest(cast($events as varchar[])) as event,
           unnest(cast($dates as varchar[])) as date,
           unnest(cast($years as integer[])) as year,
           unnest(cast($evs as integer[])) as ev
)
select b.record_id, k.ev,
       row_number() over (order by coalesce(b.session, ''), coalesce(b.section, ''),
           case when regexp_full_match(trim(b.board_no), '[+-]?[0-9]{1,18}')
                then cast(trim(b.board_no) as bigint) else 1000000000 end,
           coalesce(b.board_no, ''), coalesce(b.deal_id, ''), coalesce(b.room, ''),
           case when regexp_full_match(trim(b.table_no), '[+-]?[0-9]{1,18}')
                then cast(trim(b.table_no) as bigint) else 1000000000 end,
           b.record_id) as pos
from boards b join k
  on b.event_id is not distinct from k.event_id and b.event is not distinct from k.event
 and b.date is not distinct from k.date and b.year = k.year;

-- name: site_event_list
-- One row per event: its first result's columns (name, year, date, scoring: as the first line of
-- its booklet names them), how many results, deals and players, how many were scored (and whether
-- as matchpoints), how many lines hold a score, its model ids, files, and the site most named.
with firsts as (
    select e.ev, e.pos, b.event_id, b.event, b.year, b.date, nullif(b.scoring, '') as scoring
    from site_event_of e join boards b using (record_id)
    qualify row_number() over (partition by e.ev order by e.pos) = 1
), scored as (
    select record_id, bool_or(ns_mp is not null) as mp from scored_results group by record_id
), counts as (
    select e.ev, count(*) as results,
           count(distinct coalesce(nullif(b.deal_id, ''), coalesce(b.session, '') || '|'
                 || coalesce(nullif(b.board_no, ''), '?'))) as deals,
           count(s.record_id) as scored, coalesce(bool_or(s.mp), false) as any_mp,
           count(*) filter (where coalesce(b.contract, '') <> '' or coalesce(b.adjusted, '') <> ''
                            or b.ns_score is not null) as lines,
           list(distinct b.event_id order by b.event_id)
               filter (where coalesce(b.event_id, '') <> '') as model_ids,
           list(distinct r.source_file order by r.source_file)
               filter (where coalesce(r.source_file, '') <> '') as sources
    from site_event_of e join boards b using (record_id)
    left join raw_records r using (record_id)
    left join scored s using (record_id)
    group by e.ev
), sites as (
    select ev, site from (
        select e.ev, trim(r.site) as site, count(*) as n, min(e.pos) as first
        from site_event_of e join raw_records r using (record_id)
        where trim(coalesce(r.site, '')) <> ''
        group by all)
    qualify row_number() over (partition by ev order by n desc, first) = 1
), people as (
    select e.ev, count(distinct w.player) as players
    from site_who w join site_event_of e using (record_id) group by e.ev
)
select f.*, c.results, c.deals, c.scored, c.any_mp, c.lines, c.model_ids, c.sources, s.site,
       coalesce(p.players, 0) as players
from firsts f join counts c using (ev) left join sites s using (ev) left join people p using (ev)
order by f.pos;

-- name: site_player_events
-- Each player's boards per event (a seat counted once per result).
select w.player, e.ev, count(*) as boards
from site_who w join site_event_of e using (record_id)
group by all;

-- name: make_site_event_rank!
-- `site_event_rank(ev, rnk)`: the events in the order the site lists them.
create or replace temp table site_event_rank as
select unnest(cast($evs as integer[])) as ev, unnest(cast($ranks as integer[])) as rnk;

-- name: site_player_partners
-- Each player's 15 most frequent partners (the player across the table), most boards first,
-- ties in the order the site meets them (events as listed, then the booklet's order).
select player, partner, boards from (
    select w.player, q.player as partner, count(*) as boards,
           min(k.rnk * 68719476736 + e.pos * 4 + w.seat) as first
    from site_who w
    join site_who q on q.record_id = w.record_id and q.seat = (w.seat + 2) % 4
    join site_event_of e on e.record_id = w.record_id
    join site_event_rank k on k.ev = e.ev
    group by all)
qualify row_number() over (partition by player order by boards desc, first) <= 15
order by player, boards desc, first;

-- name: make_site_result_rows!
-- `site_result_rows`: every result as the site shows it (its event `ev`, its place `pos`), read a
-- batch of events at a time (`site_batch_results`) and hashed by the event (`site_hash_results`).
create or replace temp view site_result_rows as
select e.ev, e.pos, b.record_id, b.event_id, b.event, b.year, b.board_no, b.room,
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
from site_event_of e
join boards b using (record_id)
left join raw_records r using (record_id)
left join dd_tables t on t.deal_id = b.deal_id and t.declarer = b.declarer
     and t.strain = substr(b.contract, 2, 1)
left join play_traces tr on tr.record_id = b.record_id
left join dd_par p on p.deal_id = b.deal_id and p.dealer = b.dealer
     and p.vulnerable = case when b.ns_vulnerable and b.ew_vulnerable then 'All'
          when b.ns_vulnerable then 'NS' when b.ew_vulnerable then 'EW' else 'None' end;

-- name: site_batch_results
-- The results of the events `$evs`, in the booklet's order.
select * exclude (ev, pos) from site_result_rows
where list_contains(cast($evs as integer[]), ev)
order by pos;

-- name: site_hash_results
-- Each event's content hashes (`ddrank.site.rebuild`): a sum over the rows its pages are made
-- of, so a rebuild reads only the events whose rows changed. A row's place among its event's is
-- set by its own columns (the booklet's order), so a sum (not an ordered hash) is enough; `pos`,
-- a place over the whole store, moves when another event is added and is left out, as is `ev`
-- (the stage's number of the event, which a rebuild may number otherwise).
select ev, cast(sum(hash(*columns(* exclude (ev, pos)))) as varchar) as h
from site_result_rows group by ev;

-- name: site_hash_scored
select e.ev, cast(sum(hash(s)) as varchar) as h
from scored_results s join site_event_of e on e.record_id = s.record_id group by e.ev;

-- name: site_hash_seats
select e.ev, cast(sum(hash(w.record_id, w.seat, w.player, s)) as varchar) as h
from site_who w
join site_event_of e on e.record_id = w.record_id
left join player_board_stats s on s.record_id = w.record_id and s.seat = w.seat
group by e.ev;

-- name: site_hash_dd_tables
select d.ev, cast(sum(hash(t)) as varchar) as h
from (select distinct e.ev, b.deal_id from site_event_of e join boards b using (record_id)) d
join dd_tables t on t.deal_id = d.deal_id group by d.ev;

-- name: site_hash_published_dd
select d.ev, cast(sum(hash(t)) as varchar) as h
from (select distinct e.ev, b.deal_id from site_event_of e join boards b using (record_id)) d
join published_dd t on t.deal_id = d.deal_id group by d.ev;

-- name: site_hash_card_alternatives
select e.ev, cast(sum(hash(a)) as varchar) as h
from dd_card_alternatives a join site_event_of e on e.record_id = a.record_id group by e.ev;

-- name: site_hash_player_results
select e.ev, cast(sum(hash(p)) as varchar) as h
from player_results p join site_event_of e on e.record_id = p.record_id group by e.ev;

-- name: site_hash_mistake_costs
select e.ev, cast(sum(hash(m)) as varchar) as h
from mistake_costs m join site_event_of e on e.record_id = m.record_id group by e.ev;

-- name: site_record_events
-- The event (`ev`) of each of the results `$records` (the costliest mistakes' tables).
select e.record_id, e.ev from site_event_of e
where e.record_id in (select unnest(cast($records as varchar[])));

-- name: site_batch_scored
select s.* from scored_results s join site_event_of e using (record_id)
where list_contains(cast($evs as integer[]), e.ev);

-- name: site_batch_deals
-- The deals of the events `$evs` (for their DD tables).
select distinct b.deal_id from boards b join site_event_of e using (record_id)
where list_contains(cast($evs as integer[]), e.ev) and b.deal_id is not null;

-- name: site_batch_dd_tables
select deal_id, strain, declarer, tricks from dd_tables
where deal_id in (select unnest(cast($deals as varchar[])));

-- name: site_batch_published_dd
select deal_id, dd_tricks from published_dd
where deal_id in (select unnest(cast($deals as varchar[])));

-- name: site_batch_card_alternatives
select a.* from dd_card_alternatives a join site_event_of e using (record_id)
where list_contains(cast($evs as integer[]), e.ev);

-- name: site_batch_rankings
-- The tables whose rows name an event (`stages.site.BY_EVENT`), read a batch of events at a time:
-- the rows naming any of `$keys` (the events' ids, names and model ids) by `event` or `event_id`
-- (NULL as ''), in the table's order. The site filters each event's own rows from them.
select * from rankings
where coalesce(event, '') in (select unnest(cast($keys as varchar[]))) order by rowid;

-- name: site_batch_published_standings
select * from published_standings
where coalesce(event, '') in (select unnest(cast($keys as varchar[])))
   or coalesce(event_id, '') in (select unnest(cast($keys as varchar[])))
order by rowid;

-- name: site_batch_team_matches
select * from team_matches
where coalesce(event, '') in (select unnest(cast($keys as varchar[]))) order by rowid;

-- name: site_batch_scoring_errors
select * from scoring_errors
where coalesce(event, '') in (select unnest(cast($keys as varchar[]))) order by rowid;

-- name: site_league_names_rankings
-- The events the rankings or the team matches name (`ddrank.site.data.league_events`).
select distinct coalesce(event, '') as event from rankings;

-- name: site_league_names_matches
select distinct coalesce(event, '') as event from team_matches;

-- name: site_batch_player_results
select p.* from player_results p join site_event_of e using (record_id)
where list_contains(cast($evs as integer[]), e.ev);

-- name: site_batch_table_costs
select m.record_id, side, unit, sum(cost) as cost
from (select distinct record_id, side, kind, card_index, call_index, cost, unit
      from mistake_costs where basis = 'table' and cost is not null) m
join site_event_of e using (record_id)
where list_contains(cast($evs as integer[]), e.ev)
group by m.record_id, side, unit;

-- name: site_any_dd_tables
-- Whether any kept board's deal has a DD table.
select exists(select 1 from dd_tables where deal_id in (select deal_id from boards));

-- name: site_any_published_dd
-- Whether any file published a DD table.
select exists(select 1 from published_dd);

-- name: site_batch_seats
-- Who sat where in the events `$evs`, with that seat's DD mistakes on the board (0 when not
-- analysed); `cost` sums the weighted counters, `auction_mistakes` the auction counters.
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
join site_event_of e on e.record_id = w.record_id
left join player_board_stats s on s.record_id = w.record_id and s.seat = w.seat
where list_contains(cast($evs as integer[]), e.ev);

-- name: site_played_deals
-- Which of the deals `$deals` (a hand record's) a kept result was played on.
select distinct deal_id from boards where deal_id in (select unnest(cast($deals as varchar[])));
