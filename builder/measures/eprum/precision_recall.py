"""EPRUM: expected precision-recall with user modelling, for one topic (pure numpy).

Piwowarski and Dupret, "Evaluation in (XML) Information Retrieval: Expected Precision-Recall
with User Modelling (EPRUM)", SIGIR 2006. Notation of the paper:

- ``P(k ~> x)``: the probability that a user who consults rank k reaches the ideal element x;
  the events are independent across ranks and elements (hypothesis 3.1).
- eq. 1 (noisy-or): ``P(x in S_k) = 1 - prod_{j<=k} (1 - P(j ~> x))``, x seen by rank k.
- eq. 7: ``F_k``, the number of ideal elements seen by rank k, is a sum of independent
  Bernoulli(P(x in S_k)) variables: a Poisson-binomial law (``count_below``).
- eq. 4: ``E[ML*_r] = 1 + sum_{k>=1} P(F*_k < r)`` for the ideal list.
- eq. 5: ``E[A_r / ML_r] = sum_{k=1..N} (P(F_{k-1} < r) - P(F_k < r)) / k``, F_0 = 0.
- Section 2: precision at recall r = ``E[ML*_r] * E[A_r / ML_r]``; a recall level l asks for
  ``r = ceil(l * t)`` of the t ideal elements (l = 0 is read as the limit l -> 0+, r = 1).

Graded idealism (section 3.1) is in ``builder.measures.eprum.idealism``.
"""

from __future__ import annotations

import numpy as np

DEFAULT_EXACT_LIMIT = 200
"""Up to this many uncertain elements (0 < P(x in S_k) < 1) at a rank, P(F_k = f) is exact
(eq. 7, quadratic); above it the normal approximation (``normal_count_below``) is used.
Its measured error is in the docs (measures page) and ``benchmarks/bench_eprum.py``."""

LEVEL_STEPS = 100
"""Recall levels are written in hundredths (``P[0.30]``): r = ceil(L * t / 100) in integers,
so 0.3 * 10 is 3, not the 4 that float rounding of 3.0000000000000004 would give."""

STANDARD_LEVELS = tuple(range(0, LEVEL_STEPS + 1, 10))
"""The 11 standard recall levels 0.00, 0.10, ..., 1.00, in hundredths."""


def seen_probabilities(navigation: np.ndarray) -> np.ndarray:
    """Eq. 1: ``P(x in S_k)`` for every rank k (rows) and ideal element x (columns).

    ``navigation[k-1, x] = P(k ~> x)``. Computed as ``1 - cumprod(1 - p)`` down the ranks.
    """
    return 1.0 - np.cumprod(1.0 - np.asarray(navigation, dtype=float), axis=0)


def count_below(
    seen: np.ndarray, max_recall: int, exact_limit: int = DEFAULT_EXACT_LIMIT
) -> np.ndarray:
    """``P(F_k < r)`` for every rank k (rows) and r = 1..max_recall (columns), from eq. 7.

    Elements seen for certain (probability 1) shift F_k by one each; the others form a
    Poisson-binomial variable U_k whose law is built by the recursion
    ``P_j(u) = P_{j-1}(u) (1 - p_j) + P_{j-1}(u - 1) p_j`` over them, all ranks at once (numpy
    over rows). The uncertain probabilities of each row are packed to the left so that the
    recursion runs over as many steps as the largest number of uncertain elements of a row:
    quadratic in that number, as section 5 states. Rows with more than ``exact_limit``
    uncertain elements use ``normal_count_below`` instead.
    """
    seen = np.asarray(seen, dtype=float)
    ranks = seen.shape[0]
    below = np.ones((ranks, max_recall))
    if ranks == 0 or max_recall == 0:
        return below
    certain = np.count_nonzero(seen >= 1.0, axis=1)
    uncertain = np.where((seen > 0.0) & (seen < 1.0), seen, 0.0)
    count = np.count_nonzero(uncertain, axis=1)
    exact = count <= exact_limit
    # u = r - 1 - certain: F_k < r iff U_k <= u.
    wanted = np.arange(max_recall)[None, :] - certain[:, None]
    if exact.any():
        rows = np.flatnonzero(exact)
        width = int(count[rows].max())
        packed = -np.sort(-uncertain[rows], axis=1)[:, :width]
        cdf = np.cumsum(_poisson_binomial(packed), axis=1)
        index = np.clip(wanted[rows], 0, width)
        values = np.take_along_axis(cdf, index, axis=1)
        values = np.where(wanted[rows] < 0, 0.0, np.where(wanted[rows] >= width, 1.0, values))
        below[rows] = np.clip(values, 0.0, 1.0)
    if not exact.all():
        rows = np.flatnonzero(~exact)
        below[rows] = normal_count_below(uncertain[rows], wanted[rows])
    return below


def _poisson_binomial(packed: np.ndarray) -> np.ndarray:
    """``P(U = u)`` for u = 0..width per row, U the sum of Bernoulli(packed[row, j])."""
    rows, width = packed.shape
    # Laid out (u, row): each step updates contiguous blocks of rows.
    law = np.zeros((width + 1, rows))
    law[0] = 1.0
    columns = np.ascontiguousarray(packed.T)
    moved = np.empty((width, rows))
    for j in range(width):
        # Zero padding (p = 0) leaves a row's law unchanged: rows share the loop.
        step = moved[: j + 1]
        np.multiply(law[: j + 1], columns[j], out=step)
        law[: j + 1] -= step
        law[1 : j + 2] += step
    return law.T


def normal_count_below(uncertain: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    """``P(U_k <= u)`` by the normal law (Lindeberg-Feller), with continuity and skewness
    corrections.

    U_k = sum of Bernoulli(p) over the row's uncertain probabilities: mean ``m = sum p``,
    variance ``s^2 = sum p (1 - p)``, skewness ``g = sum p (1 - p) (1 - 2 p) / s^3``. With
    ``z = (u + 0.5 - m) / s``: ``P(U <= u) ~ Phi(z) + g (1 - z^2) phi(z) / 6`` (the first
    Edgeworth term, Volkova's refined normal approximation of the Poisson-binomial law),
    clipped to [0, 1]; exact 0 for u < 0. The plain normal law is poor for the small
    probabilities of the first ranks, the skewness term removes most of its error.
    """
    from scipy.special import ndtr

    mean = uncertain.sum(axis=1, keepdims=True)
    variance = (uncertain * (1.0 - uncertain)).sum(axis=1, keepdims=True)
    sd = np.sqrt(variance)
    skew = (uncertain * (1.0 - uncertain) * (1.0 - 2.0 * uncertain)).sum(axis=1, keepdims=True)
    skew = skew / (variance * sd)
    z = (wanted + 0.5 - mean) / sd
    density = np.exp(-0.5 * z * z) / np.sqrt(2.0 * np.pi)
    values = np.clip(ndtr(z) + skew * (1.0 - z * z) * density / 6.0, 0.0, 1.0)
    return np.where(wanted < 0, 0.0, values)


def expected_inverse_search_length(below: np.ndarray) -> np.ndarray:
    """Eq. 5: ``E[A_r / ML_r]`` for r = 1..R from ``below[k-1, r-1] = P(F_k < r)``.

    ``sum_k (P(F_{k-1} < r) - P(F_k < r)) / k`` with P(F_0 < r) = 1: users who have not
    reached r by the end of the list (A_r = 0) contribute nothing.
    """
    ranks, recalls = below.shape
    previous = np.vstack([np.ones((1, recalls)), below[:-1]])
    return (1.0 / np.arange(1, ranks + 1)) @ (previous - below)


def expected_ideal_search_length(below: np.ndarray) -> np.ndarray:
    """Eq. 4: ``E[ML*_r] = 1 + sum_{k=1}^{N*-1} P(F*_k < r)`` over the ideal list of N* ranks.

    Exact when the ideal list reaches r for certain (the paper's assumption); otherwise users
    who do not reach r are counted as consulting the whole ideal list (search length N*).
    """
    return 1.0 + below[:-1].sum(axis=0)


RANK_CUTOFFS = (5, 10, 20, 50)
"""The ranks of EPRUM precision at a rank cut-off, ``P@k``."""


def precision_at_cutoffs(navigation: np.ndarray, cutoffs: tuple[int, ...] = RANK_CUTOFFS
                         ) -> np.ndarray:
    """EPRUM precision at rank cut-offs: ``E[F_k] / k`` (section 8).

    The paper leaves the formula out ("the standard precision at a given rank cut-off value can
    be estimated likewise"); we read it as the standard one, the ideal elements the user has
    discovered by rank k over the k ranks consulted, in expectation. By eq. 7's independence
    ``E[F_k] = sum_x P(x in S_k)`` (eq. 1); a list shorter than k keeps its last value, as
    trec_eval's P_k counts missing ranks as not relevant. Under the classical model it is
    trec_eval's P_k.
    """
    navigation = np.asarray(navigation, dtype=float)
    found = seen_probabilities(navigation).sum(axis=1) if len(navigation) else np.zeros(1)
    cutoffs_array = np.asarray(cutoffs, dtype=np.int64)
    at = found[np.minimum(cutoffs_array, len(found)) - 1]
    return at / cutoffs_array


def recall_of_level(level: int, ideal_count: int) -> int:
    """r = ceil(level/100 * t), at least 1 (level 0 read as the limit from above)."""
    return max(1, -(-level * ideal_count // LEVEL_STEPS))


def precision_at_recall(
    navigation: np.ndarray,
    ideal_navigation: np.ndarray | None = None,
    exact_limit: int = DEFAULT_EXACT_LIMIT,
    ideal_length: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """EPRUM precision at the natural recall points r = 1..t, and ``E[ML*_r]``.

    navigation: ``P(k ~> x)``, ranks of the evaluated list by t ideal elements (all ideal).
    ideal_navigation: the same for the ideal list; ``None`` is an ideal list that points at
    one ideal element per rank with certainty, so ``E[ML*_r] = r``. ideal_length:
    ``E[ML*_r]`` already known (the minimum over lists, ``builder.measures.eprum.ideal_lists``),
    which ``ideal_navigation`` then does not give.
    Returns (precision[r-1], expected ideal search length[r-1]).
    """
    navigation = np.asarray(navigation, dtype=float)
    ideal_count = navigation.shape[1]
    below = count_below(seen_probabilities(navigation), ideal_count, exact_limit)
    inverse = expected_inverse_search_length(below)
    if ideal_length is not None:
        ideal_length = np.asarray(ideal_length, dtype=float)
    elif ideal_navigation is None:
        ideal_length = np.arange(1, ideal_count + 1, dtype=float)
    else:
        ideal_seen = seen_probabilities(ideal_navigation)
        ideal_length = expected_ideal_search_length(
            count_below(ideal_seen, ideal_count, exact_limit)
        )
    return ideal_length * inverse, ideal_length


def precision_at_levels(natural: np.ndarray, levels: tuple[int, ...] = STANDARD_LEVELS) -> np.ndarray:
    """Precision at recall levels (hundredths) from precision at natural recall points.

    A level asks for r = ceil(l t) elements, so its precision is that of the natural point r:
    no interpolation (section 2: "we use a different interpolation procedure").
    """
    t = len(natural)
    return np.array([natural[recall_of_level(level, t) - 1] for level in levels])
