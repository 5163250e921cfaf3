"""Resampled sums with the same bits on every machine (``resampling.resampled_sums``): equal to
the exactly rounded sums, and the same under each of OpenBLAS's kernels (a real BLAS, each
kernel forced in a process of its own with ``OPENBLAS_CORETYPE``; numpy built on another BLAS
ignores the variable, and the test then checks that nothing else differs)."""

from __future__ import annotations

import os
import subprocess
import sys
from fractions import Fraction

import numpy as np

from builder.stats.significance.bootstrap import resample_counts
from builder.stats.significance.randomization import sign_flips
from builder.stats.significance.resampling import resampled_sums


def exactly_rounded(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    return np.array([[float(sum(Fraction(float(v)) * int(w) for v, w in zip(row, flips)))
                      for flips in weights] for row in values])


def test_the_sums_are_the_exactly_rounded_ones():
    rng = np.random.default_rng(7)
    for topics in (2, 7, 50):
        values = rng.random((12, topics)) - rng.random((12, topics))
        values[0] = np.round(values[0], 3)  # short decimals, as scores often are
        for weights in (resample_counts(topics, 40, rng), sign_flips(topics, 40, rng)):
            assert np.array_equal(resampled_sums(values, weights),
                                  exactly_rounded(values, weights))


KERNEL_SCRIPT = """
import hashlib, numpy as np
from builder.stats.significance.effect import mean_difference_ci
rng = np.random.default_rng(3)
d = np.round(rng.random((300, 50)) - rng.random((300, 50)), 4)
low, high = mean_difference_ci(d, 1000, np.random.default_rng(1))
print(hashlib.sha256(low.tobytes() + high.tobytes()).hexdigest())
"""


def test_bootstrap_intervals_are_the_same_under_every_blas_kernel():
    found = {}
    for kernel in ("", "Prescott", "Haswell", "SkylakeX"):
        env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_CORETYPE"}
        if kernel:
            env["OPENBLAS_CORETYPE"] = kernel
        done = subprocess.run([sys.executable, "-c", KERNEL_SCRIPT], env=env,
                              capture_output=True, text=True, check=True)
        found[kernel or "detected"] = done.stdout.strip()
    assert len(set(found.values())) == 1, found


def test_a_bound_zero_but_for_float_noise_is_zero():
    """Per-topic differences that are float noise (two runs whose scores are the same sum
    added in another order: 0.1 + 0.2 - 0.3 = 5.6e-17) give an interval of [0, 0], not one
    that seems to miss zero; a real difference keeps its bounds."""
    from builder.stats.significance.effect import mean_difference_ci

    noise = 0.1 + 0.2 - 0.3
    assert noise != 0.0
    d = np.array([[noise] * 5, [0.25, 0.5, 0.25, 0.5, 0.25]])
    low, high = mean_difference_ci(d, 200, np.random.default_rng(0))
    assert (low[0], high[0]) == (0.0, 0.0)
    assert 0.25 <= low[1] < high[1] <= 0.5
