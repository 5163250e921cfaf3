"""Focused task measures (inex_eval 3.1 ``-f``): character precision, recall and iP[x].

For the ranking p_1, p_2, ... of a topic (seed 001, section 3; seed 002):

- P[r] = sum_{i<=r} rsize(p_i) / sum_{i<=r} size(p_i)        (seed 001, eq. 1)
- R[r] = sum_{i<=r} rsize(p_i) / Trel                         (seed 001, eq. 2)
- iP[x] = max_{r: R[r] >= x} P[r], 0 beyond the last recall   (seed 002, slide "iP[x]")
- AiP = 1/101 sum_{x=0.00..1.00} iP[x];  MAiP = mean of AiP   (seed 002)
- AP = (sum_r rel(p_r) P[r] / sum_r rel(p_r)) * R[|R|]       (seed 001, eq. 3; MAP its mean)

inex_eval 3.1 computes iP[x] on 101 buckets: after each passage it keeps the best P[r] of the
bucket floor(100 R[r]), then carries maxima down from 1.00 to 0.00 (``Topic.ComputeIP``,
``Topic.FillIP``). In exact arithmetic floor(100 R) >= i is R >= i/100, the definition; in
doubles 100 R falls just below a whole number for some exact boundaries (R = 29/100 gives
28.999999999999996, bucket 28), so the P[r] reached at R = 0.29 counts for iP[0.28] only and
iP[0.29] takes a later, lower one. ``ip_recall="inex_eval"`` (the default) keeps those buckets,
to the bit: the same divisions, sums in the same order; ``ip_recall="definition"`` decides
R[r] >= i/100 in integers (100 rel_ret >= i Trel), the definition. A recall above 1 (the qrels promise less
relevant text than the passages cover, or a topic in two blocks, see ``passage_ranking``) is
inex_eval's "Impossible recall point" and is skipped; we count them in the extras.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from builder.measures.bibliography import cite
from builder.measures.inex.differences import NO_RELEVANT_TEXT
from builder.measures.inex.focused import xcg
from builder.measures.inex.ranking import RankedPassages
from builder.measures.registry import Aggregation, Measure, register

FAMILY = "focused"
RECALL_POINTS = 101
IP_NAMES = [f"iP[{i / 100:.2f}]" for i in range(RECALL_POINTS)]
OFFICIAL_CUTOFFS = ("iP[0.00]", "iP[0.01]", "iP[0.05]", "iP[0.10]")
COUNT_MEASURES = ("num_ret", "num_rel", "num_rel_ret", "ret_size", "rel_size", "rel_ret_size")
RATIO_MEASURES = ("art_prec", "art_rec", "art_f1", "char_prec", "char_rec", "char_f1")
INEX_EVAL = "inex_eval 3.1 (Topic.ComputeIP, Topic.FillIP, EvalFocussed)"
IP_RECALL = ("inex_eval", "definition")
"""How iP[x] decides R[r] >= x (the ``ip_recall`` option, see the module docstring)."""
IP_BOUNDARY = (
    "At an exact recall boundary inex_eval 3.1 files P[r] under the bucket floor(100 R) of a "
    "double, which for some boundaries (R = 29/100) is one below the definition's; option "
    "ip_recall: definition decides R >= x exactly.")


def declare_inex_eval_measures(family: str, sizes: str = "", with_average_precision: bool = True
                               ) -> None:
    """Declare the measures shared by the focused and thorough families (``sizes``: how the
    family counts a result's characters where it departs from, or offers an option against,
    the official program; said on every measure made of them), each naming the function that
    computes its column: ``count_table``, ``ratio_table``, ``interpolated_precision``,
    ``average_interpolated_precision`` (the thorough family's over its results counted once);
    with ``with_average_precision``, eq. 3's AP and MAP (the thorough family has HiXEval's MAP)."""
    counts = {
        "num_ret": "articles retrieved",
        "num_rel": "relevant articles in the qrels",
        "num_rel_ret": "relevant articles retrieved",
        "ret_size": "characters retrieved",
        "rel_size": "highlighted characters in the qrels (sum of rel_chars)",
        "rel_ret_size": "highlighted characters retrieved",
    }
    for name, what in counts.items():
        register(Measure(name, family, f"Number of {what}.", INEX_EVAL, aggregation=Aggregation.SUM,
                         differs=sizes if name in ("ret_size", "rel_ret_size") else "",
                         computed_by=count_table))
    register(Measure("num_q", family, "Topics averaged over.", INEX_EVAL, aggregation=Aggregation.COUNT))
    ratios = {
        "art_prec": "num_rel_ret / num_ret",
        "art_rec": "num_rel_ret / num_rel",
        "art_f1": "2 art_prec art_rec / (art_prec + art_rec), 0 when both are 0",
        "char_prec": "rel_ret_size / ret_size",
        "char_rec": "rel_ret_size / rel_size",
        "char_f1": "2 char_prec char_rec / (char_prec + char_rec), 0 when both are 0",
    }
    for name, formula in ratios.items():
        differs = [sizes if name.startswith("char") else "",
                   NO_RELEVANT_TEXT.see() if name.endswith("_rec") else ""]
        register(Measure(name, family, f"Article or character ratio: {formula}.", INEX_EVAL,
                         differs=" ".join(d for d in differs if d), computed_by=ratio_table))
    for i, name in enumerate(IP_NAMES):
        register(
            Measure(
                name,
                family,
                f"Interpolated precision at {i}% recall: best P[r] with R[r] >= {i / 100:.2f}.",
                f"{cite('kamps2008', 'eq. 1-2')}; {cite('pal2008')}; {INEX_EVAL}",
                params={"recall": i / 100},
                differs=" ".join(d for d in (sizes, IP_BOUNDARY) if d),
                computed_by=interpolated_precision,
            )
        )
    register(
        Measure(
            "AiP",
            family,
            "Average interpolated precision over the 101 recall points (per topic).",
            f"{cite('pal2008')}; {INEX_EVAL}",
            differs=sizes,
            computed_by=average_interpolated_precision,
        )
    )
    register(
        Measure(
            "MAiP",
            family,
            "Mean over topics of AiP (the summary row of AiP).",
            f"{cite('kamps2008', 'section 4.2')}; {cite('pal2008')}; {INEX_EVAL}",
            per_topic="AiP",
            computed_by=average_interpolated_precision,
        )
    )
    if not with_average_precision:
        return
    not_inex_eval = "Not printed by inex_eval 3.1."
    register(Measure("AP", family, "Non-interpolated average precision (per topic): the mean "
                     "of P[r] at the ranks with highlighted text, times the final recall.",
                     cite("kamps2008", "eq. 3"), differs=" ".join(d for d in (sizes, not_inex_eval) if d),
                     computed_by=average_precision))
    register(Measure("MAP", family, "Mean over topics of AP (the summary row of AP).",
                     cite("kamps2008", "eq. 3"), differs=not_inex_eval, per_topic="AP",
                     computed_by=average_precision))


def interpolated_precision(ranked: RankedPassages, ip_recall: str = "inex_eval"
                           ) -> tuple[np.ndarray, np.ndarray]:
    """iP over 101 recall points per (run, topic) group, and the impossible points per group.

    P[r] and R[r] are taken after every passage; ``np.maximum.at`` keeps the best P[r] of each
    bucket (a NaN precision, 0/0 after empty passages, never wins, as in Java); a reversed
    running maximum fills the curve. The bucket is floor(100 R[r]) in doubles (``ip_recall``
    "inex_eval") or the largest i with 100 rel_ret >= i Trel in integers ("definition"); a
    topic without relevant text files every passage under 0 either way (Java's (int) NaN).
    """
    lines = ranked.lines
    group = lines["group"]
    n_groups = len(ranked.groups)
    rel_ret = _running_sum(lines["rsize"], ranked.groups["first"].to_numpy(), group)
    retrieved = _running_sum(lines["size"], ranked.groups["first"].to_numpy(), group)
    with np.errstate(divide="ignore", invalid="ignore"):
        precision = rel_ret / retrieved.astype(np.float64)
        recall = rel_ret / ranked.total_rsize[lines["topic_code"]].astype(np.float64)
        bucket = np.floor(100 * recall)
    bucket = np.where(np.isnan(bucket), 0, bucket)  # Java: (int) NaN == 0
    if ip_recall == "definition":
        trel = ranked.total_rsize[lines["topic_code"]]
        bucket = np.where(trel > 0, (100 * rel_ret) // np.maximum(trel, 1), 0).astype(np.float64)
    impossible = (bucket < 0) | (bucket > 100)
    use = ~impossible & ~np.isnan(precision)
    curve = np.zeros((n_groups, RECALL_POINTS))
    np.maximum.at(curve, (group[use], bucket[use].astype(np.int64)), precision[use])
    curve = np.maximum.accumulate(curve[:, ::-1], axis=1)[:, ::-1]
    return curve, np.bincount(group[impossible], minlength=n_groups)


def _running_sum(values: np.ndarray, first: np.ndarray, group: np.ndarray) -> np.ndarray:
    """Sum of ``values`` from the group's first row up to each row (int64, exact)."""
    total = np.cumsum(values, dtype=np.int64)
    before = np.concatenate([[0], total])[first]
    return total - before[group]


def average_interpolated_precision(curve: np.ndarray) -> np.ndarray:
    """AiP per row, summed left to right as inex_eval does (``Topic.ComputeAIP``)."""
    if not len(curve):
        return np.zeros(0)
    return np.cumsum(curve, axis=1)[:, -1] / RECALL_POINTS


def average_precision(ranked: RankedPassages) -> np.ndarray:
    """AP per (run, topic) group (Kamps et al. 2008, eq. 3).

    AP = (sum_r rel(p_r) P[r] / sum_r rel(p_r)) * R[|R|], rel(p_r) = 1 when p_r holds
    highlighted text (rsize > 0): the mean precision at the ranks that retrieve relevant text,
    scaled by the recall reached at the end, so relevant text never retrieved counts as
    precision 0. 0 for a ranking without relevant text.
    """
    lines = ranked.lines
    group, n = lines["group"], len(ranked.groups)
    first = ranked.groups["first"].to_numpy()
    rel_ret = _running_sum(lines["rsize"], first, group)
    retrieved = _running_sum(lines["size"], first, group)
    hit = lines["rsize"] > 0  # so size > 0 too: P[r] is a number
    precision = rel_ret[hit] / retrieved[hit].astype(np.float64)
    mean_precision = ratio(np.bincount(group[hit], weights=precision, minlength=n),
                           np.bincount(group[hit], minlength=n))
    trel = ranked.total_rsize[ranked.groups["topic_code"].to_numpy()]
    return mean_precision * ratio(_group_sum(lines["rsize"], group, n), trel)


def harmonic_mean(precision: np.ndarray, recall: np.ndarray) -> np.ndarray:
    """2PR / (P + R), 0 where P + R is 0 (inex_eval prints 0.0 there)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        value = 2 * precision * recall / (precision + recall)
    return np.where(precision + recall > 0, value, 0.0)


def ratio(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    """numerator / denominator as doubles, 0 where the denominator is 0."""
    with np.errstate(divide="ignore", invalid="ignore"):
        value = numerator / denominator.astype(np.float64)
    return np.where(denominator > 0, value, 0.0)


def count_table(ranked: RankedPassages) -> pd.DataFrame:
    """The six counts per (run, topic) group (``COUNT_MEASURES``)."""
    lines = ranked.lines
    group = lines["group"]
    n = len(ranked.groups)
    topic_code = ranked.groups["topic_code"].to_numpy()
    return pd.DataFrame(
        {
            "num_ret": np.bincount(group, weights=lines["new_article"], minlength=n).astype(np.int64),
            "num_rel": ranked.total_relevant[topic_code].astype(np.int64),
            "num_rel_ret": np.bincount(group, weights=lines["relevant_article"], minlength=n).astype(np.int64),
            "ret_size": _group_sum(lines["size"], group, n),
            "rel_size": ranked.total_rsize[topic_code],
            "rel_ret_size": _group_sum(lines["rsize"], group, n),
        }
    )


def _group_sum(values: np.ndarray, group: np.ndarray, n: int) -> np.ndarray:
    total = np.concatenate([[0], np.cumsum(values, dtype=np.int64)])
    edges = np.concatenate([[0], np.cumsum(np.bincount(group, minlength=n))])
    return total[edges[1:]] - total[edges[:-1]]


def ratio_table(counts: pd.DataFrame, no_relevant_text: str = "zero") -> pd.DataFrame:
    """Article and character precision, recall and F1 from the counts (``RATIO_MEASURES``);
    recall over a topic without relevant text is 0, or NaN as inex_eval prints it
    (``no_relevant_text="nan"``)."""
    art_prec = ratio(counts["num_rel_ret"].to_numpy(), counts["num_ret"].to_numpy())
    art_rec = ratio(counts["num_rel_ret"].to_numpy(), counts["num_rel"].to_numpy())
    char_prec = ratio(counts["rel_ret_size"].to_numpy(), counts["ret_size"].to_numpy())
    char_rec = ratio(counts["rel_ret_size"].to_numpy(), counts["rel_size"].to_numpy())
    if no_relevant_text == "nan":
        art_rec = np.where(counts["num_rel"].to_numpy() > 0, art_rec, np.nan)
        char_rec = np.where(counts["rel_size"].to_numpy() > 0, char_rec, np.nan)
    return pd.DataFrame(
        {
            "art_prec": art_prec,
            "art_rec": art_rec,
            "art_f1": harmonic_mean(art_prec, art_rec),
            "char_prec": char_prec,
            "char_rec": char_rec,
            "char_f1": harmonic_mean(char_prec, char_rec),
        }
    )


declare_inex_eval_measures(FAMILY)  # here, once the functions it names are defined
xcg.declare(FAMILY)
