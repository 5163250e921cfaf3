"""Benchmark: campaigns larger than one evaluation in memory, and growth with their size.

    python benchmarks/bench_scale.py generated [RUNS ...] [--budget 1G]   (default 10 20)
    python benchmarks/bench_scale.py growth [--budget 1G]
    python benchmarks/bench_scale.py campaign FOLDER [RUNS] [--budget 1G] [--keep]
    python benchmarks/bench_scale.py huge [LINES] [--budget 512M]

``generated``: a campaign of runs x 1,000 topics x 1,000 documents (1M lines a run; the full
campaign of the issue is 1,000 runs, 1 billion lines, 42 GB of text), written one run at a time
(the generator holds one run), then ``appendix evaluate -c --memory-budget`` over its first
RUNS runs for each RUNS given, in a child process: time, CPU time, time per line, peak memory
(the child's maximum resident set), and time and peak of 1,000 runs extrapolated linearly.

``growth``: TREC-COVID round 1 (../shared/data/trec_covid_round1) 1x, 4x and 16x (its runs
linked under new names, named by file), each evaluated by ``appendix evaluate -q -c -M 1000
--format tsv`` in a child process: time and peak memory per line, and their ratio to 1x.

``campaign``: RUNS (default 1,000) distinct gzipped runs of 1,000 topics x 1,000 documents
written to FOLDER (``write_campaign``: about 8 MB each, 7.4 GB for 1,000), then ``appendix
evaluate -c -m all_trec --memory-budget`` over all of them in a child process: lines, wall and
CPU time, peak resident memory, load average; FOLDER is deleted afterwards unless ``--keep``.
Run it under ``nice -n 19`` on a shared machine.

``huge``: one run of LINES lines (default 10M, ``bench_large_run.generate``) evaluated
(``-q -c --format tsv``) whole and under a budget it does not fit (read and evaluated by topic
ranges): time, CPU, peak of each, and whether their outputs are the same bytes.

The machine is shared: the figures are of one run, with its load average printed beside them.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

ROOT = Path(__file__).resolve().parents[1]
COVID = ROOT.parent / "shared" / "data" / "trec_covid_round1"
TOPICS, DOCUMENTS, POOL, JUDGED = 1000, 1000, 2000, 200

# The child's peak resident set, measured by a parent that only waits for it.
MEASURE = ("import os, resource, subprocess, sys; code = subprocess.call(sys.argv[1:], "
           "stdout=open(os.environ.get('BENCH_OUTPUT', os.devnull), 'wb')); use = resource.getrusage(resource.RUSAGE_CHILDREN); "
           "print(use.ru_maxrss, use.ru_utime + use.ru_stime, code)")


def measured(command: list[str], output: Path | None = None) -> tuple[float, int, float]:
    """(seconds, peak bytes, CPU seconds) of ``command`` run in a child process, its output
    to ``output`` (else dropped); it must succeed."""
    start = time.perf_counter()
    environment = {**os.environ, **({"BENCH_OUTPUT": str(output)} if output else {})}
    out = subprocess.run([sys.executable, "-c", MEASURE, *command], capture_output=True,
                         text=True, check=True, env=environment).stdout.split()
    seconds = time.perf_counter() - start
    if out[2] != "0":
        raise SystemExit(f"{' '.join(command[:4])}...: exit {out[2]}")
    return seconds, int(out[0]) * 1024, float(out[1])


def _write(path: Path, columns: dict[str, pa.Array]) -> None:
    options = pacsv.WriteOptions(include_header=False, delimiter=" ", quoting_style="none")
    pacsv.write_csv(pa.table(columns), path, write_options=options)


def generate(folder: Path, runs: int, seed: int = 7) -> tuple[Path, list[Path], int]:
    """Qrels and ``runs`` run files of TOPICS x DOCUMENTS lines, one run in memory at a time."""
    rng = np.random.default_rng(seed)
    names = pa.array([f"doc{i}" for i in range(POOL)])
    topic_ids = np.repeat(np.arange(1, TOPICS + 1), JUDGED)
    judged = np.argsort(rng.random((TOPICS, POOL)), axis=1)[:, :JUDGED].ravel()
    qrels = folder / "qrels.txt"
    _write(qrels, {"topic": pa.array(topic_ids), "iter": pa.array(np.zeros(len(judged), int)),
                   "doc": names.take(pa.array(judged)),
                   "rel": pa.array(rng.integers(0, 3, len(judged)))})
    paths = []
    topic_of_line = pa.array(np.repeat(np.arange(1, TOPICS + 1), DOCUMENTS))
    rank = pa.array(np.tile(np.arange(1, DOCUMENTS + 1), TOPICS))
    score = pa.array(np.tile(np.linspace(100.0, 1.0, DOCUMENTS), TOPICS))
    for number in range(runs):
        docs = np.argsort(rng.random((TOPICS, POOL)), axis=1)[:, :DOCUMENTS].ravel()
        path = folder / f"run{number:04d}"
        _write(path, {"topic": topic_of_line, "q0": pa.array(["Q0"] * len(docs)),
                      "doc": names.take(pa.array(docs)), "rank": rank, "score": score,
                      "tag": pa.array([f"run{number:04d}"] * len(docs))})
        paths.append(path)
    return qrels, paths, runs * TOPICS * DOCUMENTS


def write_campaign(folder: Path, runs: int, seed: int = 17) -> tuple[Path, list[Path]]:
    """Qrels and ``runs`` distinct gzipped run files of TOPICS x DOCUMENTS lines, written a run
    at a time with whole-array kernels (about 0.4 s and 8 MB of gzip a run): run r ranks, for
    topic t, the documents (rank * m + o) mod POOL for its own random m (a unit mod POOL, so the
    documents of a topic are distinct) and offset o. Files already there are kept, so an
    interrupted write resumes."""
    from isal import igzip

    from builder.pipeline.layouts.text import joined_lines

    rng = np.random.default_rng(seed)
    folder.mkdir(parents=True, exist_ok=True)
    qrels = folder / "qrels.txt"
    if not qrels.exists():
        topic_ids = np.repeat(np.arange(1, TOPICS + 1), JUDGED)
        judged = np.argsort(rng.random((TOPICS, POOL)), axis=1)[:, :JUDGED].ravel()
        names = pa.array([f"doc{i}" for i in range(POOL)])
        _write(qrels, {"topic": pa.array(topic_ids), "iter": pa.array(np.zeros(len(judged), int)),
                       "doc": names.take(pa.array(judged)),
                       "rel": pa.array(rng.integers(0, 3, len(judged)))})
    names = pc.binary_join_element_wise("doc", pc.cast(pa.array(np.arange(POOL)), pa.string()), "")
    topic = pc.cast(pa.array(np.repeat(np.arange(1, TOPICS + 1), DOCUMENTS)), pa.string())
    ranks = np.tile(np.arange(1, DOCUMENTS + 1), TOPICS)
    rank = pc.cast(pa.array(ranks), pa.string())
    score = pc.cast(pa.array(np.round(np.tile(np.linspace(100.0, 1.0, DOCUMENTS), TOPICS), 4)),
                    pa.string())
    units = np.array([u for u in range(1, POOL) if np.gcd(u, POOL) == 1])
    paths = []
    for number in range(runs):
        path = folder / f"run{number:04d}.gz"
        paths.append(path)
        step, offset = rng.choice(units, TOPICS), rng.integers(0, POOL, TOPICS)
        if path.exists():
            continue
        docs = (ranks * np.repeat(step, DOCUMENTS) + np.repeat(offset, DOCUMENTS)) % POOL
        text = joined_lines([topic, "Q0", names.take(pa.array(docs)), rank, score,
                             f"run{number:04d}"], " ")
        part = path.with_suffix(".part")
        part.write_bytes(igzip.compress(text, compresslevel=1))
        part.rename(path)
    return qrels, paths


def appendix(*args: str) -> list[str]:
    return [sys.executable, "-m", "builder", *args]


def bench_generated(counts: list[int], budget: str) -> None:
    """The campaign of the largest count, evaluated over its first runs of each count: peak
    memory flat in the number of runs is what lets the full size fit."""
    runs = max(counts)
    with tempfile.TemporaryDirectory(prefix="bench-scale-") as tmp:
        start = time.perf_counter()
        qrels, paths, lines = generate(Path(tmp), runs)
        made = time.perf_counter() - start
        size = sum(p.stat().st_size for p in paths)
        print(f"generated {runs} runs x {TOPICS} topics x {DOCUMENTS} documents: {lines:,} "
              f"lines, {size / 2**30:.2f} GiB, {made:.1f} s (one run in memory at a time)")
        print(f"{'runs':>5} {'lines':>12} {'seconds':>8} {'CPU s':>7} {'us/line':>8} "
              f"{'peak GiB':>9}  (evaluate -c --format tsv --memory-budget {budget})")
        figures = []
        for count in sorted(set(counts)):
            part = paths[:count]
            total = count * TOPICS * DOCUMENTS
            seconds, peak, cpu = measured(appendix("evaluate", "-c", "--format", "tsv",
                                                   "--memory-budget", budget, str(qrels),
                                                   *map(str, part)))
            figures.append((total, seconds, peak))
            print(f"{count:>5} {total:>12,} {seconds:>8.1f} {cpu:>7.1f} "
                  f"{seconds / total * 1e6:>8.3f} {peak / 2**30:>9.2f}")
    (small, _, low), (large, seconds, high) = figures[0], figures[-1]
    held = (high - low) / max(1, large - small)
    full = 1000 * TOPICS * DOCUMENTS
    print(f"peak grows by {held:.1f} bytes per line from {small:,} to {large:,} lines (the "
          "score rows kept; the runs are read, evaluated and dropped batch by batch)")
    print(f"1,000 runs (1 billion lines, {size * 1000 / runs / 2**30:.0f} GiB of text) "
          f"extrapolated: {seconds * full / large / 60:.0f} min, peak "
          f"{(high + held * (full - large)) / 2**30:.2f} GiB")


def bench_growth(budget: str | None) -> None:
    runs = sorted((COVID / "runs").iterdir())
    qrels = COVID / "qrels.covid-round1.txt"
    base = None
    extra = ["--memory-budget", budget] if budget else []
    print(f"{'copies':>6} {'runs':>5} {'lines':>11} {'seconds':>8} {'us/line':>8} "
          f"{'peak GiB':>9} {'B/line':>7}  vs 1x (time/line, memory/line)")
    for copies in (1, 4, 16):
        with tempfile.TemporaryDirectory(prefix="bench-growth-") as tmp:
            links = []
            for k in range(copies):
                for run in runs:
                    link = Path(tmp) / f"c{k:02d}-{run.name}"
                    link.symlink_to(run)
                    links.append(str(link))
            if base is None:
                lines = sum(_count_lines(run) for run in runs)
            seconds, peak, _ = measured(appendix("evaluate", "-q", "-c", "-M", "1000", "--format",
                                              "tsv", "-o", "run_names=file", *extra,
                                              str(qrels), *links))
        total = lines * copies
        per_line = (seconds / total, peak / total)
        base = base or per_line
        print(f"{copies:>6} {len(links):>5} {total:>11,} {seconds:>8.1f} "
              f"{per_line[0] * 1e6:>8.2f} {peak / 2**30:>9.2f} {per_line[1]:>7.0f}  "
              f"{per_line[0] / base[0]:.2f}, {per_line[1] / base[1]:.2f}")


def bench_campaign(folder: Path, runs: int, budget: str, keep: bool) -> None:
    """The 1,000 runs x 1,000 topics x 1,000 documents campaign (or its first RUNS runs)."""
    import shutil

    start = time.perf_counter()
    qrels, paths = write_campaign(folder, runs)
    size = sum(p.stat().st_size for p in paths)
    print(f"campaign: {runs} runs x {TOPICS} topics x {DOCUMENTS} documents, "
          f"{runs * TOPICS * DOCUMENTS:,} lines, {size / 2**30:.1f} GiB of gzip "
          f"({time.perf_counter() - start:.0f} s to write or find)")
    try:
        lines = runs * TOPICS * DOCUMENTS
        seconds, peak, cpu = measured(appendix("evaluate", "-c", "-m", "all_trec",
                                               "--memory-budget", budget, str(qrels),
                                               *map(str, paths)))
        print(f"evaluate -c -m all_trec --memory-budget {budget}: wall {seconds:.0f} s, CPU "
              f"{cpu:.0f} s ({cpu / lines * 1e6:.2f} CPU us/line), peak {peak / 2**30:.2f} GiB")
    finally:
        if not keep:
            shutil.rmtree(folder)


def bench_huge(lines: int, budget: str) -> None:
    """One large run, whole and by topic ranges under ``budget``."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_large_run import generate

    with tempfile.TemporaryDirectory(prefix="bench-huge-") as tmp:
        qrels, run = generate(Path(tmp), lines)
        print(f"one run: {lines:,} lines, {run.stat().st_size / 2**20:.0f} MiB")
        outputs = []
        for extra in ([], ["--memory-budget", budget]):
            out = Path(tmp) / f"out{len(outputs)}"
            command = appendix("evaluate", "-q", "-c", "--format", "tsv", *extra, str(qrels),
                               str(run))
            seconds, peak, cpu = measured(command, out)
            outputs.append(out.read_bytes())
            print(f"{' '.join(extra) or 'whole':<22} wall {seconds:6.1f} s  CPU {cpu:6.1f} s  "
                  f"peak {peak / 2**30:5.2f} GiB")
        print(f"same output bytes: {outputs[0] == outputs[1]} ({len(outputs[0]):,} bytes)")


def _count_lines(path: Path) -> int:
    import gzip

    with gzip.open(path, "rb") as handle:
        return sum(chunk.count(b"\n") for chunk in iter(lambda: handle.read(1 << 24), b""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["generated", "growth", "campaign", "huge"])
    parser.add_argument("runs", nargs="*", default=[],
                        help="generated: numbers of runs (default 10 20); campaign: FOLDER "
                        "[RUNS]; huge: [LINES]")
    parser.add_argument("--budget", default=None)
    parser.add_argument("--keep", action="store_true", help="campaign: keep FOLDER")
    args = parser.parse_args()
    os.chdir(ROOT)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (shared machine)")
    if args.what == "generated":
        bench_generated([int(n) for n in args.runs] or [10, 20], args.budget or "1G")
    elif args.what == "campaign":
        folder, *count = args.runs
        bench_campaign(Path(folder).resolve(), int(count[0]) if count else 1000,
                       args.budget or "1G", args.keep)
    elif args.what == "huge":
        bench_huge(int(float(args.runs[0])) if args.runs else 10_000_000, args.budget or "512M")
    else:
        bench_growth(args.budget)
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
