"""Benchmark: the in-context tasks (relevant, restricted, best in context) at INEX 2007 size.

INEX 2007 had about a hundred topics and 60-80 submitted runs per in-context task, each
ranking up to 1500 results a topic. Runs are generated from the real INEX 2009-2010 qrels of
``../shared/data/inex_ipcs`` (their articles, lengths and highlighted passages), so that the
relevant text, the BEPs and the reading with a tolerance are exercised as on real data:
per topic, ``articles`` ranked articles (a third of them relevant), ``passages`` contiguous
passages each. Prints wall time and peak memory of validation and evaluation.

    python benchmarks/bench_inex_in_context.py [--runs 70 --topics 107 ...]
"""

from __future__ import annotations

import argparse
import resource
import time
import tracemalloc
from functools import partial
from pathlib import Path

# isort: off
from builder.cli import prepare_process

prepare_process()  # before numpy is imported, as the ``appendix`` command does: its page policy
# isort: on
import numpy as np
import pandas as pd

from builder.formats.inex.qrels import read_inex_qrels
from builder.measures.inex.in_context.scores import evaluate_in_context
from builder.validate.in_context import validate_in_context

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "inex_ipcs"


def generate_runs(
    qrels_path: Path, runs: int, topics: int, articles: int, passages: int, seed: int = 7
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(relevant in context runs, best in context runs) as FOL run tables."""
    rng = np.random.default_rng(seed)
    judged = read_inex_qrels(qrels_path).articles
    topic_ids = np.array(sorted(judged["topic"].unique()))[:topics]
    judged = judged[judged["topic"].isin(topic_ids)]
    n_results = runs * len(topic_ids) * articles
    run_of = np.repeat(np.arange(runs), len(topic_ids) * articles)
    topic_index = np.tile(np.repeat(np.arange(len(topic_ids)), articles), runs)
    topic_of = topic_ids[topic_index]

    # A third of the ranked articles are judged ones of the topic, the rest unjudged.
    by_topic = judged.groupby("topic")
    first = by_topic.indices
    starts = np.array([first[t][0] for t in topic_ids])
    counts = np.array([len(first[t]) for t in topic_ids])
    pick = starts[topic_index] + rng.integers(0, 1 << 30, n_results) % counts[topic_index]
    from_qrels = rng.random(n_results) < 1 / 3
    file = np.where(
        from_qrels, judged["file"].to_numpy()[pick],
        (10_000_000 + rng.integers(0, 5_000_000, n_results)).astype(str),
    )
    doc_chars = np.where(from_qrels, judged["doc_chars"].to_numpy()[pick], 20_000)
    bep = np.where(from_qrels, judged["bep"].to_numpy()[pick], 0)
    # Duplicate picks within a topic would interleave: keep each article's first rank only.
    unique = ~pd.DataFrame({"r": run_of, "t": topic_of, "f": file}).duplicated().to_numpy()
    run_of, topic_of, file, doc_chars, bep = (
        a[unique] for a in (run_of, topic_of, file, doc_chars, bep)
    )

    length = rng.integers(100, 2000, (len(file), passages))
    offset = rng.integers(0, np.maximum(doc_chars // 2, 1))[:, None] + np.cumsum(length, axis=1) - length
    ric = _table(run_of, topic_of, np.repeat(file, passages), offset.ravel(), length.ravel(), passages)
    entry = np.maximum(bep + rng.integers(-700, 700, len(file)), 0)
    bic = _table(run_of, topic_of, file, entry, np.zeros(len(file), np.int64), 1)
    return ric, bic


def _table(run_of, topic_of, file, offset, length, per_article) -> pd.DataFrame:
    table = pd.DataFrame(
        {
            "run": np.char.add("run", np.repeat(run_of, per_article).astype(str)),
            "topic": np.repeat(topic_of, per_article),
            "file": file,
            "offset": offset.astype(np.int64),
            "length": length.astype(np.int64),
        }
    )
    table["line"] = table.groupby("run").cumcount() + 1
    table["order"] = table.groupby(["run", "topic"]).cumcount() + 1
    return table


def measure(label: str, action, trace: bool) -> object:
    """Run ``action``; print its wall time and memory (tracemalloc's peak, which slows numpy
    and pandas several times, only with ``trace``; else the process's peak resident size)."""
    if trace:
        tracemalloc.start()
    began = time.perf_counter()
    result = action()
    seconds = time.perf_counter() - began
    if trace:
        memory = f"peak {tracemalloc.get_traced_memory()[1] / 2**20:7.0f} MiB traced"
        tracemalloc.stop()
    else:
        memory = f"process peak {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**10:7.0f} MiB"
    print(f"{label:<32} {seconds:7.2f} s   {memory}")
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=70)
    parser.add_argument("--topics", type=int, default=107)
    parser.add_argument("--articles", type=int, default=500, help="ranked articles a topic")
    parser.add_argument("--passages", type=int, default=3, help="passages an article (RiC)")
    parser.add_argument("--qrels", type=Path, default=DATA / "INEX_Qrels.txt")
    parser.add_argument("--trace-memory", action="store_true", help="tracemalloc each step")
    args = parser.parse_args()

    ric, bic = generate_runs(args.qrels, args.runs, args.topics, args.articles, args.passages)
    qrels = read_inex_qrels(args.qrels)
    topics = set(qrels.articles["topic"])
    print(f"{args.runs} runs, {ric['topic'].nunique()} topics: {len(ric):,} passage lines "
          f"(relevant in context), {len(bic):,} entry points (best in context)")
    trace = args.trace_memory
    measure("validate relevant in context", lambda: [
        validate_in_context(t, name, topics) for name, t in ric.groupby("run", sort=False)], trace)
    measure("validate best in context", lambda: [
        validate_in_context(t, name, topics, best=True)
        for name, t in bic.groupby("run", sort=False)], trace)
    for kind, runs in (("relevant", ric), ("restricted", ric), ("best", bic)):
        result = measure(
            f"evaluate {kind} in context", partial(evaluate_in_context, runs, qrels, kind), trace
        )
        mean = result.scores.query("topic == 'all' and measure == 'MAgP'")["value"].mean()
        print(f"{'':<32} mean MAgP over the runs {mean:.4f}")


if __name__ == "__main__":
    main()
