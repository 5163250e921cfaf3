"""The ``Rescorer`` of any task kind: how its runs are scored again under sampled judgements.

Ad hoc and focused runs have incremental rescorers (``AdhocRescorer``, ``FocusedRescorer``):
the rankings are made once. Other INEX kinds are scored again in full by their evaluator
(``EvaluatorRescorer``) on the sampled qrels, which is exact and slower.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from builder.contract import SUMMARY_TOPIC
from builder.formats.inex.qrels import InexQrels
from builder.measures.registry import measures_of
from builder.stats.reliability.stability import Rescorer, Scores
from builder.stats.significance.per_topic import scores_for_testing


def scores_from_table(table: pd.DataFrame, runs: list[str], topics: list[str],
                      measures: list[str], family: str) -> Scores:
    """``Scores`` from a long score table: summary rows as they are, per-topic values of each
    measure (or of the per-topic measure it averages); a pair without a row is not averaged."""
    declared = {m.name: m for m in measures_of(family)}
    summary_rows = table[table["topic"].astype(str) == SUMMARY_TOPIC]
    summary = summary_rows.pivot(index="measure", columns="run", values="value")
    summary = summary.reindex(index=measures, columns=runs).fillna(0.0).to_numpy(np.float64)
    per_topic_rows, _, _ = scores_for_testing(table, measures, declared)
    per_topic = np.zeros((len(measures), len(runs), len(topics)))
    evaluated = np.zeros((len(runs), len(topics)), bool)
    run_code = pd.Index(runs).get_indexer(per_topic_rows["run"])
    topic_code = pd.Index(topics).get_indexer(per_topic_rows["topic"].astype(str))
    measure_code = pd.Index(measures).get_indexer(per_topic_rows["measure"])
    ok = (run_code >= 0) & (topic_code >= 0) & (measure_code >= 0)
    per_topic[measure_code[ok], run_code[ok], topic_code[ok]] = per_topic_rows["value"].to_numpy()[ok]
    evaluated[run_code[ok], topic_code[ok]] = True
    return Scores(per_topic, evaluated, summary)


class EvaluatorRescorer:
    """Any INEX kind: units are the highlighted passages, every sample evaluated in full."""

    def __init__(self, kind: Any, qrels: InexQrels, runs: pd.DataFrame, options: Any,
                 measures: list[str], scores: pd.DataFrame | None = None) -> None:
        from builder.stats.reliability.inex_rejudge import passage_topic_codes

        self.kind, self.qrels, self.table, self.options = kind, qrels, runs, options
        self.scores = scores  # the evaluation on the real qrels, when already made
        self.measures = measures
        self.runs = [str(r) for r in pd.unique(runs["run"])]
        self.topics = qrels.topics
        self.unit_topic = passage_topic_codes(qrels)

    def score(self, keep: np.ndarray | None) -> Scores:
        from builder.stats.reliability.inex_rejudge import sampled_inex_qrels

        if keep is None and self.scores is not None:
            table = self.scores
        else:
            qrels = sampled_inex_qrels(self.qrels, keep)
            table = self.kind.evaluate(qrels, self.table, self.options).scores
        return scores_from_table(table, self.runs, self.topics, self.measures, self.kind.family)

    def sampled_qrels(self, keep: np.ndarray) -> str:
        from builder.stats.reliability.inex_rejudge import inex_qrels_text, sampled_inex_qrels

        return inex_qrels_text(sampled_inex_qrels(self.qrels, keep))


def rescorer_for(kind: Any, qrels: Any, runs: pd.DataFrame, options: Any,
                 measures: list[str], scores: pd.DataFrame | None = None,
                 depth_at_least: int = 1, uncut: Any = None) -> Rescorer:
    """The fastest exact rescorer of ``kind`` over the accepted runs ``runs`` (``scores``: their
    evaluation, if made, which spares a slow kind one more). Ad hoc rankings are cut where the
    measures stop reading them, but at ``depth_at_least`` at least (what else reads the
    rescorer's rankings: the unjudged share at 10, the pool depth); ``uncut``: the ad hoc runs
    already judged uncut (the tie analysis's), cut here rather than sorted again."""
    if kind.name == "adhoc":
        from builder.measures.adhoc.scores import ranks_read
        from builder.stats.reliability.adhoc_rejudge import AdhocRescorer, cut_at, judge_once

        read = ranks_read(measures, options.measure_params)
        depth = options.depth if read is None else min(max(read, depth_at_least), options.depth)
        judgements = (cut_at(uncut, depth) if uncut is not None
                      else judge_once(runs, qrels, options, depth=depth))
        return AdhocRescorer(judgements, measures)
    if kind.name == "focused":
        from builder.measures.inex.ranking import rank_passages
        from builder.stats.reliability.inex_rejudge import FocusedRescorer

        return FocusedRescorer(rank_passages(runs, qrels), qrels, options.complete, measures,
                               options.ip_recall)
    return EvaluatorRescorer(kind, qrels, runs, options, measures, scores)
