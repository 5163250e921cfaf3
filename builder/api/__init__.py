"""appendix from Python: evaluate runs, compare them, read runs and qrels, build a site.

    import builder
    scores = builder.evaluate("qrels.txt", ["runs/a.txt", "runs/b.txt"], ["nDCG@10", "AP"])

Each function runs the stages the command line runs (``builder.pipeline.stages``, and for
``evaluate`` the measures' plan of ``builder.pipeline.scoring`` that ``appendix evaluate``
follows), so it gives the numbers the command line prints. Qrels and runs may be paths, pandas
DataFrames (our columns ``topic``, ``doc``, ``score``/``rel``, or ir_measures' and ranx's
``query_id``, ``doc_id``, ``score``/``relevance``) or pytrec_eval's dicts ``{topic: {doc:
value}}`` (``builder.api.sources``). Options are the task options of ``site_config.yml`` and
the command line (``depth``, ``rel_level``, ``complete``, ``judged_only``, ``profile``, ...).
Unusable input raises ``builder.findings.InputError``, whose ``findings`` say file (or table),
line (a table's row + 1) and reason; a run with an error is not evaluated but raised.

Nothing here sets up the process: the command line's ``NUMPY_MADVISE_HUGEPAGE`` is its own
(``builder.cli.prepare_process``).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from builder.api.sources import RunsLike, Sources
from builder.findings import InputError, sort_findings

if TYPE_CHECKING:
    import pandas as pd

    from builder.building import BuildSummary
    from builder.pipeline.model import TaskInputs

__all__ = ["InputError", "build", "compare", "evaluate", "read_qrels", "read_run"]


def evaluate(qrels: Any, runs: RunsLike, measures: Sequence[str] | str | None = None, *,
             kind: str = "adhoc", names: str = "given", wide: bool = False,
             **options: Any) -> pd.DataFrame:
    """Score ``runs`` against ``qrels``: what ``appendix evaluate`` prints, as a DataFrame.

    ``measures``: names as trec_eval writes them (``map``, ``P.5,10``, ``ndcg_cut_10``,
    ``all_trec``) or as ir_measures does (``nDCG@10``, ``P(rel=2)@5``, ``AP``); default: the
    kind's (trec_eval's default measures for ``adhoc``). ``names``: the spelling of the
    measure column, ``given``, ``trec`` or ``ir_measures``. Returns the long table ``run``,
    ``topic``, ``measure``, ``value`` (summary rows under topic ``all``) or, ``wide``, one row
    per run and topic and one column per measure. Raises ``InputError`` (unusable qrels, a
    rejected run: its findings) or ``ValueError`` (an unknown measure or option)."""
    from builder.pipeline.model import Scale
    from builder.pipeline.scoring import evaluate_plan, plan_measures

    if isinstance(measures, str):
        measures = [measures]
    with _task(qrels, runs, kind, options) as (task, sources):
        plan = plan_measures(task, list(measures or []), names)  # type: ignore[arg-type]
        scale = plan.scale(Scale(extras=False, overlap=True))  # as appendix evaluate asks
        inputs = _read_and_validate(task, sources, scale)
        try:
            evaluated = evaluate_plan(inputs, plan, scale)
        except InputError as error:
            raise sources.error(error) from None
        _raise_rejected(inputs, sources)
    scores = evaluated.scores
    scores = scores[scores["measure"].isin(plan.names)]
    table = scores[["run", "topic", "measure", "value"]].astype(
        {"run": str, "topic": str, "measure": str}).reset_index(drop=True)
    if not wide:
        return table
    return (table.pivot(index=["run", "topic"], columns="measure", values="value")
            .reindex(columns=list(plan.names)).reset_index().rename_axis(columns=None))


def compare(qrels: Any, runs: RunsLike, measures: Sequence[str] | str | None = None, *,
            kind: str = "adhoc", test: str | None = None, correction: str | None = None,
            alpha: float | None = None, resamples: int | None = None, seed: int | None = None,
            **options: Any) -> pd.DataFrame:
    """Which runs differ significantly: ``appendix compare``'s table, every pair of runs
    tested on each of ``measures`` (default: the kind's official measure), one row per pair
    and measure (``run_a``, ``run_b``, ``measure``, ``test``, ``mean_diff``, ``ci_low``,
    ``ci_high``, ``effect``, ``p``, ``p_adj``, ``significant``, ...). The test and its settings
    are the config's ``significance`` section's (default: its defaults)."""
    from builder.config.schema import SignificanceConfig
    from builder.contract import SUMMARY_TOPIC
    from builder.pipeline.stages import evaluate_task
    from builder.stats.significance.per_topic import significance_of

    given = {"test": test, "correction": correction, "alpha": alpha, "B": resamples,
             "seed": seed}
    settings = SignificanceConfig.model_validate(
        {k: v for k, v in given.items() if v is not None}).settings()
    measures = [measures] if isinstance(measures, str) else list(measures or [])
    with _task(qrels, runs, kind, options) as (task, sources):
        inputs = _read_and_validate(task, sources)
        _raise_rejected(inputs, sources)
        if len(inputs.accepted) < 2:
            raise ValueError("fewer than two runs to compare")
        scores = evaluate_task(inputs).evaluation.scores
    if task.kind.name == "adhoc":
        from builder.measures.names import registry_name

        options = task.options
        measures = [registry_name(m, options.rel_level, options.judged_only) for m in measures]
    report, unknown = significance_of(
        scores, task.kind.family, measures or [task.kind.official_measure], settings,
        runs=[read.name for read in inputs.accepted], require_all=True)
    if unknown:
        known = sorted(set(scores.loc[scores["topic"] != SUMMARY_TOPIC, "measure"]))
        raise ValueError(f"no per-topic scores for {', '.join(unknown)}; known: "
                         f"{', '.join(known)}")
    return report.table


def read_run(run: Any, qrels: Any = None, *, kind: str = "adhoc", **options: Any
             ) -> pd.DataFrame:
    """One run as the tool reads and checks it: its table (``run``, ``topic``, ``doc``,
    ``score``, ``line`` for the ad hoc kind). With ``qrels``, checked against them by the
    kind's rules (topics they lack) and cut to the depth evaluated; without (ad hoc runs
    only), read only. Raises ``InputError`` with the
    findings when the run has an error."""
    with _task(qrels, [run], kind, options) as (task, sources):
        if qrels is None:
            if task.kind.name != "adhoc":
                raise ValueError(f"a {kind} run is read against its qrels: give qrels")
            import pandas as pd

            none = pd.DataFrame({"topic": [], "doc": [], "rel": []})
            reads = task.kind.read_run_files(list(task.run_files), none, task.options)
            errors = [f for r in reads for f in r.findings if f.severity == "error"]
            if errors or reads[0].table is None:
                raise InputError(sources.findings(sort_findings(errors)))
            return reads[0].table
        inputs = _read_and_validate(task, sources)
        _raise_rejected(inputs, sources)
        return inputs.reads[0].table


def read_qrels(qrels: Any, *, kind: str = "adhoc", **options: Any) -> pd.DataFrame:
    """The relevance judgements as the kind reads them (``topic``, ``doc``, ``rel`` for the
    ad hoc kind); ``InputError`` when they cannot be used."""
    with _task(qrels, None, kind, options) as (task, sources):
        try:
            return task.kind.read_qrels(task.qrels, task.options)
        except InputError as error:
            raise sources.error(error) from None


def build(config: str | os.PathLike[str], out: str | os.PathLike[str] | None = None, *,
          strict: bool = False, team: str | None = None) -> BuildSummary:
    """``appendix build``: the site of ``config`` (a ``site_config.yml``) into ``out``
    (default: the config's ``output``); progress goes to the ``builder`` logger. Returns what
    was built; raises ``builder.config.loading.ConfigError`` on a bad config, ``InputError``
    on unusable input files, ``builder.building.StrictError`` with ``strict`` and a rejected run."""
    from builder.building import build as build_site

    return build_site(Path(config), out=None if out is None else Path(out), strict=strict,
                      team=team)


class _task:
    """The task of ``qrels`` and ``runs`` with ``options``, the tables among them written into
    a temporary folder that is removed on leaving."""

    def __init__(self, qrels: Any, runs: RunsLike, kind: str, options: dict[str, Any]) -> None:
        self.given = (qrels, runs, kind, options)

    def __enter__(self):
        from pydantic import ValidationError

        from builder.pipeline.stages import command_task
        from builder.tasks import get_kind

        qrels, runs, kind_name, options = self.given
        kind = get_kind(kind_name)
        try:
            checked = kind.options_model.model_validate(options)
        except ValidationError as invalid:
            problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}"
                                 for e in invalid.errors())
            raise ValueError(f"options of a {kind_name} task: {problems}") from None
        self.folder = tempfile.TemporaryDirectory(prefix="appendix-")
        sources = Sources(Path(self.folder.name))
        try:
            qrels_path = sources.qrels(qrels) if qrels is not None else None
            run_paths = sources.runs(runs) if runs is not None else []
        except BaseException:
            self.folder.cleanup()
            raise
        task = command_task(kind, qrels_path or sources.folder / "none", run_paths, checked)
        return task, sources

    def __exit__(self, *_: object) -> None:
        self.folder.cleanup()


def _read_and_validate(task: Any, sources: Sources, scale: Any = None) -> TaskInputs:
    from builder.pipeline.stages import read_task, validate_task

    try:
        inputs = read_task(task, scale)
        validate_task(inputs)
    except InputError as error:
        raise sources.error(error) from None
    return inputs


def _raise_rejected(inputs: TaskInputs, sources: Sources) -> None:
    """``InputError`` with the errors of every rejected run (the warnings of the others are
    not raised)."""
    rejected = [f for read in inputs.reads if read.rejected for f in read.findings
                if f.severity == "error"]
    if rejected:
        raise InputError(sources.findings(sort_findings(rejected)))
