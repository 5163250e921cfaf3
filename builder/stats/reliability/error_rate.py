"""Error rate and swap rate of a measure against the size of the topic set.

Buckley and Voorhees, "Evaluating evaluation measure stability" (SIGIR 2000), as Pal, Mitra
and Chakraborty apply it to INEX 2007 (2008): for each pair of runs (A, B) and each of several
topic sets of one size, A > B when A's mean beats B's by at least ``fuzziness`` (5 %) of the
larger of the two, A < B likewise, else A == B. Then

    error rate = sum over pairs of min(|A > B|, |A < B|) / sum over pairs of (|A > B| + |A < B| + |A == B|)

With topic sets drawn with replacement (SRSWR) the sets overlap and the rate is a *lower*
bound; with the disjoint sets of random partitions of the topics (SRSWOR, floor(topics / size)
sets per partition, so only up to half of the topics) it is an *upper* bound, counted per
partition. The swap rate (Voorhees and Buckley, SIGIR 2002) is measured on the first two sets of
each partition: of the pairs that one set orders (difference at least the fuzziness), the
share that the other set orders the opposite way.
All pairs, all sets and all measures at once from the per-topic score matrices.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from builder.stats.reliability.sampling import disjoint_parts, sample_size, topic_sample
from builder.stats.reliability.stability import Scores, topic_means

ERROR_COLUMNS = ["measure", "level", "topics", "error_lower", "error_upper", "swap_rate"]


def outcomes(means: np.ndarray, fuzziness: float) -> np.ndarray:
    """+1 / -1 / 0 per measure, pair (a, b) with a < b, and topic set: A > B, A < B, A == B
    (``means``: measure x run x set)."""
    a, b = np.triu_indices(means.shape[1], 1)
    difference = means[:, a] - means[:, b]
    larger = np.maximum(np.abs(means[:, a]), np.abs(means[:, b]))
    decided = (np.abs(difference) >= fuzziness * larger) & (difference != 0)
    return np.where(decided, np.sign(difference), 0).astype(np.int8)


def error_rate(signs: np.ndarray) -> np.ndarray:
    """Buckley and Voorhees' error rate per measure from ``outcomes`` (measure x pair x
    [group x] set): counts per pair (and group of sets), pooled over pairs and groups."""
    wins = (signs > 0).sum(axis=-1)
    losses = (signs < 0).sum(axis=-1)
    errors = np.minimum(wins, losses).reshape(len(signs), -1).sum(axis=-1)
    total = signs[0].size if len(signs) else 0
    return errors / total if total else np.full(len(signs), np.nan)


def swap_rate(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """Share of the pairs ordered by the first set of a disjoint pair that the second reverses."""
    ordered = first != 0
    swapped = ordered & (second == -first)
    count = ordered.sum(axis=(-1, -2))
    return np.divide(swapped.sum(axis=(-1, -2)), count, out=np.full(len(first), np.nan),
                     where=count > 0)


def error_rates(measures: Sequence[str], scores: Scores, levels: Sequence[float],
                iterations: int, fuzziness: float, rng: np.random.Generator) -> pd.DataFrame:
    """``ERROR_COLUMNS`` per measure and level (topic-set size round(level x topics))."""
    n_topics = scores.per_topic.shape[-1]
    rows = []
    for level in levels:
        size = int(sample_size(level, n_topics))
        with_replacement = topic_sample(n_topics, level, iterations, rng, replace=True)
        means = topic_means(scores.per_topic, scores.evaluated, with_replacement)
        lower = error_rate(outcomes(means, fuzziness))
        upper = swaps = np.full(len(measures), np.nan)
        if 0 < 2 * size <= n_topics:
            parts = disjoint_parts(n_topics, size, iterations, rng)
            n_parts = parts.shape[1]
            means = topic_means(scores.per_topic, scores.evaluated, parts.reshape(-1, n_topics))
            signs = outcomes(means, fuzziness)  # measure x pair x (iteration, part)
            signs = signs.reshape(*signs.shape[:2], iterations, n_parts)
            upper = error_rate(signs)
            swaps = swap_rate(signs[..., 0], signs[..., 1])
        for m, measure in enumerate(measures):
            rows.append((measure, level, size, lower[m], upper[m], swaps[m]))
    return pd.DataFrame(rows, columns=ERROR_COLUMNS)
