"""inex_eval 3.1 -f and -t outputs (../shared/data/inex_ipcs) reproduced to 1e-9.

The oracle files were made without -c. The -c numbers are checked against what -c does in the
program: every qrels topic averaged, topics without results scoring 0, so each -c mean is the
no -c mean times num_q over the number of qrels topics.
"""

from __future__ import annotations

import itertools

import pandas as pd
import pytest

from builder.tasks import get_kind
from tests.oracle.inex_eval_program import parse_inex_eval

RUNS = ["bert_inex_converted", "bert_inex_converted_1"]
ORACLES = [("focused", "-f", run) for run in RUNS] + [("thorough", "-t", "bert_inex_converted")]


def oracle_table(path) -> pd.DataFrame:
    """inex_eval's printed rows of a saved output (``ircl_prn.x`` is our ``iP[x]``)."""
    return parse_inex_eval(path.read_text()).rename(columns={"official": "oracle"})


@pytest.fixture(scope="module")
def evaluations(shared_data):
    """(kind, complete, run file stem) -> (scores of that run, number of qrels topics).

    Both runs carry the run id TREC2INEX, so read together the second would be rejected for
    its name: each is read and evaluated on its own."""
    folder = shared_data / "inex_ipcs"
    results = {}
    for kind_name in ("focused", "thorough"):
        kind = get_kind(kind_name)
        qrels = kind.read_qrels(folder / "INEX_Qrels.txt")
        for complete, run in itertools.product((False, True), RUNS):
            options = kind.options_model(complete=complete)
            [read] = kind.read_runs([folder / "runs" / f"{run}.run"], qrels, options)
            assert not read.rejected and read.name == "TREC2INEX"
            evaluation = kind.evaluate(qrels, read.table, options)
            results[kind_name, complete, run] = (evaluation, len(qrels.topics))
    return results


@pytest.mark.parametrize(("kind", "flag", "run"), ORACLES)
def test_every_value_of_the_oracle(evaluations, shared_data, kind, flag, run):
    oracle = oracle_table(shared_data / "inex_ipcs" / "oracle_inex_eval_3.1" / f"inex_eval_{flag}_-q.{run}.txt")
    ours = evaluations[kind, False, run][0].scores
    merged = oracle.merge(ours, on=["measure", "topic"], how="left")
    assert len(oracle) > 1000
    assert merged["value"].notna().all(), merged[merged["value"].isna()].head()
    worst = (merged["value"] - merged["oracle"]).abs().max()
    assert worst <= 1e-9


@pytest.mark.parametrize(("kind", "run"), list(itertools.product(["focused", "thorough"], RUNS)))
def test_complete_averages_over_every_qrels_topic(evaluations, kind, run):
    plain = evaluations[kind, False, run][0].scores.set_index(["topic", "measure"])["value"]
    complete, n_topics = evaluations[kind, True, run]
    complete = complete.scores.set_index(["topic", "measure"])["value"]
    num_q = plain["all", "num_q"]
    assert complete["all", "num_q"] == n_topics
    for measure in ("iP[0.00]", "iP[0.01]", "iP[0.10]", "MAiP", "art_prec", "char_f1"):
        assert complete["all", measure] == pytest.approx(plain["all", measure] * num_q / n_topics)
    per_topic = complete.drop("all", level="topic")
    assert per_topic.index.get_level_values("topic").nunique() == n_topics


def test_impossible_recall_points_as_printed(evaluations, shared_data):
    text = (shared_data / "inex_ipcs" / "oracle_inex_eval_3.1" / "inex_eval_-f_-q.bert_inex_converted.txt").read_text()
    impossible = evaluations["focused", False, "bert_inex_converted"][0].extras["impossible_recall"]
    assert impossible["count"].sum() == text.count("Impossible recall point")
