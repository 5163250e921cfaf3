"""Benchmark against inex_eval 3.1: `appendix evaluate` and the official jar on the real INEX
2009-2010 FOL run, one run and eight, in one alternated series; same-run ratios and peak memory.

    python benchmarks/bench_inex_eval.py [--rounds 5] [--runs 8] [--task focused]
        [--run PATH] [--qrels PATH]

Each round runs, one after the other: our command on one run, inex_eval on it, our command on
``--runs`` copies of it (one process), and inex_eval once per copy (its usage: one run a call).
Every figure is a child process's, read with ``os.wait4``: wall time, CPU time (user + system,
all threads: the JVM's too) and peak resident memory (``ru_maxrss``; for the eight calls the
largest of them). A round's ratio is ours over theirs within the round, so both sides saw the
same load; the medians of the ratios are printed with the load average before and after.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

SHARED = Path(__file__).resolve().parents[2] / "shared"
DATA = SHARED / "data" / "inex_ipcs"
JAR = SHARED / "tools" / "inex_eval" / "inex_eval.jar"
FLAGS = {"focused": "-f", "thorough": "-t", "relevant-in-context": "-r",
         "restricted-relevant-in-context": "-i", "best-in-context": "-b"}


@dataclass(frozen=True)
class Cost:
    """What one or more child processes took: seconds of wall and CPU, peak memory in MB."""

    wall: float
    cpu: float
    peak_mb: float

    def __add__(self, other: Cost) -> Cost:
        return Cost(self.wall + other.wall, self.cpu + other.cpu, max(self.peak_mb, other.peak_mb))


def measured(command: list[str]) -> Cost:
    """Run ``command`` (output discarded) and read its own resource usage with ``os.wait4``."""
    started = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"{command[0]} failed ({child.returncode}): {' '.join(command)}")
    return Cost(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024)


def ours(task: str, qrels: Path, runs: list[Path]) -> Cost:
    # The copies share the run id written in the file: named by their file names instead.
    return measured([sys.executable, "-m", "builder", "evaluate", "--task", task, "-q", "--quiet",
                     "-o", "run_names=file", str(qrels), *map(str, runs)])


def theirs(task: str, qrels: Path, runs: list[Path]) -> Cost:
    total = Cost(0.0, 0.0, 0.0)
    for run in runs:
        total += measured(["java", "-jar", str(JAR), FLAGS[task], "-q", str(qrels), str(run)])
    return total


def load() -> str:
    return "load average " + ", ".join(f"{value:.2f}" for value in os.getloadavg())


def report(label: str, pairs: list[tuple[Cost, Cost]]) -> None:
    def median(values: list[float]) -> float:
        return statistics.median(values)

    print(f"\n{label} ({len(pairs)} rounds, medians)")
    print(f"  ours:      wall {median([o.wall for o, _ in pairs]):6.2f} s   "
          f"cpu {median([o.cpu for o, _ in pairs]):6.2f} s   "
          f"peak {max(o.peak_mb for o, _ in pairs):6.0f} MB")
    print(f"  inex_eval: wall {median([t.wall for _, t in pairs]):6.2f} s   "
          f"cpu {median([t.cpu for _, t in pairs]):6.2f} s   "
          f"peak {max(t.peak_mb for _, t in pairs):6.0f} MB")
    walls = [o.wall / t.wall for o, t in pairs]
    cpus = [o.cpu / t.cpu for o, t in pairs]
    print(f"  same-round ratio ours/inex_eval: wall {median(walls):.2f} "
          f"(min {min(walls):.2f}, max {max(walls):.2f}), cpu {median(cpus):.2f} "
          f"(min {min(cpus):.2f}, max {max(cpus):.2f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="alternated rounds (default 5)")
    parser.add_argument("--runs", type=int, default=8, help="copies of the run for the batch")
    parser.add_argument("--task", default="focused", choices=sorted(FLAGS))
    parser.add_argument("--run", type=Path, default=DATA / "runs" / "bert_inex_converted.run")
    parser.add_argument("--qrels", type=Path, default=DATA / "INEX_Qrels.txt")
    args = parser.parse_args()
    if shutil.which("java") is None or not JAR.is_file():
        raise SystemExit(f"needs java and {JAR}")

    with tempfile.TemporaryDirectory() as folder:
        copies = []
        for number in range(1, args.runs + 1):
            copy = Path(folder) / f"run{number}.txt"
            shutil.copyfile(args.run, copy)
            copies.append(copy)
        print(f"{args.task} on {args.run.name} ({sum(1 for _ in args.run.open()):,} lines); "
              f"{os.cpu_count()} cores; before: {load()}")
        ours(args.task, args.qrels, [args.run])  # caches warm for both sides
        theirs(args.task, args.qrels, [args.run])
        one, many = [], []
        for _ in range(args.rounds):
            one.append((ours(args.task, args.qrels, [args.run]),
                        theirs(args.task, args.qrels, [args.run])))
            many.append((ours(args.task, args.qrels, copies),
                         theirs(args.task, args.qrels, copies)))
        report("one run", one)
        report(f"{args.runs} runs (ours: one process; inex_eval: one call each)", many)
        print(f"\nafter: {load()}")


if __name__ == "__main__":
    main()
