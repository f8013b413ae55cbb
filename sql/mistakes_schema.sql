-- What each DD mistake cost, in the event's own units (stages/mistakes.py, ddrank.mistakes.costs).
-- Idempotent: applied on every read-write connect, after dd_schema.sql and scoring_schema.sql.
--
-- mistake_costs: one row per DD mistake per player charged, for every scored table result with a
-- DD table (auction) or a play trace (cards, claim).
--   record_id, event (scored_results.event), board (the director's board number), deal_id
--   player        the seat's player as the site keys it (matched name, id:<source id>, or name)
--   seat, side    'N'..'W'; 'NS' / 'EW'
--   kind          lead | declarer | defence | claim | auction; category: the counter it adds to
--   trick, position, card_index, card    a card: its trick (1-13), place in the trick (1-4),
--                 0-based index in the play, and the card ('SK')
--   call_index, call   a call: 0-based index in the auction (NULL: the side's auction as a
--                 whole) and the call ('2NT', 'X', 'P')
--   what, instead plain text: "W played SK"; what double dummy would have done
--   tricks        DD tricks the card or claim lost (NULL for calls)
--   dd_points     the DD score difference (the weighted counter's share): never add it up
--   cost, unit    what it cost in the event's units ('MP', 'IMP', 'board points') against the
--                 board's other results; NULL when the board has nothing to compare with
--   basis         'table': a loss at the table (cards, claims, a double or redouble made);
--                 'hypothetical': an alternative the side did not take (a missed double or
--                 redouble, another contract), valued as if the opponents had let it stand
-- mistake_cost_events: per event, the inputs the costs were computed from (a rerun skips an event
--   whose scores, traces and DD tables are unchanged).
CREATE TABLE IF NOT EXISTS mistake_costs (
    record_id VARCHAR, event VARCHAR, board VARCHAR, deal_id VARCHAR, player VARCHAR,
    seat VARCHAR, side VARCHAR, kind VARCHAR, category VARCHAR,
    trick INTEGER, position INTEGER, card_index INTEGER, card VARCHAR,
    call_index INTEGER, call VARCHAR, what VARCHAR, instead VARCHAR, tricks INTEGER,
    dd_points DOUBLE, cost DOUBLE, unit VARCHAR, basis VARCHAR
);

CREATE TABLE IF NOT EXISTS mistake_cost_events (event VARCHAR PRIMARY KEY, inputs VARCHAR);

-- Each player's mistakes, costliest first (`rank` 1): real losses at the table by their cost, then
-- real ones the board cannot value (nothing to compare with) by DD points, then hypothetical ones
-- by their cost, then those that cost nothing in the event's units; a card's DD-best alternatives
-- (dd_card_alternatives) fill `instead` where they have been found.
CREATE OR REPLACE VIEW ranked_mistakes AS
SELECT m.* REPLACE (coalesce(nullif(m.instead, ''), a.best_cards, '') AS instead),
       row_number() OVER (
           PARTITION BY m.player
           ORDER BY CASE WHEN m.cost = 0 THEN 4
                         WHEN m.basis = 'table' AND m.cost > 0 THEN 0
                         WHEN m.basis = 'table' THEN 1
                         WHEN m.cost > 0 THEN 2
                         ELSE 3 END,
                    m.cost DESC NULLS LAST, m.dd_points DESC,
                    m.event, m.record_id, m.card_index, m.call_index
       ) AS rank
FROM mistake_costs m
LEFT JOIN dd_card_alternatives a
       ON a.record_id = m.record_id AND a.card_index = m.card_index;
