"""Benchmark: the adhoc engine end to end (read, validate, evaluate) beside pytrec_eval.

    python benchmarks/bench_adhoc.py [CAMPAIGN]   (--help: the options)

CAMPAIGN is a folder of ../shared/data with ``runs/`` and a qrels file (default
trec_covid_round1: 143 runs, 3.5M lines). Our pass runs three times, each in a fresh process
(this script again, with ``--ours``), and the median is printed beside each run's lines/s,
wall and CPU time and peak memory (resident set size); then pytrec_eval on the same files,
read by pytrec_eval's own parsers (``parse_qrel``, ``parse_run``), as its users read them.
Our pass scores every measure with ``--profile 10.0`` (trec_eval 10.0's ``all_trec``, rbp,
rbp_resid and unj_* included, and the measures beyond trec_eval), on the path ``appendix
evaluate`` takes: run files read, validated and scored overlapped on both cores
(``KIND.read_and_evaluate``). Peers, in the same run:
pytrec_eval, and trec_eval 10.0 itself (built with ``make`` in a temporary folder from
../shared/tools; ``-q -c -M1000 -m all_trec``, one process per run file, decompressed first
and not timed). On a shared machine only the same-run ratios mean much.
Target: >= 2M lines/s on 2 cores, < 2 GB.
"""

from __future__ import annotations

import argparse
import gzip
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

# isort: off
from builder.cli import prepare_process

prepare_process()  # before numpy is imported, as the ``appendix`` command does: its page policy
# isort: on
from builder.tasks.adhoc import KIND, AdhocOptions

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data"


def cpu_seconds() -> float:
    """User and system time of this process and of the children it waited for (trec_eval)."""
    return sum(usage.ru_utime + usage.ru_stime for usage in (
        resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)))


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def ours(qrels_path: Path, run_paths: list[Path]) -> int:
    """What ``appendix evaluate`` runs: the qrels read, then the run files read, validated and
    scored overlapped on both cores (``KIND.read_and_evaluate``), the score table made."""
    options = AdhocOptions(profile="10.0")
    stages = [time.perf_counter()]
    qrels = KIND.read_qrels(qrels_path)
    stages.append(time.perf_counter())
    reads, evaluation = KIND.read_and_evaluate(run_paths, qrels, options)
    stages.append(time.perf_counter())
    spans = [f"{name} {b - a:.2f} s" for name, a, b in
             zip(["qrels", "read+validate+evaluate (overlapped)"], stages, stages[1:])]
    print("appendix stages: " + ", ".join(spans)
          + f"; {len(evaluation.scores):,} score rows")
    return sum(len(read.table) for read in reads if not read.rejected)


def text_lines(path: Path):
    """The lines of a plain or gzip text file, as a user hands them to pytrec_eval."""
    return gzip.open(path, "rt") if path.suffix == ".gz" else open(path)


def pytrec(qrels_path: Path, run_paths: list[Path]) -> None:
    """pytrec_eval with trec_eval's all_trec families; files read by its own parsers."""
    import pytrec_eval

    with text_lines(qrels_path) as lines:
        qrels = pytrec_eval.parse_qrel(lines)
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, pytrec_eval.supported_measures)
    for path in run_paths:
        with text_lines(path) as lines:
            evaluator.evaluate(pytrec_eval.parse_run(lines))


def trec_eval_10(qrels_path: Path, run_paths: list[Path]):
    """trec_eval 10.0 on every run (built and the runs decompressed before the clock starts);
    returns the timed work, or None when it cannot be built."""
    import shutil
    import tempfile

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from tests.oracle.official import build_trec_eval, plain_copies

    folder = Path(tempfile.mkdtemp(prefix="bench_trec_eval_"))
    try:
        binary = build_trec_eval("10.0", folder)
    except (FileNotFoundError, subprocess.CalledProcessError) as missing:
        print(f"trec_eval 10.0 not built: {missing}")
        return None
    plain = plain_copies(run_paths, folder)

    def work() -> None:
        for path in plain:
            subprocess.run([str(binary), "-q", "-c", "-M1000", "-m", "all_trec",
                            str(qrels_path), str(path)], check=True, stdout=subprocess.DEVNULL)
        shutil.rmtree(folder)

    return work


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


REPETITIONS = 3


def campaign(name: str) -> tuple[Path, list[Path]]:
    folder = DATA / name
    qrels_path = next(p for p in sorted(folder.iterdir()) if "qrels" in p.name)
    return qrels_path, sorted((folder / "runs").iterdir())


def main(name: str) -> None:
    qrels_path, run_paths = campaign(name)
    print(f"{name}: {len(run_paths)} runs, qrels {qrels_path.name}")
    rates, lines = [], 0
    for _ in range(REPETITIONS):
        done = subprocess.run([sys.executable, __file__, "--ours", name], check=True,
                              capture_output=True, text=True)
        print(done.stdout, end="")
        figures = done.stdout.splitlines()[-1].split()
        lines = int(figures[1].replace(",", ""))
        rates.append(float(figures[figures.index("M") - 1]))
    median = statistics.median(rates)
    print(f"appendix median of {REPETITIONS} fresh processes: {median:.2f} M lines/s "
          "(target >= 2)")
    for label, work in (("pytrec_eval", lambda: pytrec(qrels_path, run_paths)),
                        ("trec_eval 10", trec_eval_10(qrels_path, run_paths))):
        if work is None:
            continue
        wall = time.perf_counter()
        measure(label, work, lines)
        rate = lines / (time.perf_counter() - wall) / 1e6
        print(f"  same run: appendix / {label} = {median / rate:.1f} x")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("campaign", nargs="?", default="trec_covid_round1",
                        help="a folder of ../shared/data with runs/ and a qrels file "
                             "(default: %(default)s)")
    parser.add_argument("--ours", action="store_true", help=argparse.SUPPRESS)  # one timed pass
    args = parser.parse_args()
    if args.ours:
        qrels_path, run_paths = campaign(args.campaign)
        measure("appendix", lambda: ours(qrels_path, run_paths))
    else:
        main(args.campaign)
