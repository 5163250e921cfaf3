"""Graded measures campaigns publish beyond trec_eval: ERR, nERR and nDCG at k as the TREC Web
track's ``gdeval.pl`` computes them (named ``err@20`` as gdeval and ir_measures print them).

- ``err@k``: expected reciprocal rank (Chapelle, Metzler, Zhang & Grinspan, "Expected
  reciprocal rank for graded relevance", CIKM 2009, eq. 4): sum over ranks i <= k of
  R_i / i x prod_{j<i} (1 - R_j), with R_i = (2^g_i - 1) / 2^4 (gdeval's ``err``, grade cap 4).
- ``nerr@k``: err@k divided by the err@k of the ideal ranking (the topic's judged grades,
  best first).
- ``ndcg@k``: gdeval's nDCG, exponential gains (2^g - 1) / log(i + 1) over the first k, divided
  by the same sum over the ideal ranking (Burges et al. ICML 2005; gdeval's ``dcg``).

Grades are the qrels' values, negative ones as 0; gdeval refuses a grade above 4
(``$MAX_JUDGMENT``), so we cap grades at 4. Rankings are trec_eval's (score descending, docno
descending, as gdeval sorts them too).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from builder.measures.adhoc.grid import AdhocGrid
from builder.measures.adhoc.judged.cells import ratio
from builder.measures.adhoc.trec_measure import measure_at_cutoffs
from builder.measures.running_sums import segment_cumsum_before

MAX_GRADE = 4
"""gdeval's ``$MAX_JUDGMENT``: ERR's R_i = (2^g - 1) / 2^4."""
GDEVAL = "gdeval.pl 1.2a (TREC Web track)"
CHAPELLE = "Chapelle, Metzler, Zhang & Grinspan, CIKM 2009"


def _stop_probability(grade: np.ndarray) -> np.ndarray:
    return (2.0 ** np.clip(grade, 0, MAX_GRADE) - 1.0) / 2.0**MAX_GRADE


def _err_terms(cell: np.ndarray, position: np.ndarray, grade: np.ndarray) -> np.ndarray:
    """R_i / i x prod_{j<i} (1 - R_j) at each row (rows of positive grade, in rank order per
    cell; rows of grade 0 change nothing). The product is a running sum of logs: 1 - R >= 1/16."""
    r = _stop_probability(grade)
    # Summed within each cell only, so that a ranking's terms do not depend on the others.
    before = segment_cumsum_before(np.log1p(-r), cell)
    return r * np.exp(before) / position


@dataclass(frozen=True)
class GradedRows:
    """The retrieved rows of positive grade (cell, rank, grade capped at 4) and each topic's
    ideal ranking (topic, 1-based position, grade), best first."""

    cell: np.ndarray
    rank: np.ndarray
    grade: np.ndarray
    ideal_topic: np.ndarray
    ideal_position: np.ndarray
    ideal_grade: np.ndarray


def _graded_rows(grid: AdhocGrid) -> GradedRows:
    judged = grid.judged
    at = np.flatnonzero(judged.rel > 0)
    topic = np.repeat(np.arange(len(judged.topics)), np.diff(judged.ideal_start))
    return GradedRows(
        cell=judged.cell[at],
        rank=judged.rank[at].astype(np.float64),
        grade=np.minimum(judged.rel[at], MAX_GRADE).astype(np.float64),
        ideal_topic=topic,
        ideal_position=np.arange(len(topic)) - judged.ideal_start[topic] + 1.0,
        ideal_grade=np.minimum(judged.ideal_gains, MAX_GRADE),
    )


def _err_of_rows(grid: AdhocGrid) -> np.ndarray:
    rows = grid.shared(_graded_rows)
    return _err_terms(rows.cell, rows.rank, rows.grade)


def _per_cell(grid: AdhocGrid, terms: np.ndarray, k: int) -> np.ndarray:
    """The sum of ``terms`` (one per row of positive grade) over each cell's first k ranks."""
    rows = grid.shared(_graded_rows)
    within = rows.rank <= k
    return np.bincount(rows.cell[within], weights=terms[within], minlength=grid.num_cells)


def _per_ideal(grid: AdhocGrid, terms: np.ndarray, k: int) -> np.ndarray:
    """The sum of ``terms`` (one per ideal position) over the first k of each cell's topic's
    ideal ranking."""
    rows = grid.shared(_graded_rows)
    within = rows.ideal_position <= k
    n_topics = len(grid.judged.topics)
    sums = np.bincount(rows.ideal_topic[within], weights=terms[within], minlength=n_topics)
    return sums[grid.topic]


def expected_reciprocal_rank(grid: AdhocGrid) -> dict[str, np.ndarray]:
    """err@k = sum over ranks i <= k of R_i / i x prod_{j<i} (1 - R_j), R_i = (2^g_i - 1) / 16
    (Chapelle et al. CIKM 2009, eq. 4; gdeval's ``err``)."""
    terms = grid.shared(_err_of_rows)
    return {name: _per_cell(grid, terms, k) for k, name in grid.cutoffs("err@")}


def normalised_err(grid: AdhocGrid) -> dict[str, np.ndarray]:
    """nerr@k = err@k / the err@k of the topic's ideal ranking."""
    terms = grid.shared(_err_of_rows)
    rows = grid.shared(_graded_rows)
    ideal = _err_terms(rows.ideal_topic, rows.ideal_position, rows.ideal_grade)
    return {name: ratio(_per_cell(grid, terms, k), _per_ideal(grid, ideal, k))
            for k, name in grid.cutoffs("nerr@")}


def gdeval_ndcg(grid: AdhocGrid) -> dict[str, np.ndarray]:
    """ndcg@k = sum over ranks i <= k of (2^g_i - 1) / log(i + 1), divided by the same sum
    over the ideal ranking (gdeval's ``dcg``; Burges et al. ICML 2005)."""
    rows = grid.shared(_graded_rows)
    terms = (2.0**rows.grade - 1.0) / np.log(rows.rank + 1.0)
    ideal = (2.0**rows.ideal_grade - 1.0) / np.log(rows.ideal_position + 1.0)
    return {name: ratio(_per_cell(grid, terms, k), _per_ideal(grid, ideal, k))
            for k, name in grid.cutoffs("ndcg@")}


ERR = measure_at_cutoffs(
    "err@", expected_reciprocal_rank,
    "Expected reciprocal rank over the first {k}: sum of R_i / i x prod_(j<i) (1 - R_j), "
    "R_i = (2^grade - 1) / 16, grades capped at 4.",
    f"{CHAPELLE}, eq. 4; {GDEVAL}",
    display_name="ERR@{k}",
)
NERR = measure_at_cutoffs(
    "nerr@", normalised_err,
    "err@{k} divided by the err@{k} of the ideal ranking (judged grades, best first).",
    f"{CHAPELLE}, normalised by the ideal ranking",
    display_name="nERR@{k}",
)
NDCG = measure_at_cutoffs(
    "ndcg@", gdeval_ndcg,
    "nDCG over the first {k} with exponential gains (2^grade - 1) / log(rank + 1), as "
    "gdeval computes it (grades capped at 4).",
    f"Burges et al., ICML 2005; {GDEVAL}",
    display_name="nDCG@{k} (gdeval)",
)
