"""Benchmark against inex_eval 3.1: `appendix evaluate` and the official jar on the real INEX
2009-2010 FOL run, one run and eight, in one alternated series; same-run ratios and peak memory.

    python benchmarks/bench_inex_eval.py [--rounds 5] [--runs 8] [--task focused]
        [--run PATH] [--qrels PATH] [--compiled cached|source] [--floor]

Each round runs, one after the other: our command on one run, inex_eval on it, our command on
``--runs`` copies of it (one process), and inex_eval once per copy (its usage: one run a call).
Every figure is a child process's, read with ``os.wait4``: wall time, CPU time (user + system,
all threads: the JVM's too) and peak resident memory (``ru_maxrss``; for the eight calls the
largest of them). A round's ratio is ours over theirs within the round, so both sides saw the
same load; the medians of the ratios are printed with the load average before and after.

``--compiled``: how our command finds Python's compiled modules. ``cached`` (the default) runs
it as on a user's machine, where pip byte-compiles the package and Python caches what it
compiles: ``PYTHONDONTWRITEBYTECODE`` taken out of the children's environment and their cache
kept in the scratch folder (``PYTHONPYCACHEPREFIX``), filled by the warm-up call. ``source``
keeps the environment as it is: where it sets ``PYTHONDONTWRITEBYTECODE`` (as a development
machine may) and the package is installed editable, every call compiles builder's modules
from their source. The output says which.

``--floor``: in each round also the start-up of a Python process that only imports numpy, then
pyarrow, then pandas, then what ``appendix evaluate --task TASK`` imports (no file read),
beside inex_eval's one call: what one run of ours cannot go below.
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


FLOOR = {
    "python": "pass",
    "+ numpy": "import numpy",
    "+ pyarrow": "import numpy, pyarrow, pyarrow.compute",
    "+ pandas": "import pandas",
    "+ builder": "import builder.cli.commands.evaluate, builder.tasks.inex.focused, "
                 "builder.pipeline.scoring",
}
"""The import floor: each child imports what its line says (pandas imports numpy and pyarrow)."""


def measured(command: list[str], env: dict[str, str] | None = None) -> Cost:
    """Run ``command`` (output discarded) and read its own resource usage with ``os.wait4``."""
    started = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             env=env)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"{command[0]} failed ({child.returncode}): {' '.join(command)}")
    return Cost(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024)


def ours(task: str, qrels: Path, runs: list[Path], env: dict[str, str] | None) -> Cost:
    # The copies share the run id written in the file: named by their file names instead.
    return measured([sys.executable, "-m", "builder", "evaluate", "--task", task, "-q", "--quiet",
                     "-o", "run_names=file", str(qrels), *map(str, runs)], env)


def theirs(task: str, qrels: Path, runs: list[Path]) -> Cost:
    total = Cost(0.0, 0.0, 0.0)
    for run in runs:
        total += measured(["java", "-jar", str(JAR), FLAGS[task], "-q", str(qrels), str(run)])
    return total


def load() -> str:
    return "load average " + ", ".join(f"{value:.2f}" for value in os.getloadavg())


def compiled_env(mode: str, folder: str) -> dict[str, str] | None:
    """The children's environment for ``--compiled`` (see the module docstring)."""
    if mode == "source":
        return None
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(Path(folder) / "pycache")
    return env


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
    parser.add_argument("--compiled", choices=["cached", "source"], default="cached",
                        help="cached: as on a user's machine, Python's compiled modules "
                        "cached (default); source: this environment as it is (see above)")
    parser.add_argument("--floor", action="store_true",
                        help="also time the imports alone (numpy, pyarrow, pandas, ours)")
    args = parser.parse_args()
    if shutil.which("java") is None or not JAR.is_file():
        raise SystemExit(f"needs java and {JAR}")

    with tempfile.TemporaryDirectory() as folder:
        env = compiled_env(args.compiled, folder)
        copies = []
        for number in range(1, args.runs + 1):
            copy = Path(folder) / f"run{number}.txt"
            shutil.copyfile(args.run, copy)
            copies.append(copy)
        print(f"{args.task} on {args.run.name} ({sum(1 for _ in args.run.open()):,} lines); "
              f"{os.cpu_count()} cores; before: {load()}")
        bytecode = os.environ.get("PYTHONDONTWRITEBYTECODE")
        print("our modules: " + ("compiled once and cached, as on a user's machine "
                                 "(PYTHONDONTWRITEBYTECODE unset, PYTHONPYCACHEPREFIX in the "
                                 "scratch folder)" if env is not None else
                                 f"this environment as it is (PYTHONDONTWRITEBYTECODE="
                                 f"{bytecode or 'unset'})"))
        ours(args.task, args.qrels, [args.run], env)  # caches warm for both sides
        theirs(args.task, args.qrels, [args.run])
        one, many, floors = [], [], {name: [] for name in FLOOR}
        for _ in range(args.rounds):
            one.append((ours(args.task, args.qrels, [args.run], env),
                        theirs(args.task, args.qrels, [args.run])))
            many.append((ours(args.task, args.qrels, copies, env),
                         theirs(args.task, args.qrels, copies)))
            if args.floor:
                for name, code in FLOOR.items():
                    floors[name].append((measured([sys.executable, "-c", code], env),
                                         one[-1][1]))
        report("one run", one)
        report(f"{args.runs} runs (ours: one process; inex_eval: one call each)", many)
        if args.floor:
            print("\nimport floor (medians; ratio to inex_eval's one call in the same round)")
            for name, pairs in floors.items():
                print(f"  {name:10} wall {statistics.median([o.wall for o, _ in pairs]):5.2f} s "
                      f"cpu {statistics.median([o.cpu for o, _ in pairs]):5.2f} s   "
                      f"ratio wall {statistics.median([o.wall / t.wall for o, t in pairs]):.2f} "
                      f"cpu {statistics.median([o.cpu / t.cpu for o, t in pairs]):.2f}")
        print(f"\nafter: {load()}")


if __name__ == "__main__":
    main()
