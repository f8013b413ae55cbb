-- ddrank skill ratings (tasks/skill.py): the Gaussian state of every player and partnership.
CREATE TABLE IF NOT EXISTS skill_ratings (
    player      VARCHAR NOT NULL,   -- a player's name, or 'A & B' for a partnership
    component   VARCHAR NOT NULL,   -- bidding | declarer | defence | opening_lead | partnership
    rating      DOUBLE NOT NULL,    -- IMPs per board (bidding, partnership) or tricks per board
    se          DOUBLE NOT NULL,    -- posterior standard deviation, same unit
    boards      INTEGER NOT NULL,
    last_period INTEGER NOT NULL,   -- index of the last period played (skill_periods.idx)
    PRIMARY KEY (player, component)
);
CREATE TABLE IF NOT EXISTS skill_periods (
    period      VARCHAR PRIMARY KEY, -- a rated period, e.g. '2012 World Championship'
    idx         INTEGER NOT NULL
);
-- Every state each period's update gave (tasks/skill.py): the skill ratings as of any period, so
-- an added or changed event is rated from the first period it changes, on the states before it.
CREATE TABLE IF NOT EXISTS skill_history (
    period      VARCHAR NOT NULL,   -- the period rated (skill_periods.period)
    idx         INTEGER NOT NULL,   -- its index (skill_periods.idx)
    player      VARCHAR NOT NULL,
    component   VARCHAR NOT NULL,
    mean        DOUBLE NOT NULL,
    var         DOUBLE NOT NULL,    -- the variance itself (se * se would not give it back exactly)
    boards      INTEGER NOT NULL
);
-- What each rated event's inputs were (skill_event_fingerprints) and its first period.
CREATE TABLE IF NOT EXISTS skill_events (
    event       VARCHAR NOT NULL,
    fingerprint UBIGINT,
    first_period VARCHAR NOT NULL
);
-- The model's fitted constants (noise, offsets, IMPs per trick): fitted on the earliest periods
-- holding at least SKILL_FIT_RESULTS rated results (prefix_end, complete) or on all (not complete).
CREATE TABLE IF NOT EXISTS skill_fit (
    prefix_end  VARCHAR NOT NULL,
    prefix_results BIGINT NOT NULL,
    complete    BOOLEAN NOT NULL,
    params      VARCHAR NOT NULL    -- JSON of the fitted fields of SkillParams
);
