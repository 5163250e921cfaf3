"""The in-context family's measures in the registry, as inex_eval 3.1 prints them.

Counts (num_ret, num_rel, ... as inex_eval 3.1 counts them), gP[r] and gR[r] (seed 001,
eq. 11-12), AgP (eq. 13), MAgP (section 5.2) and the 11-point curve ``ircl_prn.x`` of
inex_eval 3.1, each declared once with its source and where appendix departs from the paper
or the program. Computed by ``builder.measures.inex.in_context.generalized_precision`` from the article scores
of ``builder.measures.inex.in_context.scores``, which imports this module. Apart from the scoring, as the
ad hoc family's declarations are (``builder.measures.adhoc.declarations``): names, sources and
departures, read through the registry (the summaries' aggregations, the site's measures page,
the config's measure names).
"""

from __future__ import annotations

from builder.measures.bibliography import cite
from builder.measures.inex.in_context.generalized_precision import FAMILY, RANKS, recall_point_names
from builder.measures.registry import Aggregation, Measure, register

NO_RELEVANT_TEXT = (
    "A topic without relevant text: inex_eval 3.1 prints NaN for its gR[r] and AgP (0/0), "
    "which makes their means (MAgP) NaN; appendix prints 0 so that a mean stays readable on a "
    "leaderboard (option no_relevant_text: nan prints inex_eval's NaN).")


def _declare() -> None:
    counts = {
        "num_ret": "retrieved articles",
        "num_rel": "relevant articles in the qrels",
        "num_rel_ret": "relevant articles retrieved",
        "ret_size": "retrieved characters (relevant in context tasks only)",
        "rel_size": "relevant characters in the qrels",
        "rel_ret_size": "relevant characters retrieved (relevant in context tasks only)",
    }
    for name, description in counts.items():
        register(Measure(name, FAMILY, description, "inex_eval 3.1", aggregation=Aggregation.SUM))
    register(Measure("num_q", FAMILY, "topics evaluated", "inex_eval 3.1", aggregation=Aggregation.COUNT))
    short = "inex_eval 3.1 reports gP[n] for a topic with n < r articles; option: the sum of eq. 11 of Kamps et al. 2008 divided by r"
    for r in RANKS:
        register(Measure(f"gP[{r}]", FAMILY, f"generalized precision at rank {r}",
                         cite("kamps2008", "eq. 11"), {"rank": r}, short))
        register(Measure(f"gR[{r}]", FAMILY, f"generalized recall at rank {r}",
                         cite("kamps2008", "eq. 12"), {"rank": r},
                         f"inex_eval 3.1: gR[n] when n < r. {NO_RELEVANT_TEXT}"))
    article_scores = (
        "article score: F-beta, beta = 0.25 as inex_eval 3.1 (Kamps et al. 2008: beta = 1); restricted: "
        "precision read with a tolerance of 300 irrelevant characters; best in context: "
        "(n - d) / n, n = 500 as inex_eval 3.1 (Kamps et al. 2008: eq. 8 or eq. 9 with n = 1000)"
    )
    register(Measure("AgP", FAMILY, "average generalized precision", cite("kamps2008", "eq. 13"),
                     differs=f"{article_scores}. {NO_RELEVANT_TEXT}"))
    register(Measure("MAgP", FAMILY, "mean average generalized precision (official)",
                     cite("kamps2008", "section 5.2"), differs=f"{article_scores}. {NO_RELEVANT_TEXT}",
                     per_topic="AgP"))
    for point, name in enumerate(recall_point_names()):
        register(Measure(name, FAMILY, "interpolated generalized precision at recall "
                         f"{point / 10:.1f} (mean over topics)", "inex_eval 3.1",
                         {"recall": point / 10}))


_declare()
