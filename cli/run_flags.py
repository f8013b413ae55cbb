"""The run settings' flags, written by `python -m cli.run_options` from
stages/settings.py (tests/test_run_settings.py checks they agree). Do not edit."""

FLAGS = [
    {
        "name": "db",
        "kind": "str",
        "help": "DuckDB store (a relative path is taken from the current directory). Default: "
        "ddrank.duckdb.",
        "panel": "Expert: store, files and execution",
    },
    {
        "name": "out",
        "kind": "str",
        "help": "Folder for reports and exports (a relative path is taken from the current "
        "directory). Default: out.",
        "panel": "For directors: output, scoring method, what to publish",
    },
    {
        "name": "inbox",
        "kind": "str",
        "help": "Folder watched for new hand records.",
        "panel": "Expert: store, files and execution",
    },
    {
        "name": "partition_size",
        "kind": "int",
        "help": "Table results (raw records) per partition, the unit of storage (DD work is cut into "
        "solve units for the workers, whatever the partitions). Default: 500.",
        "panel": "Expert: store, files and execution",
    },
    {
        "name": "max_file_bytes",
        "kind": "int",
        "help": "Input limit: bytes of one input file. Default: 1073741824.",
        "panel": "Expert: input limits",
    },
    {
        "name": "max_rows",
        "kind": "int",
        "help": "Input limit: records of one input file (table results, hand-record deals, ranking "
        "lines, rows of a SQLite bridgedeals table). Default: 2000000.",
        "panel": "Expert: input limits",
    },
    {
        "name": "max_xml_depth",
        "kind": "int",
        "help": "Input limit: levels of nesting in an XML results file. Default: 100.",
        "panel": "Expert: input limits",
    },
    {
        "name": "max_xml_elements",
        "kind": "int",
        "help": "Input limit: elements in an XML results file. Default: 1000000.",
        "panel": "Expert: input limits",
    },
    {
        "name": "max_value_chars",
        "kind": "int",
        "help": "Input limit: characters of one value (a tag's value, a text node, an XML start tag "
        "with its attributes). Default: 65536.",
        "panel": "Expert: input limits",
    },
    {
        "name": "workers",
        "kind": "int",
        "help": "Worker processes (double dummy, cleaning). Default: the number of CPUs.",
        "panel": "Expert: store, files and execution",
    },
    {
        "name": "dds_threads",
        "kind": "int",
        "help": "DDS threads inside each worker. Default: 1.",
        "panel": "Expert: store, files and execution",
    },
    {
        "name": "runner",
        "kind": ["process", "thread", "dask"],
        "help": "Where DD solve units run: thread (threads of this process, each driving its own DDS "
        "process; the cheapest: no worker imports Prefect), process (a pool of worker "
        "processes) or dask (a Dask cluster). Default: thread.",
        "panel": "Expert: store, files and execution",
    },
    {
        "name": "dask_address",
        "kind": "str",
        "help": "tcp://host:port of a Dask scheduler (with --runner dask); the DD work is then "
        "planned for its workers' threads, not --workers.",
        "panel": "Expert: store, files and execution",
    },
    {
        "name": "rankings",
        "kind": "str",
        "help": "Ranking list CSV for name matching. Default: wbf-open-rankings.csv, shipped with "
        "the package.",
        "panel": "Analysis: names and ratings",
    },
    {
        "name": "aliases",
        "kind": "str",
        "help": "CSV of raw name → ranking name overrides.",
        "panel": "Analysis: names and ratings",
    },
    {
        "name": "response",
        "kind": ["pp", "mp"],
        "help": "Regression response: WBF placing points (pp) or masterpoints (mp). Default: pp.",
        "panel": "The paper's regression",
    },
    {
        "name": "variables",
        "kind": ["weighted", "unweighted"],
        "help": "The paper's weighted or unweighted mistake variables. Default: unweighted.",
        "panel": "The paper's regression",
    },
    {
        "name": "min_claims",
        "kind": "int",
        "help": "Regression: claims a player needs. Default: 362.",
        "panel": "The paper's regression",
    },
    {
        "name": "min_leads",
        "kind": "int",
        "help": "Regression: opening leads a player needs. Default: 100.",
        "panel": "The paper's regression",
    },
    {
        "name": "min_cards_declarer",
        "kind": "int",
        "help": "Regression: cards played as declarer. Default: 1408.",
        "panel": "The paper's regression",
    },
    {
        "name": "min_cards_defender",
        "kind": "int",
        "help": "Regression: cards played as defender. Default: 1424.",
        "panel": "The paper's regression",
    },
    {
        "name": "min_auctions",
        "kind": "int",
        "help": "Regression: auctions a player needs. Default: 392.",
        "panel": "The paper's regression",
    },
    {
        "name": "mp_method",
        "kind": ["auto", "neuberg", "mitchell1", "mitchell1_bis", "ascherman", "none", "acbl"],
        "help": "Matchpoints of a board played fewer times than the field: `auto` as the event's "
        "scorer did, or one method for every event. Default: auto.",
        "panel": "For directors: output, scoring method, what to publish",
    },
    {
        "name": "mp_top",
        "kind": "float",
        "help": "Matchpoints per result beaten: 2, or 1 as some federations score. Default: as the "
        "event's scorer did.",
        "panel": "For directors: output, scoring method, what to publish",
    },
    {
        "name": "min_boards",
        "kind": "int",
        "help": "Boards a player needs to appear in the rating table and the reports' top 20. "
        "Default: 30.",
        "panel": "Analysis: names and ratings",
    },
    {
        "name": "lehman_start_rating",
        "kind": "float",
        "help": "Lehman rating of a new player (%). Default: 50.0.",
        "panel": "Expert: Lehman rating settings",
    },
    {
        "name": "lehman_start_weight",
        "kind": "float",
        "help": "Boards' worth of belief in the start rating. Default: 10.0.",
        "panel": "Expert: Lehman rating settings",
    },
    {
        "name": "lehman_history_weight",
        "kind": "float",
        "help": "Per-period discount of past boards (1 = none). Default: 0.9.",
        "panel": "Expert: Lehman rating settings",
    },
    {
        "name": "lehman_max_weight",
        "kind": "float",
        "help": "Cap on the backlog weight. Default: 1000.0.",
        "panel": "Expert: Lehman rating settings",
    },
    {
        "name": "lehman_min_ante",
        "kind": "float",
        "help": "Floor on a rating used as an ante. Default: 1.0.",
        "panel": "Expert: Lehman rating settings",
    },
    {
        "name": "lehman_imp_top",
        "kind": "float",
        "help": "IMPs per board that count as 100%. Default: 12.0.",
        "panel": "Expert: Lehman rating settings",
    },
    {
        "name": "lehman_scale",
        "kind": ["imps", "mp"],
        "help": "`ddrank lehman`: rate on cross-IMPs mapped to % (imps) or MP % (mp). Default: imps.",
        "panel": "Analysis: names and ratings",
    },
    {
        "name": "cross_imps_divide_by",
        "kind": ["results", "comparisons"],
        "help": "`ddrank score --valet`: cross-IMPs per result or per comparison. Default: results.",
        "panel": "Analysis: names and ratings",
    },
    {
        "name": "butler_drop_count",
        "kind": "int",
        "help": "`ddrank score --valet`: results dropped at each end of the Butler/Bastille datum. "
        "Default: 1.",
        "panel": "Analysis: names and ratings",
    },
    {
        "name": "butler_drop_percent",
        "kind": "float",
        "help": "`ddrank score --valet`: drop this percentage at each end instead.",
        "panel": "Analysis: names and ratings",
    },
    {
        "name": "skill_full",
        "kind": "bool",
        "help": "Skill ratings: rate every period again.",
        "panel": "Analysis: names and ratings",
        "default_on": False,
    },
    {
        "name": "skill_component",
        "kind": "str",
        "help": "`ddrank rate`: the component shown. Default: bidding.",
        "panel": "Analysis: names and ratings",
    },
    {
        "name": "skill_min_boards",
        "kind": "int",
        "help": "`ddrank rate`: boards a shown player needs. Default: 30.",
        "panel": "Analysis: names and ratings",
    },
    {
        "name": "table_batch",
        "kind": "int",
        "help": "Deals per DDS CalcAllTables call (1-40). Default: 8.",
        "panel": "Expert: double-dummy solver",
    },
    {
        "name": "trace_batch",
        "kind": "int",
        "help": "Boards per DDS AnalyseAllPlays call (1-200). Default: 200.",
        "panel": "Expert: double-dummy solver",
    },
    {
        "name": "refresh_cache",
        "kind": "bool",
        "help": "Recompute DD solve units even when a cached result exists.",
        "panel": "Expert: double-dummy solver",
        "default_on": False,
    },
    {
        "name": "names_strategy",
        "kind": ["fuzzy", "seed"],
        "help": "Ranking-list matching: fuzzy, or seed (the paper's algorithm). Default: fuzzy.",
        "panel": "Analysis: names and ratings",
    },
    {
        "name": "vif_limit",
        "kind": "float",
        "help": "Remove predictors with VIF above this, one at a time. Default: 5.0.",
        "panel": "The paper's regression",
    },
    {
        "name": "forward_slentry",
        "kind": "float",
        "help": "Forward selection SLENTRY (SAS default). Default: 0.5.",
        "panel": "The paper's regression",
    },
    {
        "name": "backward_slstay",
        "kind": "float",
        "help": "Backward elimination SLSTAY (SAS default). Default: 0.1.",
        "panel": "The paper's regression",
    },
    {
        "name": "stepwise_slentry",
        "kind": "float",
        "help": "Stepwise SLENTRY (SAS default). Default: 0.15.",
        "panel": "The paper's regression",
    },
    {
        "name": "stepwise_slstay",
        "kind": "float",
        "help": "Stepwise SLSTAY (SAS default). Default: 0.15.",
        "panel": "The paper's regression",
    },
    {
        "name": "significance",
        "kind": "float",
        "help": "Significance used when choosing the final, all-negative model. Default: 0.05.",
        "panel": "The paper's regression",
    },
    {
        "name": "log_response",
        "kind": "bool",
        "help": "Regress the log of the response.",
        "panel": "The paper's regression",
        "default_on": False,
    },
    {
        "name": "cv_folds",
        "kind": "int",
        "help": "Folds of the cross-validated R². Default: 10.",
        "panel": "The paper's regression",
    },
    {
        "name": "cv_seed",
        "kind": "int",
        "help": "Seed of the cross-validation folds. Default: 20240.",
        "panel": "The paper's regression",
    },
    {
        "name": "force",
        "kind": "bool",
        "help": "Run every stage again even when nothing is new since the last finished run (same "
        "files, store, settings, outputs).",
        "panel": "For directors: output, scoring method, what to publish",
        "default_on": False,
    },
    {
        "name": "double_dummy",
        "kind": "bool",
        "help": "Run the double-dummy analysis (tables, traces, per-player mistakes). Default: True.",
        "panel": "For directors: output, scoring method, what to publish",
    },
    {
        "name": "regression",
        "kind": "bool",
        "help": "Write the regression report (needs the DD analysis). Default: True.",
        "panel": "The paper's regression",
    },
    {
        "name": "ratings",
        "kind": "bool",
        "help": "Update the Lehman and skill ratings and the bid/play split after scoring. Default: "
        "True.",
        "panel": "For directors: output, scoring method, what to publish",
    },
    {
        "name": "names_scope",
        "kind": ["covered", "all", "none"],
        "help": "Which events' players are matched to the ranking list: `covered` (events the list "
        "covers: most of their players are on it, as in championships; club players keep "
        "their names), `all`, or `none` (no name matching). Default: covered.",
        "panel": "Analysis: names and ratings",
    },
]
