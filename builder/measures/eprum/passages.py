"""EPRUM over INEX passage runs: the highlighted passages as ideal elements, each run's lines
as pointers, every run and topic scored at once.

Piwowarski and Dupret, "Evaluation in (XML) information retrieval: expected precision-recall
with user modelling (EPRUM)", SIGIR 2006. The ideal elements are the highlighted passages of
INEX passage qrels (idealism 1); rank k of a run is its k-th passage of the topic (file order,
as inex_eval ranks); ``P(k ~> x)`` comes from the chosen user model
(``builder.measures.eprum.models``); the ideal list is the ideal elements by decreasing
idealism under the same model (section 7). Overlapping passages are allowed: a passage seen
twice is not rewarded twice.
"""

from __future__ import annotations

import pandas as pd

from builder.contract import SCORE_COLUMNS, SUMMARY_TOPIC
from builder.formats.inex.fol_run import UNKNOWN_OFFSET
from builder.formats.inex.qrels import InexQrels
from builder.measures.eprum.models import UserModel, ideal_list, navigation_table
from builder.measures.eprum.precision_recall import DEFAULT_EXACT_LIMIT
from builder.measures.eprum.scores import (
    AVERAGE,
    CUTOFF_NAMES,
    LEVEL_NAMES,
    IdealSet,
    score_rows,
    topic_results,
    with_summary,
)


def passage_ideal(qrels: InexQrels) -> pd.DataFrame:
    """The highlighted passages as ideal elements (``IDEAL_COLUMNS``), named ``file:offset:length``."""
    passages = qrels.passages
    return pd.DataFrame(
        {
            "topic": passages["topic"].to_numpy(),
            "element": (
                passages["file"] + ":" + passages["offset"].astype(str) + ":"
                + passages["length"].astype(str)
            ).to_numpy(),
            "file": passages["file"].to_numpy(),
            "start": passages["offset"].to_numpy(),
            "end": (passages["offset"] + passages["length"]).to_numpy(),
        }
    ).drop_duplicates(["topic", "element"])


def passage_pointers(runs: pd.DataFrame) -> pd.DataFrame:
    """FOL run lines as pointers: rank = position among the topic's lines (``order``)."""
    known = runs[runs["offset"] != UNKNOWN_OFFSET]
    return pd.DataFrame(
        {
            "run": known["run"].to_numpy(),
            "topic": known["topic"].to_numpy(),
            "rank": known["order"].to_numpy(),
            "file": known["file"].to_numpy(),
            "start": known["offset"].to_numpy(),
            "end": (known["offset"] + known["length"]).to_numpy(),
        }
    )


def eprum_of_passages(qrels: InexQrels, runs: pd.DataFrame, model_name: str, theta: float,
                      exact_limit: int = DEFAULT_EXACT_LIMIT) -> pd.DataFrame:
    """Every EPRUM value of every run and topic (``score_rows``), under the user model
    ``model_name`` (``theta``: the distance model's)."""
    model = UserModel(model_name, theta)
    ideal = passage_ideal(qrels)
    elements = ideal[["topic", "element"]].assign(idealism=1.0)
    pointed = ideal_list(ideal).assign(run="ideal")
    ideal_navigation = navigation_table(pointed, ideal, model, ["run"]).drop(columns="run")
    ideal_set = IdealSet(elements, ideal_navigation, pointed[["topic", "rank", "element"]])
    navigation = navigation_table(passage_pointers(runs), ideal, model, ["run"])
    names = list(dict.fromkeys(runs["run"]))
    return score_rows(topic_results(navigation, ideal_set, names, exact_limit=exact_limit))


def natural_points(rows: pd.DataFrame) -> pd.DataFrame:
    """``run, topic, recall, precision, ideal_length`` from the ``P[r=k]``/``ML*[r=k]`` rows."""
    recall = rows["measure"].str.extract(r"^(P|ML\*)\[r=(\d+)\]$")
    points = rows.assign(kind=recall[0], recall=recall[1]).dropna(subset=["kind"])
    points = points.assign(recall=points["recall"].astype(int))
    table = points.pivot_table(
        index=["run", "topic", "recall"], columns="kind", values="value", aggfunc="first"
    ).reset_index()
    return table.rename(columns={"P": "precision", "ML*": "ideal_length"}).rename_axis(columns=None)


def level_scores(rows: pd.DataFrame) -> pd.DataFrame:
    """The 11 levels, the rank cut-offs and ``avgP`` of ``eprum_of_passages``'s rows per run and topic (every
    topic with a highlighted passage; a run without results for it scores 0), their means
    under topic ``all`` (``SCORE_COLUMNS``)."""
    scores = rows[rows["measure"].isin([*LEVEL_NAMES, *CUTOFF_NAMES, AVERAGE])]
    return with_summary(scores, SUMMARY_TOPIC)[SCORE_COLUMNS].reset_index(drop=True)


def summary_of_passages(qrels: InexQrels, runs: pd.DataFrame, model_name: str,
                        theta: float) -> pd.DataFrame:
    """``run, measure, value``: each run's means over topics of the levels and ``avgP``, for
    the EPRUM block of another passage task's run pages (its ``eprum_model`` option)."""
    scores = level_scores(eprum_of_passages(qrels, runs, model_name, theta))
    summary = scores[scores["topic"] == SUMMARY_TOPIC]
    return summary[["run", "measure", "value"]].reset_index(drop=True)
