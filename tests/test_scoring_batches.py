"""Scoring reads and scores the store a batch of whole events at a time (issue 31: bounded memory
at a federation's size), and the scores are the same as in one batch.

Real records: the bundled BBO vugraph LIN (USBF 2010 semi-final, 30 table results), the bundled
2021 online qualifier PBN (299) and the first 200 games of the 2012 world-class PBN, ingested and
cleaned; the scoring stage runs once with every event in one batch and once with one event name
per batch, on two copies of the store.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
import pytest

from stages import scoring_batches as scoring
from stages.clean import clean_pending
from stages.ingest import ingest_paths
from stages.scoring_stage import score_and_rate
from stages.settings import load_settings
from store import Store

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "ddrank" / "data" / "sample"
TABLES = ("scored_results", "rankings", "team_matches", "scored_events", "player_results")


@pytest.fixture(scope="module")
def cleaned(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("batches")
    blocks = (SAMPLE / "pbn" / "worldclass-2012-example3.pbn").read_text(encoding="latin-1")
    first = tmp / "worldclass-first200.pbn"
    first.write_text("\n\n".join(blocks.split("\n\n")[:200]) + "\n", encoding="latin-1")
    db = tmp / "store.duckdb"
    with Store(db) as store:
        ingest_paths(store, [SAMPLE / "lin" / "usbf-2010-sf-14502.lin",
                             SAMPLE / "pbn" / "online-qualifier-2021-example2.pbn", first])  # fmt: skip
        clean_pending(store, workers=1)
    return db


def _scored(src: Path, tmp: Path, batch: int, monkeypatch: pytest.MonkeyPatch) -> tuple:
    db = tmp / f"batch{batch}.duckdb"
    shutil.copy(src, db)
    monkeypatch.setattr(scoring, "BATCH_RESULTS", batch)
    settings = load_settings(db=str(db), out=str(tmp / f"out{batch}"), ratings=False)
    with Store(db) as store:
        batches = list(scoring.load_store_batches(store))
        summary = score_and_rate(store, settings)
    con = duckdb.connect(str(db), read_only=True)
    try:
        rows = {t: con.execute(f"select * exclude (content_hash) from {t} order by all").fetchall()
                if "content_hash" in [c[0] for c in con.execute(f"describe {t}").fetchall()]
                else con.execute(f"select * from {t} order by all").fetchall() for t in TABLES}  # fmt: skip
    finally:
        con.close()
    return [sorted({r.event for r in b.results}) for b in batches], summary, rows


def test_one_batch_per_event_scores_as_one_batch(cleaned: Path, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    whole, s_whole, rows_whole = _scored(cleaned, tmp_path, 10**9, monkeypatch)
    split, s_split, rows_split = _scored(cleaned, tmp_path, 1, monkeypatch)
    assert len(whole) == 1 and len(whole[0]) == 3, whole  # three events, read once
    assert len(split) == 3 and all(len(b) == 1 for b in split), split  # one read each
    assert sorted(e for b in split for e in b) == whole[0]
    assert s_split["rescored"] == s_whole["rescored"] == whole[0]
    assert s_split["results"] == s_whole["results"] > 500
    assert s_split["top"] == s_whole["top"]
    for table in TABLES:
        assert rows_split[table] == rows_whole[table], table
    assert len(rows_whole["scored_results"]) == s_whole["results"]


def test_names_of_one_event_stay_in_one_batch() -> None:
    """Two spellings of a name that the store keys as one event (one event id) are one batch;
    a name is never split, however many results it has."""
    sizes = [("Club Pairs", "club-pairs-2024", "2024.01.05", 2024, 30),
             ("Club pairs", "club-pairs-2024", "2024.01.05", 2024, 20),
             ("Club Pairs", None, "2024.01.12", 2024, 30),
             ("Swiss Teams", None, "2024.02.01", 2024, 90),
             ("Autumn Cup", None, "2024.10.01", 2024, 10)]  # fmt: skip
    batches = scoring.event_batches(sizes, 100)
    assert sorted(map(sorted, batches)) == [["Autumn Cup", "Club Pairs", "Club pairs"],
                                            ["Swiss Teams"]]  # fmt: skip
    assert scoring.event_batches(sizes, 10**6) == [["Autumn Cup", "Club Pairs", "Club pairs",
                                                    "Swiss Teams"]]  # fmt: skip


def test_skill_ratings_read_an_event_at_a_time_equal_one_read(
    cleaned: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The skill stage reads the store a batch of whole events at a time (issue 37), fits on
    every board's columns and spools the boards it rates: one event per batch stores the same
    ratings, to the last bit, as one batch."""
    from stages import skill

    _scored(cleaned, tmp_path, 10**9, monkeypatch)
    rated = {}
    for batch in (10**9, 1):
        db = tmp_path / f"skill{batch}.duckdb"
        shutil.copy(tmp_path / f"batch{10**9}.duckdb", db)
        with Store(db) as store:
            events = skill.skill_event_batches(store, None, batch)
            summary = skill.rate_store(store, batch=batch)
            rated[batch] = (events, summary, store.rows("skill_ratings_all"),
                            sorted(store.tuples("skill_periods")))  # fmt: skip
    (whole, s_whole, r_whole, p_whole), (split, s_split, r_split, p_split) = rated.values()
    assert len(whole) == 1 and len(whole[0]) == 3 and len(split) == 3, (whole, split)
    assert s_split == s_whole and s_whole["boards"] > 500 and len(s_whole["periods_rated"]) == 3
    assert r_split == r_whole and len(r_whole) > 100
    assert p_split == p_whole


def test_a_rerun_reads_only_the_events_whose_inputs_changed(cleaned: Path, tmp_path: Path) -> None:
    """Issue 37: the scoring stage tells the changed events in SQL, without reading the others.
    Nothing new: no table result is read, nothing is rescored, the outputs are the same bytes.
    One board's contract changed in the store: only its event is read and rescored. A new file:
    only its event is read; the store's tables and the outputs equal one scoring of them all."""
    db, out = tmp_path / "inc.duckdb", tmp_path / "inc-out"
    shutil.copy(cleaned, db)
    settings = load_settings(db=str(db), out=str(out), ratings=True)
    with Store(db) as store:
        first = score_and_rate(store, settings)
    results, errors = (out / "results.csv").read_bytes(), (out / "errors.csv").read_bytes()
    with Store(db) as store:
        again = score_and_rate(store, settings)
        assert store.counts["scoring_boards"] == 0
    assert again["rescored"] == [] and again["unchanged"] == first["rescored"]
    assert (out / "results.csv").read_bytes() == results
    assert (out / "errors.csv").read_bytes() == errors
    assert again["errors"] == first["errors"] > 0 and again["results"] == first["results"]
    with Store(db) as store:
        rid, event = store.tuples(sql="select record_id, event from boards where contract "
                                      "like '3N%' order by record_id limit 1")[0]  # fmt: skip
        store.run(sql="update boards set contract = '4S', declarer = 'N', result = '10' "
                      "where record_id = $rid", rid=rid)  # fmt: skip
        changed = score_and_rate(store, settings)
        assert store.counts["scoring_boards"] == 1
    scored = {r["event"]: r for r in first["methods"]}
    assert len(changed["rescored"]) == 1 and changed["rescored"][0] in scored
    assert sorted(changed["rescored"] + changed["unchanged"]) == first["rescored"]
    assert event in changed["rescored"][0] or changed["rescored"][0].startswith(event[:4])


def test_fingerprints_hashed_a_few_boards_at_a_time_equal_one_query(
    cleaned: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 37: the groups' fingerprints are hashed a part of the boards at a time (by row id,
    `event_inputs`): the parts' counts and fingerprints add up to those of the one query over
    every board, also with boards deleted (row ids with gaps); a rerun hashed one board at a
    time finds nothing changed and reads no table result."""
    import stages.scoring_groups as groups

    db = tmp_path / "parts.duckdb"
    shutil.copy(cleaned, db)
    settings = load_settings(db=str(db), out=str(tmp_path / "out"), ratings=False)
    with Store(db) as store:
        whole = sorted(store.tuples("scoring_event_inputs"), key=repr)
        assert len(whole) >= 3 and sum(r[4] for r in whole) > 500, whole
        for rows in (1, 7, 100, 10**6):
            assert groups.event_inputs(store, rows) == whole, rows
        assert store.counts["scoring_event_inputs"] == 1  # the parts added up: not asked again
        score_and_rate(store, settings)
    monkeypatch.setattr(groups, "INPUT_ROWS", 1)
    with Store(db) as store:
        again = score_and_rate(store, settings)
        assert store.counts["scoring_boards"] == 0 and again["rescored"] == []
        store.run(sql="delete from boards where record_id in "
                      "(select record_id from boards order by record_id limit 9)")  # fmt: skip
        fewer = sorted(store.tuples("scoring_event_inputs"), key=repr)
        assert fewer != whole and groups.event_inputs(store, 5) == fewer
        assert store.counts["scoring_event_inputs"] == 1


def test_a_new_file_reads_only_its_event_and_scores_as_one_run(tmp_path: Path) -> None:
    """Two files scored, then a third ingested: the rerun reads one event (one read of the
    boards), and its store tables and output files equal those of one scoring of the three."""
    files = [SAMPLE / "lin" / "usbf-2010-sf-14502.lin",
             SAMPLE / "pbn" / "online-qualifier-2021-example2.pbn"]  # fmt: skip
    third = SAMPLE / "pbn" / "worldclass-2012-example3.pbn"
    blocks = third.read_text(encoding="latin-1").split("\n\n")
    part = tmp_path / "worldclass-first150.pbn"
    part.write_text("\n\n".join(blocks[:150]) + "\n", encoding="latin-1")
    made, reads = {}, {}
    for name, steps in (("added", [files, [part]]), ("whole", [files + [part]])):
        db = tmp_path / name / "s.duckdb"
        db.parent.mkdir()
        settings = load_settings(db=str(db), out=str(tmp_path / name / "out"), ratings=True)
        with Store(db) as store:
            for paths in steps:
                ingest_paths(store, paths)
                clean_pending(store, workers=1)
                store.counts.clear()
                summary = score_and_rate(store, settings)
            reads[name] = dict(store.counts)
            made[name] = (summary, {t: store.tuples(sql=f"select * from {t} order by all")
                                    for t in TABLES})  # fmt: skip
    (added, tables), (whole, whole_tables) = made["added"], made["whole"]
    assert reads["added"]["scoring_boards"] == 1
    assert len(added["rescored"]) == 1 and len(added["unchanged"]) == 2
    assert sorted(added["rescored"] + added["unchanged"]) == whole["rescored"]
    assert tables == whole_tables
    # the exports and the split render and split the added event only (one read of each), and
    # give the bytes of one run over the three files
    assert reads["added"]["export_results"] == reads["added"]["scored_tables_of"] == 1
    assert added["split"]["tables"] == whole["split"]["tables"] > 100
    for f in ("results.csv", "ranking.csv", "errors.csv", "ratings.csv", "teams.csv",
              "butler.csv", "report.md", "split/pairs.csv", "split/players.csv",
              "split/errors.csv", "split/split_report.md"):  # fmt: skip
        a, b = (
            (tmp_path / n / "out" / f).read_bytes().replace(f"/{n}/s.duckdb".encode(), b"")
            for n in ("added", "whole")
        )  # the reports name the store
        assert a == b, f


def test_the_split_read_an_event_at_a_time_writes_what_one_read_writes(
    cleaned: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bid/play split reads a batch of whole events at a time (issue 37) and sums each pair's
    and player's splits in the order of one read: the same files, byte for byte."""
    from stages import split

    _scored(cleaned, tmp_path, 10**9, monkeypatch)
    db = tmp_path / f"batch{10**9}.duckdb"
    with Store(db) as store:
        imp = [ev for (ev,) in store.tuples(sql="select event from scored_events where scoring "
                                                "in ('IMP', 'TEAMS', 'BUTLER') order by 1")]  # fmt: skip
        made = {}
        for batch in (10**9, 1):
            monkeypatch.setattr(split, "SPLIT_BATCH", batch)
            for table in ("split_tables", "split_events", "split_totals"):  # nothing kept
                store.run(sql=f"delete from {table}")
            store.counts.clear()
            made[batch] = split.split_imp_events(store, imp, tmp_path / f"split{batch}")
            assert store.counts["scored_tables_of"] == (1 if batch > 1 else len(imp))
    assert len(imp) >= 2 and made[1]["tables"] == made[10**9]["tables"] > 100
    for f in ("pairs.csv", "players.csv", "errors.csv", "split_report.md"):
        assert (tmp_path / "split1" / f).read_bytes() == (
            tmp_path / f"split{10**9}" / f
        ).read_bytes()


def test_the_split_summed_a_few_labels_at_a_time_writes_what_one_pass_writes(
    cleaned: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run that splits some events again sums their pairs' and players' kept table splits a
    part of the labels at a time, and every run writes pairs.csv and players.csv a chunk of rows
    at a time, keeping only the best rows for the report (issue 37): in parts of a few labels,
    with one row per read and per chunk, the same sums to the last bit and the same files, byte
    for byte, as one pass over every event; the report's top sections are those of every row at
    once (`top_sections`)."""
    from publish.field import TopRows, top_sections
    from stages import split

    _scored(cleaned, tmp_path, 10**9, monkeypatch)
    with Store(tmp_path / f"batch{10**9}.duckdb") as store:
        imp = [ev for (ev,) in store.tuples(sql="select event from scored_events where scoring "
                                                "in ('IMP', 'TEAMS', 'BUTLER') order by 1")]  # fmt: skip
        for table in ("split_tables", "split_events", "split_totals"):  # nothing kept
            store.run(sql=f"delete from {table}")
        whole = split.split_imp_events(store, imp, tmp_path / "whole")
        totals = store.tuples(sql="select * from split_totals order by kind, label")
        t = whole["tables"]  # 2 and 4 sides a table split, t // 3 sides a read: up to 6 and 12
        monkeypatch.setattr(split, "SIDES_PER_READ", t // 3)
        monkeypatch.setattr(split, "SPLIT_ROWS", 1)
        monkeypatch.setattr(TopRows, "CHUNK", 1)
        # every event but the last is split again (as if its scores had changed)
        store.run(sql="delete from split_events where event <> $last", last=imp[-1])
        store.counts.clear()
        again = split.split_imp_events(store, imp, tmp_path / "again")
        reads = (store.counts["split_pair_sides"], store.counts["split_player_sides"])
        assert store.tuples(sql="select * from split_totals order by kind, label") == totals
        pairs = list(split._kept_rows(store, "pair"))
        players = list(split._kept_rows(store, "player"))
        for min_boards in (30, 10**6):  # some pairs and players qualify; nobody does
            split.split_imp_events(store, imp, tmp_path / f"min{min_boards}", min_boards)
            report = (tmp_path / f"min{min_boards}" / "split_report.md").read_text()
            top = top_sections(pairs, players, split.SPLIT_COLUMNS[2:], min_boards)
            assert "\n".join(top) in report
            assert ("(at least 0 boards)" in report) == (min_boards > 30)
    assert store.counts["scored_tables_of"] == 1  # the events split again, one read
    assert 2 <= reads[0] <= 6 and 2 * reads[0] - 1 <= reads[1] <= 12  # parts of a few labels
    assert whole == {**again, "files": whole["files"]}
    assert t > 100 and whole["pairs"] > 1 and whole["players"] > 1
    assert len(totals) == whole["pairs"] + whole["players"] == len(pairs) + len(players)
    for f in ("pairs.csv", "players.csv", "errors.csv", "split_report.md"):
        assert (tmp_path / "whole" / f).read_bytes() == (tmp_path / "again" / f).read_bytes(), f


def test_a_split_left_unfinished_is_done_again_whole(
    cleaned: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A split run kept (issue 37) reads nothing the next time; one that stopped halfway (its
    mark left, its sums half written) is not trusted: the next run splits every event again and
    writes the files of a first run."""
    from stages import split

    _scored(cleaned, tmp_path, 10**9, monkeypatch)
    with Store(tmp_path / f"batch{10**9}.duckdb") as store:
        imp = [ev for (ev,) in store.tuples(sql="select event from scored_events where scoring "
                                                "in ('IMP', 'TEAMS', 'BUTLER') order by 1")]  # fmt: skip
        split.split_imp_events(store, imp, tmp_path / "first")
        first = (tmp_path / "first" / "players.csv").read_bytes()
        store.counts.clear()
        split.split_imp_events(store, imp, tmp_path / "again")
        assert store.counts["scored_tables_of"] == 0
        store.run("mark_split_unfinished")
        store.run(sql="delete from split_totals where kind = 'player'")  # stopped halfway
        split.split_imp_events(store, imp, tmp_path / "redone")
        assert store.counts["scored_tables_of"] == 1
        assert not store.scalar("split_unfinished")
    assert len(imp) >= 2
    for name in ("again", "redone"):
        assert (tmp_path / name / "players.csv").read_bytes() == first


def test_lehman_read_a_period_at_a_time_equals_one_read(
    cleaned: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Lehman stage reads its periods in chunks of about RESULTS_PER_READ results (issue 37):
    one period per read keeps the same ratings and history, to the last bit, as one read."""
    from stages import ratings

    _scored(cleaned, tmp_path, 10**9, monkeypatch)
    kept = {}
    for per_read in (10**9, 1):
        db = tmp_path / f"lehman{per_read}.duckdb"
        shutil.copy(tmp_path / f"batch{10**9}.duckdb", db)
        monkeypatch.setattr(ratings, "RESULTS_PER_READ", per_read)
        with Store(db) as store:
            summary = ratings.update_ratings(store)
            kept[per_read] = (summary, store.counts["rating_boards"],
                              store.tuples(sql="select * from ratings order by all"),
                              store.tuples(sql="select * from rating_history order by all"))  # fmt: skip
    (whole, reads_whole, r_whole, h_whole), (split, reads_split, r_split, h_split) = kept.values()
    assert (reads_whole, reads_split) == (1, 3) and whole == split and whole["periods"] == 3
    assert r_split == r_whole and h_split == h_whole and len(r_whole) > 100


def test_an_event_without_table_results_still_gets_a_batch() -> None:
    """A teams file of matches only (Ruter's team.pbn: 60 match VPs, no table result) has 0 results;
    as the first or only item it must open a batch, not index an empty list (CI of 2dbe9ac)."""
    from stages.scoring import cut

    assert cut([("team.pbn", 0)], 20_000) == [["team.pbn"]]
    assert cut([("team.pbn", 0), ("lin", 30), ("online", 299)], 300) == [["team.pbn", "lin"],
                                                                         ["online"]]  # fmt: skip
    assert cut([("a", 20_000), ("b", 1), ("c", 0)], 20_000) == [["a"], ["b", "c"]]


def test_errors_read_back_a_few_at_a_time_write_what_one_read_writes(
    cleaned: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """errors.csv, report.md and the kept `scoring_errors` are written from the store's records
    left out and groups' states read back a batch at a time (`StoredErrors`, issue 37): with one
    record and one group per read (every boundary crossed) they are byte for byte those of the
    default reads, and errors.csv holds, in order, what the whole lists give: the records cleaning
    left out, then each group's."""
    import stages.scoring as stage_scoring
    import stages.scoring_groups as groups
    from publish.scores import write_errors

    outs = {}
    for name, small in (("default", False), ("one", True)):
        db = tmp_path / "store.duckdb"  # one path: errors.csv and report.md name it
        shutil.copy(cleaned, db)
        if small:
            monkeypatch.setattr(stage_scoring, "EXCLUDED_PER_READ", 1)
            monkeypatch.setattr(stage_scoring, "ERRORS_PER_FRAME", 1)
            monkeypatch.setattr(groups, "STATES_PER_READ", 1)
        monkeypatch.setattr(scoring, "BATCH_RESULTS", 1)  # a group per batch
        settings = load_settings(db=str(db), out=str(tmp_path / f"out-{name}"), ratings=False)
        with Store(db) as store:
            summary = score_and_rate(store, settings)
            kept = store.tuples(sql="select * from scoring_errors")
            every = groups.scoring_groups(store, stage_scoring.option_key("auto", None))
            states = groups.stored_states(store, every)
            whole = stage_scoring.excluded(store) + [e for g in every for e in states[g.key].errors]
        outs[name] = (summary, kept, whole)
    (s_default, kept_default, whole), (s_one, kept_one, _) = outs["default"], outs["one"]
    excluded_n = sum(e.kind in ("left out", "unreadable") for e in whole)
    assert excluded_n > 1 and len(whole) > excluded_n, (excluded_n, len(whole))  # both sources
    for f in ("errors.csv", "report.md", "results.csv", "ranking.csv"):
        assert (tmp_path / "out-one" / f).read_bytes() == (
            tmp_path / "out-default" / f
        ).read_bytes()
    assert kept_one == kept_default and len(kept_default) == len(whole)
    for key in ("errors", "duplicate_tables", "missing_lines", "notes", "left_out_why"):
        assert s_one[key] == s_default[key], key
    assert s_default["errors"] == sum(e.kind == "left out" for e in whole)
    write_errors(tmp_path, whole)  # the whole list, written at once
    assert (tmp_path / "errors.csv").read_bytes() == (
        tmp_path / "out-default" / "errors.csv"
    ).read_bytes()


def test_parts_read_in_one_pass_write_what_event_order_reads_write(
    cleaned: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Exporting many events, the kept parts are read in one pass through the table in its own
    order and written in event order from a spool (`stored_parts`, issue 37): the files are byte
    for byte those the reads in event order write, also when the table's order is not the
    events' (the first event's part made again, so kept last)."""
    import stages.scoring_export as export_stage

    db = tmp_path / "store.duckdb"
    shutil.copy(cleaned, db)
    settings = load_settings(db=str(db), out=str(tmp_path / "by-query"), ratings=False)
    with Store(db) as store:
        score_and_rate(store, settings)
        names = [r[0] for r in store.tuples("export_part_events", events=None)]
        assert len(names) == 3, names
        store.run("delete_export_parts", events=names[:1])  # made again: kept after the others
        assert export_stage.make_export_parts(store) == 1
        stored = [r[0] for r in store.tuples(sql="select event from export_parts")]
        assert stored == [*names[1:], names[0]], stored  # the table's order is not the events'
        monkeypatch.setattr(export_stage, "PARTS_BY_QUERY_UP_TO", 0)
        summary = export_stage.export(store, str(tmp_path / "one-pass"), str(db),
                                      stage_errors(store))  # fmt: skip
    assert summary["events"] == 3 and summary["results"] > 500
    files = sorted(f.name for f in (tmp_path / "by-query").iterdir())
    assert "results.csv" in files and "report.md" in files and "teams.csv" in files, files
    for f in files:
        assert (tmp_path / "one-pass" / f).read_bytes() == (
            tmp_path / "by-query" / f
        ).read_bytes(), f


def stage_errors(store: Store) -> list:
    """errors.csv's records as the scoring stage gives them: cleaning's, then each group's."""
    import stages.scoring as stage_scoring
    import stages.scoring_groups as groups

    every = groups.scoring_groups(store, stage_scoring.option_key("auto", None))
    return list(groups.StoredErrors(store, every))
