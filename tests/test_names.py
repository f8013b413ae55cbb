"""Player name matching (issue 4): seed reference examples, fuzzy strategy, context, DB, CLI.

Real data only: the WBF open list in ddrank/data/rankings, raw names as they appear in ddrank/data/sample and
data/valet, the hand-labelled set tests/data/names_eval.csv, and the reference doc's examples.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ddrank.names import (
    FuzzyMatcher,
    NameUnit,
    SeedMatcher,
    board_context,
    match_units,
    parse_aliases,
    parse_rankings,
    rankings_from_rows,
    seat_teams,
)
from ddrank.names.seed import seed_tokens, seed_tuple

ROOT = Path(__file__).resolve().parent.parent
RANKINGS_CSV = ROOT / "ddrank" / "data" / "rankings" / "wbf-open-rankings.csv"
EVAL_CSV = ROOT / "tests" / "data" / "names_eval.csv"
LIN = ROOT / "ddrank" / "data" / "sample" / "lin" / "usbf-2010-sf-14502.lin"
ONLINE_PBN = ROOT / "ddrank" / "data" / "sample" / "pbn" / "online-qualifier-2021-example2.pbn"
WC_PBN = ROOT / "ddrank" / "data" / "sample" / "pbn" / "worldclass-2012-example3.pbn"


@pytest.fixture(scope="module")
def entries():
    return parse_rankings(RANKINGS_CSV.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def fuzzy(entries):
    return FuzzyMatcher(entries)


@pytest.fixture(scope="module")
def seed(entries):
    return SeedMatcher(entries)


def _by_name(entries, *names):
    chosen = [e for e in entries if e.name in names]
    assert len(chosen) == len(names), names
    return chosen


# ----------------------------------------------------------------------------- ranking lists


def test_simple_list_loads_every_row_once(entries):
    lines = RANKINGS_CSV.read_text(encoding="utf-8").splitlines()
    assert len(entries) == len(lines) - 1 == 2145
    assert len({e.key for e in entries}) == len(entries)
    dalelio = next(e for e in entries if "Alelio" in e.name)
    assert (dalelio.name, dalelio.masterpoints, dalelio.placing_points) == (
        "Massimo 'mimmo' D'Alelio",
        1185.0,
        44.0,
    )
    # the list keeps its accents (the paper's scrape had lost them: "Herv  Mouiel")
    assert any(e.name == "Hervé Mouiel" for e in entries)


def _wbf_layout(entries, rows):
    """WBF web layout (code, first, last, country, mp, pp) for real list entries."""
    out = ["Code;First Name;Last Name;Country;MP;PP"]
    by_name = {e.name: e for e in entries}
    for name, code, country in rows:
        e = by_name[name]
        first, last = name.rsplit(" ", 1)
        out.append(f"{code};{first};{last};{country};{e.masterpoints};{e.placing_points}")
    return "\n".join(out) + "\n"


def test_wbf_layout_keeps_duplicate_full_names_distinct(entries):
    # WBF ids from the 2021 online records; the same player exported under two codes would be
    # overwritten by the reference's dict-by-full-name (last one wins)
    text = _wbf_layout(
        entries,
        [
            ("Michael Askgaard", "23324", "Denmark"),
            ("Kasper Konow", "20880", "Denmark"),
            ("Michael Askgaard", "23325", "Denmark"),
        ],
    )
    wbf = parse_rankings(text)
    assert [e.key for e in wbf] == [
        "Michael Askgaard [23324]",
        "Kasper Konow",
        "Michael Askgaard [23325]",
    ]
    assert wbf[0].first == "Michael" and wbf[0].last == "Askgaard" and wbf[0].country == "Denmark"
    assert wbf[1].masterpoints == 228.0
    # the two identical names cannot be told apart by name: never a silent pick
    decision = FuzzyMatcher(wbf).match("Michael Askgaard#23324")
    assert decision.ranking_name is None and decision.method == "ambiguous"
    assert FuzzyMatcher(wbf).match("KONOW Kasper").ranking_name == "Kasper Konow"


def test_rows_without_a_name_column_are_refused():
    with pytest.raises(ValueError, match="name"):
        rankings_from_rows([{"masterpoints": 1.0}])


# ----------------------------------------------------------------------------- seed strategy


def test_seed_reference_examples():
    smiths = SeedMatcher(rankings_from_rows([{"name": "John Smith"}, {"name": "Jane Smith"}]))
    assert smiths.match("J. Smith").ranking_name is None
    assert smiths.match("J. Smith").method == "ambiguous"
    assert smiths.match("Smith").ranking_name is None
    assert smiths.match("John").ranking_name == "John Smith"
    doyles = SeedMatcher(
        rankings_from_rows([{"name": "Jeff K. M. Q. Doyle"}, {"name": "Jeff K. L. Doyle"}])
    )
    assert doyles.match("Jeff K. Doyle").ranking_name == "Jeff K. L. Doyle"


def test_seed_tuples_are_the_references():
    raw = seed_tokens("Jeff K. Doyle", ranking_side=False)
    assert seed_tuple(raw, seed_tokens("Jeff K. M. Q. Doyle", ranking_side=True)) == (2, 1, 0, -2)
    assert seed_tuple(raw, seed_tokens("Jeff K. L. Doyle", ranking_side=True)) == (2, 1, 0, -1)
    j_smith = seed_tokens("J. Smith", ranking_side=False)
    # the DB initial J is spent on the unmatched WBF name JOHN (greedy step)
    assert seed_tuple(j_smith, seed_tokens("John Smith", ranking_side=True)) == (1, 1, 0, 0)
    # nicknames in (...) or '...' are names on the ranking side only
    assert seed_tokens("Massimo 'mimmo' D'Alelio", ranking_side=True).names["MIMMO"] == 1
    assert seed_tokens("Frank (Nick) Nickell", ranking_side=False).names["(NICK)"] == 1


def test_seed_on_real_names_shows_why_fuzzy_is_needed(seed, fuzzy):
    assert seed.match("BALICKI Cezary").ranking_name == "Cezary Balicki"
    # the id suffix stays glued to the surname and one shared given name wins the tuple
    assert seed.match("Tor Eivind Grude#46280").ranking_name == "Tor Helness"
    assert fuzzy.match("Tor Eivind Grude#46280").ranking_name is None
    # a bare surname that is another player's given name
    assert seed.match("Lee").ranking_name == "Lee Hazen"
    assert fuzzy.match("Lee").ranking_name is None


# ----------------------------------------------------------------------------- fuzzy strategy


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("Balicki", "Cezary Balicki"),  # vugraph surname
        ("BALICKI Cezary", "Cezary Balicki"),  # valet SURNAME Given
        ("Michael Askgaard#23324", "Michael Askgaard"),  # online id suffix
        ("LallH", "Hemant Lall"),  # vugraph initial
        ("LallJ", "Justin Lall"),
        ("WolpertD", "Darren Wolpert"),
        ("v.Prooijen", "Ricco Van Prooijen"),  # abbreviated particle
        ("deWijs", "Simon De Wijs"),
        ("DE WIJS Simon", "Simon De Wijs"),
        ("ElAhmady", "Waleed El Ahmady"),
        ("Delmonte", "Ishmael Del Monte"),
        ("LEVIN Robert (Bobby)", "Bobby Levin"),  # nickname in the record
        ("Wojtek Olanski#27458", "Wojciech Olanski"),  # diminutive
        ("Aris Sapounakis#24828", "Aristidis Sapounakis"),
        ("Jerome Rombaut#20899", "Jérôme Rombaut"),  # accents the record lost
        ("CRONIER Benedicte", "Bénédicte Cronier"),
        ("Jérôme Rombaut", "Jérôme Rombaut"),  # accents the record kept
        ("CAMPOS Joao-Paulo", "Joao Paulo Campos"),  # hyphenated given name
        ("PELLETIER Jean-Claude", "Jean Claude Pelletier"),
        ("ESPINOSA-PAZ Maria Jose", "Maria Jose Espinosa"),  # hyphenated surname
        ("ZUR-CAMPANILE Migry", "Migry Zur-Campanile"),
        ("SUMAMPOUW Conny", "Sumampouw Conny"),  # list stores it surname first
        ("BALAKRISHNAN Prabhakar", "Balakrishna Prabhakar"),
        ("GALLEGO Tina J. Del", "Tina J Del Gallego"),  # particle after the given names
        ("TAN Gemma", "Gemma Tan Mariano"),  # middle token as first surname
        ("VERHEES Jr Louk", "Louk Verhees Jr"),
        ("BildeD", "Dennis Bilde"),
    ],
)
def test_fuzzy_reads_real_spellings(fuzzy, raw, expected):
    decision = fuzzy.match(raw)
    assert decision.ranking_name == expected, decision


@pytest.mark.parametrize(
    "raw",
    [
        "Zimmerm.",  # Pierre Zimmermann is not in this list
        "Said",  # Mohamed Said Berrada has Said as a middle name
        "Hayet",  # Hayet Hachimi: given name
        "AkerO",  # Jeff Aker: initial contradicts
        "MukherjeeM",  # Sumit Mukherjee: initial contradicts
        "WANG Liping",  # Ping Wang is someone else
        "GARTAGANIS Judith",  # only her partner Nicholas is listed
        "Michal Klukowski#47677",
        "Dummy 1#",
    ],
)
def test_fuzzy_refuses_wrong_players(fuzzy, raw):
    assert fuzzy.match(raw).ranking_name is None


def test_ambiguous_surname_stays_unmatched_for_review(fuzzy):
    decision = fuzzy.match("Weinstein", "Spingold|2012")
    assert decision.ranking_name is None
    assert decision.method == "ambiguous"
    assert decision.runner_up.split(" | ") == [
        "Howard Weinstein",
        "Jonathan Weinstein",
        "Steve Weinstein",
    ]
    assert decision.score == decision.runner_up_score == 90.0
    assert decision.needs_review
    # the vugraph initial settles it without context
    assert fuzzy.match("WeinsteinH").ranking_name == "Howard Weinstein"


DEGENERATE = [
    "",
    " ",
    "\t\n",
    "...",
    "#",
    "#184195",
    "-- ,, ''",
    "()",
    "'",
    "x" * 10240,
    "Balicki " * 1400,
    "ñ" * 10240,
]


@pytest.mark.parametrize("raw", DEGENERATE, ids=lambda r: f"{r[:8]!r}x{len(r)}")
@pytest.mark.parametrize("strategy", ["fuzzy", "seed"])
def test_degenerate_names_get_a_clean_no_match(entries, fuzzy, seed, raw, strategy):
    matcher = fuzzy if strategy == "fuzzy" else seed
    decision = matcher.match(raw)
    assert decision.ranking_name is None
    assert decision.method in ("none", "ambiguous")
    units = [
        NameUnit(raw, "x|0", partners=("Helgemo",)),
        NameUnit("Helgemo", "x|0", partners=(raw,)),
    ]
    decisions = match_units(units, entries, strategy=strategy, matcher=matcher)
    assert decisions[0].ranking_name is None
    assert decisions[1].ranking_name == "Geir Helgemo"


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=60))
def test_any_text_never_raises(fuzzy, seed, raw):
    for matcher in (fuzzy, seed):
        decision = matcher.match(raw)
        assert decision.raw_name == raw


# ----------------------------------------------------------------------------- context


def _unit(raw, context, partner, boards=1, teams=()):
    return NameUnit(raw, context, tuple(teams), (partner,) * boards)


VALET_2013 = "2013-world-men|0"
WC_2012 = "World Championship|2012"


def test_stable_partnership_settles_a_tied_surname(entries):
    vugraph = [
        _unit("Helness", WC_2012, "Helgemo", 33, ["Monaco"]),
        _unit("Helgemo", WC_2012, "Helness", 33, ["Monaco"]),
    ]
    alone = match_units(vugraph, entries)
    assert alone[0].ranking_name is None and alone[0].method == "ambiguous"
    assert alone[1].ranking_name == "Geir Helgemo"
    valet = [
        _unit("HELNESS Tor", VALET_2013, "HELGEMO Geir", 22),
        _unit("HELGEMO Geir", VALET_2013, "HELNESS Tor", 22),
    ]
    with_valet = match_units(vugraph + valet, entries)
    assert with_valet[0].ranking_name == "Tor Helness"
    assert with_valet[0].method == "context:partner"
    assert with_valet[0].runner_up == "Gunn Helness"


def test_two_tied_partners_settle_each_other(entries):
    units = [
        _unit("Levin", "Spingold|2012", "Weinstein", 18),
        _unit("Weinstein", "Spingold|2012", "Levin", 18),
        _unit("LEVIN Robert (Bobby)", VALET_2013, "WEINSTEIN Steve", 22),
        _unit("WEINSTEIN Steve", VALET_2013, "LEVIN Robert (Bobby)", 22),
        _unit("WeinsteinH", "Spingold|2012", "Garner", 17),  # Howard, with another partner
    ]
    out = match_units(units, entries)
    assert [d.ranking_name for d in out[:2]] == ["Bobby Levin", "Steve Weinstein"]
    assert {d.method for d in out[:2]} == {"context:partner"}
    assert out[4].ranking_name == "Howard Weinstein"


def test_partner_points_at_a_name_without_candidates(entries):
    units = [
        _unit("Mahmood", "2010 USBF SF A|2010", "Hamman", 14),  # LIN: surname alone, unique
        _unit("Hamman", "2010 USBF SF A|2010", "Mahmood", 14),
        _unit("Zia", WC_2012, "Hamman", 34),  # vugraph uses his given name
        _unit("Lee", "Spingold|2012", "Demirev", 17),  # nobody known next to Demirev
    ]
    out = match_units(units, entries)
    assert out[2].ranking_name == "Zia Mahmood"
    assert out[2].method == "context:partner" and out[2].needs_review
    assert out[3].ranking_name is None
    # the seed uses no context
    assert match_units(units, entries, strategy="seed")[2].ranking_name == "Zia Mahmood"


def test_same_raw_name_in_same_team_is_the_same_player(entries):
    units = [
        _unit("Helness", WC_2012, "Helgemo", 33, ["Monaco"]),
        _unit("HELNESS Tor", VALET_2013, "HELGEMO Geir", 22),
        NameUnit("Helness", "Vanderbilt|2012", ("Bertheau", "Monaco"), ()),  # no partner seen
    ]
    out = match_units(units, entries)
    assert out[0].ranking_name == "Tor Helness"
    assert out[2].ranking_name == "Tor Helness" and out[2].method == "context:team"


def test_country_of_the_team_breaks_a_tie_with_a_wbf_list(entries):
    text = _wbf_layout(
        entries,
        [
            ("Tor Helness", "", "Monaco"),
            ("Gunn Helness", "", "Norway"),
            ("Geir Helgemo", "", "Monaco"),
        ],
    )
    wbf = parse_rankings(text)
    out = match_units([_unit("Helness", WC_2012, "Helgemo", 33, ["Monaco"])], wbf)
    assert out[0].ranking_name == "Tor Helness" and out[0].method == "context:country"


def test_seat_teams_follow_the_room():
    assert seat_teams("north", "Open", "Nickell", "Fleisher") == ("Nickell",)
    assert seat_teams("east", "Open", "Nickell", "Fleisher") == ("Fleisher",)
    assert seat_teams("east", "Closed", "Nickell", "Fleisher") == ("Nickell",)
    assert seat_teams("south", "", "Poland", "Sweden") == ("Poland", "Sweden")
    assert board_context(" Spingold ", 2012) == "Spingold|2012"
    assert board_context(None, None) == "|0"


# ----------------------------------------------------------------------------- aliases


def test_aliases_always_win(entries):
    aliases = parse_aliases(
        "raw_name,ranking_name\n"
        "Helness,Tor Helness\n"
        "  balicki ,\n"  # pins a clear match to no match
        "# a comment line\n"
        "Zia,Zia Mahmood\n"
    )
    units = [_unit("Helness", WC_2012, "Helgemo"), _unit("Balicki", WC_2012, "Zmudzinski")]
    for strategy in ("fuzzy", "seed"):
        out = match_units(units, entries, aliases, strategy)
        assert out[0].ranking_name == "Tor Helness" and out[0].method == "alias"
        assert out[1].ranking_name is None and out[1].method == "alias"
    with pytest.raises(ValueError, match="not in the ranking list"):
        FuzzyMatcher(entries, parse_aliases("Helness,Helness Tor\n"))


# ----------------------------------------------------------------------------- labelled set


def _data_text() -> str:
    parts = [p.read_text(encoding="utf-8", errors="replace") for p in (LIN, ONLINE_PBN, WC_PBN)]
    parts += [p.read_text(encoding="utf-8") for p in (ROOT / "data" / "valet").glob("*/names.txt")]
    return "\n".join(parts)


def test_eval_set_is_real_labelled_and_large_enough(entries):
    rows = list(csv.DictReader(EVAL_CSV.open(encoding="utf-8")))
    assert len(rows) >= 300
    names = {e.key for e in entries}
    assert {r["ranking_name"] for r in rows} - names == {"none"}
    kinds = {r["source"].split("-")[0] for r in rows}
    assert kinds == {"pbn", "valet", "lin"}
    assert sum(r["source"] == "pbn-online-2021" for r in rows) >= 100
    assert sum(r["ranking_name"] == "none" for r in rows) >= 150
    data = _data_text()
    for r in rows:  # every raw name is spelled exactly as in the data files
        assert r["raw_name"] in data, r["raw_name"]
    # a label whose entry shares no word with the raw name carries its evidence in notes
    for r in rows:
        if r["ranking_name"] == "none":
            continue
        entry = re.sub(r"[^a-z]", "", r["ranking_name"].lower())
        words = re.findall(r"[a-z]{3,}", r["raw_name"].split("#")[0].lower())
        if not any(w in entry for w in words):
            assert r["notes"], r["raw_name"]
    # the ties a person settled are documented
    noted = {r["raw_name"] for r in rows if r["notes"]}
    assert {"Helness", "Weinstein", "Levin", "Verhees", "Zia", "DRIJVER Bas"} <= noted


def test_fuzzy_beats_seed_on_the_labelled_set(entries):
    rows = list(csv.DictReader(EVAL_CSV.open(encoding="utf-8")))
    units = [
        NameUnit(
            r["raw_name"],
            r["context"],
            tuple(t for t in r["team"].split("/") if t),
            tuple(p for p in r["partners"].split("|") if p),
        )
        for r in rows
    ]
    players = sum(r["ranking_name"] != "none" for r in rows)
    result = {}
    for strategy in ("seed", "fuzzy"):
        out = match_units(units, entries, strategy=strategy)
        made = [(d, r) for d, r in zip(out, rows, strict=True) if d.ranking_name]
        correct = sum(d.ranking_name == r["ranking_name"] for d, r in made)
        result[strategy] = (correct / len(made), correct / players)
    assert result["fuzzy"][0] >= 0.99
    assert result["fuzzy"][1] >= result["seed"][1] + 0.10
    assert result["seed"][0] < 0.95  # the seed's wrong matches are real (see notes in the CSV)
