"""Benchmark: a focused campaign of INEX 2007 size, generated from the real qrels.

79 runs x 107 topics x 1500 passages (the size of Pal, Mitra and Chakraborty's stability
study of the INEX 2007 measures) = 12.7M passages. Prints wall and CPU time and peak memory
of the evaluation, and the machine's load before and after (target: under 30 s and 4 GB on 2
cores).

    python benchmarks/bench_inex.py [--runs 79] [--topics 107] [--passages 1500] [--kind focused]

``generate_fol_runs`` is reusable (the in-context benchmark extends it): passages come in
article order, each article cut into ``slots`` disjoint slots, so runs never overlap and each
article's passages are contiguous lines.
"""

from __future__ import annotations

import argparse
import os
import resource
import time
from pathlib import Path

# isort: off
from builder.cli import prepare_process

prepare_process()  # before numpy is imported, as the ``appendix`` command does: its page policy
# isort: on
import numpy as np
import pandas as pd

from builder.formats.inex.qrels import InexQrels, read_inex_qrels

QRELS = Path(__file__).resolve().parents[2] / "shared" / "data" / "inex_ipcs" / "INEX_Qrels.txt"


def generate_fol_runs(
    qrels: InexQrels, runs: int, topics: int, passages: int, slots: int = 5, seed: int = 2007
) -> pd.DataFrame:
    """A run table (``builder.formats.inex.fol_run.COLUMNS``) of ``runs`` runs over the first topics.

    Each topic's articles are its judged articles followed by random other judged files; each
    (run, topic) ranks ``passages // slots`` of them in a random order, ``slots`` passages each.
    """
    rng = np.random.default_rng(seed)
    articles = qrels.articles
    chosen = qrels.topics[:topics]
    pool_files = articles["file"].to_numpy()
    pool_chars = articles["doc_chars"].to_numpy()
    per_topic = -(-passages // slots)
    frames = []
    for topic in chosen:
        own = articles.index[articles["topic"] == topic].to_numpy()
        extra = rng.integers(0, len(articles), size=max(per_topic * 2 - len(own), 0))
        candidates = np.concatenate([own, extra])
        picks = np.argsort(rng.random((runs, len(candidates))), axis=1)[:, :per_topic]
        article_rows = candidates[picks].reshape(-1)
        run_code = np.repeat(np.arange(runs), per_topic)
        frames.append(pd.DataFrame({"run_code": run_code, "topic": topic, "row": article_rows}))
    ranked = pd.concat(frames, ignore_index=True)
    ranked = ranked.loc[ranked.index.repeat(slots)].reset_index(drop=True)
    slot = np.tile(np.arange(slots), len(ranked) // slots)
    chars = pool_chars[ranked["row"].to_numpy()]
    width = np.maximum(chars // slots, 1)
    start = slot * width + rng.integers(0, np.maximum(width // 4, 1))
    length = np.maximum(width - rng.integers(0, np.maximum(width // 2, 1)), 1)
    length = np.minimum(length, (slot + 1) * width - start)
    table = pd.DataFrame(
        {
            "run": pd.Categorical.from_codes(ranked["run_code"], [f"run{i:02d}" for i in range(runs)]).astype(str),
            "topic": ranked["topic"].to_numpy(),
            "file": pool_files[ranked["row"].to_numpy()],
            "offset": start.astype(np.int64),
            "length": np.maximum(length, 0).astype(np.int64),
        }
    )
    table = table.groupby(["run", "topic"], sort=False).head(passages)
    table = table.sort_values("run", kind="stable", ignore_index=True)
    table["line"] = table.groupby("run").cumcount().to_numpy() + 1
    table["order"] = table.groupby(["run", "topic"]).cumcount().to_numpy() + 1
    table["rank"] = table["order"].astype(np.float64)
    table["score"] = -table["rank"]
    table["tag"] = table["run"]
    return table


def peak_memory_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=79)
    parser.add_argument("--topics", type=int, default=107)
    parser.add_argument("--passages", type=int, default=1500)
    parser.add_argument("--kind", default="focused", choices=["focused", "thorough"])
    args = parser.parse_args()

    from builder.tasks import get_kind

    kind = get_kind(args.kind)
    print("load average before: " + ", ".join(f"{value:.2f}" for value in os.getloadavg()))
    qrels = read_inex_qrels(QRELS)
    started = time.perf_counter()
    runs = generate_fol_runs(qrels, args.runs, args.topics, args.passages)
    generated = time.perf_counter() - started
    print(f"generated {len(runs):,} passages in {generated:.1f} s (peak {peak_memory_mb():,.0f} MB)")
    started, cpu = time.perf_counter(), time.process_time()
    evaluation = kind.evaluate(qrels, runs, kind.options_model())
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    print(f"{args.kind}: {args.runs} runs x {args.topics} topics x {args.passages} passages")
    print(f"evaluation wall time {elapsed:.1f} s, CPU {cpu:.1f} s, "
          f"{len(evaluation.scores):,} score rows")
    print(f"peak memory (whole process) {peak_memory_mb():,.0f} MB")
    print("load average after: " + ", ".join(f"{value:.2f}" for value in os.getloadavg()))


if __name__ == "__main__":
    main()
