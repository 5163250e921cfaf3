"""The focused task's score table: per-topic rows and inex_eval's summary rows.

Which topics are averaged (inex_eval 3.1 ``EvalFocussed``):

- without ``complete`` (no ``-c``): the topics with at least one result in the run;
- with ``complete`` (``-c``): every qrels topic, a topic without results scoring 0.

Summary rows (topic ``all``): ``num_q`` topics; the six counts summed over the averaged topics
(inex_eval 1.0 summed them over every qrels topic; the 3.1 outputs sum over the averaged ones);
every other measure the mean over the averaged topics, summed in topic order as the program
sums them; the mean of ``AiP`` is named ``MAiP``. A run with no averaged topic (none of its
topics in the qrels, without ``complete``) has means of 0, or NaN (inex_eval's 0/0) with
``no_relevant_text="nan"``.
"""

from __future__ import annotations

from collections.abc import Collection

import numpy as np
import pandas as pd

from builder.contract import SCORE_COLUMNS, SUMMARY_TOPIC
from builder.measures.inex.focused.precision import (
    COUNT_MEASURES,
    FAMILY,
    IP_NAMES,
    RATIO_MEASURES,
    average_interpolated_precision,
    average_precision,
    count_table,
    interpolated_precision,
    ratio_table,
)
from builder.measures.inex.focused.xcg import XCG_NAMES, xcg_table
from builder.measures.inex.ranking import RankedPassages
from builder.measures.registry import measures_of


def focused_wide(ranked: RankedPassages, complete: bool, no_relevant_text: str = "zero",
                 ip_recall: str = "inex_eval", measures: Collection[str] | None = None
                 ) -> pd.DataFrame:
    """One row per evaluated (run, topic), one column per per-topic measure.

    With ``complete``, every (run, qrels topic) pair has a row; pairs without results score 0.
    Sorted by run (first-seen order) then topic (as strings). ``ip_recall``: how iP decides
    R >= x (``interpolated_precision``). ``measures``: the per-topic measures wanted (default
    all): the counts are always computed (the ratios and the rows of ``complete`` read them),
    the iP curve, AiP, AP, the xCG measures and the ratios only when one of theirs is wanted,
    since a study that rescores the runs hundreds of times asks one or two of them.
    """
    def wanted(names: Collection[str]) -> bool:
        return measures is None or any(name in measures for name in names)

    parts = [ranked.groups[["run", "topic", "run_code", "topic_code"]].reset_index(drop=True),
             count_table(ranked)]
    if wanted([*IP_NAMES, "AiP"]):
        curve, _ = interpolated_precision(ranked, ip_recall)
        parts.append(pd.DataFrame(curve, columns=IP_NAMES))
        if wanted(["AiP"]):
            parts.append(pd.DataFrame({"AiP": average_interpolated_precision(curve)}))
    if wanted(["AP"]):
        parts.append(pd.DataFrame({"AP": average_precision(ranked)}))
    if wanted(XCG_NAMES):
        parts.append(pd.DataFrame(xcg_table(ranked, _passages(ranked))))
    wide = pd.concat(parts, axis=1)
    if complete:
        wide = _with_every_topic(wide, ranked)
    if wanted(RATIO_MEASURES):
        ratios = ratio_table(wide[list(COUNT_MEASURES)], no_relevant_text)
        wide = pd.concat([wide.reset_index(drop=True), ratios], axis=1)
    return wide.sort_values(["run_code", "topic_code"], ignore_index=True)


def _passages(ranked: RankedPassages) -> np.ndarray:
    """The ideal recall-base sizes of the xCG measures (0 when the ranking does not know them)."""
    if ranked.total_passages is None:
        return np.zeros(len(ranked.topics), np.int64)
    return ranked.total_passages


def _with_every_topic(wide: pd.DataFrame, ranked: RankedPassages) -> pd.DataFrame:
    n_topics = len(ranked.topics)
    run_code = np.repeat(np.arange(len(ranked.runs)), n_topics)
    topic_code = np.tile(np.arange(n_topics), len(ranked.runs))
    full = pd.DataFrame(
        {
            "run": np.asarray(ranked.runs, dtype=object)[run_code] if len(run_code) else [],
            "topic": np.asarray(ranked.topics, dtype=object)[topic_code] if len(run_code) else [],
            "run_code": run_code,
            "topic_code": topic_code,
        }
    )
    full = full.merge(wide.drop(columns=["run", "topic"]), on=["run_code", "topic_code"], how="left")
    measures = [c for c in wide.columns if c not in ("run", "topic", "run_code", "topic_code")]
    full[measures] = full[measures].fillna(0)
    full["num_rel"] = ranked.total_relevant[topic_code].astype(np.int64)
    full["rel_size"] = ranked.total_rsize[topic_code]
    for name in COUNT_MEASURES:
        full[name] = full[name].astype(np.int64)
    return full


def focused_score_table(ranked: RankedPassages, complete: bool, family: str = FAMILY,
                        no_relevant_text: str = "zero", ip_recall: str = "inex_eval"
                        ) -> pd.DataFrame:
    """The long score table (``SCORE_COLUMNS``) of the focused measures (as declared in
    ``family``, which may leave some out: a summary measure replaces the per-topic one it
    aggregates, MAiP for AiP)."""
    wide = focused_wide(ranked, complete, no_relevant_text, ip_recall)
    declared = measures_of(family)
    summary_of = {m.name: m for m in declared}
    summary_of.update({m.per_topic: m for m in declared if m.per_topic})
    mean_measures = [c for c in wide.columns if c in summary_of and c not in COUNT_MEASURES]
    names = [*COUNT_MEASURES, *mean_measures]
    per_topic = wide.melt(id_vars=["run", "topic"], value_vars=names, var_name="measure")
    sums, counts = topic_sums(wide, names, len(ranked.runs))
    num_q = np.full(len(ranked.runs), len(ranked.topics)) if complete else counts
    summarised = [summary_of[name] for name in names]
    # A run none of whose topics is evaluated: inex_eval's means are 0/0, NaN.
    empty = np.nan if no_relevant_text == "nan" else 0.0
    values = np.column_stack([num_q] + [
        m.aggregation.finish(sums[:, j], num_q, empty) for j, m in enumerate(summarised)])
    summary = summary_rows(list(ranked.runs), ["num_q", *(m.name for m in summarised)], values)
    table = pd.concat([per_topic[SCORE_COLUMNS], summary], ignore_index=True)
    table["value"] = table["value"].astype(np.float64)
    return table


def topic_sums(wide: pd.DataFrame, names: list[str], n_runs: int) -> tuple[np.ndarray, np.ndarray]:
    """Per run (``run_code``), each measure summed over its rows and the number of rows.

    The rows of a run are added one after the other in table order, as inex_eval adds topic
    after topic; a pairwise or blocked sum (``np.sum``, ``np.add.reduceat``) rounds otherwise.
    So the loop is over a run's k-th rows, all runs at once, not over the rows.
    """
    codes = wide["run_code"].to_numpy()
    matrix = wide[names].to_numpy(dtype=np.float64)
    counts = np.bincount(codes, minlength=n_runs)
    order = np.argsort(codes, kind="stable")
    first = np.concatenate(([0], np.cumsum(counts)[:-1]))
    position = np.empty(len(codes), dtype=np.int64)
    position[order] = np.arange(len(codes)) - first[codes[order]]
    sums = np.zeros((n_runs, len(names)))
    for k in range(int(counts.max(initial=0))):
        rows = np.flatnonzero(position == k)
        sums[codes[rows]] += matrix[rows]
    return sums, counts


def summary_rows(runs: list[str], names: list[str], values: np.ndarray) -> pd.DataFrame:
    """The ``all`` rows: ``values[i, j]`` is measure ``names[j]`` of run ``runs[i]``."""
    return pd.DataFrame({
        "run": np.repeat(np.asarray(runs, dtype=object), len(names)),
        "topic": SUMMARY_TOPIC,
        "measure": np.tile(np.asarray(names, dtype=object), len(runs)),
        "value": values.reshape(-1).astype(np.float64),
    })
