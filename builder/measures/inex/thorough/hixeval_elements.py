"""HiXEval on the element tree (Pehcevski and Thom, HiXEval, INEX 2005; section 3).

For element results the paper's three cases are told apart by the tree, not by text:

    rval_r(e) = rsize(e)                           e not seen (NS)
              = rsize(e) - alpha * rsize(e)        e fully seen (FS): an ancestor of e, or e
                                                   itself, was retrieved above rank r
              = rsize(e) - alpha * sum rsize(e')   e partly seen (PS): e' ranges over the
                                                   descendants of e retrieved above rank r

The sum runs over every earlier descendant, as the paper writes it (a descendant of an earlier
descendant is taken off again). Ancestry is containment of character ranges within the same article
(``builder.formats.xml.article`` gives every element its range; nested elements have nested ranges).
Passages (FOL runs) have no tree: ``builder.measures.inex.thorough.hixeval`` keeps its passage
approximation (the union of the text seen before) for them.

Trel, the recall base, follows the paper's two rules: with alpha = 1 the highlighted
characters across documents (inex_eval's recall base); with alpha < 1 the highlighted
characters across all elements, each element counting the highlighted text it contains
(``trel_across_elements``, from element assessments derived from the passages).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from builder.formats.inex.qrels import InexQrels
from builder.measures.inex.ranking import RankedPassages, article_keys, highlight_index

if TYPE_CHECKING:  # an annotation only: the XML corpus (lxml, processes) is not imported with
    # the measures, which every command imports
    from builder.formats.xml.corpus_index import CorpusIndex


def element_seen_rsize(ranked: RankedPassages) -> np.ndarray:
    """Per result, the rsize the paper takes off (times alpha): rsize(e) when FS, the sum of
    the earlier descendants' rsize when PS, 0 when NS.

    Results are compared pairwise within (run, topic, article, epoch): one block per
    retrieved article, so the work is the sum of the squared results per article."""
    lines = ranked.lines
    start, end, rsize = lines["start"], lines["end"], lines["rsize"].astype(np.int64)
    n = len(start)
    known = np.flatnonzero((lines["article"] >= 0) & (start >= 0))
    if not len(known):
        return np.zeros(n, dtype=np.int64)
    key = article_keys(lines["group"][known], lines["epoch"][known], lines["file_code"][known])
    order = np.argsort(key, kind="stable")  # rows stay in rank order inside a block
    rows, key = known[order], key[order]
    block_start = np.flatnonzero(np.concatenate([[True], key[1:] != key[:-1]]))
    sizes = np.diff(np.concatenate([block_start, [len(key)]]))
    # Every ordered pair (later i, earlier j) of one block.
    pair_block = np.repeat(np.arange(len(sizes)), sizes * sizes)
    within = np.arange(pair_block.size) - np.repeat(np.cumsum(sizes * sizes) - sizes * sizes,
                                                    sizes * sizes)
    i = rows[block_start[pair_block] + within // sizes[pair_block]]
    j = rows[block_start[pair_block] + within % sizes[pair_block]]
    earlier = j < i
    i, j = i[earlier], j[earlier]
    ancestor = (start[j] <= start[i]) & (end[i] <= end[j])
    descendant = (start[i] <= start[j]) & (end[j] <= end[i]) & ~ancestor
    fully = np.zeros(n, dtype=bool)
    fully[i[ancestor]] = True
    partly = np.bincount(i[descendant], weights=rsize[j[descendant]], minlength=n)
    return np.where(fully, rsize, partly.astype(np.int64))


def trel_across_elements(assessments: pd.DataFrame, topics: list[str]) -> np.ndarray:
    """Per topic (in ``topics`` order), the highlighted characters summed over every assessed
    element (the paper's Trel for alpha < 1); ``assessments`` as
    ``derive_element_assessments`` gives them."""
    return (assessments.groupby("topic")["rsize"].sum()
            .reindex(topics, fill_value=0).to_numpy(dtype=np.float64))


def derive_element_assessments(qrels: InexQrels, index: CorpusIndex) -> pd.DataFrame:
    """Every element of every judged article with the highlighted characters inside it
    (rsize): the element assessments, derived from the highlighted passages (topic, file,
    element and rsize columns)."""
    articles = qrels.articles
    nodes = index.nodes(articles["file"].unique()).to_pandas()
    nodes = nodes[~nodes["is_text"]]
    judged = articles[["topic", "file"]].assign(article=np.arange(len(articles)))
    elements = judged.merge(nodes, on="file")
    rsize = highlight_index(qrels).highlighted_overlap(
        elements["article"].to_numpy(np.int64), elements["start"].to_numpy(np.int64),
        elements["end"].to_numpy(np.int64))
    return pd.DataFrame({"topic": elements["topic"].to_numpy(), "file": elements["file"].to_numpy(),
                         "path": elements["path"].to_numpy(), "exhaustivity": "",
                         "size": (elements["end"] - elements["start"]).to_numpy(np.int64),
                         "rsize": rsize})
