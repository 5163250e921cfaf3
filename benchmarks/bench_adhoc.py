"""Benchmark: the adhoc engine end to end (read, validate, evaluate) beside pytrec_eval.

    python benchmarks/bench_adhoc.py [CAMPAIGN]

CAMPAIGN is a folder of ../shared/data with ``runs/`` and a qrels file (default
trec_covid_round1: 143 runs, 3.5M lines). Prints lines/s, wall and CPU time, and peak memory
(resident set size after our pass, before pytrec_eval runs in the same process).
Target (issue 2): >= 2M lines/s on 2 cores, < 2 GB.
"""

from __future__ import annotations

import resource
import sys
import time
from pathlib import Path

# isort: off
import builder  # noqa: F401 (first, as the ``appendix`` command does: numpy's page policy)
# isort: on
import pandas as pd

from builder.tasks.adhoc import KIND, AdhocOptions

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data"


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def ours(qrels_path: Path, run_paths: list[Path]) -> int:
    options = AdhocOptions()
    stages = [time.perf_counter()]
    qrels = KIND.read_qrels(qrels_path)
    reads = KIND.read_runs(run_paths, qrels, options)
    stages.append(time.perf_counter())
    runs = pd.concat([r.table for r in reads if not r.rejected], ignore_index=True)
    stages.append(time.perf_counter())
    KIND.evaluate(qrels, runs, options)
    stages.append(time.perf_counter())
    spans = [
        f"{name} {b - a:.2f} s"
        for name, a, b in zip(["read+validate", "concat", "evaluate"], stages, stages[1:])
    ]
    print("appendix stages: " + ", ".join(spans))
    return len(runs)


def pytrec(qrels_path: Path, run_paths: list[Path]) -> None:
    """pytrec_eval with trec_eval's all_trec families; files parsed with pandas' C reader."""
    import pytrec_eval

    names = ["topic", "iter", "doc", "rel"]
    qrels_table = pd.read_csv(qrels_path, sep=r"\s+", names=names, dtype={"topic": str, "doc": str})
    qrels: dict[str, dict[str, int]] = {}
    for topic, doc, rel in qrels_table[["topic", "doc", "rel"]].itertuples(index=False):
        qrels.setdefault(topic, {})[doc] = int(rel)
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, pytrec_eval.supported_measures)
    for path in run_paths:
        table = pd.read_csv(
            path,
            sep=r"\s+",
            header=None,
            usecols=[0, 2, 4],
            names=["topic", "doc", "score"],
            dtype={"topic": str, "doc": str},
        )
        run: dict[str, dict[str, float]] = {}
        for topic, doc, score in table.itertuples(index=False):
            run.setdefault(topic, {})[doc] = float(score)
        evaluator.evaluate(run)


def measure(label: str, work, lines: int | None = None) -> int | None:
    wall, cpu = time.perf_counter(), cpu_seconds()
    result = work()
    wall, cpu = time.perf_counter() - wall, cpu_seconds() - cpu
    count = lines if lines is not None else result
    print(
        f"{label:<12} {count:>9,} lines  wall {wall:6.2f} s  cpu {cpu:6.2f} s  "
        f"{count / wall / 1e6:5.2f} M lines/s  peak rss {peak_mb():7.0f} MB"
    )
    return count


def main() -> None:
    folder = DATA / (sys.argv[1] if len(sys.argv) > 1 else "trec_covid_round1")
    qrels_path = next(p for p in sorted(folder.iterdir()) if "qrels" in p.name)
    run_paths = sorted((folder / "runs").iterdir())
    print(f"{folder.name}: {len(run_paths)} runs, qrels {qrels_path.name}")
    lines = measure("appendix", lambda: ours(qrels_path, run_paths))
    measure("pytrec_eval", lambda: pytrec(qrels_path, run_paths), lines)


if __name__ == "__main__":
    main()
