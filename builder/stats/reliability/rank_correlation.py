"""Agreement between a reference ranking of systems and many other rankings, all at once.

Both take the reference scores ``x`` (n systems) and a matrix ``y`` (samples x n) and compare
the order the scores induce (higher is better), over every pair of systems by broadcasting.

- Kendall's tau-b: (C - D) / sqrt((n0 - n1)(n0 - n2)), n0 = n(n-1)/2, C / D the concordant /
  discordant pairs, n1 / n2 the pairs tied in x / in y (Kendall 1945; scipy's ``kendalltau``).
- tau_ap (Yilmaz, Aslam and Robertson, "A new rank correlation coefficient for information
  retrieval", SIGIR 2008, eq. 2): tau_ap = 2/(n-1) sum_{i=2..n} C(i)/(i-1) - 1, walking down
  the *estimated* ranking (y) and counting, for the system at position i, the C(i) systems
  above it that x also puts above it. Errors near the top cost more than errors at the bottom.
  Ties, which the paper leaves out: the estimated ranking breaks them by the reference order
  (x descending, then position); a pair tied in both counts as agreeing, a pair tied in
  only one of them counts 1/2 in C(i). Without ties this is the paper's coefficient exactly,
  and a ranking compared with itself scores 1.
"""

from __future__ import annotations

import numpy as np


def _signs(values: np.ndarray) -> np.ndarray:
    """sign(v_i - v_j) for every pair, over the last axis (... x n x n)."""
    return np.sign(values[..., :, None] - values[..., None, :])


def kendall_tau(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Kendall's tau-b between ``x`` (n) and each row of ``y`` (samples x n); NaN when either
    ranking is all ties, as scipy returns."""
    x, y = np.asarray(x, np.float64), np.atleast_2d(np.asarray(y, np.float64))
    n = x.shape[-1]
    upper = np.triu(np.ones((n, n), bool), 1)
    sx, sy = _signs(x)[upper], _signs(y)[:, upper]
    agreement = (sx * sy).sum(axis=1)
    untied_x = np.count_nonzero(sx)
    untied_y = np.count_nonzero(sy, axis=1)
    denominator = np.sqrt(float(untied_x) * untied_y.astype(np.float64))
    with np.errstate(divide="ignore", invalid="ignore"):
        tau = np.where(denominator > 0, agreement / denominator, np.nan)
    return tau


def tau_ap(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """tau_ap of each row of ``y`` (estimated rankings) against the reference ``x`` (see the
    module docstring for ties); NaN for fewer than two systems."""
    x, y = np.asarray(x, np.float64), np.atleast_2d(np.asarray(y, np.float64))
    n = x.shape[-1]
    if n < 2:
        return np.full(len(y), np.nan)
    reference_rank = np.empty(n, np.int64)
    reference_rank[np.lexsort((np.arange(n), -x))] = np.arange(n)
    # estimated order: y descending, ties by the reference order
    order = np.lexsort((np.broadcast_to(reference_rank, y.shape), -y), axis=-1)
    ys = np.take_along_axis(y, order, axis=-1)
    xs = x[order]
    # pair (j above i) in the estimated order: 1 when x agrees, 1/2 when one of them ties
    above = np.tril(np.ones((n, n), bool), -1)  # [i, j]: j comes before i
    sign_x = np.sign(xs[..., None, :] - xs[..., :, None])  # x_j - x_i
    sign_y = np.sign(ys[..., None, :] - ys[..., :, None])
    one_tied = (sign_x == 0) != (sign_y == 0)
    credit = np.where(one_tied, 0.5, (sign_x == sign_y).astype(np.float64))
    c = np.where(above, credit, 0.0).sum(axis=-1)[..., 1:]
    return 2.0 / (n - 1) * (c / np.arange(1, n)).sum(axis=-1) - 1.0
