"""Benchmark: the reliability analyses on TREC-COVID round 1 and on an INEX 2007-size campaign.

1. TREC-COVID round 1 (143 runs, 30 topics): pool and topic sampling at 4 levels x 10
   iterations on map, P_10 and ndcg_cut_10, error rates, tie bounds. Target: under 60 s
   together on 2 cores (reading the runs is timed apart).
2. A focused campaign of INEX 2007 size (``bench_inex.generate_fol_runs``: 79 runs x 107
   topics x 1500 passages): pool sampling of MAiP at 4 levels x 10 iterations. Target: under
   5 minutes. Samples change relevant sizes, not rankings, so the runs are ranked once.

Beside each, the same-run ratio against re-evaluating one sample from scratch (writing the
sampled qrels and scoring with the task's evaluator), which is what a script around an official
tool would do per sample. The machine may be shared: read the ratios, not only the seconds.

    python benchmarks/bench_stability.py [--part covid|inex|both] [--iterations 10]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

# isort: off
from builder.cli import prepare_process

prepare_process()  # before numpy is imported, as the ``appendix`` command does: its page policy
# isort: on
import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_inex import QRELS as INEX_QRELS
from bench_inex import generate_fol_runs, peak_memory_mb

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
LEVELS = (0.8, 0.6, 0.4, 0.2)


def timed(label: str, action):
    """Run ``action``; print its wall time and this process's CPU time (on a loaded machine the
    CPU time says what the work costs, the wall time what it took)."""
    started, cpu = time.perf_counter(), time.process_time()
    result = action()
    seconds = time.perf_counter() - started
    print(f"  {label:<44} {seconds:8.2f} s wall {time.process_time() - cpu:8.2f} s CPU")
    return result, seconds


def covid(iterations: int) -> None:
    from builder.stats.reliability.error_rate import error_rates
    from builder.stats.reliability.rescoring import rescorer_for
    from builder.stats.reliability.stability import pool_sampling, topic_sampling
    from builder.stats.reliability.ties import tie_table
    from builder.tasks import get_kind

    folder = DATA / "trec_covid_round1"
    kind = get_kind("adhoc")
    options = kind.options_model()
    measures = ["map", "P_10", "ndcg_cut_10"]
    print(f"TREC-COVID round 1, {len(LEVELS)} levels x {iterations} iterations, {measures}")
    qrels = kind.read_qrels(folder / "qrels.covid-round1.txt")
    reads, _ = timed("read and validate the runs (not counted)", lambda: kind.read_runs(
        sorted((folder / "runs").iterdir()), qrels, options))
    runs = pd.concat([r.table for r in reads if not r.rejected], ignore_index=True)
    rng = np.random.default_rng(1)
    total = 0.0
    rescorer, s = timed("rank and judge the runs once", lambda: rescorer_for(
        kind, qrels, runs, options, measures))
    total += s
    full, s = timed("score on the full qrels", lambda: rescorer.score(None))
    total += s
    _, s = timed(f"pool sampling ({len(LEVELS) * iterations} samples)", lambda: pool_sampling(
        rescorer, LEVELS, iterations, 10, rng, full))
    total += s
    _, s = timed("topic sampling", lambda: topic_sampling(measures, full, LEVELS, iterations, rng))
    total += s
    _, s = timed("error rates", lambda: error_rates(measures, full, LEVELS, iterations, 0.05, rng))
    total += s
    _, s = timed("tie bounds (official, best, worst, expected)", lambda: tie_table(
        runs, qrels, options, measures))
    total += s
    print(f"  {'total (target < 60 s on 2 cores)':<44} {total:8.2f} s")
    keep = np.ones(len(rescorer.unit_topic), bool)
    keep[::2] = False
    _, incremental = timed("one pool sample, incremental", lambda: rescorer.score(keep))
    sampled = qrels.assign(rel=rescorer.sampled_rel(keep))
    _, scratch = timed("one pool sample, evaluated from scratch", lambda: kind.evaluate(
        sampled, runs, options))
    print(f"  same-run ratio scratch / incremental: {scratch / incremental:.1f}x")


def inex(iterations: int) -> None:
    from builder.formats.inex.qrels import read_inex_qrels
    from builder.measures.inex.ranking import rank_passages
    from builder.stats.reliability.inex_rejudge import FocusedRescorer, sampled_inex_qrels
    from builder.stats.reliability.sampling import pool_sample
    from builder.stats.reliability.stability import pool_sampling
    from builder.tasks import get_kind

    kind = get_kind("focused")
    options = kind.options_model()
    qrels = read_inex_qrels(INEX_QRELS)
    print(f"INEX 2007 size focused campaign, MAiP, {len(LEVELS)} levels x {iterations} iterations")
    runs, _ = timed("generate 79 runs x 107 topics x 1500 (not counted)", lambda:
                    generate_fol_runs(qrels, 79, 107, 1500))
    total = 0.0
    ranked, s = timed("rank the passages once", lambda: rank_passages(runs, qrels))
    total += s
    rescorer = FocusedRescorer(ranked, qrels, options.complete, ["MAiP"])
    full, s = timed("score on the full qrels", lambda: rescorer.score(None))
    total += s
    rng = np.random.default_rng(1)
    _, s = timed(f"pool sampling ({len(LEVELS) * iterations} samples)", lambda: pool_sampling(
        rescorer, LEVELS, iterations, 10, rng, full))
    total += s
    print(f"  {'total (target < 300 s on 2 cores)':<44} {total:8.2f} s")
    keep = pool_sample(rescorer.unit_topic, len(rescorer.topics), 0.5, 1, 10, rng)[0]
    _, incremental = timed("one pool sample, incremental", lambda: rescorer.score(keep))
    _, scratch = timed("one pool sample, evaluated from scratch", lambda: kind.evaluate(
        sampled_inex_qrels(qrels, keep), runs, options))
    print(f"  same-run ratio scratch / incremental: {scratch / incremental:.1f}x")
    print(f"  peak memory (whole process) {peak_memory_mb():,.0f} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=("covid", "inex", "both"), default="both")
    parser.add_argument("--iterations", type=int, default=10)
    args = parser.parse_args()
    if args.part in ("covid", "both"):
        covid(args.iterations)
    if args.part in ("inex", "both"):
        inex(args.iterations)


if __name__ == "__main__":
    main()
