-- Double-dummy results. All content-addressed: a table is keyed by the deal alone (one per
-- distinct deal, however many tables played it), a trace and the player counters by record_id.
-- Nothing here is ever recomputed once stored; re-cleaning a board changes its record_id.

CREATE TABLE IF NOT EXISTS dd_tables (
    deal_id   VARCHAR NOT NULL,       -- boards.deal_id
    strain    VARCHAR NOT NULL,       -- C, D, H, S, N
    declarer  VARCHAR NOT NULL,       -- N, E, S, W
    tricks    TINYINT NOT NULL,       -- tricks declarer takes, both sides perfect
    PRIMARY KEY (deal_id, strain, declarer)
);

CREATE TABLE IF NOT EXISTS play_traces (
    record_id VARCHAR PRIMARY KEY,
    trace     TINYINT[] NOT NULL      -- declaring side's DD tricks before and after each card
);

-- One row per (board, seat): the 33 counters of Marriner (2024) Table 3 for that player on that
-- board. Fractional counts come from ties between auction mistakes (1/k each).
CREATE TABLE IF NOT EXISTS player_board_stats (
    record_id VARCHAR NOT NULL,
    seat      TINYINT NOT NULL,       -- N=0 .. W=3
    raw_name  VARCHAR NOT NULL,       -- the name as cleaned in boards ('' when absent)
    claims                                                         DOUBLE NOT NULL DEFAULT 0,
    claim_mistakes                                                 DOUBLE NOT NULL DEFAULT 0,
    weighted_claim_mistakes                                        DOUBLE NOT NULL DEFAULT 0,
    leads                                                          DOUBLE NOT NULL DEFAULT 0,
    lead_mistakes                                                  DOUBLE NOT NULL DEFAULT 0,
    weighted_lead_mistakes                                         DOUBLE NOT NULL DEFAULT 0,
    cards_played_as_declarer                                       DOUBLE NOT NULL DEFAULT 0,
    play_mistakes_as_declarer                                      DOUBLE NOT NULL DEFAULT 0,
    weighted_play_mistakes_as_declarer                             DOUBLE NOT NULL DEFAULT 0,
    cards_played_as_defender                                       DOUBLE NOT NULL DEFAULT 0,
    play_mistakes_as_defender                                      DOUBLE NOT NULL DEFAULT 0,
    weighted_play_mistakes_as_defender                             DOUBLE NOT NULL DEFAULT 0,
    auctions_analyzed                                              DOUBLE NOT NULL DEFAULT 0,
    defender_missed_current_double                                 DOUBLE NOT NULL DEFAULT 0,
    weighted_defender_missed_current_double                        DOUBLE NOT NULL DEFAULT 0,
    defender_erroneously_doubled                                   DOUBLE NOT NULL DEFAULT 0,
    weighted_defender_erroneously_doubled                          DOUBLE NOT NULL DEFAULT 0,
    defender_missed_higher_contract                                DOUBLE NOT NULL DEFAULT 0,
    weighted_defender_missed_higher_contract                       DOUBLE NOT NULL DEFAULT 0,
    declarer_missed_higher_contract                                DOUBLE NOT NULL DEFAULT 0,
    weighted_declarer_missed_higher_contract                       DOUBLE NOT NULL DEFAULT 0,
    declarer_missed_doubling_opponents_last_bid                    DOUBLE NOT NULL DEFAULT 0,
    weighted_declarer_missed_doubling_opponents_last_bid           DOUBLE NOT NULL DEFAULT 0,
    declarer_missed_opponents_last_redouble                        DOUBLE NOT NULL DEFAULT 0,
    weighted_declarer_missed_opponents_last_redouble               DOUBLE NOT NULL DEFAULT 0,
    declarer_missed_redoubling_opponents_erroneous_double          DOUBLE NOT NULL DEFAULT 0,
    weighted_declarer_missed_redoubling_opponents_erroneous_double DOUBLE NOT NULL DEFAULT 0,
    declarer_missed_opponents_last_bid                             DOUBLE NOT NULL DEFAULT 0,
    weighted_declarer_missed_opponents_last_bid                    DOUBLE NOT NULL DEFAULT 0,
    declarer_erroneous_redouble                                    DOUBLE NOT NULL DEFAULT 0,
    weighted_declarer_erroneous_redouble                           DOUBLE NOT NULL DEFAULT 0,
    passed_higher_contract                                         DOUBLE NOT NULL DEFAULT 0,
    weighted_passed_higher_contract                                DOUBLE NOT NULL DEFAULT 0,
    PRIMARY KEY (record_id, seat)
);

-- Double-dummy par per deal as dealt: par depends on the dealer and the vulnerability, so a deal
-- replayed under another board number has its own row. Computed by DDS (DealerParBin) from the
-- stored dd_tables row, with no second solve. par_score is North-South's score (+620, -100);
-- par_contract lists every par contract as BridgeComposer's [ParContract] does: 'NS 4S+1',
-- 'EW 6H=; EW 6S=', 'NS 4SX-1' (a doubled sacrifice), 'Pass'.
CREATE TABLE IF NOT EXISTS dd_par (
    deal_id      VARCHAR NOT NULL,
    dealer       VARCHAR NOT NULL,    -- N, E, S, W
    vulnerable   VARCHAR NOT NULL,    -- None, NS, EW, All
    par_score    INTEGER NOT NULL,
    par_contract VARCHAR NOT NULL,
    PRIMARY KEY (deal_id, dealer, vulnerable)
);

-- What double dummy would have played at each costly card (stages/dd_explain.py): the card at
-- `card_index` (0-based, in playing order) lost its side tricks; `best_cards` lists every card
-- that kept the most ('SA SK'), and `tricks` is what the side to play takes from there on with
-- them (the current trick included). Content-addressed like the traces: never recomputed.
CREATE TABLE IF NOT EXISTS dd_card_alternatives (
    record_id   VARCHAR NOT NULL,
    card_index  SMALLINT NOT NULL,
    best_cards  VARCHAR NOT NULL,
    tricks      TINYINT NOT NULL,
    PRIMARY KEY (record_id, card_index)
);

-- Every legal card at that point with the tricks the side to play takes after it ('SA:4 S2:3'),
-- for the board page's replay (NULL in rows stored before it was kept).
ALTER TABLE dd_card_alternatives ADD COLUMN IF NOT EXISTS card_values VARCHAR;
