"""Benchmark: the XML element index of a generated Wikipedia-like corpus, and element results
resolved over it.

Generates ``--articles`` articles (default 50,000, about 310 MB), builds the index with every
core, and prints the build's MB/s (per core too) and peak memory of the process tree; then
resolves ``--results`` element results (default 1.5M, TREC-like element format, paths drawn
from the index) and prints results per second. Targets: 20 MB/s or more per core for the
index, 1M results per second or more for resolution. Beside the build, a same-run ratio on
the first ``--reference`` articles in this one process (CPU seconds): the index's per-chunk
work against the reference walk over lxml's tree that the tests compare it with
(``tests/formats/xml_walk.py``, one Python step per node).

    python benchmarks/bench_xml_corpus.py [--articles 50000] [--results 1500000] [--dir DIR]
                                          [--reference 2000]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' reference walk

# isort: off
from builder.cli import prepare_process

prepare_process()  # before numpy is imported, as the ``appendix`` command does: its page policy
# isort: on
import numpy as np

from builder.demo.inex.xml_articles import write_articles
from builder.formats.xml.corpus_index import CorpusIndex
from builder.formats.xml.elements.resolve import resolve_element_run
from builder.formats.xml.elements.run import read_element_run
from builder.formats.xml.index_build import CHUNK_ARTICLES, _index_chunk, build_index


def cpu_seconds() -> float:
    """CPU seconds of this process and of its waited-for children (the index's workers): on a
    shared machine, MB per CPU second says what a core does whatever the others run."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def peak_mb() -> tuple[float, float]:
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return own, children


def reference_ratio(corpus: Path, count: int) -> None:
    """CPU seconds of the index's chunk work and of the reference walk, same articles, one
    process, each timed twice (the better kept: the first pass also faults memory in)."""
    from tests.formats.xml_walk import walk_article

    files = sorted(corpus.iterdir())[:count]
    articles = [(path.stem, path.read_bytes()) for path in files]
    size = sum(len(data) for _, data in articles) / 1e6
    chunks = [articles[i:i + CHUNK_ARTICLES] for i in range(0, len(articles), CHUNK_ARTICLES)]
    timings = {}
    for name, work in (("index", lambda: [_index_chunk(chunk) for chunk in chunks]),
                       ("walk", lambda: [walk_article(data) for _, data in articles])):
        best = float("inf")
        for _ in range(2):
            start = time.process_time()
            work()
            best = min(best, time.process_time() - start)
        timings[name] = best
    print(f"same run, {len(articles):,} articles ({size:.1f} MB), one process: index chunks "
          f"{size / timings['index']:.1f} MB per CPU second, reference walk "
          f"{size / timings['walk']:.1f} (ratio {timings['walk'] / timings['index']:.2f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--articles", type=int, default=50_000)
    parser.add_argument("--results", type=int, default=1_500_000)
    parser.add_argument("--dir", type=Path, help="work folder (default: a temporary one)")
    parser.add_argument("--reference", type=int, default=2000,
                        help="articles for the same-run ratio against the reference walk")
    args = parser.parse_args()
    work = args.dir or Path(tempfile.mkdtemp(prefix="bench-xml-"))
    corpus = work / "corpus"
    if not corpus.is_dir():
        start = time.perf_counter()
        write_articles(corpus, args.articles)
        print(f"generated {args.articles:,} articles in {time.perf_counter() - start:.1f} s")
    size = sum(p.stat().st_size for p in corpus.iterdir())
    cores = os.cpu_count() or 1
    shutil.rmtree(work / "cache", ignore_errors=True)
    start, cpu = time.perf_counter(), cpu_seconds()
    build_index(corpus, work / "cache" / "index", workers=cores)
    seconds, cpu = time.perf_counter() - start, cpu_seconds() - cpu
    own, children = peak_mb()
    print(f"index: {size / 1e6:,.0f} MB in {seconds:.1f} s = {size / 1e6 / seconds:.1f} MB/s "
          f"({size / 1e6 / seconds / cores:.1f} MB/s per core, {cores} cores; "
          f"{size / 1e6 / cpu:.1f} MB per CPU second, all processes); peak RSS "
          f"{own:.0f} MB (this process), {children:.0f} MB (largest worker); "
          f"load average {os.getloadavg()[0]:.1f}")

    reference_ratio(corpus, args.reference)

    index = CorpusIndex(corpus, work / "cache" / "index")
    nodes = index.nodes().to_pandas()
    elements = nodes[~nodes["is_text"]]
    rng = np.random.default_rng(7)
    picks = elements.iloc[rng.integers(0, len(elements), size=args.results)]
    topics = np.repeat(np.arange(1, args.results // 1500 + 2), 1500)[:args.results]
    run = work / "elements.txt"
    with run.open("w") as handle:
        for topic, file, path, rank in zip(topics, picks["file"], picks["path"],
                                           np.arange(args.results)):
            handle.write(f"{topic} Q0 {file} {rank} 1 bench {path}\n")
    start = time.perf_counter()
    table, findings = read_element_run(run, label="elements.txt")
    read_seconds = time.perf_counter() - start
    start, cpu = time.perf_counter(), cpu_seconds()
    fol, unresolved = resolve_element_run(table, index, "elements.txt")
    resolve_seconds, cpu = time.perf_counter() - start, cpu_seconds() - cpu
    assert not findings and not unresolved and len(fol) == args.results
    own, _ = peak_mb()
    print(f"results: read {args.results:,} in {read_seconds:.2f} s; resolved in "
          f"{resolve_seconds:.2f} s = {args.results / resolve_seconds / 1e6:.2f} M results/s "
          f"({args.results / cpu / 1e6:.2f} M per CPU second); "
          f"peak RSS {own:.0f} MB")
    if args.dir is None:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
