-- Named queries of the terminal's lookups (stages/lookup.py): `ddrank player`, `ddrank event`.

-- name: lookup_board_events
-- Each kept board's event (as scoring names it: stages/lookup.py applies event_label) and name.
select b.record_id, b.event_id, b.event, b.year, b.date, e.name
from boards b left join events e on e.event_id = b.event_id;

-- name: lookup_rating
-- A player's Lehman rating, when the store has one.
select player, rating, std_error, boards, last_period from ratings where player = $player;

-- name: lookup_event_counts
-- A scored event's results, boards and players. A board is a deal; a result without one counts
-- by its session and board number (sections playing the same boards play one board), as the
-- site's event page counts (ddrank.site.data.Event.deals).
select count(*) as results,
       count(distinct coalesce(deal_id, coalesce(session, '') || '|' || coalesce(board, '')))
           as boards,
       (select count(distinct p) from (select unnest(string_split(players, '|')) as p
                                       from scored_results where event = $event) where p <> '')
           as players
from scored_results where event = $event;

-- name: lookup_player_events
-- The boards a player sat at, with their event (stages/lookup.py applies event_label).
select b.record_id, b.event_id, b.event, b.year, b.date, e.name
from site_who w join boards b using (record_id) left join events e on e.event_id = b.event_id
where w.player = $player;

-- name: lookup_partners
-- A player's partners (the seat across the table) and their boards together.
select p.player, count(*) as boards
from site_who w join site_who p on p.record_id = w.record_id and p.seat = (w.seat + 2) % 4
where w.player = $player
group by p.player order by boards desc, p.player;

-- name: lookup_player_boards
-- Boards per player.
select player, count(*) as boards from site_who group by player;
