"""The ad hoc kind's score table, made from a scored grid of (run, topic) cells.

The rows are trec_eval's (``-q``, and ``-c`` for the topics averaged): each measure's
per-topic values, then each run's summary under topic ``all``, aggregated as the registry
declares the measure (``builder.measures.registry.Aggregation``). The extra tables are made
when first read: ``extras["pr_points"]``, precision and recall at every rank of every ranking
(run, topic, rank, precision, recall, relevant), the points of seed 004's curves, and
``extras["relevant_points"]``, the same at the relevant documents only: the uninterpolated
curve changes only there, so it is all a curve needs;
``extras["uninterpolated_precision"]``, that curve (``builder.measures.adhoc.curves``), run x
recall level 0, 0.01 .. 1; ``extras["curve_points"]``, the points of the other curves;
``extras["relstring"]``, trec_eval's relstring of each (run, topic) of the table. The
pages read the last two; the points tables, a row per line or per relevant line, are steps
(made for a caller that asks, never kept by an evaluation in batches). Apart from
``builder.tasks.adhoc`` (reading, validating, the kind) as it only arranges numbers already
scored (``builder.tasks.adhoc.parallel``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
import pyarrow as pa

from builder.contract import SCORE_COLUMNS, SUMMARY_TOPIC, Evaluation, LazyTables
from builder.measures.adhoc import scores as measures
from builder.measures.adhoc.curves import RECALL_AXIS, curve_points, uninterpolated_precision
from builder.measures.adhoc.judged.relstring import relevance_strings
from builder.measures.adhoc.retrieved_set import placeholder_utility
from builder.measures.adhoc.trec_eval.profiles import profile_of, single_precision_mean
from builder.measures.registry import Aggregation, measures_of

if TYPE_CHECKING:
    from builder.tasks.adhoc.parallel import CellScores
    from builder.tasks.options.adhoc import AdhocOptions


def score_table(cells: CellScores, options: AdhocOptions) -> Evaluation:
    """The score table of a scored grid: its per-topic values, then each run's summary over
    the topics (topic ``all``), and the extra tables, made when first read."""
    values, present = cells.values, cells.present
    n_runs, n_topics = len(cells.runs), len(cells.topics)
    evaluated = np.ones(n_runs * n_topics, bool) if options.complete else present
    if options.complete and not present.all():
        values = _unanswered(cells, options)
    run_of_cell = np.repeat(np.arange(n_runs), n_topics)
    num_q = np.bincount(run_of_cell, weights=evaluated, minlength=n_runs)

    cell_topic = np.tile(np.arange(n_topics), n_runs)[evaluated]
    cell_run = run_of_cell[evaluated]
    summary_topic = np.full(n_runs, n_topics)  # the code of SUMMARY_TOPIC
    runs_of, topics_of, values_of, rows_per_measure = [], [], [], []
    declared = {measure.name: measure for measure in measures_of(measures.FAMILY)}
    measure_names = ["num_q", *values]
    single = profile_of(options.profile).single_precision_sums
    for name in measure_names:
        # A parameterised name (P_7, ndcg_1=3) is a mean, as every family with parameters.
        how = declared[name].aggregation if name in declared else Aggregation.MEAN
        value = values.get(name)
        if single and not how.integral:
            value = value.astype(np.float32).astype(np.float64)  # 8.1 keeps C floats
        if single and not how.integral:
            summary = single_precision_mean(value, present, how, n_topics, num_q)
        elif how is Aggregation.COUNT:
            summary = how.finish(num_q, num_q)
        elif name == "num_rel" and options.complete:
            # trec_eval's summary under -c (m_num_rel.c): the qrels lines of grade > 0 of
            # every topic, whatever the level -l sets for the per-topic rows; 8.1 sums the
            # per-topic values of the topics with results alone.
            summary = how.finish(np.bincount(run_of_cell, weights=np.where(present, value, 0.0),
                                             minlength=n_runs) if single
                                 else np.full(n_runs, float(cells.positive_judgements)), num_q)
        else:
            terms = np.where(evaluated, how.terms(value), 0.0)
            summary = how.finish(np.bincount(run_of_cell, weights=terms, minlength=n_runs), num_q)
        if how.per_topic:
            runs_of.append(cell_run)
            topics_of.append(cell_topic)
            values_of.append(value[evaluated])
        runs_of.append(np.arange(n_runs))
        topics_of.append(summary_topic)
        values_of.append(summary)
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
        # trec_eval's relstring of every (run, topic) of the table (text, for the trec layout).
        "relstring": lambda: relevance_strings(
            cells.judged, options.measure_params.doubles("relstring")[0])[evaluated],
        # The (run, topic) with results, -J or -M 0 having emptied them or not: what the
        # releases before 10.0 print per topic under -c.
        "answered": lambda: pd.DataFrame({
            "run": [cells.runs[i] for i in run_of_cell[present]],
            "topic": [cells.topics[i] for i in np.tile(np.arange(n_topics), n_runs)[present]]}),
    }, steps=frozenset({"pr_points", "relevant_points", "answered", "relstring"}))
    return Evaluation(scores=scores[SCORE_COLUMNS], extras=extras)


def _unanswered(cells: CellScores, options: AdhocOptions) -> dict[str, np.ndarray]:
    """The values with those of the (run, topic) without results under -c as the profile
    gives them. Every measure but utility is 0 on an empty ranking (num_rel, a count of the
    qrels, is kept). utility with parameters is not: trec_eval 9.0.8 and before leave the
    topic out and count it 0 in the mean, as we do without a profile; trec_eval 10.0 scores a
    placeholder ranking of one unjudged document and resets the measures named exactly
    num_ret, utility, rbp_resid and unj* to 0, so ``utility`` and ``rbp_resid`` with
    parameters keep the placeholder's values (-J empties the placeholder too)."""
    absent = ~cells.present
    values = dict(cells.values)
    if options.profile != "10.0":
        return {name: np.where(absent, 0.0, value) if name.startswith("utility") else value
                for name, value in values.items()}
    if options.judged_only:
        return values
    params = options.measure_params
    for name, value in list(values.items()):
        if name.startswith("utility_"):
            num_rel = cells.judged.num_rel[np.tile(np.arange(len(cells.topics)), len(cells.runs))]
            placeholder = placeholder_utility(params.doubles("utility"), num_rel,
                                              options.collection_size)
        elif name.startswith("rbp_resid_"):
            p = params.persistence("rbp_resid")
            placeholder = np.full(len(absent), p + (1.0 - p) * 1.0)  # p^1 + (1 - p) p^0
        else:
            continue
        values[name] = np.where(absent, placeholder, value)
    return values


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
