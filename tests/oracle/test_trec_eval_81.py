"""``--profile 8.1`` against trec_eval 8.1's printed output: 8.1 is built from tag ``v8.1`` of
usnistgov/trec_eval's history (``tests.oracle.official.build_trec_eval_81``: a git copy named
by ``APPENDIX_TREC_EVAL_GIT`` or at ``../shared/tools/trec_eval.git``); without one the tests
are skipped, saying why (``../shared/tools`` holds 9.0.8 and 10.0 only).

8.1 keeps every per-topic value as a C ``float``, adds them topic after topic in ``float``
and divides in ``float``; under ``-c`` its ``num_rel`` sums the topics with results only.
Every line it prints (its names: ``P5``, ``R-prec``, ``gm_ap``, ``ircl_prn.0.10``) must be ours.
"""

from __future__ import annotations

import random
import subprocess

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from builder.cli import main
from tests.oracle.official import build_trec_eval_81

NAMES_81 = {"R-prec": "Rprec", "gm_ap": "gm_map",
            **{f"P{k}": f"P_{k}" for k in (5, 10, 15, 20, 30, 100, 200, 500, 1000)},
            **{f"ircl_prn.{i / 10:.2f}": f"iprec_at_recall_{i / 10:.2f}" for i in range(11)}}


@pytest.fixture(scope="module")
def trec_eval_81(shared_tools, tmp_path_factory):
    try:
        return build_trec_eval_81(tmp_path_factory.mktemp("trec_eval_81"))
    except FileNotFoundError as missing:
        pytest.skip(str(missing))


def campaign(seed: int) -> tuple[str, str]:
    """Many topics (so that float sums round), grades 0-2, unjudged documents, ties, a topic
    of the qrels without results; the run in ascending topic order, as 8.1 adds them."""
    rng = random.Random(seed)
    qrels, run = [], []
    topics = rng.randint(15, 40)
    for topic in range(100, 100 + topics):
        docs = [f"d{topic}_{i}" for i in range(rng.randint(3, 12))]
        for doc in docs:
            qrels.append(f"{topic} 0 {doc} {rng.choice([0, 0, 1, 1, 2])}")
        if topic == 100 + topics - 1:
            continue  # judged, not retrieved
        ranked = rng.sample([*docs, "x1", "x2", "x3"], rng.randint(1, len(docs) + 3))
        for rank, doc in enumerate(ranked, 1):
            score = rng.choice([rank, 50 - rank, 7])  # ties now and then
            run.append(f"{topic} Q0 {doc} {rank} {score} r")
    return "\n".join(qrels) + "\n", "\n".join(run) + "\n"


def printed_81(binary, flags: list[str], qrels, run) -> dict[tuple[str, str], str]:
    done = subprocess.run([str(binary), *flags, str(qrels), str(run)], capture_output=True,
                          text=True, check=True)
    rows = {}
    for line in done.stdout.splitlines():
        measure, topic, value = (field.strip() for field in line.split("\t"))
        rows[(NAMES_81.get(measure, measure), topic)] = value
    return rows


def ours(capsys, flags: list[str], qrels, run) -> dict[tuple[str, str], str]:
    capsys.readouterr()
    complete = [] if "-c" in flags else ["--no-complete"]
    assert main(["evaluate", "--profile", "8.1", *flags, *complete, str(qrels), str(run)]) == 0
    rows = {}
    for line in capsys.readouterr().out.splitlines():
        measure, topic, value = (field.strip() for field in line.split("\t"))
        if measure != "runid":
            rows[(measure, topic)] = value
    return rows


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), complete=st.booleans())
@example(seed=9, complete=False)  # P_200, P_1000 means: float sums print otherwise
@example(seed=19, complete=True)  # and -c num_rel: the topics with results
def test_every_line_equals_trec_eval_81(trec_eval_81, tmp_path, capsys, seed, complete):
    qrels_text, run_text = campaign(seed)
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text(qrels_text)
    run.write_text(run_text)
    flags = ["-q", *(["-c"] if complete else [])]
    theirs = printed_81(trec_eval_81, flags, qrels, run)
    mine = ours(capsys, flags, qrels, run)
    assert len(theirs) > 100 and ("num_rel", "all") in theirs
    assert mine == theirs, {k: (mine.get(k), theirs.get(k))
                            for k in mine.keys() | theirs.keys() if mine.get(k) != theirs.get(k)}
