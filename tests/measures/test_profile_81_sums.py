"""``--profile 8.1``'s means against their definition, where trec_eval 8.1 itself cannot be
built (its source is not among the official programs beside the project; with a copy of
trec_eval's history, ``tests/oracle/test_trec_eval_81.py`` compares with the program).

trec_eval 8.1 keeps each per-topic value as a C ``float``, adds them one topic after another
in ``float`` and divides by the number of topics in ``float`` (``trec_eval.c``,
``accumulate_results``); under ``-c`` its ``num_rel`` is the sum over the topics with results.
The brute force below does exactly that with numpy's ``float32`` scalars, a topic at a time.
"""

from __future__ import annotations

import io
import random
from contextlib import redirect_stdout
from pathlib import Path

import numpy as np
import pytest

from builder.cli import main

MEANS = ("map", "P_5", "P_10", "recip_rank", "Rprec", "bpref")


def campaign(folder: Path, seed: int) -> tuple[Path, Path]:
    """Qrels and a run over 40 topics with scores and grades drawn at random (many topics, so
    that a sum in double and a sum in float part in the last printed digits)."""
    draw = random.Random(seed)
    qrels, run = [], []
    for topic in range(1, 41):
        docs = [f"d{k}" for k in range(draw.randint(3, 40))]
        for doc in docs:
            if draw.random() < 0.6:
                qrels.append(f"{topic} 0 {doc} {draw.choice((0, 0, 1, 2))}")
        if topic % 7 == 0:
            continue  # a topic without results (in the qrels: counted under -c)
        for rank, doc in enumerate(draw.sample(docs, len(docs))):
            run.append(f"{topic} Q0 {doc} {rank} {draw.uniform(0, 30):.6f} r")
    (folder / "qrels").write_text("\n".join(qrels) + "\n")
    (folder / "run").write_text("\n".join(run) + "\n")
    return folder / "qrels", folder / "run"


def evaluated(qrels: Path, run: Path, *flags: str) -> dict[tuple[str, str], float]:
    out = io.StringIO()
    with redirect_stdout(out):
        status = main(["evaluate", "--profile", "8.1", "--format", "tsv", *flags,
                       *[a for m in (*MEANS, "num_rel", "num_q", "num_ret") for a in ("-m", m)],
                       str(qrels), str(run)])
    assert status == 0
    rows = [line.split("\t") for line in out.getvalue().splitlines()]
    return {(measure, topic): float(value) for _, measure, topic, value in rows}


@pytest.mark.parametrize("seed", [3, 11, 29])
@pytest.mark.parametrize("complete", [False, True])
def test_means_are_float_sums_topic_after_topic(tmp_path, seed, complete):
    qrels, run = campaign(tmp_path, seed)
    scores = evaluated(qrels, run, "-c" if complete else "--no-complete")
    for measure in MEANS:
        topics = sorted((t for m, t in scores if m == measure and t != "all"), key=str)
        total = np.float32(0)
        for topic in topics:
            value = scores[measure, topic]
            assert np.float32(value) == value  # each per-topic value is a C float
            total = np.float32(total + np.float32(value))
        count = np.float32(scores["num_q", "all"])  # under -c, the qrels' topics
        assert scores[measure, "all"] == float(np.float32(total / count)), measure
    with_results = [t for m, t in scores if m == "num_ret" and t != "all" and scores[m, t] > 0]
    assert scores["num_rel", "all"] == sum(scores["num_rel", t] for t in with_results)
