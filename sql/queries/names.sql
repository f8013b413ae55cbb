-- Named queries of the name-matching stage (stages/names.py). Tables: sql/player_matches.sql.

-- name: names_board_count
-- Boards in the store: matching needs ingested, cleaned boards.
select count(*) from boards;

-- name: names_board_seats
-- The seat names of every board with the context they are matched in (event, year, teams, room).
select event, year, home_team, visit_team, room, northname, eastname, southname, westname
from boards
order by record_id;

-- name: names_clear_rankings!
-- Matches always refer to the latest ranking list: the old list goes first.
delete from ranking_players;

-- name: names_clear_matches!
-- Matching is global (context can change any decision): the old decisions go first.
delete from player_matches;
