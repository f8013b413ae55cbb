-- ddrank core store. Every raw record lands in raw_records; cleaning sends each one either to
-- boards or to exclusions, so count(raw_records) = count(boards) + count(exclusions).

CREATE TABLE IF NOT EXISTS source_files (
    path          VARCHAR PRIMARY KEY,
    sha1          VARCHAR NOT NULL,
    format        VARCHAR NOT NULL,        -- pbn | lin | dump | csv | sqlite
    records       INTEGER NOT NULL,
    new_records   INTEGER NOT NULL,
    ingested_at   TIMESTAMP NOT NULL DEFAULT current_timestamp
);

CREATE TABLE IF NOT EXISTS raw_records (
    record_id     VARCHAR PRIMARY KEY,     -- content hash of the raw fields
    partition_id  INTEGER NOT NULL,
    source_file   VARCHAR NOT NULL,
    source_line   INTEGER,                 -- 1-based line where the record starts
    source_format VARCHAR NOT NULL,
    parse_error   VARCHAR,                 -- set when the record could not be read at all
    event VARCHAR, date VARCHAR, site VARCHAR, board_no VARCHAR, stage VARCHAR,
    dealer VARCHAR, deal VARCHAR, vulnerable VARCHAR, bidstart VARCHAR, auction VARCHAR,
    contract VARCHAR, declarer VARCHAR, lead VARCHAR, play VARCHAR,
    play_format VARCHAR,                   -- 'columns' (PBN/dump: by seat from the leader) | 'sequence' (LIN)
    result VARCHAR,
    northname VARCHAR, eastname VARCHAR, southname VARCHAR, westname VARCHAR,
    scoring VARCHAR, home_team VARCHAR, visit_team VARCHAR, room VARCHAR,
    -- event model (ddrank.raw.EVENT_FIELDS); NULL/'' when the source does not say
    organiser VARCHAR, session VARCHAR, section VARCHAR, round VARCHAR, table_no VARCHAR,
    ns_pair VARCHAR, ew_pair VARCHAR,
    north_id VARCHAR, east_id VARCHAR, south_id VARCHAR, west_id VARCHAR,
    ns_score VARCHAR, adjusted VARCHAR, phantom VARCHAR,
    published_ns_mp VARCHAR, published_ew_mp VARCHAR, published_ns_pct VARCHAR,
    published_ew_pct VARCHAR, published_imps VARCHAR, par_score VARCHAR, par_contract VARCHAR,
    occurrence    INTEGER NOT NULL DEFAULT 0,  -- k-th identical copy within one file
    ingested_at   TIMESTAMP NOT NULL DEFAULT current_timestamp
);

CREATE TABLE IF NOT EXISTS boards (
    record_id      VARCHAR PRIMARY KEY,
    deal_id        VARCHAR,                -- hash of the canonical deal alone; NULL: no deal
    partition_id   INTEGER NOT NULL,
    event          VARCHAR,
    year           INTEGER NOT NULL,       -- 0 when unknown
    board_no       VARCHAR,
    room           VARCHAR,
    home_team      VARCHAR,
    visit_team     VARCHAR,
    northname      VARCHAR, eastname VARCHAR, southname VARCHAR, westname VARCHAR,
    ns_vulnerable  BOOLEAN,                -- NULL when the record did not say
    ew_vulnerable  BOOLEAN,
    dealer         VARCHAR,                -- N/E/S/W or NULL
    deal           VARCHAR,                -- canonical PBN, 'N:...'; NULL: scoring-only result
    bidstart       VARCHAR,                -- who made the first call, or NULL
    auction        VARCHAR,                -- cleaned calls 'P 1S X ...'; NULL when unusable
    contract       VARCHAR,                -- '4SX', 'P' (passed out), NULL unknown
    declarer       VARCHAR,                -- N/E/S/W, NULL when passed out or unknown
    opening_leader VARCHAR,
    play           VARCHAR[],              -- cards in true order ('SA', ...); NULL when unusable
    play_seats     TINYINT[],              -- seat (N=0..W=3) of each card of play
    claim_tricks   TINYINT,                -- declarer's total after a claim; NULL if none
    result         TINYINT,                -- declarer's tricks as recorded
    repairs        VARCHAR                 -- documented repairs applied while cleaning
);

CREATE TABLE IF NOT EXISTS exclusions (
    record_id   VARCHAR PRIMARY KEY,
    reason      VARCHAR NOT NULL,
    detail      VARCHAR,
    source_file VARCHAR,
    source_line INTEGER
);

CREATE TABLE IF NOT EXISTS auction_issues (
    record_id VARCHAR PRIMARY KEY,
    reason    VARCHAR NOT NULL,
    detail    VARCHAR
);

CREATE TABLE IF NOT EXISTS play_issues (
    record_id VARCHAR PRIMARY KEY,
    reason    VARCHAR NOT NULL,
    detail    VARCHAR
);
