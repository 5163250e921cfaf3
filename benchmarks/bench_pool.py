"""Benchmark: ``appendix pool --depth 100`` beside ``appendix evaluate`` on the same runs.

    python benchmarks/bench_pool.py [CAMPAIGN] [--depth K] [--repeat N]

On CAMPAIGN (a folder of ../shared/data with ``runs/`` and a qrels file; default
trec_covid_round1, 143 gzip runs, 3.5M lines), each timed as a fresh process (wall time, and
CPU time of the process and its children), interleaved, ``--repeat`` times (default 3), the
median printed:

- ``appendix pool RUN... --depth K`` (default 100): read every run, rank it as the evaluation
  does, pool each run's first K documents per topic;
- ``appendix evaluate -c -M 1000 --format tsv QRELS RUN...``: read, validate and score them.

Then the ratio pool / evaluate of the same run (below 1: pooling costs less than evaluating).
Both run as from an installed package (bytecode compiled once by an untimed first run). The
machine is shared: only same-run ratios mean much; the load average is printed.
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
    parser.add_argument("--repeat", type=int, default=3)
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
        subprocess.run([*appendix, "--help"], check=True, env=environment,
                       stdout=subprocess.DEVNULL)
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
        for _ in range(args.repeat):
            for name, command in commands.items():
                times[name].append(timed(command, environment))
    print(f"{args.campaign}: {len(runs)} runs; load average {os.getloadavg()[0]:.2f}")
    median = {}
    for name, runs_timed in times.items():
        wall = statistics.median(t[0] for t in runs_timed)
        cpu = statistics.median(t[1] for t in runs_timed)
        median[name] = wall
        print(f"  {name:<24} wall {wall:6.2f} s   cpu {cpu:6.2f} s")
    pool, evaluate = median.values()
    print(f"  ratio pool / evaluate (wall, same run): {pool / evaluate:.2f}")


if __name__ == "__main__":
    main()
