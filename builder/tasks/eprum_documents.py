"""The EPRUM task over TREC runs and graded TREC qrels: graded idealism read from the grades.

Piwowarski and Dupret (SIGIR 2006), section 8: "a judgement between 0 and 1 corresponds to
the percentage of users that, given the same information need, would judge relevant the
document. EPRUM could thus be used as a natural extension of precision-recall in IR when
graded judgements are used." The elements are documents, each rank of a run pointing at one
(the classical model: a user reaches the document the rank points at, ranked as trec_eval
ranks it); a document judged at ``rel_level`` or above is ideal for the share of users its
grade gives (the ``grades`` option, by default grade / the highest grade of the qrels, so
1 and 2 are 0.5 and 1), and EPRUM integrates over the users' satisfaction levels (section 3.1,
``builder.measures.eprum.idealism``). With binary qrels ``avgP`` is trec_eval's ``map``.

Runs and qrels are read and validated as the ad hoc task's. Extras as the EPRUM task's.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from builder.contract import Evaluation, LazyTables, RunRead, TaskKind
from builder.measures.eprum.models import (
    UserModel,
    document_ideal,
    document_pointers,
    navigation_table,
)
from builder.measures.eprum.passages import level_scores, natural_points
from builder.measures.eprum.scores import (
    AVERAGE,
    FAMILY,
    IdealSet,
    above_one,
    score_rows,
    topic_results,
)
from builder.tasks.adhoc.reading import (
    qrels_findings,
    read_qrels,
    read_run_files,
    validate_trec_runs,
)
from builder.tasks.options import KIND_OPTIONS
from builder.tasks.options.eprum_documents import EprumDocumentsOptions


def graded_idealism(grades: pd.Series, mapping: dict[int, float] | None) -> np.ndarray:
    """P(x in I) of each judged grade: ``mapping[grade]`` (a grade it does not name: 0), or
    by default grade / the highest grade."""
    values = grades.to_numpy(dtype=np.float64)
    if mapping is None:
        top = values.max(initial=0.0)
        return values / top if top > 0 else np.zeros(len(values))
    # a grade is a whole number (qrels): truncated as before, mapped column-wise
    return pd.Series(values.astype(np.int64)).map(mapping).fillna(0.0).to_numpy(np.float64)


def ideal_elements(qrels: pd.DataFrame, options: EprumDocumentsOptions
                   ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The documents judged at ``rel_level`` or above (``document_ideal``) and ``topic,
    element, idealism`` of each (``graded_idealism``)."""
    judged = qrels[qrels["rel"] >= options.rel_level]
    ideal = document_ideal(qrels, options.rel_level).astype({"topic": str, "element": str})
    return ideal, ideal[["topic", "element"]].assign(
        idealism=graded_idealism(judged["rel"], options.grades))


def eprum_of_documents(qrels: pd.DataFrame, runs: pd.DataFrame,
                       options: EprumDocumentsOptions) -> pd.DataFrame:
    """Every EPRUM value of every run and topic (``score_rows``)."""
    ideal, elements = ideal_elements(qrels, options)
    pointers = document_pointers(runs[["run", "topic", "doc", "score"]], options.depth)
    pointers = pointers.astype({"run": str, "topic": str, "file": str})
    navigation = navigation_table(pointers, ideal, UserModel("classical"), ["run"])
    names = [str(run) for run in pd.unique(runs["run"])]
    return score_rows(topic_results(navigation, IdealSet(elements), names,
                                    exact_limit=options.exact_limit))


def validate_runs(reads: list[RunRead], qrels: pd.DataFrame, options: EprumDocumentsOptions
                  ) -> list[RunRead]:
    """The ad hoc kind's run rules. EPRUM averages over every topic with an ideal document
    (one judged at ``rel_level`` or above whose grade makes it ideal for some users,
    ``topic_results``): a run without results for such a topic scores 0 there, counted in
    the means; a qrels topic without one (only grade-0 documents, say) is left out of every
    run's means, and the warning naming an unanswered topic says which of the two it is."""
    _, elements = ideal_elements(qrels, options)
    scored = set(elements.loc[elements["idealism"] > 0, "topic"])
    unscored = frozenset(str(t) for t in pd.unique(qrels["topic"])) - scored
    return validate_trec_runs(reads, qrels, depth=options.depth, complete=True,
                              unscored=unscored)


def evaluate(qrels: pd.DataFrame, runs: pd.DataFrame, options: EprumDocumentsOptions
             ) -> Evaluation:
    """The levels, rank cut-offs and ``avgP`` per run and topic, their means under ``all``."""
    rows = eprum_of_documents(qrels, runs, options)
    extras = LazyTables({"natural": lambda: natural_points(rows),
                         "above_one": lambda: above_one(rows)})
    return Evaluation(level_scores(rows), extras)


KIND = TaskKind(
    name="eprum-documents",
    family=FAMILY,
    read_qrels=read_qrels,
    qrels_findings=qrels_findings,
    read_run_files=read_run_files,
    validate_runs=validate_runs,
    evaluate=evaluate,
    options_model=KIND_OPTIONS["eprum-documents"],
    official_measure=AVERAGE,
    leaderboard_measures=(AVERAGE, "P[0.00]", "P[0.50]", "P@10"),
)
