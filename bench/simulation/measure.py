"""The simulated boards through ddrank's own pipeline, and each rating's Spearman with the truth.

Per seed: PBN -> `ingest_task` -> `clean_task` -> `dd_analysis` (DD tables, play traces, the
player counters) in a throwaway store, as the product would run them. DD tables depend only on
the cards, so the tables of the (shared) deal pool are cached in a JSON file next to the stores
and inserted before `dd_analysis`, which then computes the play traces only.

Then, on the first k rounds for each checkpoint k, three measures rank the players:

* `ddrank`: the skill rating's `overall` (bidding + IMP value of the card play), no forgetting;
* `lehman`: ddrank's Lehman on the IMP scale, no forgetting;
* `dd_rates`: the paper's DD mistake rate (weighted play and lead mistakes per card, from
  `player_board_stats`), lower is better;

and, as a variant, both ratings with the product's default forgetting (`VARIANTS`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np

MEASURES = ("ddrank", "lehman", "dd_rates")
#: The two ratings with the product's default forgetting (ddrank drift_sd 0.02 of the prior sd per
#: period; Lehman history_weight 0.9 per period, weight cap 1000): a variant, reported beside.
VARIANTS = ("ddrank_default_forgetting", "lehman_default_forgetting")
ALL = MEASURES + VARIANTS
PAIRS = (
    ("ddrank", "lehman"),
    ("ddrank", "dd_rates"),
    ("lehman", "dd_rates"),
    ("ddrank", "ddrank_default_forgetting"),
    ("lehman", "lehman_default_forgetting"),
    ("ddrank", "lehman_default_forgetting"),
    ("ddrank_default_forgetting", "lehman_default_forgetting"),
)


def _remove(db: Path) -> None:
    for p in (db, Path(f"{db}.wal")):
        if p.exists():
            p.unlink()


def run_pipeline(pbn: Path, db: Path, table_cache: Path) -> dict:
    """Ingest, clean and DD-analyse one seed's PBN into a fresh store at `db`."""
    import polars as pl

    from flows.dd_analysis import dd_analysis
    from stages.clean import clean_pending
    from stages.ingest import ingest_paths
    from store import Store

    _remove(db)
    with Store(db) as st:
        ingest_paths(st, [str(pbn)], 500)
        clean_pending(st, 1)
    cache: dict[str, list[list]] = (
        json.loads(table_cache.read_text()) if table_cache.is_file() else {}
    )
    with Store(db) as st:
        ids = {r[0] for r in st.tuples(sql="select distinct deal_id from boards")}
        rows = [(d, s, p, t) for d in sorted(ids & cache.keys()) for s, p, t in cache[d]]
        if rows:
            st.insert_frame("dd_tables", pl.DataFrame(
                rows, schema={"deal_id": pl.String, "strain": pl.String, "declarer": pl.String,
                              "tricks": pl.Int8}, orient="row"))  # fmt: skip
    summary = dd_analysis(db=str(db), workers=1, runner="thread", dds_threads=1)
    if summary.get("tables_computed"):
        with Store(db, read_only=True) as st:
            for d, s, p, t in st.tuples("skill_dd_tables"):
                cache.setdefault(d, [])
                if [s, p, t] not in cache[d]:
                    cache[d].append([s, p, int(t)])
        table_cache.write_text(json.dumps(cache))
    return summary


def rate_prefixes(db: Path, names: Sequence[str], checkpoints: Sequence[int]) -> list[dict]:
    """Each measure's score per player on the first k periods (rounds), for each checkpoint k."""
    from ddrank.ratings import lehman
    from ddrank.ratings import skill as sk
    from ddrank.scoring.tournament import score_field
    from stages.field import read_db_boards
    from stages.skill import db_skill_rows, rate_rows
    from store import Store

    rows = db_skill_rows(db)
    scored = score_field(read_db_boards(db).boards)
    with Store(db, read_only=True) as st:
        stats = st.tuples(
            sql="""select raw_name, record_id,
                          weighted_play_mistakes_as_declarer + weighted_play_mistakes_as_defender
                              + weighted_lead_mistakes,
                          cards_played_as_declarer + cards_played_as_defender + leads
                   from player_board_stats"""
        )
    periods = sorted({r.period for r in rows})
    # No forgetting for either rating: the simulated skills are static (see the script's doc).
    sk_params = replace(sk.SkillParams(), drift_sd=0.0)
    l_params = lehman.LehmanParams(history_weight=1.0, max_weight=None)
    out = []
    for k in checkpoints:
        keep = set(periods[:k])
        sub = [r for r in rows if r.period in keep]
        states, _, fitted = rate_rows(sub, sk_params)
        d_states, _, d_fitted = rate_rows(sub, sk.SkillParams())
        kept = [s for s in scored if s.result.period in keep]
        lstates, _ = lehman.rate_periods(lehman.boards_by_period(kept, "imps", l_params), l_params)
        d_params = lehman.LehmanParams()
        d_lstates, _ = lehman.rate_periods(
            lehman.boards_by_period(kept, "imps", d_params), d_params
        )
        tables = {r.result.table for r in sub}
        cost = {n: [0.0, 0.0] for n in names}
        for name, record_id, c, cards in stats:
            if record_id in tables and name in cost:
                cost[name][0] += c
                cost[name][1] += cards
        out.append({
            "rounds": k, "table_results": len(sub),
            "ddrank": [sk.overall(states, n, fitted, bidding=True) for n in names],
            "lehman": [lstates[n].rating if n in lstates else 50.0 for n in names],
            "dd_rates": [-cost[n][0] / max(cost[n][1], 1.0) for n in names],
            "ddrank_default_forgetting": [sk.overall(d_states, n, d_fitted) for n in names],
            "lehman_default_forgetting": [d_lstates[n].rating if n in d_lstates else 50.0
                                          for n in names],
        })  # fmt: skip
    return out


def spearman(a: Sequence[float], b: Sequence[float]) -> float:
    from scipy.stats import spearmanr

    return float(spearmanr(a, b).statistic)


def interval(values: Sequence[float]) -> dict[str, float]:
    """Mean over seeds, a 95% t-interval of that mean, and the 2.5/97.5 percentiles of the seeds."""
    from scipy.stats import t as student

    v = np.asarray(values, dtype=float)
    n = len(v)
    mean = float(v.mean())
    half = float(student.ppf(0.975, n - 1) * v.std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan
    return {"mean": round(mean, 4), "t95_low": round(mean - half, 4),
            "t95_high": round(mean + half, 4), "p2_5": round(float(np.percentile(v, 2.5)), 4),
            "p97_5": round(float(np.percentile(v, 97.5)), 4), "seeds": n}  # fmt: skip


def summarise(per_seed: Sequence[Mapping], boards_per_round: int) -> dict:
    """The curves with intervals, where each measure first reaches Spearman 0.9, and the
    per-seed paired differences between measures (same seeds, same boards) with intervals."""
    checkpoints = [p["rounds"] for p in per_seed[0]["curve"]]
    curve = []
    for i, k in enumerate(checkpoints):
        point: dict = {"rounds": k, "boards_per_player": k * boards_per_round}
        for m in ALL:
            if m in per_seed[0]["curve"][i]:
                point[m] = interval([s["curve"][i][m] for s in per_seed])
        curve.append(point)
    reach = {}
    for m in [m for m in ALL if m in curve[0]]:
        mean_at = next((p["boards_per_player"] for p in curve if p[m]["mean"] >= 0.9), None)
        low_at = next((p["boards_per_player"] for p in curve if p[m]["t95_low"] >= 0.9), None)
        reach[m] = {
            "mean_reaches_0.9_at_boards": mean_at,
            "t95_low_reaches_0.9_at_boards": low_at,
            "reached_within_simulated_range": mean_at is not None,
            "max_boards_simulated": curve[-1]["boards_per_player"],
        }
    paired = []
    for i, k in enumerate(checkpoints):
        point = {"rounds": k, "boards_per_player": k * boards_per_round}
        for a, b in PAIRS:
            if a not in per_seed[0]["curve"][i] or b not in per_seed[0]["curve"][i]:
                continue
            diff = [s["curve"][i][a] - s["curve"][i][b] for s in per_seed]
            point[f"{a}_minus_{b}"] = interval(diff)
        paired.append(point)
    return {"curve": curve, "spearman_0.9": reach, "paired_differences": paired}


def seed_curve(prefixes: Sequence[Mapping], truth: Sequence[float],
               components: Mapping[str, Sequence[float]]) -> list[dict]:  # fmt: skip
    """One seed's Spearman of each measure with the true value (and with each skill alone)."""
    out = []
    for p in prefixes:
        point = {"rounds": p["rounds"]}
        for m in ALL:
            point[m] = round(spearman(truth, p[m]), 4)
            for c, vals in components.items():
                point[f"{m}_vs_{c}"] = round(spearman(vals, p[m]), 4)
        out.append(point)
    return out


Log = Callable[[str], None]
