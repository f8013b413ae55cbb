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
