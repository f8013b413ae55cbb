-- Named queries of the clean stage (stages/clean.py) and of its audit (stages/audit.py).

-- name: pending_partitions
-- The partitions holding raw records neither kept nor excluded yet, with their counts, in order.
select r.partition_id, count(*) from raw_records r
where not exists (select 1 from boards b where b.record_id = r.record_id)
  and not exists (select 1 from exclusions e where e.record_id = r.record_id)
group by r.partition_id order by r.partition_id;

-- name: export_pending!
-- Raw records neither kept nor excluded yet, of partitions $first to $last, to a parquet file the
-- cleaning workers read (stages.clean exports an archive's a few partitions a file).
copy (
    select r.record_id, r.source_file, r.source_line, r.source_format, r.event, r.date, r.site,
           r.board_no, r.stage, r.dealer, r.deal, r.vulnerable, r.bidstart, r.auction,
           r.contract, r.declarer, r.lead, r.play, r.play_format, r.result, r.northname,
           r.eastname, r.southname, r.westname, r.scoring, r.home_team, r.visit_team, r.room,
           r.parse_error, r.organiser, r.session, r.section, r.round, r.table_no, r.ns_pair,
           r.ew_pair, r.north_id, r.east_id, r.south_id, r.west_id, r.ns_score, r.adjusted,
           r.phantom, r.published_ns_mp, r.published_ew_mp, r.published_ns_pct,
           r.published_ew_pct, r.published_imps, r.par_score, r.par_contract, r.occurrence,
           r.lead_card, r.published_datum, r.player_numbers, r.ew_score, r.repeat, r.partition_id
    from raw_records r
    where r.partition_id between $first and $last
      and not exists (select 1 from boards b where b.record_id = r.record_id)
      and not exists (select 1 from exclusions e where e.record_id = r.record_id)
    order by r.partition_id, r.source_file, r.source_line
) to $path (format parquet, row_group_size 10000);  -- a worker's chunk reads its row groups only

-- name: first_calls
-- The first call of every auction, per file: does the file write the passes before the opening?
select distinct source_file, split_part(trim(auction), ' ', 1) from raw_records
where auction is not null and trim(auction) <> '';

-- name: load_boards!
-- The workers' boards (parquet files matching $files), each with its raw record's partition (the
-- pending export carries it): no join with raw_records, whose hash table held every board's
-- columns (clean's own peak at 1M generated results: +369 MB in this statement, issue 37).
insert into boards by name select * from read_parquet($files);

-- name: load_exclusions!
insert into exclusions select * from read_parquet($files);

-- name: load_auction_issues!
insert into auction_issues select * from read_parquet($files);

-- name: load_play_issues!
insert into play_issues select * from read_parquet($files);

-- name: count_raw_records
select count(*) from raw_records;

-- name: count_boards
select count(*) from boards;

-- name: exclusion_reasons
select reason, count(*) from exclusions group by reason;

-- name: auction_issue_reasons
select reason, count(*) from auction_issues group by reason;

-- name: play_issue_reasons
select reason, count(*) from play_issues group by reason;

-- name: repair_kinds
-- The documented repairs of cleaning, by kind (the text before the colon).
select split_part(unnest(string_split(repairs, '; ')), ':', 1) as kind, count(*)
from boards where repairs is not null group by kind order by kind;

-- name: usable_for_scoring
-- Scoring (matchpoints, IMPs): a contract and tricks, a passed-out board, a published score or
-- an adjusted score.
select count(*) from boards
where (contract = 'P' or (contract is not null and result is not null)
       or ns_score is not null or adjusted is not null);

-- name: usable_for_dd_table
select count(*) from boards where deal is not null;

-- name: usable_for_dd_play
select count(*) from boards where deal is not null and play is not null;

-- name: usable_for_auction
select count(*) from boards where auction is not null;

-- name: usable_for_players
-- At least one name (the paper's rule).
select count(*) from boards
where coalesce(northname, '') || coalesce(eastname, '') || coalesce(southname, '')
      || coalesce(westname, '') <> '';

-- name: note_missing_names
select count(*) from boards
where not (coalesce(northname, '') || coalesce(eastname, '') || coalesce(southname, '')
           || coalesce(westname, '') <> '');

-- name: note_missing_deal
select count(*) from boards where deal is null;

-- name: note_adjusted
select count(*) from boards where adjusted is not null;

-- name: note_phantom
select count(*) from boards where phantom is not null;
