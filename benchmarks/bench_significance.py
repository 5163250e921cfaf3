"""Benchmark: all-pairs significance tests on TREC-COVID round 1 (143 runs, 10,153 pairs).

Per-topic scores come from the trec_eval 9.0.8 reference table of ../shared/data (so the figures
measure the tests alone, not the evaluation), or with ``--engine`` from our ad hoc evaluator. Prints, for each test, seconds and the peak of
memory traced by numpy allocations, and the peak resident set of the process.
Target: randomization + bootstrap + randomised Tukey HSD, B = 10,000 each, under 60 s on 2 cores.

    python benchmarks/bench_significance.py [--measure map] [--B 10000] [--engine]
"""

from __future__ import annotations

import argparse
import resource
import time
import tracemalloc
from pathlib import Path

# isort: off
from builder.cli import prepare_process

prepare_process()  # before numpy is imported, as the ``appendix`` command does: its page policy
# isort: on
import pandas as pd

from builder.config.significance import SignificanceSettings
from builder.stats.significance.corrections import adjust
from builder.stats.significance.score_matrix import score_matrix
from builder.stats.significance.tables import compare_runs

CAMPAIGN = Path(__file__).resolve().parents[2] / "shared/data/trec_covid_round1"


def engine_scores() -> pd.DataFrame:
    """The long score table of every run, from the ad hoc kind (read, validate, evaluate)."""
    from builder.tasks import get_kind

    kind = get_kind("adhoc")
    options = kind.options_model()
    qrels = kind.read_qrels(CAMPAIGN / "qrels.covid-round1.txt")
    reads = kind.read_runs(sorted((CAMPAIGN / "runs").glob("*.gz")), qrels, options)
    runs = pd.concat([r.table for r in reads if not r.rejected])
    return kind.evaluate(qrels, runs, options).scores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--measure", default="map")
    parser.add_argument("--B", dest="resamples", type=int, default=10_000)
    parser.add_argument("--engine", action="store_true", help="scores from our evaluator")
    args = parser.parse_args()

    if args.engine:
        start = time.perf_counter()
        scores = engine_scores()
        print(f"scores from the ad hoc evaluator in {time.perf_counter() - start:.1f} s")
    else:
        reference = CAMPAIGN / "trec_eval_9.0.8.q.c.M1000.tsv.gz"
        names = ["run", "measure", "topic", "value"]
        scores = pd.read_csv(reference, sep="\t", names=names, dtype={"topic": str})
        print(f"scores from {reference.name}")
    matrix = score_matrix(scores, args.measure)
    n_runs, n_topics = matrix.values.shape
    print(f"{n_runs} runs, {n_topics} topics, {n_runs * (n_runs - 1) // 2:,} pairs, "
          f"measure {args.measure}, B = {args.resamples:,}")  # fmt: skip
    total = 0.0
    for test in ("randomization", "bootstrap", "tukey-hsd"):
        settings = SignificanceSettings(test=test, resamples=args.resamples)
        tracemalloc.start()
        start = time.perf_counter()
        table = compare_runs(matrix, settings)
        seconds = time.perf_counter() - start
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        total += seconds
        print(
            f"{test:>14}: {seconds:6.2f} s (test + 95% bootstrap CI), peak {peak / 2**20:4.0f} MiB"
        )
        significant = table["significant"].mean()
        with_bh = (adjust(table["p_value"].to_numpy(), "bh") <= settings.alpha).mean()
        print(f"{'':>16}{significant:.1%} of pairs significant ({settings.applied_correction}), "
              f"{with_bh:.1%} with Benjamini-Hochberg")  # fmt: skip
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**10
    print(f"{'together':>14}: {total:6.2f} s; peak resident memory of the process {rss:.0f} MiB")


if __name__ == "__main__":
    main()
