"""A task's scores as its official program prints them (trec_eval's layout, also inex_eval's as
``appendix evaluate`` prints it): what ``appendix evaluate -q RUN`` prints with the task's
options, for the site's per-run download and for the command itself.

The command and the site share this module so that the download is the command's output,
not a second formatting of it; ``tests/site/test_run_downloads.py`` runs the command on each
run of a task and compares.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from builder.contract import SUMMARY_TOPIC

if TYPE_CHECKING:
    import pandas as pd

    from builder.config.schema import TaskSpec


@dataclass(frozen=True)
class TrecLayout:
    """What trec_eval prints: per-topic lines (-q), among them only ``answered`` topics (the
    releases before 10.0 leave out, under -c -q, the topics a run did not answer), the runid
    line (when ``runid`` is asked for), the summary (not with -n)."""

    per_topic: bool = False
    answered: frozenset[tuple[str, str]] | None = None
    """The (run, topic) printed per topic; None: all of them."""
    runid: bool = True
    summary: bool = True


def answered_topics(scores: pd.DataFrame, options: Any,
                    extras: Mapping[str, pd.DataFrame] | None = None
                    ) -> frozenset[tuple[str, str]] | None:
    """The (run, topic) trec_eval prints per topic: all of them (None), but under -c only
    those with results (however -J or -M 0 empties them) for releases before 10.0: the
    evaluation's ``answered`` extra table when it has one, else the topics with results after
    -J (an evaluation in batches keeps no extra)."""
    from builder.measures.adhoc.trec_eval.profiles import profile_of

    if profile_of(getattr(options, "profile", None)).prints_skipped_topics \
            or not options.complete:
        return None
    if extras is not None and "answered" in extras:
        rows = extras["answered"]
        return frozenset(zip(rows["run"], rows["topic"]))
    rows = scores[(scores["measure"] == "num_ret") & (scores["value"] > 0)]
    return frozenset(zip(rows["run"], rows["topic"]))


def without_empty_runs(scores: pd.DataFrame,
                       answered: frozenset[tuple[str, str]] | None = None
                       ) -> tuple[pd.DataFrame, list[str]]:
    """Scores without the runs that answered no judged topic (``num_q`` 0, or none of
    ``answered``: trec_eval 9.0.8 stops so under -c too), and their names (trec_eval stops
    on such a run with exit code 7)."""
    count = scores[(scores["measure"] == "num_q") & (scores["topic"] == SUMMARY_TOPIC)]
    empty = set(count.loc[count["value"] == 0, "run"])
    if answered is not None:
        empty |= set(scores["run"].unique()) - {run for run, _ in answered}
    return scores[~scores["run"].isin(empty)], sorted(empty)


def printed_runs(scores: pd.DataFrame, spec: TaskSpec,
                 extras: Mapping[str, pd.DataFrame] | None = None
                 ) -> tuple[pd.DataFrame, frozenset[tuple[str, str]] | None, list[str]]:
    """What trec_eval prints of an ad hoc task's ``scores``: the table without the runs it
    stops on (``without_empty_runs``), the (run, topic) it prints per topic
    (``answered_topics``) and the names of the runs left out (its exit status 7). Another
    kind's scores are printed whole."""
    if spec.kind.name != "adhoc":
        return scores, None, []
    answered = answered_topics(scores, spec.options, extras)
    if spec.options.complete and answered is None:
        return scores, None, []
    scores, empty = without_empty_runs(scores, answered)
    return scores, answered, empty


def official_text(scores: pd.DataFrame, spec: TaskSpec,
                  extras: Mapping[str, pd.DataFrame] | None = None) -> str:
    """``appendix evaluate -q`` of the runs of ``scores`` (the task's score table, or one
    run's rows of it) with the task's options and default measures: per run its per-topic
    lines, its runid line and its summary, as the official program prints them. Empty for a
    run that answered no judged topic (the command prints nothing for it and exits 7).
    ``extras``: the evaluation's, whose ``answered`` table says which topics a run answered
    however -J or -M 0 emptied them (``answered_topics``), as the command reads it."""
    from builder.pipeline.layouts.scores import trec_text
    from builder.pipeline.scoring import plan_measures

    plan = plan_measures(spec, [])  # the kind's default measures, as the command's
    scores, answered, _ = printed_runs(scores, spec, extras)
    names = list(plan.names)
    scores = scores[scores["measure"].isin(names).to_numpy()]
    layout = TrecLayout(per_topic=True, answered=answered, runid=plan.runid)
    return "".join(trec_text(scores, names, set(plan.integral), layout))
