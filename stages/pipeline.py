"""The pipeline: one ordered list of stages, each a plain function over the run (its one `Store`
and its settings), with the settings switch that turns it on.

    ingest → clean → names → double dummy → regression thresholds → regression → audit →
    scoring (and Lehman, the bid/play split) → mistake costs → skill ratings → site

Whoever runs the list walks it with `Steps` (the enabled stages in order, each one timed, an
optional stage's failure recorded, the manifest at the end): `run_stages` here calls each stage's
function in this process without Prefect (`ddrank results`); the Prefect flow
(`flows/pipeline.py`) calls each stage's task (`tasks.stages`) with the run as its input, and
runs the DD and scoring stages as subflows whose solve units and sessions are tasks of their own.
There is no second copy: a stage added here runs in both.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from stages import freshness
from stages.progress import stage as progress_stage
from stages.run import Run, freshness_of, give_back_memory, open_run

# Each stage imports what it needs when it runs: `ddrank results` (scores and the site) must not
# pay for statsmodels, rapidfuzz or endplay when the regression, names and DD stages are off.

__all__ = ["STAGES", "Run", "Stage", "Steps", "freshness_of", "open_run", "run_in_process",
           "run_stages"]  # fmt: skip


@dataclass(frozen=True)
class Stage:
    """One step of the pipeline. `run(r)` does it on the run `r` and returns its summary, which
    the run's result keeps under `key`. `switch(settings)` says whether it runs (None: always);
    when it does not, the result holds `off` or says why (`off_because`). `optional`: a failure
    is recorded (`{"failed": ...}`) and the run goes on, but writes no manifest, so the next run
    does it again. `retries`: safe to rerun after a failure (all or nothing in the store)."""

    name: str
    key: str
    run: Callable[[Run], Any]
    switch: Callable[[Any], bool] | None = None
    off_because: str = ""
    off: Any = None
    optional: bool = False
    retries: int = 0
    progress: bool = True  # False: the stage reports its own progress (or shows none)

    def enabled(self, settings: Any) -> bool:
        return self.switch is None or bool(self.switch(settings))

    def skipped(self, settings: Any) -> Any:
        return self.off if self.off is not None else {"skipped": self.off_because}


# ------------------------------------------------------------------------------- the stages
def ingest(r: Run) -> dict[str, Any]:
    """Read the new input files into the store; a file over an input limit is refused whole."""
    from stages.ingest import ingest_paths
    from stages.settings import limits_of

    s = r.settings
    summary = ingest_paths(r.store, s.inputs, s.partition_size, s.workers, limits=limits_of(s),
                           digest=r.inputs.digest, skip=[s.out]).as_dict()  # fmt: skip
    for refused in summary.get("refused", []):
        r.log.info("refused: %s: %s", refused["file"], refused["reason"])  # the CLI says it once
    return summary


def clean(r: Run) -> dict[str, Any]:
    from stages.clean import clean_pending

    return clean_pending(r.store, r.settings.workers).as_dict()


def names(r: Run) -> dict[str, Any]:
    """Resolve the seat names against the ranking list (the events it covers: settings)."""
    from stages.names import load_aliases, load_rankings, match_board_names, summarize

    s = r.settings
    decisions = match_board_names(r.store, load_rankings(s.rankings), load_aliases(s.aliases),
                                  s.names_strategy, s.names_scope)  # fmt: skip
    result = {"strategy": s.names_strategy, "scope": s.names_scope, **summarize(decisions)}
    r.log.info("match_names (%s): %s/%s matched, %s to review", s.names_strategy,
               result["matched"], result["names"], result["review"])  # fmt: skip
    return result


def double_dummy(r: Run) -> dict[str, Any]:
    """DD tables, traces and counters; the solves fan out to this process's own pool (the
    Prefect flow runs this stage as the `dd_analysis` flow instead: its solves are tasks)."""
    from stages.dd_run import DDOptions, analyse

    return analyse(r.store, DDOptions.of(r.settings), r.log)


def regression_thresholds(r: Run) -> dict[str, float]:
    """Table 9's minima scaled to the store."""
    from publish.run_summary import thresholds_line
    from stages.regression_gate import scaled_thresholds

    thresholds = scaled_thresholds(r.store, r.settings)
    r.log.info(thresholds_line(thresholds, r.settings.db))
    return thresholds


def regression(r: Run) -> dict[str, Any]:
    """The regression report when enough players pass the (scaled) thresholds, else why not."""
    from stages.regression_gate import MIN_REGRESSION_PLAYERS, eligible_players

    s = r.settings
    thresholds = r.results.get("thresholds") or {}
    eligible = eligible_players(r.store, thresholds)
    if eligible < MIN_REGRESSION_PLAYERS:
        skipped = (f"{eligible} players pass the opportunity thresholds; "
                   f"the regression needs {MIN_REGRESSION_PLAYERS}")  # fmt: skip
        r.log.info("regression skipped: %s", skipped)
        return {"skipped": skipped}
    from stages.regression import RegressionRequest, run_regression_report  # statsmodels: slow

    request = RegressionRequest(db_path=s.db, response=s.response, variables=s.variables,
                                out_dir=str(Path(s.out) / "regression"), thresholds=thresholds,
                                settings=selection_levels(s), log_response=s.log_response,
                                cv_folds=s.cv_folds, cv_seed=s.cv_seed)  # fmt: skip
    return run_regression_report(request, r.log, r.store)[1]


def selection_levels(s: Any) -> dict[str, float]:
    """The regression's VIF limit and SAS selection levels, from the run settings."""
    names = ("vif_limit", "forward_slentry", "backward_slstay", "stepwise_slentry",
             "stepwise_slstay", "significance")  # fmt: skip
    return {n: getattr(s, n) for n in names}


def audit(r: Run) -> dict[str, Any]:
    """Tables 5-7: every raw record is a board or an exclusion with its reason."""
    from stages.audit import audit_tables

    return audit_tables(r.store)


def scoring(r: Run) -> dict[str, Any]:
    from stages.scoring_stage import score_and_rate, summary_lines

    summary = score_and_rate(r.store, r.settings)
    for line in summary_lines(summary):
        r.log.info(line)
    return summary


def mistake_costs(r: Run) -> dict[str, Any]:
    """What each DD mistake cost, in the event's units (needs the DD analysis and the scores)."""
    from stages.mistakes import cost_mistakes

    return cost_mistakes(r.store)


def skill_ratings(r: Run) -> dict[str, Any]:
    """ddrank's skill ratings (bidding, declarer, defence, opening lead) of the new periods."""
    from stages.skill import rate_store

    return rate_store(r.store, None, r.settings.skill_full)


def site(r: Run) -> dict[str, Any]:
    from stages.site import build_site

    return build_site(r.store, r.settings.out)


def _regression_on(s: Any) -> bool:
    return s.regression and s.double_dummy


STAGES: tuple[Stage, ...] = (
    Stage("ingest", "ingest", ingest, retries=2),
    Stage("clean", "clean", clean, retries=2),
    Stage("names", "names", names, lambda s: s.names_scope != "none", "names_scope is none"),
    Stage("double dummy", "dd", double_dummy, lambda s: s.double_dummy, "double_dummy is off",
          progress=False),  # DD reports its own bars
    Stage("regression thresholds", "thresholds", regression_thresholds, _regression_on,
          off={}, progress=False),
    Stage("regression", "report", regression, _regression_on, "regression is off",
          optional=True),
    Stage("audit", "audit", audit, progress=False),
    Stage("scoring", "scoring", scoring),
    Stage("mistake costs", "mistakes", mistake_costs, progress=False),
    Stage("skill ratings", "skill", skill_ratings, lambda s: s.ratings, "ratings is off"),
    Stage("site", "site", site, optional=True),
)  # fmt: skip
BY_NAME = {st.name: st for st in STAGES}


# ------------------------------------------------------------------------------- running
class Steps:
    """The stage list walked for one run by whoever runs each stage:

        steps = Steps(run)
        for st in steps:                  # the enabled stages, in order
            with steps.step(st):          # timed; an optional stage's failure is recorded
                run.results[st.key] = ...  # the stage's function, or its Prefect task
        summary = steps.finish()          # each stage's result by key, "timings"; the manifest

    A stage that is off gets its `skipped` result as the walk passes it."""

    def __init__(self, run: Run) -> None:
        self.run = run
        self.started = time.time()
        self.timings: dict[str, float] = {}

    def __iter__(self) -> Iterator[Stage]:
        for st in STAGES:
            if st.enabled(self.run.settings):
                yield st
            else:
                self.run.results[st.key] = st.skipped(self.run.settings)

    @contextmanager
    def step(self, st: Stage) -> Iterator[None]:
        """Time the stage (and show it, unless it reports its own progress). An optional
        stage that fails is recorded as `{"failed": ...}` and the run goes on."""
        with timed(st.name, self.timings, st.progress):
            try:
                yield
            except Exception as exc:
                if not st.optional:
                    raise
                self.run.log.warning("stage %s failed: %s", st.name, exc)
                self.run.results[st.key] = {"failed": str(exc) or type(exc).__name__}
        give_back_memory(self.run.store)  # what this stage read or freed is not kept

    def finish(self) -> dict[str, Any]:
        """Each stage's summary by key, and "timings"; the manifest of a finished run, unless a
        stage failed or a file was refused (then the next run does it again)."""
        run = self.run
        summary = {**run.results, "timings": self.timings}
        refused = (run.results.get("ingest") or {}).get("refused")  # read again next time
        if not refused and not any(isinstance(v, dict) and "failed" in v for v in summary.values()):
            freshness.write_manifest(run.settings, self.started, summary, run)
        return summary


def run_stages(run: Run, call: Callable[[Stage, Run], Any] | None = None) -> dict[str, Any]:
    """Every enabled stage in order, in this process, without Prefect; returns each stage's
    summary by key, and "timings". `call(stage, run)` runs one stage instead of
    `stage.run(run)` (the benchmarks measure each stage's time and memory with it)."""
    steps = Steps(run)
    for st in steps:
        with steps.step(st):
            run.results[st.key] = call(st, run) if call else st.run(run)
    return steps.finish()


@contextmanager
def timed(name: str, timings: dict[str, float], progress: bool = True) -> Iterator[None]:
    """Time a stage (wall seconds into `timings`) and, unless it reports its own, show it."""
    begun = time.monotonic()
    try:
        if progress:
            with progress_stage(name):
                yield
        else:
            yield
    finally:
        timings[name] = round(time.monotonic() - begun, 2)


def run_in_process(settings: Any) -> dict[str, Any]:
    """The whole stage list without Prefect: lock and open the store once, hash the inputs once,
    say "nothing new" (the freshness verdict as a dict) or run every enabled stage."""
    with open_run(settings) as run:
        fresh = freshness_of(run)
        if fresh.nothing_new:
            return fresh.as_dict()
        return run_stages(run)
