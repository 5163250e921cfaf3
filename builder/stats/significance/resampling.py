"""Shared plumbing of the resampling tests: chunks of pairs that fit in memory, float tolerance,
and resampled sums whose bits do not depend on the machine's BLAS."""

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


def resampled_sums(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """``values @ weights.T`` (values: pairs x topics; weights: resamples x topics, whole numbers
    whose absolute values add up to at most the number of topics per row, as bootstrap counts
    and sign flips do), with the same bits on every machine.

    A matrix product's rounding depends on the BLAS kernel the machine picks (OpenBLAS's
    AVX-512 and Haswell kernels add in other orders), so a bootstrap interval published to six
    digits could differ between two builds of the same inputs, and ``appendix verify`` with it.
    Each value is split into a high part, a whole multiple of a power of two ``unit`` small
    enough that every sum of n such multiples is a whole number of units below 2**53 (exact in
    float64, in any order, with or without fused multiply-add), and the low remainder (exact:
    at most half a unit). Only the low parts' product is rounded, at about 2**-53 of a quantity
    itself 2**-(53 - log2 n) below the result, so the sum of both products is the same double
    unless it lies within about 1e-30 (relative) of a rounding boundary.
    """
    top = float(np.max(np.abs(values))) if values.size else 0.0
    if top == 0.0 or not np.isfinite(top):
        return values @ weights.T
    n = max(1, values.shape[1])
    unit = np.ldexp(1.0, np.frexp(top)[1] - (53 - int(np.ceil(np.log2(n))) - 1))
    high = np.round(values / unit) * unit
    return high @ weights.T + (values - high) @ weights.T
