"""Benchmark: one large run file evaluated on every core, beside trec_eval on the same file.

    python benchmarks/bench_large_run.py [LINES] [--repeat N]

Generates (in a temporary folder, not timed) a run of LINES lines (default 10M, about 450 MB:
10,000 topics x 1,000 documents) and qrels for its topics (300 judged documents a topic,
grades 0-2), then times ``appendix evaluate -c -M 1000 --format tsv QRELS RUN`` in a fresh
process, on the plain file and on its gzip, and trec_eval 9.0.8 (``-c -M1000``, built with
``make`` in a temporary folder from ../shared/tools) on the plain file, each ``--repeat``
times (default 3), interleaved. Our command runs as from an installed package, its bytecode
compiled by an untimed first run (as ``bench_cli.py`` does). Each line gives the median wall
and CPU time, lines per second and the largest peak resident memory of the repeats; the
same-run ratio to trec_eval follows. The machine is shared: only same-run ratios mean much.
Target: >= 2M lines/s on 2 cores, peak memory < 2 GB.
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
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from bench_cli import installed_environment

from builder.pipeline.layouts.text import joined_lines

ROOT = Path(__file__).resolve().parent.parent
DOCS_PER_TOPIC = 1000
JUDGED_PER_TOPIC = 300
TOPICS_PER_CHUNK = 500


def generate(folder: Path, lines: int) -> tuple[Path, Path]:
    """A run of ``lines`` lines and its qrels, written a chunk of topics at a time."""
    rng = np.random.default_rng(17)
    topics = max(1, lines // DOCS_PER_TOPIC)
    run, qrels = folder / "large.run", folder / "large.qrels"
    with open(run, "wb") as run_file, open(qrels, "wb") as qrels_file:
        for first in range(0, topics, TOPICS_PER_CHUNK):
            count = min(TOPICS_PER_CHUNK, topics - first)
            topic = np.repeat(np.arange(first + 1, first + count + 1), DOCS_PER_TOPIC)
            rank = np.tile(np.arange(1, DOCS_PER_TOPIC + 1), count)
            # Distinct documents within a topic (7919 is prime to the prime 3001).
            doc = topic * 10_000 + (rank * 7919 + topic * 13) % 3001
            score = np.round(50.0 - rank * 0.01 + rng.random(len(topic)) * 0.001, 6)
            run_file.write(_lines([topic, "Q0", _names("doc", doc),
                                   rank, score, "largerun"]))
            judged = np.flatnonzero(rng.random(len(topic)) < JUDGED_PER_TOPIC / DOCS_PER_TOPIC)
            qrels_file.write(_lines([topic[judged], "0", _names(
                "doc", doc[judged]), rng.integers(0, 3, len(judged))]))
    return qrels, run


def _names(prefix: str, numbers: np.ndarray) -> pa.Array:
    return pc.binary_join_element_wise(prefix, pc.cast(pa.array(numbers), pa.string()), "")


def _lines(columns: list) -> bytes:
    return joined_lines([c if isinstance(c, str | pa.Array) else pc.cast(pa.array(c), pa.string())
                         for c in columns], " ")


def timed(command: list[str], output: Path, environment: dict[str, str]
          ) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds and peak resident memory (MB) of ``command``, its output to
    ``output``."""
    with open(output, "wb") as sink, open(output.with_suffix(".err"), "wb+") as errors:
        start = time.perf_counter()
        process = subprocess.Popen(command, stdout=sink, stderr=errors, env=environment)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        errors.seek(0)
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"failed: {' '.join(command)}: {errors.read()[:2000]!r}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def main(lines: int, repeat: int) -> None:
    sys.path.insert(0, str(ROOT))
    from tests.oracle.official import build_trec_eval

    folder = Path(tempfile.mkdtemp(prefix="bench_large_run_"))
    try:
        qrels, run = generate(folder, lines)
        with open(run, "rb") as lines_of_run:
            count = sum(1 for _ in lines_of_run)
        gz = run.with_name(run.name + ".gz")
        subprocess.run([sys.executable, "-m", "isal.igzip", "-1", "-o", str(gz), str(run)],
                       check=True)
        print(f"run: {count:,} lines, {run.stat().st_size / 1e6:.0f} MB "
              f"({gz.stat().st_size / 1e6:.0f} MB gzipped); {os.cpu_count()} cores; "
              f"load {os.getloadavg()[0]:.1f}")
        binary = build_trec_eval("9.0.8", folder / "trec_eval")
        appendix = [sys.executable, "-m", "builder", "evaluate", "-c", "-M", "1000",
                    "--format", "tsv", str(qrels)]
        cases = {
            "appendix": [*appendix, str(run)],
            "appendix gz": [*appendix, str(gz)],
            "trec_eval": [str(binary), "-c", "-M1000", str(qrels), str(run)],
        }
        environment = installed_environment(folder)
        timed([*appendix, str(gz)], folder / "warm-up.out", environment)  # bytecode, untimed
        runs: dict[str, list[tuple[float, float, float]]] = {label: [] for label in cases}
        for _ in range(repeat):
            for label, command in cases.items():
                runs[label].append(timed(command, folder / f"{label}.out", environment))
        figures = {}
        for label, done in runs.items():
            wall, cpu = (statistics.median(figure[i] for figure in done) for i in (0, 1))
            figures[label] = wall, cpu
            print(f"{label:<12} wall {wall:6.2f} s  cpu {cpu:6.2f} s  "
                  f"{count / wall / 1e6:5.2f} M lines/s  peak rss "
                  f"{max(figure[2] for figure in done):6.0f} MB")
        for label in ("appendix", "appendix gz"):
            print(f"  same run: {label} / trec_eval: wall "
                  f"{figures[label][0] / figures['trec_eval'][0]:.2f}, cpu "
                  f"{figures[label][1] / figures['trec_eval'][1]:.2f}")
        print(f"median of {repeat}; target >= 2M lines/s, peak < 2 GB; "
              f"load now {os.getloadavg()[0]:.1f}")
    finally:
        shutil.rmtree(folder)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lines", nargs="?", type=float, default=10_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    arguments = parser.parse_args()
    main(int(arguments.lines), arguments.repeat)
