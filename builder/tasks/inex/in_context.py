"""Task kinds of the INEX in-context tasks, scored like inex_eval 3.1 ``-r``, ``-i`` and ``-b``.

- ``relevant-in-context``: article score F-beta of the retrieved text (beta = 0.25);
- ``restricted-relevant-in-context``: precision of the text read with a tolerance to
  irrelevance of 300 characters;
- ``best-in-context``: distance of the entry point to the best entry point, (n - d) / n.

Evaluation extras (for the run pages):

- ``article_scores``: run, topic, rank, file, score of every retrieved article of an assessed
  topic (rank = first appearance in the topic, file order);
- ``run_summary``: run, articles, passages, relevant_articles (retrieved).
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pandas as pd

from builder.contract import Evaluation, RunRead, TaskKind
from builder.formats.inex.qrels import InexQrels, read_inex_qrels
from builder.measures.inex.in_context.generalized_precision import FAMILY
from builder.measures.inex.in_context.scores import (
    ArticleScore,
    InContextSettings,
    evaluate_in_context,
)
from builder.tasks.inex.eprum_block import eprum_extras
from builder.tasks.inex.focused import qrels_findings, read_run_files
from builder.tasks.options import KIND_OPTIONS
from builder.tasks.options.passages import InContextOptions
from builder.validate.fol_run import validate_fol_run
from builder.validate.in_context import validate_in_context


def _settings(options: InContextOptions) -> InContextSettings:
    return InContextSettings(
        beta=getattr(options, "beta", 0.25),
        tolerance=getattr(options, "tolerance", 300),
        bep_score=getattr(options, "entry_score", "inex_eval"),
        bep_n=getattr(options, "n", None),
        bep_a=getattr(options, "a", 0.1),
        ranks=tuple(options.ranks),
        short_runs=options.gp_short_runs,
        complete=options.complete,
        no_relevant_text=options.no_relevant_text,
    )


def read_qrels(path: Path, options: object = None) -> InexQrels:
    """The INEX qrels (one reading whatever the ``options``)."""
    return read_inex_qrels(path)


def validate_runs(
    reads: list[RunRead], qrels: InexQrels, options: InContextOptions, best: bool = False
) -> list[RunRead]:
    """The general FOL rules, then the in-context ones, on each readable run (a bad run is
    rejected alone)."""
    topics = qrels.topics
    validated = []
    for read in reads:
        if read.table is not None:
            # inex_eval rejects overlapping passages in every task that reads passages.
            table, general = validate_fol_run(read.table, read.path, topics, options.max_results,
                                              reject_overlap=True, doc_chars=qrels.doc_chars,
                                              entry_points=best)
            found = general + validate_in_context(table, read.path, topics, best=best)
            read = RunRead(read.path, read.name, table, read.findings + found)
        validated.append(read)
    return validated


def evaluate(
    qrels: InexQrels, runs: pd.DataFrame, options: InContextOptions, article_score: ArticleScore
) -> Evaluation:
    result = evaluate_in_context(runs, qrels, article_score, _settings(options))
    return Evaluation(
        result.scores,
        {"article_scores": result.article_scores, "run_summary": result.run_summary}
        | eprum_extras(qrels, runs, options),
    )


LEADERBOARD = ("gP[5]", "gP[10]", "gP[25]", "gP[50]", "MAgP")


def _kind(name: str, article_score: ArticleScore) -> TaskKind:
    return TaskKind(
        name=name,
        family=FAMILY,
        read_qrels=read_qrels,
        read_run_files=read_run_files,
        validate_runs=partial(validate_runs, best=article_score == "best"),
        evaluate=partial(evaluate, article_score=article_score),
        options_model=KIND_OPTIONS[name],
        official_measure="MAgP",
        leaderboard_measures=LEADERBOARD,
        qrels_findings=qrels_findings,
    )


KINDS: dict[str, TaskKind] = {
    "relevant-in-context": _kind("relevant-in-context", "relevant"),
    "restricted-relevant-in-context": _kind("restricted-relevant-in-context", "restricted"),
    "best-in-context": _kind("best-in-context", "best"),
}
