-- Named queries of the terminal's lookups (stages/lookup.py): `ddrank player`, `ddrank event`.

-- name: lookup_board_events
-- Each kept board's event (as scoring names it: stages/lookup.py applies event_label) and name.
select b.record_id, b.event_id, b.event, b.year, b.date, e.name
from boards b left join events e on e.event_id = b.event_id;

-- name: lookup_rating
-- A player's Lehman rating, when the store has one.
select player, rating, std_error, boards, last_period from ratings where player = $player;

-- name: lookup_event_counts
-- A scored event's results, boards (session, section, board) and players.
select count(*) as results,
       count(distinct (session, section, board)) as boards,
       (select count(distinct p) from (select unnest(string_split(players, '|')) as p
                                       from scored_results where event = $event) where p <> '')
           as players
from scored_results where event = $event;

-- name: register_site_who!
-- Who sat where, keyed as stages/seats.py keys players, for the queries that join `site_who`.
create or replace temp table site_who as
select unnest(cast($record_ids as varchar[])) as record_id,
       unnest(cast($seats as integer[])) as seat,
       unnest(cast($players as varchar[])) as player;
