"""Incremental rebuild against a clean build, on TREC-COVID round 1 (143 runs, 30 topics).

    python benchmarks/bench_incremental.py [REPEATS]

Copies the campaign (qrels, leaderboard, runs) into a temporary folder without one run
(``ANSERINI_RUN``), builds it with the cache (a warm cache, as after any earlier build), then
adds the run and builds again: the incremental rebuild (``--incremental``). The clean build
of the same 143 runs is the reference. Each ``appendix build`` runs in its own process, as a user
runs it; the wall time and the CPU time of the process and its children are printed, the best
of ``REPEATS`` (default 3), and the share of the clean build's the rebuild takes.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data" / "trec_covid_round1"
ADDED = "udel_fang_run3.gz"
"""The run added: one of the round's files, mid-table by nDCG@10."""


def config_text() -> str:
    text = (ROOT / "examples" / "trec_covid_round1.yml").read_text()
    return (text.replace("../../shared/data/trec_covid_round1/", "")
            .replace("output: ../site-covid", "output: site"))


def timed_build(config: Path, *flags: str) -> tuple[float, float]:
    """Wall and CPU seconds (the process and its children) of one ``appendix build``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "builder", "build", "--config", str(config),
                    "--quiet", *flags], check=True, env={**os.environ, "SOURCE_DATE_EPOCH": "0"})
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repeats", nargs="?", type=int, default=3,
                        help="builds of each kind; the best is printed (default 3)")
    repeats = parser.parse_args().repeats
    with tempfile.TemporaryDirectory() as scratch:
        campaign = Path(scratch) / "covid"
        shutil.copytree(DATA, campaign)
        config = campaign / "site_config.yml"
        config.write_text(config_text())
        held = Path(scratch) / ADDED
        clean, incremental = [], []
        load_before = os.getloadavg()
        for _ in range(repeats):
            clean.append(timed_build(config))
            shutil.move(campaign / "runs" / ADDED, held)
            timed_build(config, "--incremental")  # the cache warm with the 142 others
            shutil.move(held, campaign / "runs" / ADDED)
            incremental.append(timed_build(config, "--incremental"))
        load_after = os.getloadavg()
        best_clean = min(clean)
        best_incremental = min(incremental)
        for name, (wall, cpu) in (("clean build", best_clean),
                                  ("one run added", best_incremental)):
            print(f"{name:<24} wall {wall:6.2f} s   cpu {cpu:6.2f} s")
        print(f"rebuild / clean: wall {best_incremental[0] / best_clean[0]:.0%}, "
              f"cpu {best_incremental[1] / best_clean[1]:.0%} (target <= 30%)")
        print("each pair (clean, rebuild) in the order built, cpu s: " + ", ".join(
            f"({c[1]:.2f}, {r[1]:.2f})" for c, r in zip(clean, incremental)))
        print("load average " + " -> ".join(" ".join(f"{v:.1f}" for v in load)
                                            for load in (load_before, load_after))
              + " (1, 5, 15 min, before and after)")


if __name__ == "__main__":
    main()
