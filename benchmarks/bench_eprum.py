"""Benchmark: EPRUM on a dense navigation table, and the error of the normal approximation.

100 topics x 1500 ranks x 50 ideal elements, every rank reaching every ideal element with a
random probability (7.5M navigation rows): wall time and peak memory of the whole evaluation
(table -> per-topic scores; target under 30 s on 2 cores), the exact law (eq. 7) side by side
with the normal approximation in the same process. No maintained program computes EPRUM, so
there is no peer to compare with. The machine is shared: compare the figures of one run only.

Then the normal approximation's error against the exact law at 10, 20 and 50 uncertain
elements: max |error| of P(F_k < r) and of E[A_r / ML_r] (eq. 5) over random tables.

    python benchmarks/bench_eprum.py [--topics 100] [--ranks 1500] [--ideal 50] [--scale 0.02]
"""

from __future__ import annotations

import argparse
import resource
import time

# isort: off
from builder.cli import prepare_process

prepare_process()  # before numpy is imported, as the ``appendix`` command does: its page policy
# isort: on
import numpy as np
import pandas as pd

from builder.measures.eprum.precision_recall import (
    count_below,
    expected_inverse_search_length,
    seen_probabilities,
)
from builder.measures.eprum.scores import IdealSet, score_rows, topic_results


def dense_navigation(topics: int, ranks: int, ideal: int, scale: float, seed: int = 2006):
    """Every (topic, rank, element) with P(k ~> x) uniform on (0, 2 * scale]."""
    rng = np.random.default_rng(seed)
    size = topics * ranks * ideal
    topic_names = [f"t{i:03d}" for i in range(topics)]
    element_names = [f"x{j}" for j in range(ideal)]
    # Categorical columns, as a reader of a large table would make them (strings are 8x larger).
    navigation = pd.DataFrame(
        {
            "run": pd.Categorical.from_codes(np.zeros(size, np.int8), ["dense"]),
            "topic": pd.Categorical.from_codes(np.repeat(np.arange(topics), ranks * ideal), topic_names),
            "rank": np.tile(np.repeat(np.arange(1, ranks + 1, dtype=np.int32), ideal), topics),
            "element": pd.Categorical.from_codes(np.tile(np.arange(ideal), topics * ranks), element_names),
            "probability": rng.uniform(0.0, 2 * scale, size) + 1e-9,
        }
    )
    elements = pd.DataFrame(
        {
            "topic": np.repeat([f"t{i:03d}" for i in range(topics)], ideal),
            "element": np.tile([f"x{j}" for j in range(ideal)], topics),
            "idealism": 1.0,
        }
    )
    return navigation, IdealSet(elements)


def peak_rss() -> float:
    """The process's peak resident memory so far, MiB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def timed(navigation, ideal, exact_limit: int) -> tuple[float, float, pd.DataFrame]:
    """Wall and CPU time of the evaluation, and its scores."""
    wall, cpu = time.perf_counter(), time.process_time()
    scores = score_rows(topic_results(navigation, ideal, ["dense"], exact_limit=exact_limit))
    return time.perf_counter() - wall, time.process_time() - cpu, scores


def approximation_error(uncertain: int, tables: int = 20, ranks: int = 40) -> tuple[float, float]:
    """Max |approx - exact| of P(F_k < r) and of E[A_r/ML_r] over random tables whose ranks
    reach ``uncertain`` ideal elements each with P(k ~> x) uniform on (0, u), u in (0.05, 1)."""
    rng = np.random.default_rng(uncertain)
    worst_law = worst_inverse = 0.0
    for _ in range(tables):
        high = rng.uniform(0.05, 1.0)
        seen = seen_probabilities(rng.uniform(0.0, high, (ranks, uncertain)))
        seen = np.minimum(seen, 1 - 1e-12)  # keep every element uncertain
        exact = count_below(seen, uncertain, exact_limit=uncertain)
        normal = count_below(seen, uncertain, exact_limit=uncertain - 1)
        worst_law = max(worst_law, float(np.abs(exact - normal).max()))
        inverse = expected_inverse_search_length(exact) - expected_inverse_search_length(normal)
        worst_inverse = max(worst_inverse, float(np.abs(inverse).max()))
    return worst_law, worst_inverse


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--topics", type=int, default=100)
    parser.add_argument("--ranks", type=int, default=1500)
    parser.add_argument("--ideal", type=int, default=50)
    parser.add_argument("--scale", type=float, default=0.02, help="mean P(k ~> x)")
    args = parser.parse_args()

    start = time.perf_counter()
    navigation, ideal = dense_navigation(args.topics, args.ranks, args.ideal, args.scale)
    print(
        f"navigation table: {len(navigation):,} rows "
        f"({args.topics} topics x {args.ranks} ranks x {args.ideal} ideal elements), "
        f"made in {time.perf_counter() - start:.1f} s"
    )
    before = peak_rss()
    exact_wall, exact_cpu, exact = timed(navigation, ideal, exact_limit=args.ideal)
    after = peak_rss()
    normal_wall, normal_cpu, normal = timed(navigation, ideal, exact_limit=0)
    print(f"exact law (eq. 7):     {exact_wall:6.2f} s wall, {exact_cpu:6.2f} s CPU")
    print(f"normal approximation:  {normal_wall:6.2f} s wall, {normal_cpu:6.2f} s CPU")
    print(f"exact / normal wall:   {exact_wall / normal_wall:6.2f} (same process)")
    print(
        f"peak RSS: {before:.0f} MiB with the table made, {after:.0f} MiB after the exact "
        f"evaluation (+{after - before:.0f} MiB), {peak_rss():.0f} MiB at the end"
    )
    joined = exact.merge(normal, on=["run", "topic", "measure"], suffixes=("_exact", "_normal"))
    gap = (joined["value_exact"] - joined["value_normal"]).abs().max()
    print(f"max |exact - normal| over all {len(joined):,} values of this table: {gap:.2e}")
    print("normal approximation error against the exact law (20 random tables x 40 ranks):")
    print("  uncertain elements   max |P(F_k<r)| error   max |E[A/ML]| error")
    for count in (10, 20, 50):
        law, inverse = approximation_error(count)
        print(f"  {count:>18}   {law:>20.4f}   {inverse:>19.4f}")


if __name__ == "__main__":
    main()
