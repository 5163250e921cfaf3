"""Benchmark: ``appendix pool --depth 100`` beside ``appendix evaluate`` on the same runs.

    python benchmarks/bench_pool.py [CAMPAIGN] [--depth K] [--repeat N]

On CAMPAIGN (a folder of ../shared/data with ``runs/`` and a qrels file; default
trec_covid_round1, 143 gzip runs, 3.5M lines), each timed as a fresh process (wall time, and
CPU time of the process and its children), alternated (pool, evaluate, pool, ...)
``--repeat`` times (default 5):

- ``appendix pool RUN... --depth K`` (default 100): read every run, rank it as the evaluation
  does, pool each run's first K documents per topic;
- ``appendix evaluate -c -M 1000 --format tsv QRELS RUN...``: read, validate and score them.

Printed: the median wall and CPU time of each, and the ratio pool / evaluate of the same
run's pair, its median over the pairs, in CPU time and in wall time (below 1: pooling costs
less than evaluating). The machine is shared: a pair's two runs meet about the same load, so
the ratios mean more than the times; CPU time less than wall time; the load average before and
after is printed. Both run as from an installed package: every module compiled, and the files
in the page cache, by one untimed run of each command.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"


def timed(command: list[str], environment: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds (user + system, children included) of one run of ``command``."""
    wall = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, env=environment)
    _, status, usage = os.wait4(process.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"failed: {' '.join(command[:5])} ...")
    return time.perf_counter() - wall, usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description="\n\n".join(__doc__.split("\n\n")[::2][:2]),
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("campaign", nargs="?", default="trec_covid_round1")
    parser.add_argument("--depth", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    folder = DATA / args.campaign
    runs = sorted(str(p) for p in (folder / "runs").iterdir())
    qrels = str(next(p for p in sorted(folder.iterdir()) if p.name.startswith("qrels")))
    appendix = [sys.executable, "-m", "builder"]
    commands = {
        f"pool --depth {args.depth}": [*appendix, "pool", *runs, "--depth", str(args.depth)],
        "evaluate -c -M 1000": [*appendix, "evaluate", "-c", "-M", "1000", "--format", "tsv",
                                qrels, *runs],
    }
    with tempfile.TemporaryDirectory() as work:
        environment = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        environment["PYTHONPYCACHEPREFIX"] = str(Path(work) / "bytecode")
        for command in commands.values():  # untimed: bytecode written, files cached
            timed(command, environment)
        load_before = os.getloadavg()[0]
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
        for _ in range(args.repeat):
            for name, command in commands.items():
                times[name].append(timed(command, environment))
    print(f"{args.campaign}: {len(runs)} runs, {args.repeat} pairs; load average "
          f"{load_before:.2f} before, {os.getloadavg()[0]:.2f} after")
    for name, runs_timed in times.items():
        wall = statistics.median(t[0] for t in runs_timed)
        cpu = statistics.median(t[1] for t in runs_timed)
        print(f"  {name:<24} wall {wall:6.2f} s   cpu {cpu:6.2f} s")
    pool, evaluate = times.values()
    for label, at in (("cpu", 1), ("wall", 0)):
        ratios = [p[at] / e[at] for p, e in zip(pool, evaluate)]
        print(f"  ratio pool / evaluate ({label}, same pair): median {statistics.median(ratios):.2f}"
              f"  (from {min(ratios):.2f} to {max(ratios):.2f})")

if __name__ == "__main__":
    main()
