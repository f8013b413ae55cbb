-- Scoring and ratings (issue 13). Idempotent; applied on every read-write connect.
--
-- scored_results: one row per scored table result (phantom tables are not results).
--   record_id       boards.record_id of the table result
--   event           the event (boards.event_id, else "name (year)")
--   session, section, board   the director's board: (event, session, section, board)
--   ns_pair, ew_pair, ns_players, ew_players   as read
--   contract, declarer, tricks, ns_score       ns_score NULL for an adjusted score
--   adjusted        'NS%/EW%' of an adjusted score, else NULL
--   field_size      N: results the board is scored over (the fullest board of its field)
--   ns_mp, ew_mp, ns_pct, ew_pct   matchpoints (top `mp_top` per result beaten) and percentages
--   imps            North-South's IMPs: against the other room (teams), cross-IMPs or Butler
--   butler          North-South's Butler IMPs against the field's datum (teams events)
--   published_ns_mp, published_ew_mp, published_ns_pct, published_imps   as the source published
--   players         the four seats' identities N|E|S|W (matched name, id:<source id>, or name)
--   content_hash    hash of the event's input rows: a rerun skips an event whose hash is unchanged
--   match, played, deal_id, names, ns_vulnerable, ew_vulnerable, year, date   what the stages
--                   after scoring compare tables by (the bid/play split, the skill ratings): the
--                   teams match, the deal as played (cards, dealer, vulnerability), the store's
--                   deal, the seats' names as read N|E|S|W, and the board's date (or year)
-- rankings: one row per pair (or team, or player) per ranking.
--   kind            'pairs' (MP or IMP pairs), 'teams' (VPs), 'butler' (pairs of a teams event),
--                   'individual' (players of an individual event: pair is the player's number)
--   session         '' = the whole event; section '' = across the field (or no sections)
--   direction       'NS' / 'EW' in a two-winner Mitchell, '' otherwise
--   pair, players, boards
--   score           matchpoints (pairs MP), IMPs (IMP pairs, Butler total), VPs (teams)
--   pct             percentage (matchpoint events), NULL otherwise
--   rank            place; ties share it
--   published_pct, published_place   from published_standings where the source published one
-- team_matches: one row per team per match: event, session, section, team, opponent, boards,
--   imps_for, imps_against, vp (WBF continuous 20-VP scale).
-- ratings: the current Lehman state per player (the recursion needs nothing else):
--   player (identity: matched ranking name, id:<source id>, or raw name), rating (%), boards,
--   std_error, last_period (event), period_index, and the recursion's sums (weight, w, w2, s1, s2).
-- rating_history: the same state after each period the player played (period = event, in date
--   order); a recompute from period k starts from each player's last row before k.
-- scored_events: event, date, scoring, content_hash, results: what `ddrank score` last scored.
-- rating_periods: the periods in order (period_index, event, date, content_hash).

CREATE TABLE IF NOT EXISTS scored_results (
    record_id VARCHAR, event VARCHAR, session VARCHAR, section VARCHAR, board VARCHAR,
    ns_pair VARCHAR, ew_pair VARCHAR, ns_players VARCHAR, ew_players VARCHAR,
    contract VARCHAR, declarer VARCHAR, tricks INTEGER, ns_score INTEGER, adjusted VARCHAR,
    field_size INTEGER, ns_mp DOUBLE, ew_mp DOUBLE, ns_pct DOUBLE, ew_pct DOUBLE,
    imps DOUBLE, butler DOUBLE,
    published_ns_mp DOUBLE, published_ew_mp DOUBLE, published_ns_pct DOUBLE, published_imps DOUBLE,
    players VARCHAR, content_hash VARCHAR
);
ALTER TABLE scored_results ADD COLUMN IF NOT EXISTS match VARCHAR;
ALTER TABLE scored_results ADD COLUMN IF NOT EXISTS played VARCHAR;
ALTER TABLE scored_results ADD COLUMN IF NOT EXISTS deal_id VARCHAR;
ALTER TABLE scored_results ADD COLUMN IF NOT EXISTS names VARCHAR;
ALTER TABLE scored_results ADD COLUMN IF NOT EXISTS ns_vulnerable BOOLEAN;
ALTER TABLE scored_results ADD COLUMN IF NOT EXISTS ew_vulnerable BOOLEAN;
ALTER TABLE scored_results ADD COLUMN IF NOT EXISTS year INTEGER;
ALTER TABLE scored_results ADD COLUMN IF NOT EXISTS date VARCHAR;

-- An individual event's players at each table by their numbers in the event ('N|E|S|W').
ALTER TABLE scored_results ADD COLUMN IF NOT EXISTS player_numbers VARCHAR;

-- player_results: an individual event, one row per player per board: the side's score the player
--   takes (matchpoints, or IMPs), its percentage of the board's top, the seat and the player.
CREATE TABLE IF NOT EXISTS player_results (
    event VARCHAR, session VARCHAR, section VARCHAR, board VARCHAR, record_id VARCHAR,
    seat VARCHAR, player_number VARCHAR, player VARCHAR, score DOUBLE, pct DOUBLE
);

CREATE TABLE IF NOT EXISTS rankings (
    event VARCHAR, kind VARCHAR, session VARCHAR, section VARCHAR, direction VARCHAR,
    pair VARCHAR, players VARCHAR, boards INTEGER, score DOUBLE, pct DOUBLE, rank INTEGER,
    published_pct DOUBLE, published_place VARCHAR
);

-- Each ranking line as its scorer prints it (ddrank.scoring.verification.printed), kept once: every output
-- prints these and none recomputes a place or guesses decimals. rulebook: the producer's
-- (ddrank/scoring/rulebooks, '' = none known); *_decimals: what it prints totals and
-- percentages with; place_text: '4', '4=' or '4/5' as the rulebook prints a tie, or the
-- scorer's own place where it broke a tie; score_text, pct_text: at those decimals (the
-- scorer's digits where ours agrees with them at its printed precision).
ALTER TABLE rankings ADD COLUMN IF NOT EXISTS rulebook VARCHAR;
ALTER TABLE rankings ADD COLUMN IF NOT EXISTS score_decimals INTEGER;
ALTER TABLE rankings ADD COLUMN IF NOT EXISTS pct_decimals INTEGER;
ALTER TABLE rankings ADD COLUMN IF NOT EXISTS place_text VARCHAR;
ALTER TABLE rankings ADD COLUMN IF NOT EXISTS score_text VARCHAR;
ALTER TABLE rankings ADD COLUMN IF NOT EXISTS pct_text VARCHAR;
-- line_decimals: what the scorer rounds each board's value to before summing (NULL: exact sums);
-- a scorecard rounds its boards to them, never guessing.
ALTER TABLE rankings ADD COLUMN IF NOT EXISTS line_decimals INTEGER;
-- factor: what the pair's summed board values were multiplied by to give its total (a pair
-- that played fewer boards, a field of another top: ACBLscore's, the IMP rules'), 1 otherwise;
-- a scorecard states it and totals to the stored score.
ALTER TABLE rankings ADD COLUMN IF NOT EXISTS factor DOUBLE;

CREATE TABLE IF NOT EXISTS team_matches (
    event VARCHAR, session VARCHAR, section VARCHAR, team VARCHAR, opponent VARCHAR,
    boards INTEGER, imps_for DOUBLE, imps_against DOUBLE, vp DOUBLE
);

CREATE TABLE IF NOT EXISTS ratings (
    player VARCHAR PRIMARY KEY, rating DOUBLE, boards INTEGER, std_error DOUBLE,
    last_period VARCHAR, period_index INTEGER,
    weight DOUBLE, w DOUBLE, w2 DOUBLE, s1 DOUBLE, s2 DOUBLE
);

CREATE TABLE IF NOT EXISTS rating_history (
    player VARCHAR, period_index INTEGER, period VARCHAR, rating DOUBLE, boards INTEGER,
    std_error DOUBLE, weight DOUBLE, w DOUBLE, w2 DOUBLE, s1 DOUBLE, s2 DOUBLE,
    PRIMARY KEY (player, period_index)
);

CREATE TABLE IF NOT EXISTS rating_periods (
    period_index INTEGER PRIMARY KEY, event VARCHAR, date VARCHAR, content_hash VARCHAR
);

CREATE TABLE IF NOT EXISTS scored_events (
    event VARCHAR PRIMARY KEY, date VARCHAR, scoring VARCHAR, content_hash VARCHAR, results INTEGER
);
-- How each event was scored (ddrank.scoring.choice.method: as the scorer did, unless an option said
-- otherwise) and how many of the values its source published that reproduces.
ALTER TABLE scored_events ADD COLUMN IF NOT EXISTS mp_method VARCHAR;     -- neuberg, none, ...
ALTER TABLE scored_events ADD COLUMN IF NOT EXISTS mp_top DOUBLE;         -- MP per result beaten
ALTER TABLE scored_events ADD COLUMN IF NOT EXISTS method_reason VARCHAR; -- why, in words
ALTER TABLE scored_events ADD COLUMN IF NOT EXISTS published_compared INTEGER;
ALTER TABLE scored_events ADD COLUMN IF NOT EXISTS published_agree INTEGER;
-- Every published-value check of the event as scoring made it (JSON list of what, compared,
-- agree, disagree): the one source of the counts the terminal, report.md and the site show.
ALTER TABLE scored_events ADD COLUMN IF NOT EXISTS checks VARCHAR;

-- scoring_errors: what the last scoring of the store found, one row per record left out (read,
-- not scored), traveller line missing against the movement, or note; errors.csv is its copy and
-- the event pages list an event's rows. event: the scoring's event (scored_results.event) where
-- the record reached scoring, else the event name the source gives. Replaced at each scoring.
CREATE TABLE IF NOT EXISTS scoring_errors (
    event    VARCHAR,
    source   VARCHAR,
    line     INTEGER,
    session  VARCHAR,
    section  VARCHAR,
    round    VARCHAR,
    table_no VARCHAR,
    board    VARCHAR,
    kind     VARCHAR,   -- 'left out' | 'missing' | 'note'
    message  VARCHAR
);

-- scoring_groups: what the last scoring kept of each group of event names read together (the
-- names the store keys as one event: stages.scoring_batches.event_groups), so that a run reads
-- only the groups whose inputs changed (issue 37: adding one event to an archive does not read
-- the archive). group_key: the group's names joined by U+001F; fingerprint: of every input
-- scoring reads for it (its boards' rows, their matched names, the facts and standings published
-- for its events, the model version and the scoring options: stages.scoring_groups); state: JSON
-- of what the run's outputs need from it without reading it (its events, the records it left
-- out, its IMP events, fouled boards, dates).
CREATE TABLE IF NOT EXISTS scoring_groups (
    group_key VARCHAR PRIMARY KEY, fingerprint VARCHAR, state VARCHAR
);

-- scoring_inputs: every clean table result with what scoring needs, and where it was read (file,
-- line, round, table: errors.csv names them); a store cleaned before boards had dates takes the
-- raw record's date. One column list for the scoring stage's read (query scoring_boards) and for
-- the per-event fingerprints that tell it what changed (query scoring_event_inputs; its parts,
-- query scoring_event_inputs_part, repeat this list: a column added here is added there).
create or replace view scoring_inputs as
select b.record_id, b.deal_id, b.deal, b.event, b.year, b.board_no,
       r.source_file, r.source_line, b.round, b.table_no, b.auction,
       coalesce(len(b.play), 0) > 0 as played_cards,
       b.northname, b.eastname, b.southname, b.westname, b.ns_vulnerable, b.ew_vulnerable,
       b.contract, b.declarer, b.result, b.dealer, b.home_team, b.visit_team, b.room,
       b.event_id, b.session, b.section, b.ns_pair, b.ew_pair,
       b.north_id, b.east_id, b.south_id, b.west_id, b.ns_score, b.ew_score, b.adjusted, b.phantom,
       b.repeat,
       b.published_ns_mp, b.published_ew_mp, b.published_ns_pct, b.published_ew_pct,
       b.published_imps, b.published_datum, b.player_numbers, r.stage,
       coalesce(nullif(b.date, ''), r.date) as date, r.source_format
from boards b left join raw_records r using (record_id);

-- export_parts: each scored event's part of results.csv, ranking.csv, teams.csv and butler.csv
-- (CSV lines as written, no header) and of report.md's rankings, with its count of table results
-- and team matches; made once per scores (content_hash) and format (version), so the exports of
-- an archive are its parts one after the other (stages.scoring.export; issue 37).
CREATE TABLE IF NOT EXISTS export_parts (
    event VARCHAR, content_hash VARCHAR, version VARCHAR, results BIGINT, teams BIGINT,
    results_csv VARCHAR, ranking_csv VARCHAR, teams_csv VARCHAR, butler_csv VARCHAR,
    report_md VARCHAR
);
-- the texts packed in one zlib value (stages.scoring_export.packed, EXPORT_VERSION 2): DuckDB
-- rewrites the table at each automatic checkpoint while parts are made, so it is kept small; the
-- text columns above are those of version 1, left empty since
ALTER TABLE export_parts ADD COLUMN IF NOT EXISTS packed BLOB;

-- The bid/play split's kept work (stages.split; issue 37): each split event's table splits in the
-- order of its pass (seq), its counts and records left out (JSON), keyed by what it was split
-- from (content_hash: the split's version, the store's path and the event's scores), and every
-- pair's and player's running sums over all of them (split_totals, kind 'pair' or 'player').
CREATE TABLE IF NOT EXISTS split_tables (
    event VARCHAR, seq INTEGER, north VARCHAR, south VARCHAR, east VARCHAR, west VARCHAR,
    butler DOUBLE, bid DOUBLE, play DOUBLE, luck DOUBLE, declarer_ns BOOLEAN
);
-- a store split by the first version (names as two lists, d147a3c) gets the four columns
ALTER TABLE split_tables ADD COLUMN IF NOT EXISTS north VARCHAR;
ALTER TABLE split_tables ADD COLUMN IF NOT EXISTS south VARCHAR;
ALTER TABLE split_tables ADD COLUMN IF NOT EXISTS east VARCHAR;
ALTER TABLE split_tables ADD COLUMN IF NOT EXISTS west VARCHAR;
-- the pairs' labels are the names' (`split_pair_sides`), no longer kept twice: a third of what
-- an archive's table splits wrote, and DuckDB's memory at 1M results (issue 37)
ALTER TABLE split_tables DROP COLUMN IF EXISTS ns_label;
ALTER TABLE split_tables DROP COLUMN IF EXISTS ew_label;
CREATE TABLE IF NOT EXISTS split_events (
    event VARCHAR, content_hash VARCHAR, tables BIGINT, boards BIGINT, splits BIGINT,
    worst DOUBLE, errors VARCHAR, duplicates VARCHAR
);
CREATE TABLE IF NOT EXISTS split_totals (
    kind VARCHAR, label VARCHAR, boards BIGINT, butler DOUBLE, bid DOUBLE, play DOUBLE,
    defence DOUBLE, luck DOUBLE, declared BIGINT, defended BIGINT
);
-- A row while a split run is under way: one that stopped halfway leaves it, and the next splits all.
CREATE TABLE IF NOT EXISTS split_state (unfinished BOOLEAN);
