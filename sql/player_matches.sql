-- Name matching (issue 4). Idempotent: applied on every read-write connect after schema.sql.
--
-- player_matches: one decision per raw name per context. The context of a board is
--   trim(event) || '|' || year       (ddrank.names.board_context builds the same string)
-- ranking_name is NULL when the name stayed unmatched: method 'none' (no acceptable candidate) or
-- 'ambiguous' (tied candidates; runner_up holds the best of them, for review).
CREATE TABLE IF NOT EXISTS player_matches (
    raw_name        VARCHAR NOT NULL,
    context         VARCHAR NOT NULL,
    ranking_name    VARCHAR,               -- ranking_players.ranking_name, or NULL
    method          VARCHAR NOT NULL,      -- alias | seed | fuzzy | context:partner | context:team
                                           -- | context:country | ambiguous | none
    score           DOUBLE,                -- 0-100 for fuzzy; matched-name count for seed
    runner_up       VARCHAR,
    runner_up_score DOUBLE,
    PRIMARY KEY (raw_name, context)
);

-- The ranking list the matches refer to, with the points the regression needs.
CREATE TABLE IF NOT EXISTS ranking_players (
    ranking_name   VARCHAR PRIMARY KEY,    -- unique key (full name, "name [code]" when repeated)
    name           VARCHAR NOT NULL,
    code           VARCHAR,
    country        VARCHAR,
    masterpoints   DOUBLE,
    placing_points DOUBLE
);

-- Who sat where: one row per board and seat (N=0, E=1, S=2, W=3). `player` is the matched ranking
-- name once matching has run (the raw name in an event the list does not cover, method
-- 'not covered': ddrank.names.coverage) (NULL for an unmatched seat, which later analyses leave out, as the
-- paper did with its placeholder); before any matching has run it falls back to the raw name.
CREATE OR REPLACE VIEW board_players AS
WITH seats AS (
    SELECT record_id, event, year, 0 AS seat, northname AS raw_name FROM boards
    UNION ALL SELECT record_id, event, year, 1, eastname FROM boards
    UNION ALL SELECT record_id, event, year, 2, southname FROM boards
    UNION ALL SELECT record_id, event, year, 3, westname FROM boards
),
matching AS (
    SELECT count(*) > 0 AS has_run FROM player_matches
)
SELECT
    s.record_id,
    CAST(s.seat AS TINYINT) AS seat,
    s.raw_name,
    CASE
        WHEN s.raw_name IS NULL OR trim(s.raw_name) = '' THEN NULL
        WHEN m.method = 'not covered' THEN s.raw_name  -- the list does not cover this event
        WHEN matching.has_run THEN m.ranking_name
        ELSE s.raw_name
    END AS player,
    m.method,
    -- the seat shows another name than the file gives: the site says so (ranking-list name)
    coalesce(m.ranking_name IS NOT NULL AND coalesce(r.name, m.ranking_name) <> s.raw_name,
             false) AS renamed,
    r.masterpoints AS mp,
    r.placing_points AS pp
FROM seats s
CROSS JOIN matching
LEFT JOIN player_matches m
    ON m.raw_name = s.raw_name
   AND m.context = trim(coalesce(s.event, '')) || '|' || CAST(coalesce(s.year, 0) AS VARCHAR)
LEFT JOIN ranking_players r ON r.ranking_name = m.ranking_name;
