"""The pool of many runs, accumulated run file by run file in bounded memory.

Per topic, the union of the pooled runs' first k documents (``ranking.ranked_top``), ordered
for judging by one of three strategies:

- ``depth``: every document of the union (depth-k pooling, Sparck Jones and van Rijsbergen,
  "Report on the need for and provision of an 'ideal' information retrieval test collection",
  1975; TREC's pools), listed by best rank over the pooled runs.
- ``take``: a budget of N documents per topic, filled in order of best rank over the pooled
  runs (Take@N: Lipani, Palotti, Lupu, Piroi, Zuccon and Hanbury, "Fixed-cost pooling
  strategies based on IR evaluation measures", ECIR 2017). Ties of best rank are broken by the
  fusion score below, then by docno descending (the evaluation's order among ties).
- ``rrf``: the budget filled in order of reciprocal rank fusion, sum over the pooled runs of
  1 / (k_rrf + rank), k_rrf = 60 (Cormack, Clarke and Buettcher, "Reciprocal rank fusion
  outperforms Condorcet and individual rank learning methods", SIGIR 2009), over each run's
  first k documents; ties by best rank, then docno descending.

A budget strategy never needs a document below rank N of every run (each rank of each run
brings at most one new document, so the first N by best rank have best rank <= N): ``take``
reads the runs to depth N; ``rrf`` to the depth asked for.

Bounded memory: the state is one row per pooled document (best rank, fusion score, the
lowest and highest team code that brought it) plus, for the documents a single team brought
so far, which of that team's runs did (``owners``, for the unique counts); a document a second
team brings loses its owners. New runs' rows wait in a list and are merged in once they
outnumber the state. The fusion sums add each run's terms in the order the runs were given
(``np.bincount`` adds in row order, the state first), so the pool and its order do not depend
on how the runs were batched.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from builder.stats.pools import RRF_K
from builder.stats.pools.ranking import byte_ranks

POOL_COLUMNS = ["topic", "doc", "best_rank", "fusion"]
STATS_COLUMNS = ["run", "team", "contributed", "unique", "unique_relevant"]
_ENTRY_COLUMNS = ["topic", "doc", "best_rank", "fusion", "low", "high"]
MERGE_ROWS = 1 << 16
"""Rows of new runs kept waiting at most (beyond the state's size) before they are merged."""


@dataclass
class PoolBuilder:
    """The pool of the runs ``add``-ed so far. ``teams``: run -> team (a run absent from it is
    its own team)."""

    teams: Mapping[str, str] = field(default_factory=dict)
    rrf_k: int = RRF_K
    keep_owners: bool = True
    """Track which runs brought the documents of one team (``stats``'s unique counts)."""
    entries: pd.DataFrame = field(
        default_factory=lambda: pd.DataFrame({c: [] for c in _ENTRY_COLUMNS}))
    owners: pd.DataFrame = field(
        default_factory=lambda: pd.DataFrame({"topic": [], "doc": [], "run": []}))
    contributed: dict[str, int] = field(default_factory=dict)
    team_codes: dict[str, int] = field(default_factory=dict)
    _waiting: list[pd.DataFrame] = field(default_factory=list)
    _waiting_rows: int = 0

    def add(self, top: pd.DataFrame) -> None:
        """Pool the rows ``top`` (``ranking.TOP_COLUMNS``) of one or more runs, each document
        once per run and topic (as validated runs list it)."""
        run_code, runs = pd.factorize(top["run"])
        team = np.empty(len(runs), np.int64)
        for index, run in enumerate(runs.astype(str)):  # per run, not per document
            name = self.teams.get(run, run)
            team[index] = self.team_codes.setdefault(name, len(self.team_codes))
            self.contributed[run] = self.contributed.get(run, 0)
        for run, count in zip(runs.astype(str), np.bincount(run_code, minlength=len(runs))):
            self.contributed[run] += int(count)
        rank = top["rank"].to_numpy(np.float64)
        self._waiting.append(pd.DataFrame({
            "topic": top["topic"], "doc": top["doc"], "best_rank": rank,
            "fusion": 1.0 / (self.rrf_k + rank), "low": team[run_code], "high": team[run_code],
            "run": top["run"],
        }))
        self._waiting_rows += len(top)
        if self._waiting_rows > max(len(self.entries), MERGE_ROWS):
            self._merge()

    def _merge(self) -> None:
        if not self._waiting:
            return
        new = pd.concat(self._waiting, ignore_index=True)
        self._waiting, self._waiting_rows = [], 0
        rows = pd.concat([self.entries, new[_ENTRY_COLUMNS]], ignore_index=True) \
            if len(self.entries) else new[_ENTRY_COLUMNS]
        key = _pair_codes(rows["topic"], rows["doc"])
        first = np.flatnonzero(~pd.Series(key).duplicated().to_numpy())
        groups = len(first)
        best = np.full(groups, np.inf)
        np.minimum.at(best, key, rows["best_rank"].to_numpy())
        low = np.full(groups, np.iinfo(np.int64).max)
        np.minimum.at(low, key, rows["low"].to_numpy(np.int64))
        high = np.full(groups, -1)
        np.maximum.at(high, key, rows["high"].to_numpy(np.int64))
        self.entries = pd.DataFrame({
            "topic": _text(rows["topic"]).take(pa.array(first)),
            "doc": _text(rows["doc"]).take(pa.array(first)),
            "best_rank": best,
            "fusion": np.bincount(key, weights=rows["fusion"].to_numpy(), minlength=groups),
            "low": low, "high": high,
        })
        if not self.keep_owners:
            return
        single = self.entries.loc[self.entries["low"] == self.entries["high"], ["topic", "doc"]]
        owners = pd.concat([self.owners, new[["topic", "doc", "run"]]], ignore_index=True) \
            if len(self.owners) else new[["topic", "doc", "run"]]
        self.owners = owners.merge(single, on=["topic", "doc"]).drop_duplicates(ignore_index=True)

    def pool(self, strategy: str = "depth", budget: int | None = None,
             shuffle: int | None = None) -> pd.DataFrame:
        """``POOL_COLUMNS``, topics in string order (trec_eval's), each topic's documents in
        the strategy's order (the first ``budget`` of them for ``take`` and ``rrf``), or in a
        random order drawn from ``shuffle`` (a seed) for the assessors."""
        self._merge()
        entries = self.entries
        docno = byte_ranks(pa.array(entries["doc"], pa.large_string()))
        best, fusion = entries["best_rank"].to_numpy(), entries["fusion"].to_numpy()
        topic_rank = pd.factorize(entries["topic"], sort=True)[0]
        if strategy == "rrf":
            order = np.lexsort((-docno, best, -fusion, topic_rank))
        else:
            order = np.lexsort((-docno, -fusion, best, topic_rank))
        topic_rank = topic_rank[order]
        if strategy != "depth" and budget is not None:
            starts = np.flatnonzero(np.r_[True, topic_rank[1:] != topic_rank[:-1]]) \
                if len(order) else np.zeros(0, np.int64)
            within = np.arange(len(order)) - np.repeat(starts, np.diff(np.r_[starts, len(order)]))
            order, topic_rank = order[within < budget], topic_rank[within < budget]
        if shuffle is not None:
            draw = np.random.default_rng(shuffle).random(len(order))
            order = order[np.lexsort((draw, topic_rank))]
        return entries[POOL_COLUMNS].take(order).reset_index(drop=True)

    def stats(self, relevant: pd.MultiIndex | None = None) -> pd.DataFrame:
        """``STATS_COLUMNS`` per pooled run, in the order they were added: the documents of its
        top k in the pool; those no run of another team brought; those of them ``relevant``
        (empty without qrels)."""
        if not self.keep_owners:
            raise ValueError("a pool built without keep_owners has no unique counts")
        self._merge()
        runs = list(self.contributed)
        owners = self.owners
        unique = owners["run"].value_counts().reindex(runs, fill_value=0)
        if relevant is None:
            unique_relevant = pd.Series("", index=runs, dtype=object)
        else:
            hit = pd.MultiIndex.from_arrays([owners["topic"], owners["doc"]]).isin(relevant)
            unique_relevant = owners.loc[hit, "run"].value_counts().reindex(runs, fill_value=0)
        return pd.DataFrame({
            "run": runs, "team": [self.teams.get(run, run) for run in runs],
            "contributed": [self.contributed[run] for run in runs],
            "unique": unique.to_numpy(), "unique_relevant": unique_relevant.to_numpy(),
        })


def _text(column: pd.Series) -> pa.ChunkedArray:
    """A string column as Arrow large strings (no copy when pandas holds it in Arrow)."""
    values = pa.array(column.array) if isinstance(column.dtype, pd.StringDtype) else \
        pa.array(column.to_numpy(object), pa.large_string())
    values = values if isinstance(values, pa.ChunkedArray) else pa.chunked_array([values])
    return values.cast(pa.large_string()) if values.type != pa.large_string() else values


def _pair_codes(topic: pd.Series, doc: pd.Series) -> np.ndarray:
    """A code per (topic, doc) pair, numbered in order of first appearance: each column
    dictionary-encoded by Arrow, the two codes combined into one integer."""
    codes, sizes = [], []
    for column in (topic, doc):
        encoded = pc.dictionary_encode(_text(column).combine_chunks())
        codes.append(encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64))
        sizes.append(len(encoded.dictionary))
    return pd.factorize(codes[0] * max(sizes[1], 1) + codes[1], sort=False)[0]
