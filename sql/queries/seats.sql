-- Who sat where (stages/seats.py): each seat's matched or raw name and the id the source gives
-- for it, and the player key computed from them once per distinct (name, id).

-- name: make_seat_ids!
-- Every seat with the ranking-list name matching gave it (NULL: none, or an event the list does
-- not cover: board_players.player is then the raw name, no match), its raw name and the source
-- id (`north_id` ...).
create or replace temp table seat_ids as
select w.record_id, cast(w.seat as integer) as seat,
       case when w.method is not null and w.method <> 'not covered' then w.player end as matched,
       w.raw_name,
       case w.seat when 0 then b.north_id when 1 then b.east_id when 2 then b.south_id
                   when 3 then b.west_id end as source_id
from board_players w join boards b using (record_id);

-- name: seat_keys
-- The distinct (matched name, raw name, source id) of the seats, the most played first.
select matched, raw_name, source_id, count(*) as boards
from seat_ids group by all order by boards desc, matched, raw_name, source_id;

-- name: make_site_who!
-- `site_who(record_id, seat, player)`: each seat's player, from the key computed per distinct
-- (matched name, raw name, source id); seats without a player are left out.
create or replace temp table site_who as
with k as (
    select unnest(cast($matched as varchar[])) as matched,
           unnest(cast($raw_names as varchar[])) as raw_name,
           unnest(cast($source_ids as varchar[])) as source_id,
           unnest(cast($players as varchar[])) as player
)
select s.record_id, s.seat, k.player
from seat_ids s join k
  on s.matched is not distinct from k.matched and s.raw_name is not distinct from k.raw_name
 and cast(s.source_id as varchar) is not distinct from k.source_id
where k.player is not null;

-- name: side_label_names
-- Names a side writes at both its seats (a pair label, 'Para-11', or two people who share a
-- surname: ddrank.scoring.intake.identity.side_label tells them apart).
select distinct northname from boards where northname <> '' and northname = southname
union select distinct eastname from boards where eastname <> '' and eastname = westname;

-- name: site_who_rows
select record_id, seat, player from site_who;
