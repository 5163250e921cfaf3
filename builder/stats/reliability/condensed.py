"""Condensed lists: how much the ranking of the runs owes to their unjudged documents.

Every run is scored again on its *condensed list*, its ranking with the documents the qrels
do not judge taken out (Sakai, "Alternatives to bpref", SIGIR 2007; trec_eval's ``-J``, which
removes them after the ``-M`` cut, ranks renumbered, and still counts a topic whose ranking it
empties as answered). A run that retrieves many unjudged documents, which the official scores
count as not relevant, climbs; Kendall's tau and tau_ap
(``builder.stats.reliability.rank_correlation``) between the leaderboard and the condensed
ranking on the official measure say how far the ranking as a whole is swayed, and the runs
whose place moves by more than ``MOVED`` are listed.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from builder.measures.adhoc.judged.ranking import judged_only
from builder.stats.reliability.adhoc_rejudge import AdhocJudgements, adhoc_scores, rejudge
from builder.stats.reliability.rank_correlation import kendall_tau, tau_ap

CONDENSED_COLUMNS = ["run", "measure", "official", "condensed", "rank", "condensed_rank",
                     "moved"]
MOVED = 2
"""Places a run must move by, beyond which the page names it."""


def condensed_scores(judgements: AdhocJudgements, measure: str) -> tuple[np.ndarray, np.ndarray]:
    """Per run (``judgements.runs``): the summary of ``measure`` on the full rankings and on
    the condensed ones (``appendix evaluate -J``). ``judgements`` must be cut at the task's
    ``-M`` depth, not before: the condensed list reads below the documents taken out."""
    judged = rejudge(judgements)
    present = judged.per_cell() > 0
    official = adhoc_scores(judged, judgements.options, [measure])[1][0]
    condensed = adhoc_scores(judged_only(judged), judgements.options, [measure],
                             present=present)[1][0]
    return official, condensed


def _places(runs: np.ndarray, values: np.ndarray) -> np.ndarray:
    """1-based place of each run, best value first, ties by run name (the leaderboard's)."""
    order = np.lexsort((runs, -values))
    places = np.empty(len(values), np.int64)
    places[order] = np.arange(1, len(values) + 1)
    return places


def condensed_lists(judgements: AdhocJudgements, measure: str,
                    higher_is_better: bool = True) -> tuple[pd.DataFrame, dict[str, float]]:
    """``CONDENSED_COLUMNS`` per run, in leaderboard order, and the agreement of the two
    rankings (``tau``, ``tau_ap``: the condensed ranking against the official one)."""
    official, condensed = condensed_scores(judgements, measure)
    runs = np.asarray(judgements.runs, dtype=object)
    sign = 1.0 if higher_is_better else -1.0
    rank, condensed_rank = _places(runs, sign * official), _places(runs, sign * condensed)
    table = pd.DataFrame({
        "run": runs, "measure": measure, "official": official, "condensed": condensed,
        "rank": rank, "condensed_rank": condensed_rank, "moved": rank - condensed_rank,
    }).sort_values("rank", ignore_index=True)
    agreement = {"tau": float(kendall_tau(sign * official, sign * condensed)[0]),
                 "tau_ap": float(tau_ap(sign * official, sign * condensed)[0])}
    return table[CONDENSED_COLUMNS], agreement
