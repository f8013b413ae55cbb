-- Named queries of the double-dummy stage (stages/dd.py): planning, storing solutions,
-- quarantine, tallying and par. Bulk rows are appended with `Store.insert_frame`.

-- name: dd_pending_boards
-- Boards with a deal and no player counters yet, in every partition or in `$partitions` only,
-- and whether each one's play trace is already stored.
SELECT b.*, EXISTS (SELECT 1 FROM play_traces t WHERE t.record_id = b.record_id) AS has_trace
FROM boards b
WHERE b.deal IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM player_board_stats s WHERE s.record_id = b.record_id)
  AND ($partitions IS NULL OR b.partition_id IN (SELECT unnest($partitions)))
ORDER BY b.partition_id, b.record_id;

-- name: dd_pending_boards_of_partition
-- The pending boards of one partition (what `tally_partition` counts).
SELECT b.* FROM boards b
WHERE b.deal IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM player_board_stats s WHERE s.record_id = b.record_id)
  AND b.partition_id = $partition_id;

-- name: dd_pending_partitions
-- (partition_id, pending boards) of the partitions `dd_pending_boards` would read from.
SELECT b.partition_id, count(*) FROM boards b
WHERE b.deal IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM player_board_stats s WHERE s.record_id = b.record_id)
  AND ($partitions IS NULL OR b.partition_id IN (SELECT unnest($partitions)))
GROUP BY b.partition_id ORDER BY b.partition_id;

-- name: dd_solved_deal_ids
SELECT DISTINCT deal_id FROM dd_tables;

-- name: dd_tables_of_deals
SELECT deal_id, strain, declarer, tricks FROM dd_tables
WHERE deal_id IN (SELECT unnest($deal_ids));

-- name: play_traces_of_records
SELECT record_id, trace FROM play_traces WHERE record_id IN (SELECT unnest($record_ids));

-- name: record_ids_of_deal
SELECT record_id FROM boards WHERE deal_id = $deal_id;

-- name: exclude_record!
-- Quarantine, step 1: the board's exclusion, with its source position when the raw record is known.
INSERT INTO exclusions (record_id, reason, detail, source_file, source_line, place)
SELECT $record_id, $reason, $detail, r.source_file, r.source_line, $place FROM (SELECT 1)
LEFT JOIN raw_records r ON r.record_id = $record_id
ON CONFLICT DO NOTHING;

-- name: raw_fields_of_records
-- The fields a record's place is made of (ddrank.raw.place_of), for the quarantine's exclusions.
SELECT record_id, event, session, stage, section, round, table_no, board_no, home_team,
       visit_team, room
FROM raw_records WHERE record_id IN (SELECT unnest($record_ids));

-- name: delete_player_board_stats_of_record!
DELETE FROM player_board_stats WHERE record_id = $record_id;

-- name: delete_play_trace_of_record!
DELETE FROM play_traces WHERE record_id = $record_id;

-- name: delete_board!
DELETE FROM boards WHERE record_id = $record_id;

-- name: par_pending
-- (deal_id, dealer, vulnerable) of every kept board that has a DD table but no par yet.
WITH dealt AS (
    SELECT DISTINCT deal_id, dealer,
        CASE WHEN ns_vulnerable AND ew_vulnerable THEN 'All' WHEN ns_vulnerable THEN 'NS'
             WHEN ew_vulnerable THEN 'EW' ELSE 'None' END AS vulnerable
    FROM boards
    WHERE dealer IS NOT NULL AND ns_vulnerable IS NOT NULL AND ew_vulnerable IS NOT NULL
)
SELECT d.deal_id, d.dealer, d.vulnerable FROM dealt d
WHERE EXISTS (SELECT 1 FROM dd_tables t WHERE t.deal_id = d.deal_id)
  AND NOT EXISTS (SELECT 1 FROM dd_par p WHERE p.deal_id = d.deal_id AND p.dealer = d.dealer
                  AND p.vulnerable = d.vulnerable);

-- name: played_boards_with_traces
-- Boards with a contract and at least a trick of play, with their stored DD trace (the
-- estimator's real positions); `$limit` NULL means all.
SELECT b.*, t.trace AS trace FROM boards b LEFT JOIN play_traces t USING (record_id)
WHERE b.play IS NOT NULL AND len(b.play) >= 4 AND b.declarer IS NOT NULL
ORDER BY b.record_id
LIMIT $limit;

-- name: played_boards
-- As played_boards_with_traces, for a store made before play traces existed.
SELECT b.*, NULL AS trace FROM boards b
WHERE b.play IS NOT NULL AND len(b.play) >= 4 AND b.declarer IS NOT NULL
ORDER BY b.record_id
LIMIT $limit;

-- name: has_table
SELECT count(*) > 0 FROM information_schema.tables WHERE table_name = $name;

-- name: boards_by_record_id
-- Every kept board (benchmarks read what the DD stage would see).
SELECT * FROM boards ORDER BY record_id;

-- name: dd_alternatives_done
-- Costly cards whose DD-best alternatives are stored (stages/dd_explain.py).
SELECT record_id, card_index FROM dd_card_alternatives;

-- name: dd_traced_boards
-- Kept boards with a play trace: where a costly card can be explained.
SELECT b.*, t.trace AS trace FROM boards b JOIN play_traces t USING (record_id)
ORDER BY b.record_id;

-- name: dd_pending_count
-- How many boards `dd_pending_boards` would return (to skip a DD run with nothing to do).
SELECT count(*) FROM boards b
WHERE b.deal IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM player_board_stats s WHERE s.record_id = b.record_id);
