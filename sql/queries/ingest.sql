-- Named queries of the ingest stage (stages/ingest.py, stages/ingest_events.py, flows/inbox.py,
-- stages/freshness.py). Frames of new rows are registered under the names these queries read.

-- name: next_partition
-- New records go to new partitions, never into existing ones.
select coalesce(max(partition_id) + 1, 0) from raw_records;

-- name: source_file_digests
-- Files already ingested: path, content digest and how many records they held.
select path, sha1, records from source_files;

-- name: source_file_hashes
-- Content digests of every file already ingested (the inbox's "seen before").
select sha1 from source_files;

-- name: record_source_file!
insert or replace into source_files (path, sha1, format, records, new_records)
values ($path, $sha1, $format, $records, $new_records);

-- name: record_source_files!
-- Files ingested (frame `new_sources`: path, sha1, format, records, new_records).
insert or replace into source_files (path, sha1, format, records, new_records)
select path, sha1, format, records, new_records from new_sources;

-- name: partitions_from
-- The partitions holding records, from `first` on (the ones an ingest just wrote).
select distinct partition_id from raw_records where partition_id >= $first order by 1;

-- name: delete_new_records_of!
-- A file refused while it was being stored (over a limit): its records of this ingest go again.
delete from raw_records where source_file = $source_file and partition_id >= $first;

-- name: known_record_ids
-- Which of the probed record ids (frame `probe`) the store has already.
select r.record_id from raw_records r join probe using (record_id);

-- name: insert_raw_records!
-- New records (frame `new_raw`: the record's fields, its id and its partition), by column name.
insert into raw_records by name select * from new_raw;

-- name: insert_events!
-- New events; an event already known gets what an earlier file left empty.
insert into events (event_id, name, organiser, date_start, date_end, scoring, movement,
                    across_field, mp_top, scorer, federation, fields, rankings, max_score,
                    source_file)
select event_id, name, organiser, date_start, date_end, scoring, movement, across_field, mp_top,
       scorer, federation, fields, rankings, max_score, source_file
from new_rows
on conflict (event_id) do update set
    name = coalesce(nullif(CAST(events.name AS VARCHAR), ''), CAST(excluded.name AS VARCHAR)),
    organiser = coalesce(nullif(CAST(events.organiser AS VARCHAR), ''),
                         CAST(excluded.organiser AS VARCHAR)),
    date_start = coalesce(nullif(CAST(events.date_start AS VARCHAR), ''),
                          CAST(excluded.date_start AS VARCHAR)),
    date_end = coalesce(nullif(CAST(events.date_end AS VARCHAR), ''),
                        CAST(excluded.date_end AS VARCHAR)),
    scoring = coalesce(nullif(CAST(events.scoring AS VARCHAR), ''),
                       CAST(excluded.scoring AS VARCHAR)),
    movement = coalesce(nullif(CAST(events.movement AS VARCHAR), ''),
                        CAST(excluded.movement AS VARCHAR)),
    mp_top = coalesce(nullif(CAST(events.mp_top AS VARCHAR), ''),
                      CAST(excluded.mp_top AS VARCHAR)),
    scorer = coalesce(nullif(CAST(events.scorer AS VARCHAR), ''),
                      CAST(excluded.scorer AS VARCHAR)),
    federation = coalesce(nullif(CAST(events.federation AS VARCHAR), ''),
                          CAST(excluded.federation AS VARCHAR)),
    fields = coalesce(nullif(CAST(events.fields AS VARCHAR), ''), CAST(excluded.fields AS VARCHAR)),
    rankings = coalesce(nullif(CAST(events.rankings AS VARCHAR), ''),
                        CAST(excluded.rankings AS VARCHAR)),
    max_score = coalesce(nullif(CAST(events.max_score AS VARCHAR), ''),
                         CAST(excluded.max_score AS VARCHAR));

-- name: insert_published_standings!
insert into published_standings (standing_id, event_id, source_file, source_line, event, date,
                                  session, section, direction, pair, team_name, players,
                                  player_ids, published_mp, published_pct, published_imps,
                                  published_vp, published_place, phantom, opponent, strat,
                                  adjustment, carryover, eligible, overall, boards, award,
                                  cumulative_place, cumulative_mp, cumulative_pct,
                                  cumulative_boards)
select standing_id, event_id, source_file, source_line, event, date, session, section, direction,
       pair, team_name, players, player_ids, published_mp, published_pct, published_imps,
       published_vp, published_place, phantom, opponent, strat, adjustment, carryover, eligible,
       overall, boards, award, cumulative_place, cumulative_mp, cumulative_pct, cumulative_boards
from new_rows
on conflict (standing_id) do nothing;

-- name: insert_deals!
insert into deals (deal_key, event_id, source_file, source_line, session, section, board_no,
                   deal, dealer, vulnerable, par_score, par_contract, dd_tricks)
select deal_key, event_id, source_file, source_line, session, section, board_no, deal, dealer,
       vulnerable, par_score, par_contract, dd_tricks
from new_rows
on conflict (deal_key) do nothing;

-- name: insert_published_dd!
insert into published_dd (deal_id, dd_tricks, source_file)
select deal_id, dd_tricks, source_file from new_rows
on conflict (deal_id) do nothing;

-- name: base_tables
-- The store's tables (not views), for the row counts the run manifest keeps.
select table_name from information_schema.tables
where table_schema = 'main' and table_type = 'BASE TABLE' order by table_name;

-- name: hand_record_dd
-- Hand-record deals, and how many carry their DD table in the file (`ddrank results` says so).
select count(*) as deals, count(nullif(dd_tricks, '')) as with_dd from deals;

-- name: folder_records
-- The table results stored from files whose path starts with `prefix` (a folder and its
-- separator): files a new file of that folder may join (ddrank.events.group_unnamed).
select source_file, source_line, source_format, coalesce(parse_error, '') as parse_error,
       coalesce(event, '') as event, coalesce(date, '') as date,
       coalesce(board_no, '') as board_no, coalesce(deal, '') as deal,
       coalesce(northname, '') as northname, coalesce(eastname, '') as eastname,
       coalesce(southname, '') as southname, coalesce(westname, '') as westname
from raw_records where starts_with(source_file, $prefix)
order by source_file, source_line;

-- name: insert_raw_records_from!
-- An ingest's new records, spooled to parquet files (`files`: their glob), in one statement.
insert into raw_records by name select * from read_parquet($files);
