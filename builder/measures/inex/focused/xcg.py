"""The eXtended Cumulated Gain measures (INEX 2005-2006) over focused passage rankings.

Kazai and Lalmas, "eXtended cumulated gain measures for the evaluation of content-oriented XML
retrieval", ACM TOIS 24(4), 2006, after Järvelin and Kekäläinen's cumulated gain (ACM TOIS
20(4), 2002). For a ranking with gains xG[1], xG[2], ... and the ideal recall-base's n gains
sorted down, xI[1] >= ... >= xI[n], the ideal vector padded with zeros after rank n:

- xCG[i] = sum_{j<=i} xG[j], xCI[i] = sum_{j<=i} xI[j] (so xCI[i] = xCI[n] past rank n, and
  a run that stops at rank m keeps xCG[m]);
- nxCG[i] = xCG[i] / xCI[i]: the gain accumulated by rank i against the ideal ranking's;
- MAnxCG: the mean of nxCG[i] over the ranks i = 1..1500 (INEX's result-list length);
- gain-recall gr[i] = xCG[i] / xCI[n]; effort-precision where the run reaches a cumulated
  gain g, ep = i_ideal / i_run, the minimum ranks at which the ideal ranking and the run
  reach g;
- MAep: non-interpolated, as average precision: ep at each rank where the run gains
  (xG[i] > 0, where i_run = i), summed and divided by n, so that gain never reached counts 0.

Which parts a source we could read confirms. The paper's own text (and that of Kazai and
Lalmas, "INEX 2005 evaluation measures", LNCS 3977, 2006) was not in the stores searched
(web pages, documentation, code and issue corpora; EvalJ, the INEX package whose XCGEval
computed them, has no public source there). What could be read:

- Pehcevski and Thom, "HiXEval: highlighting XML retrieval evaluation", INEX 2005, LNCS 3977,
  section 1: nxCG[r] is "the relative retrieval gain a user has accumulated up to that rank,
  compared to the gain they could have accumulated if the system had produced the optimal
  ranking" (xCG[r] / xCI[r]); ep/gr measures, "for a cumulated gain level", "the amount of
  relative effort (as the number of visited ranks)" against an optimal ranking's (ep =
  i_ideal / i_run); MAep is ep/gr's summary; nxCG is reported at r = 10, 25, 50 and runs
  are cut at 1500 results (section 4).
- Piwowarski and Dupret, "Evaluation in (XML) information retrieval: expected precision-recall
  with user modelling (EPRUM)", SIGIR 2006, section 6: EP/GR is "defined as the ratio of
  minimum lengths", and "a given recall is achieved or not" (ep takes the first rank reaching
  the gain, no expectation over users).
- The EvalJ README (evalj.sourceforge.net): XCGEval leaves a topic of the recall-base without
  results out of the means unless given -e ("score empty result topics as 0"); here the
  task's -c (complete) plays -e.

Chosen without a source we could read (the tests hold the code to these readings): the depth
1500 of MAnxCG (the INEX run length; a run that stops early keeps its last xCG); MAep's
normalisation by n rather than by the ranks that gain (an unreached relevant passage counts 0,
as in average precision) and its non-interpolated form (ep at 100 gain-recall points is not
computed); i_ideal = n when the run's gain exceeds the ideal's total (the ideal's last rank);
nxCG[5] beside the ranks 10, 25 and 50 of the HiXEval paper's tables; and the gains below.

The gains. INEX 2005-2006 quantised exhaustivity and specificity of XML elements and built the
ideal recall-base from them; on the highlighted passages of INEX 2007-style qrels (Kamps et al.
2008) we read the gains from specificity alone, as HiXEval (Pehcevski and Thom) does: a
result's gain is its specificity, the share of its characters that are highlighted (rsize /
size); the ideal recall-base is the highlighted passages, each fully specific (gain 1), so
xCI[i] = min(i, n) and i_ideal = min(ceil(g), n). A result made of part of a highlighted
passage is fully specific too, so a run that cuts one passage into pieces gains more than 1
from it and gr can exceed 1 (the near-miss problem the EPRUM paper points at). Written by hand:
no maintained library computes the xCG family.
"""

from __future__ import annotations

import numpy as np

from builder.measures.bibliography import cite
from builder.measures.inex.ranking import RankedPassages
from builder.measures.registry import Measure, register
from builder.measures.running_sums import segment_cumsum

NXCG_RANKS = (5, 10, 25, 50)
MANXCG_DEPTH = 1500
"""MAnxCG averages nxCG[i] over i = 1..1500, INEX's result-list length."""
XCG_NAMES = (*(f"nxCG[{k}]" for k in NXCG_RANKS), "MAnxCG", "MAep")
GAINS = ("Gains on passage qrels: a result's specificity (its highlighted share), the ideal "
         "recall-base the highlighted passages with gain 1 each.")


def declare(family: str) -> None:
    """The xCG measures of ``family``, computed by ``xcg_table``."""
    source = cite("kazai2006")
    for k in NXCG_RANKS:
        register(Measure(f"nxCG[{k}]", family, f"Normalised extended cumulated gain at rank "
                         f"{k}: xCG[{k}] / xCI[{k}].", source, {"rank": k}, differs=GAINS,
                         computed_by=xcg_table))
    register(Measure("MAnxCG", family, f"Mean of nxCG[i] over i = 1..{MANXCG_DEPTH} "
                     "(per topic).", source, differs=GAINS, computed_by=xcg_table))
    register(Measure("MAep", family, "Non-interpolated mean average effort-precision: ep at "
                     "each rank that gains, summed, over the ideal recall-base's size.",
                     source, differs=GAINS, computed_by=xcg_table))


def _position(group: np.ndarray, first: np.ndarray) -> np.ndarray:
    """1-based rank of each line within its (run, topic) group."""
    return np.arange(len(group)) - first[group] + 1


def _harmonic(n: int) -> np.ndarray:
    """H[m] = sum_{i=1..m} 1/i for m = 0..n."""
    return np.concatenate([[0.0], np.cumsum(1.0 / np.arange(1, n + 1))])


def xcg_table(ranked: RankedPassages, total_passages: np.ndarray) -> dict[str, np.ndarray]:
    """nxCG[k], MAnxCG and MAep per (run, topic) group of ``ranked`` (``total_passages``: the
    ideal recall-base's size n per topic code), as the module docstring defines them."""
    lines, groups = ranked.lines, ranked.groups
    group, n_groups = lines["group"], len(groups)
    first = groups["first"].to_numpy()
    stop = groups["stop"].to_numpy()
    size = lines["size"].astype(np.float64)
    gain = np.divide(lines["rsize"], size, out=np.zeros(len(size)), where=size > 0)
    xcg = segment_cumsum(gain, group)  # xCG at each line, from its ranking's values alone
    rank = _position(group, first)
    ideal_n = total_passages[groups["topic_code"].to_numpy()].astype(np.int64)
    line_n = ideal_n[group]
    length = stop - first
    out: dict[str, np.ndarray] = {}
    for k in NXCG_RANKS:
        at = np.where(length >= k, first + k - 1, stop - 1)  # the line of rank min(k, length)
        ideal = np.minimum(k, ideal_n)
        out[f"nxCG[{k}]"] = np.divide(xcg[at], ideal, out=np.zeros(n_groups), where=ideal > 0)
    # MAnxCG: sum over the lines of xCG[i] / min(i, n), then the ranks after the last line
    # keep xCG[last]: sum_{i=len+1..1500} 1 / min(i, n) in closed form (harmonic numbers).
    inside = rank <= MANXCG_DEPTH
    terms = np.divide(xcg, np.minimum(rank, line_n), out=np.zeros(len(xcg)), where=line_n > 0)
    summed = np.bincount(group[inside], weights=terms[inside], minlength=n_groups)
    harmonic = _harmonic(MANXCG_DEPTH)
    start = np.minimum(length, MANXCG_DEPTH)  # ranks start+1 .. 1500 after the list
    below = np.clip(ideal_n, start, MANXCG_DEPTH)  # ranks up to n count 1/i
    tail = (harmonic[below] - harmonic[start]
            + np.divide(MANXCG_DEPTH - below, ideal_n, out=np.zeros(n_groups), where=ideal_n > 0))
    last = xcg[np.maximum(stop - 1, 0)] if len(xcg) else np.zeros(n_groups)
    out["MAnxCG"] = np.where(ideal_n > 0, (summed + last * tail) / MANXCG_DEPTH, 0.0)
    # MAep: at a rank that gains, the ideal reaches xCG[i] at rank ceil(xCG[i]), at most n.
    gains = gain > 0
    i_ideal = np.minimum(np.ceil(xcg - 1e-12), line_n)
    effort = np.divide(i_ideal, rank, out=np.zeros(len(rank)), where=gains)
    summed_effort = np.bincount(group[gains], weights=effort[gains], minlength=n_groups)
    out["MAep"] = np.divide(summed_effort, ideal_n, out=np.zeros(n_groups), where=ideal_n > 0)
    return out
