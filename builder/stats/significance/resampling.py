"""Shared plumbing of the resampling tests: chunks of pairs that fit in memory, float tolerance."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

CHUNK_BYTES = 64 * 2**20
"""Working memory of one (pairs x resamples) float64 block; bounds the peak memory of a test."""

RELATIVE_TOLERANCE = 1e-9
"""Resampled statistics within this (relative to the scores' scale) of the observed one count as
reaching it: a permutation that swaps two equal differences must tie, whatever the float noise."""


def pair_chunks(n_pairs: int, n_resamples: int, chunk_bytes: int = CHUNK_BYTES) -> Iterator[slice]:
    """Consecutive slices of pairs whose (pairs x resamples) float64 block fits ``chunk_bytes``."""
    size = max(1, chunk_bytes // (8 * max(1, n_resamples)))
    for start in range(0, n_pairs, size):
        yield slice(start, min(start + size, n_pairs))


def tolerance(d: np.ndarray) -> np.ndarray:
    """Per-pair absolute tolerance for sums of the differences ``d`` (pairs x topics)."""
    return RELATIVE_TOLERANCE * (1.0 + np.abs(d).sum(axis=1))
