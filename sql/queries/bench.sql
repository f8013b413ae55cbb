-- Named queries of the rating benchmark (bench/ratingbench): the DD facts of a store.

-- name: bench_dd_cells
-- Every DD table cell: the deal, strain, declarer and DD tricks.
select deal_id, strain, declarer, tricks from dd_tables;

-- name: bench_play_traces
-- Each played board's DD trace with the seat of every card.
select t.record_id, t.trace, b.play_seats
from play_traces t join boards b using (record_id);
