-- The event model (issue 12): events, their published rankings, hand-record deals, and the
-- event-model columns of `boards`. Idempotent; a store made before the event model gains the
-- columns in place (ALTER ... IF NOT EXISTS) and keeps its rows.

-- A scoring-only result (a Bridgemate line without its hand record) has no deal: DD skips it.
ALTER TABLE boards ALTER COLUMN deal DROP NOT NULL;
ALTER TABLE boards ALTER COLUMN deal_id DROP NOT NULL;

ALTER TABLE boards ADD COLUMN IF NOT EXISTS event_id VARCHAR;    -- events.event_id
ALTER TABLE boards ADD COLUMN IF NOT EXISTS date VARCHAR;        -- ISO, or its known prefix
ALTER TABLE boards ADD COLUMN IF NOT EXISTS scoring VARCHAR;     -- as the source says (MP, IMP)
ALTER TABLE boards ADD COLUMN IF NOT EXISTS organiser VARCHAR;
ALTER TABLE boards ADD COLUMN IF NOT EXISTS session VARCHAR;     -- session / stage / segment
ALTER TABLE boards ADD COLUMN IF NOT EXISTS section VARCHAR;     -- section, or the KO match
ALTER TABLE boards ADD COLUMN IF NOT EXISTS round VARCHAR;
ALTER TABLE boards ADD COLUMN IF NOT EXISTS table_no VARCHAR;
ALTER TABLE boards ADD COLUMN IF NOT EXISTS ns_pair VARCHAR;     -- pair (or team) numbers
ALTER TABLE boards ADD COLUMN IF NOT EXISTS ew_pair VARCHAR;
ALTER TABLE boards ADD COLUMN IF NOT EXISTS north_id VARCHAR;    -- player ids the source carries
ALTER TABLE boards ADD COLUMN IF NOT EXISTS east_id VARCHAR;
ALTER TABLE boards ADD COLUMN IF NOT EXISTS south_id VARCHAR;
ALTER TABLE boards ADD COLUMN IF NOT EXISTS west_id VARCHAR;
ALTER TABLE boards ADD COLUMN IF NOT EXISTS ns_score INTEGER;    -- NS score as published
ALTER TABLE boards ADD COLUMN IF NOT EXISTS adjusted VARCHAR;    -- 'NS%/EW%', no contract played
ALTER TABLE boards ADD COLUMN IF NOT EXISTS phantom VARCHAR;     -- 'NS'/'EW' phantom or sit-out
ALTER TABLE boards ADD COLUMN IF NOT EXISTS published_ns_mp DOUBLE;
ALTER TABLE boards ADD COLUMN IF NOT EXISTS published_ew_mp DOUBLE;
ALTER TABLE boards ADD COLUMN IF NOT EXISTS published_ns_pct DOUBLE;
ALTER TABLE boards ADD COLUMN IF NOT EXISTS published_ew_pct DOUBLE;
ALTER TABLE boards ADD COLUMN IF NOT EXISTS published_imps DOUBLE;  -- NS's IMPs as published
ALTER TABLE boards ADD COLUMN IF NOT EXISTS par_score INTEGER;   -- published par, NS's sign
ALTER TABLE boards ADD COLUMN IF NOT EXISTS par_contract VARCHAR;
-- The opening lead card a source gives without the play (USEBIO <LEAD>, Bridgemate LeadCard).
ALTER TABLE raw_records ADD COLUMN IF NOT EXISTS lead_card VARCHAR;
ALTER TABLE boards ADD COLUMN IF NOT EXISTS lead_card VARCHAR;   -- 'SJ'
-- East-West's own score where a director split a result (ACBLscore): not -ns_score.
ALTER TABLE raw_records ADD COLUMN IF NOT EXISTS ew_score VARCHAR;
ALTER TABLE boards ADD COLUMN IF NOT EXISTS ew_score INTEGER;
-- 'NS'/'EW': that side's pair played the board a second time (ACBLscore): not its result.
ALTER TABLE raw_records ADD COLUMN IF NOT EXISTS repeat VARCHAR;
ALTER TABLE boards ADD COLUMN IF NOT EXISTS repeat VARCHAR;
-- The Butler datum the scorer published for the board (Ruter ButlerDatum, USEBIO BOARD_AVERAGE).
ALTER TABLE raw_records ADD COLUMN IF NOT EXISTS published_datum VARCHAR;
ALTER TABLE boards ADD COLUMN IF NOT EXISTS published_datum DOUBLE;
-- An individual event's four players by their numbers in the event, 'N|E|S|W'.
ALTER TABLE raw_records ADD COLUMN IF NOT EXISTS player_numbers VARCHAR;
ALTER TABLE boards ADD COLUMN IF NOT EXISTS player_numbers VARCHAR;

-- What a source says about an event as a whole (ddrank.raw.RawEvent). One row per event_id;
-- a later file about the same event fills in what an earlier one left empty.
CREATE TABLE IF NOT EXISTS events (
    event_id     VARCHAR PRIMARY KEY,      -- ddrank.events.event_id_of(name, date, organiser)
    name         VARCHAR,
    organiser    VARCHAR,
    date_start   VARCHAR,                  -- ISO, or its known prefix ("2012-08")
    date_end     VARCHAR,
    scoring      VARCHAR,                  -- MP | IMP | BUTLER | BAM | TEAMS | as published
    movement     VARCHAR,                  -- howell | mitchell | NULL
    across_field BOOLEAN,
    mp_top       VARCHAR,                  -- '2' per result beaten (EBU, FFB), '1' (ACBL)
    source_file  VARCHAR
);

-- The scoring program the source names (USEBIO PROGRAM_NAME) and whose rules it follows (ACBL
-- member numbers in a Bridgemate file): ddrank.scoring.choice.method chooses the matchpoint method.
ALTER TABLE events ADD COLUMN IF NOT EXISTS scorer VARCHAR;
ALTER TABLE events ADD COLUMN IF NOT EXISTS federation VARCHAR;
-- Sections matchpointed as one field / ranked together ("A+B;C") where the source says more
-- than across_field (ACBLscore), and the most matchpoints a pair can score in a session there.
ALTER TABLE events ADD COLUMN IF NOT EXISTS fields VARCHAR;
ALTER TABLE events ADD COLUMN IF NOT EXISTS rankings VARCHAR;
ALTER TABLE events ADD COLUMN IF NOT EXISTS max_score VARCHAR;

-- Published rankings (PBN TotalScoreTable, USEBIO participants), kept as published.
CREATE TABLE IF NOT EXISTS published_standings (
    standing_id     VARCHAR PRIMARY KEY,   -- hash of the line's content (re-ingest adds nothing)
    event_id        VARCHAR,
    source_file     VARCHAR,
    source_line     INTEGER,
    event VARCHAR, date VARCHAR, session VARCHAR, section VARCHAR, direction VARCHAR,
    pair VARCHAR, team_name VARCHAR, players VARCHAR, player_ids VARCHAR,
    published_mp VARCHAR, published_pct VARCHAR, published_imps VARCHAR, published_vp VARCHAR,
    published_place VARCHAR,
    phantom         BOOLEAN
);

-- A match's published result (USEBIO MATCH TEAM_SCORE) is a standing of team `pair` against
-- `opponent`; ranking lines have none.
ALTER TABLE published_standings ADD COLUMN IF NOT EXISTS opponent VARCHAR;
-- A strat's letter (ACBL): the place is in the ranking of the pairs eligible for that strat.
ALTER TABLE published_standings ADD COLUMN IF NOT EXISTS strat VARCHAR;
-- What a director applied to the pair's total (ACBLscore): an adjustment to its session score,
-- a carry-over from earlier sessions, and whether it may take a place among the others.
ALTER TABLE published_standings ADD COLUMN IF NOT EXISTS adjustment VARCHAR;
ALTER TABLE published_standings ADD COLUMN IF NOT EXISTS carryover VARCHAR;
ALTER TABLE published_standings ADD COLUMN IF NOT EXISTS eligible BOOLEAN;
-- A place in the event's overall ranking, across sections and directions (ACBLscore).
ALTER TABLE published_standings ADD COLUMN IF NOT EXISTS overall BOOLEAN;
-- The boards a ranking line covers, as published (PBN `NrBoards`): a line over more boards than
-- the file holds cannot be reproduced from it (ddrank.scoring.verification.published).
ALTER TABLE published_standings ADD COLUMN IF NOT EXISTS boards VARCHAR;
-- The masterpoints a line won, as the scorer recorded them ("1.29 Red; 1.29 Black", ACBLscore).
ALTER TABLE published_standings ADD COLUMN IF NOT EXISTS award VARCHAR;
-- One session of a longer event: the cumulative ranking the same row publishes (Magic Contest,
-- Ruter `Rank`, `TotalScoreMP`, `TotalPercentage` over `NrBoards`), as printed.
ALTER TABLE published_standings ADD COLUMN IF NOT EXISTS cumulative_place VARCHAR;
ALTER TABLE published_standings ADD COLUMN IF NOT EXISTS cumulative_mp VARCHAR;
ALTER TABLE published_standings ADD COLUMN IF NOT EXISTS cumulative_pct VARCHAR;
ALTER TABLE published_standings ADD COLUMN IF NOT EXISTS cumulative_boards VARCHAR;

-- Hand-record deals with no table result (a Bridgemate or USEBIO companion hand record, a PBN
-- game with a deal and nothing played): the readers join them to their results; not results.
CREATE TABLE IF NOT EXISTS deals (
    deal_key      VARCHAR PRIMARY KEY,     -- hash of source file, board and deal
    event_id      VARCHAR,
    source_file   VARCHAR,
    source_line   INTEGER,
    session VARCHAR, section VARCHAR,
    board_no      VARCHAR,
    deal          VARCHAR,                 -- as written (PBN)
    dealer        VARCHAR,
    vulnerable    VARCHAR,
    par_score     VARCHAR,                 -- OptimumScore / par as written
    par_contract  VARCHAR,
    dd_tricks     VARCHAR                  -- DoubleDummyTricks tag, 20 hex digits, as written
);

-- DD tables as the files publish them (PBN `DoubleDummyTricks`, or an `OptimumResultTable` turned
-- into its 20 hex digits), one row per deal: the site shows them without running DDS.
CREATE TABLE IF NOT EXISTS published_dd (
    deal_id       VARCHAR PRIMARY KEY,     -- boards.deal_id: ddrank.types.deal_id_of
    dd_tricks     VARCHAR NOT NULL,        -- 20 hex digits: declarers N S E W, strains NT S H D C
    source_file   VARCHAR
);

-- Where an excluded record sits as its source names it ("section A, round 3, table 2, board 10"),
-- beside its file and line: errors.csv and a director find it by this.
ALTER TABLE exclusions ADD COLUMN IF NOT EXISTS place VARCHAR;
