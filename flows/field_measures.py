"""Flow ``field-measures``: one field's tournament scores, Cammarata split and Lehman ratings.

Unlike `score-events-and-lehman` (each event by its own rules, kept in the store), this measures a
Valet directory, or the store's scored results, as one field (`ddrank score/split/lehman`)."""

from __future__ import annotations

from typing import Any, Literal

from prefect import flow

from ddrank.scoring.tournament import ScoringOptions
from tasks.field import lehman_params, lehman_task, load_field_task, score_task, split_task

Measure = Literal["score", "split", "lehman"]


@flow(name="field-measures")
def field_measures(
    valet_dir: str | None = None,
    db_path: str | None = None,
    event: str | None = None,
    out_dir: str = "out/ratings",
    measures: list[Measure] | None = None,
    mp_method: Literal["neuberg", "mitchell1", "mitchell1_bis", "ascherman"] = "neuberg",
    cross_imps_divide_by: Literal["results", "comparisons"] = "results",
    drop_count: int = 1,
    drop_fraction: float | None = None,
    scale: Literal["mp", "imps"] = "imps",
    lehman: dict[str, float] | None = None,
    min_boards: int = 30,
) -> dict[str, Any]:
    """Read one field (a Valet directory or the DuckDB store) and write the chosen measures.

    ``measures`` defaults to all three; ``lehman`` overrides `LehmanParams` fields by name
    (start_rating, start_weight, history_weight, max_weight, min_ante, imp_top).
    """
    loaded = load_field_task(valet_dir, db_path, event)
    opts = ScoringOptions(mp_method, cross_imps_divide_by, drop_count, drop_fraction)
    chosen = measures or ["score", "split", "lehman"]
    summary: dict[str, Any] = {}
    if "score" in chosen:
        summary["score"] = score_task(loaded, out_dir, opts, min_boards)
    if "split" in chosen:
        summary["split"] = split_task(loaded, out_dir, min_boards)
    if "lehman" in chosen:
        summary["lehman"] = lehman_task(
            loaded, out_dir, scale, lehman_params(lehman), opts, min_boards
        )
    return summary
