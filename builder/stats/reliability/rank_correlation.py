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
    module docstring for ties); NaN for fewer than two systems.

    Walking down the estimated order (y descending, ties by the reference order), every
    system j above i has y_j >= y_i, and within a run of equal y the reference order puts
    x_j >= x_i. So the credit C(i) of the docstring counts, with G(i) and E(i) the systems
    above i whose x is greater and equal, g(i) those above i in its run of equal y and e(i)
    those of g(i) with an equal x:

        C(i) = G(i) + E(i)/2 - g(i)/2 + e(i)

    (a pair tied in y alone or in x alone counts 1/2, tied in both 1). g and e are positions
    within runs of the sorted order; G and E compare each system with those above it, a
    triangle of comparisons made a block of rows at a time, so that memory stays bounded
    when n is the (run, topic) pairs of a campaign (thousands) rather than its runs."""
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
    greater, equal = _counts_above(xs)
    same_y = _position_in_runs(ys[..., 1:] == ys[..., :-1])
    same_both = _position_in_runs((ys[..., 1:] == ys[..., :-1]) & (xs[..., 1:] == xs[..., :-1]))
    c = (greater + 0.5 * equal - 0.5 * same_y + same_both)[..., 1:]
    return 2.0 / (n - 1) * (c / np.arange(1, n)).sum(axis=-1) - 1.0


_BLOCK = 1 << 22
"""Comparisons made at once by ``_counts_above`` (4 MB of booleans)."""


def _counts_above(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per position i of each row, how many earlier positions hold a greater value and how
    many an equal one."""
    samples, n = values.shape
    greater = np.zeros((samples, n), np.int64)
    equal = np.zeros((samples, n), np.int64)
    rows = max(1, _BLOCK // max(1, samples * n))
    for start in range(0, n, rows):
        stop = min(n, start + rows)
        below = values[:, start:stop, None]  # [sample, i, .]
        above = values[:, None, :stop]  # [sample, ., j]
        earlier = np.arange(stop)[None, :] < np.arange(start, stop)[:, None]  # [i, j]: j < i
        greater[:, start:stop] = ((above > below) & earlier).sum(axis=-1)
        equal[:, start:stop] = ((above == below) & earlier).sum(axis=-1)
    return greater, equal


def _position_in_runs(continues: np.ndarray) -> np.ndarray:
    """Per position of each row, how many positions before it belong to its run, where
    ``continues[..., k]`` says that position k + 1 continues the run of position k."""
    n = continues.shape[-1] + 1
    index = np.broadcast_to(np.arange(n), continues.shape[:-1] + (n,))
    starts = np.where(np.concatenate([np.ones(continues.shape[:-1] + (1,), bool), ~continues],
                                     axis=-1), index, 0)
    return index - np.maximum.accumulate(starts, axis=-1)
