"""The ``adhoc`` task kind: TREC run files scored like trec_eval (``-q -c -M1000 -l1``).

``evaluate`` returns the long score table for every declared adhoc measure, per topic and
under topic ``all``, plus tables made when first read: ``extras["pr_points"]``, precision
and recall at every rank of every ranking (run, topic, rank, precision, recall, relevant), the
points of seed 004's curves, and ``extras["relevant_points"]``, the same at the relevant
documents only: the uninterpolated curve changes only there, so it is all a curve needs;
``extras["uninterpolated_precision"]``, that curve (``builder.measures.adhoc_curves``), run x
recall level 0, 0.01 .. 1; ``extras["curve_points"]``, the points of the other curves. The
pages read the last two; the points tables, a row per line or per relevant line, are steps
(made for a caller that asks, never kept by an evaluation in batches).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Literal

import numpy as np
import pandas as pd
import pyarrow as pa
from pydantic import ConfigDict, Field, field_validator, model_validator

from builder.findings import Finding, InputError
from builder.formats.trec_qrels import read_trec_qrels
from builder.formats.trec_run import RunFile, code_type, read_trec_run, recategorised
from builder.measures import adhoc as measures
from builder.measures.adhoc_curves import RECALL_AXIS, curve_points, uninterpolated_precision
from builder.measures.adhoc_interpolation import Interpolation
from builder.measures.adhoc_params import AdhocParams
from builder.measures.adhoc_profiles import ProfileName, profile_of
from builder.measures.registry import Aggregation, measures_of
from builder.scores import SCORE_COLUMNS, SUMMARY_TOPIC, Evaluation, LazyTables, RunRead
from builder.tasks import TaskKind
from builder.tasks.adhoc_parallel import CellScores, score_cells_parallel
from builder.tasks.naming import RunNamingOptions, name_runs
from builder.validate.trec_run import validate_trec_run

READ_THREADS = 2


class AdhocOptions(RunNamingOptions):
    """trec_eval's options that change ad hoc scores."""

    model_config = ConfigDict(extra="forbid")

    depth: int = Field(1000, ge=1, description="Documents kept per topic after sorting (-M).")
    rel_level: int = Field(1, description="Least relevance value counted relevant (-l).")
    complete: bool = Field(
        True, description="Average over all qrels topics, missing ones scoring 0 (-c)."
    )
    interpolation: Interpolation = Field(
        "exact",
        description="Recall cutoff rounding: exact ceil, trec_eval_9 or lround (10.0); "
        "set by the profile unless given.",
    )
    profile: ProfileName | None = Field(
        None,
        description="The trec_eval release reproduced: 8.1, 9.0.8, 9.0.8-float or 10.0 "
        "(interpolation, score precision, topics printed); none = the appendices' rules.",
    )
    parameters: dict[str, str] = Field(
        default_factory=dict,
        description="trec_eval measure parameters per family, e.g. {P: '5,7', rbp: 'p=0.95'}.",
    )
    judged_only: bool = Field(
        False, description="Drop unjudged documents from each ranking before scoring (-J)."
    )
    collection_size: int = Field(
        0, ge=0, description="Documents in the collection (-N): utility's d, the ROC curve."
    )
    reading: Literal["strict", "atof"] = Field(
        "strict",
        description="How scores and relevance values that are not numbers are read: strict, "
        "an error naming the line; atof, as trec_eval reads them (1.5abc is 1.5, 0x1A 26, "
        "relevance abc 0), a warning each.",
    )

    @model_validator(mode="before")
    @classmethod
    def _profile_interpolation(cls, values: Any) -> Any:
        """A profile sets the interpolation unless it is given too."""
        if isinstance(values, dict) and values.get("profile") and "interpolation" not in values:
            values = {**values, "interpolation": profile_of(values["profile"]).interpolation}
        return values

    @field_validator("parameters")
    @classmethod
    def _known_parameters(cls, given: dict[str, str]) -> dict[str, str]:
        AdhocParams.of(given)
        return given

    @property
    def measure_params(self) -> AdhocParams:
        return AdhocParams.of(self.parameters)


def read_run_files(
    paths: Sequence[Path], qrels: pd.DataFrame, options: AdhocOptions
) -> list[RunRead]:
    """Read run files (two at a time), named by ``name_runs``.

    Each table gets a ``run`` column (its ``tag`` goes in validation, which reads it).
    ``run`` and ``topic`` are categorical with the same categories in every table (all run
    names; the qrels' topics, then any other topic a run names), so that the tables
    concatenate into one categorical column of small codes rather than millions of strings.
    """
    atof = options.reading == "atof"
    with ThreadPoolExecutor(READ_THREADS) as pool:
        files = list(pool.map(lambda path: _read_or_reject(path, atof), paths))
    return name_reads(paths, files, qrels, options)


def name_reads(paths: Sequence[Path], files: list[RunFile], qrels: pd.DataFrame,
               options: AdhocOptions) -> list[RunRead]:
    """The read files named and typed as ``read_run_files`` describes."""
    names = name_runs(paths, [file.table for file in files], options.run_names)
    run_codes = {name: code for code, name in enumerate(dict.fromkeys(n for n, _ in names))}
    qrels_topics = set(pd.unique(qrels["topic"]))
    topics = sorted(qrels_topics) + sorted(
        {t for file in files if file.table is not None for t in file.table["topic"].cat.categories}
        - qrels_topics
    )
    # One dtype each, made once: categories are checked once, not once per run.
    topic_type, run_type = pd.CategoricalDtype(topics), pd.CategoricalDtype(list(run_codes))
    for file, (name, _) in zip(files, names):
        table = file.table
        if table is None:
            continue
        table["topic"] = recategorised(table["topic"].array, topic_type)
        code = np.full(len(table), run_codes[name], dtype=code_type(len(run_codes)))
        table.insert(0, "run", pd.Categorical.from_codes(code, dtype=run_type, validate=False))
    return [
        RunRead(str(path), name, file.table, file.findings + naming)
        for path, file, (name, naming) in zip(paths, files, names)
    ]


def _read_or_reject(path: Path, atof: bool) -> RunFile:
    """The run file, or no table and the reason when it cannot be opened or decoded: the run
    is rejected alone."""
    try:
        return read_trec_run(path, atof)
    except InputError as error:
        return RunFile(None, error.findings)


def read_qrels(path: Path, options: AdhocOptions | None = None) -> pd.DataFrame:
    """The qrels, read strictly or as trec_eval reads them (``options.reading``)."""
    return read_trec_qrels(path, atof=options is not None and options.reading == "atof")


def qrels_findings(qrels: pd.DataFrame) -> list[Finding]:
    """The warnings of the qrels' ``atof`` reading (``read_trec_qrels``)."""
    return list(qrels.attrs.get("findings", []))


def validate_runs(
    reads: list[RunRead], qrels: pd.DataFrame, options: AdhocOptions
) -> list[RunRead]:
    """Apply ``validate_trec_run`` to each read (two at a time); drop the tags it read."""
    qrels_topics = set(pd.unique(qrels["topic"]))

    def validate(read: RunRead) -> RunRead:
        if read.table is None:
            return read
        found = validate_trec_run(read.table, read.path, qrels_topics, depth=options.depth)
        del read.table["tag"]
        return RunRead(read.path, read.name, read.table, read.findings + found)

    with ThreadPoolExecutor(READ_THREADS) as pool:
        return list(pool.map(validate, reads))


def evaluate(
    qrels: pd.DataFrame,
    runs: pd.DataFrame,
    options: AdhocOptions,
    only: Collection[str] | None = None,
) -> Evaluation:
    """Score the concatenated accepted runs; rows per run x topic, then topic ``all``.
    ``only``: the measures wanted (default all; ``measures.compute`` skips the families none
    of them needs, as ``appendix evaluate -m`` asks). On both cores for enough lines
    (``builder.tasks.adhoc_parallel``)."""
    return score_table(score_cells_parallel(qrels, runs, options, only), options)


def score_table(cells: CellScores, options: AdhocOptions) -> Evaluation:
    """The score table of a scored grid: its per-topic values, then each run's summary over
    the topics (topic ``all``), and the extra tables, made when first read."""
    values, present = cells.values, cells.present
    n_runs, n_topics = len(cells.runs), len(cells.topics)
    evaluated = np.ones(n_runs * n_topics, bool) if options.complete else present
    run_of_cell = np.repeat(np.arange(n_runs), n_topics)
    num_q = np.bincount(run_of_cell, weights=evaluated, minlength=n_runs)

    cell_topic = np.tile(np.arange(n_topics), n_runs)[evaluated]
    cell_run = run_of_cell[evaluated]
    summary_topic = np.full(n_runs, n_topics)  # the code of SUMMARY_TOPIC
    runs_of, topics_of, values_of, rows_per_measure = [], [], [], []
    declared = {measure.name: measure for measure in measures_of(measures.FAMILY)}
    measure_names = ["num_q", *values]
    for name in measure_names:
        # A parameterised name (P_7, ndcg_1=3) is a mean, as every family with parameters.
        how = declared[name].aggregation if name in declared else Aggregation.MEAN
        if how is Aggregation.COUNT:
            total = num_q
        else:
            terms = np.where(evaluated, how.terms(values[name]), 0.0)
            total = np.bincount(run_of_cell, weights=terms, minlength=n_runs)
        if name == "num_rel" and options.complete:
            # trec_eval's summary under -c (m_num_rel.c): the qrels lines of grade > 0 of
            # every topic, whatever the level -l sets for the per-topic rows.
            total = np.full(n_runs, float(cells.positive_judgements))
        if how.per_topic:
            runs_of.append(cell_run)
            topics_of.append(cell_topic)
            values_of.append(values[name][evaluated])
        runs_of.append(np.arange(n_runs))
        topics_of.append(summary_topic)
        values_of.append(how.finish(total, num_q))
        rows_per_measure.append(n_runs + (len(cell_run) if how.per_topic else 0))
    measure_codes = np.repeat(np.arange(len(measure_names)), rows_per_measure)
    scores = pd.DataFrame(
        {
            "run": _labels(np.concatenate(runs_of), cells.runs),
            "topic": _labels(np.concatenate(topics_of), [*cells.topics, SUMMARY_TOPIC]),
            "measure": _labels(measure_codes, measure_names),
            "value": np.concatenate(values_of).astype(np.float64),
        }
    )
    extras = LazyTables({
        "pr_points": lambda: _pr_points(cells.judged, options, relevant_only=False),
        "relevant_points": lambda: _pr_points(cells.judged, options, relevant_only=True),
        "uninterpolated_precision": lambda: pd.DataFrame(
            uninterpolated_precision(extras["relevant_points"], cells.runs, num_q),
            index=list(cells.runs), columns=RECALL_AXIS),
        "curve_points": lambda: curve_points(cells.judged, options.rel_level,
                                             options.collection_size),
    }, steps=frozenset({"pr_points", "relevant_points"}))
    return Evaluation(scores=scores[SCORE_COLUMNS], extras=extras)


def read_and_evaluate(paths: Sequence[Path], qrels: pd.DataFrame, options: AdhocOptions,
                      only: Collection[str] | None = None
                      ) -> tuple[list[RunRead], Evaluation | None]:
    """``read_runs`` then ``evaluate`` of the accepted runs, with reading and scoring
    overlapped (``builder.tasks.adhoc_overlap``): the same reads and scores."""
    from builder.tasks.adhoc_overlap import read_and_score

    reads, cells = read_and_score(paths, qrels, options, only)
    return reads, None if cells is None else score_table(cells, options)


def _labels(codes: np.ndarray, labels: list[str]) -> pd.Series:
    """The string column of ``labels[codes]`` (one frame at the end, not one per measure),
    decoded by Arrow into the string column pandas makes of Arrow text."""
    decoded = pa.DictionaryArray.from_arrays(
        pa.array(codes.astype(np.int32)), pa.array(labels, pa.large_string())
    ).cast(pa.large_string())
    return pa.table({"labels": decoded}).to_pandas()["labels"]


def _pr_points(judged, options: AdhocOptions, relevant_only: bool) -> pd.DataFrame:
    """Uninterpolated precision and recall after each rank of each ranking, or after each
    relevant document only."""
    is_rel = (judged.rel >= 0) & (judged.rel >= options.rel_level)
    total = np.cumsum(is_rel, dtype=np.int32)
    at = np.flatnonzero(is_rel) if relevant_only else np.arange(len(is_rel))
    rank = judged.rank[at]
    cell_start = at - rank + 1  # ranks run 1, 2, ... in each cell
    rel_so_far = total[at] - (total[cell_start] - is_rel[cell_start])
    n_topics = len(judged.topics)
    cell = judged.cell[at]
    topic = cell % n_topics
    num_rel = judged.num_rel[topic]
    return pd.DataFrame(
        {
            "run": pd.Categorical.from_codes(cell // n_topics, judged.runs, validate=False),
            "topic": pd.Categorical.from_codes(topic, judged.topics, validate=False),
            "rank": rank,
            "precision": rel_so_far / rank,
            "recall": np.divide(rel_so_far, num_rel, out=np.zeros(len(topic)), where=num_rel > 0),
            "relevant": is_rel[at],
        },
        copy=False,  # fresh arrays: no need to copy them into one block
    )


KIND = TaskKind(
    name="adhoc",
    family=measures.FAMILY,
    read_qrels=read_qrels,
    qrels_findings=qrels_findings,
    read_run_files=read_run_files,
    validate_runs=validate_runs,
    evaluate=evaluate,
    read_and_evaluate=read_and_evaluate,
    options_model=AdhocOptions,
    official_measure="map",
    leaderboard_measures=("map", "P_10", "ndcg_cut_10", "Rprec", "bpref", "recip_rank"),
    default_measures=measures.TREC_EVAL_DEFAULT,
    page_model="builder.site.adhoc_run",
    topic_parts=True,
    demo="builder.demo.adhoc",
)
