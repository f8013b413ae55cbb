-- Named queries of the regression stage (stages/regression.py) and the player table artifact.

-- name: regression_player_table
-- The per-player table the regression reads (`ddrank regress --db --table`); the table name is
-- checked against an identifier pattern before it gets here.
select * from query_table($table);

-- name: regression_board_count
-- Boards in the store: Table 9's minima are scaled by boards / 190,622.
select count(*) from boards;

-- name: regression_has_player_stats
-- player_stats is written by the DD stage (sql/player_stats.sql); before it there is nobody to rank.
select count(*) from information_schema.tables where table_name = 'player_stats';

-- name: regression_has_table
-- Whether the table `ddrank regress --db --table` names exists (a store before `ddrank dd` has no
-- player_stats).
select count(*) from information_schema.tables where table_name = $table;

-- name: regression_eligible_players
-- Matched players (with ranking points) past every opportunity threshold of Table 9.
select count(*)
from player_stats
where pp is not null and mp is not null
  and claims >= $claims
  and leads >= $leads
  and cards_played_as_declarer >= $cards_played_as_declarer
  and cards_played_as_defender >= $cards_played_as_defender
  and auctions_analyzed >= $auctions_analyzed;

-- name: top_players_by_boards
-- The players with the most boards, with their main mistake rates (the Prefect UI's table).
select player, boards, mp, pp, lead_mistakes_per_lead,
       defender_mistakes_per_card_played_as_defender,
       declarer_mistakes_per_card_played_as_declarer
from player_stats
order by boards desc, player
limit $limit;
