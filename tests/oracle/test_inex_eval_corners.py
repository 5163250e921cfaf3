"""Corners of inex_eval 3.1, each a few lines, against the jar's printed output
(``../shared/tools/inex_eval/inex_eval.jar``, run with java): a run none of whose topics is in
the qrels, and a topic split in two blocks of lines whose recall passes 1.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.oracle.inex_eval_program import compared, inex_eval, ours

pytestmark = pytest.mark.usefixtures("shared_tools")  # every test runs inex_eval's jar

KINDS = ["focused", "thorough", "relevant-in-context", "restricted-relevant-in-context",
         "best-in-context"]
MEANS = {"focused": "MAiP", "thorough": "MAiP", "relevant-in-context": "MAgP",
         "restricted-relevant-in-context": "MAgP", "best-in-context": "MAgP"}


def printed(kind: str, qrels: Path, run: Path, **options):
    """inex_eval's rows beside ours (-i's iP rows, a focused measure, left out)."""
    official = inex_eval(kind, qrels, run, complete=options.get("complete", False))
    if kind == "restricted-relevant-in-context":
        official = official[~official["measure"].str.startswith("iP[")]
    return compared(official, ours(kind, qrels, run, **options)[0])


def no_shared_topic(tmp_path: Path, kind: str) -> tuple[Path, Path]:
    """qrels of topic 1 and a run of topic 2 only (best in context: an entry point)."""
    qrels, run = tmp_path / "qrels.txt", tmp_path / "run.txt"
    qrels.write_text("1 Q0 10 100 1000 0 0:100\n")
    length = 0 if kind == "best-in-context" else 100
    run.write_text(f"2 Q0 20 1 -1 r 0 {length}\n")
    return qrels, run


@pytest.mark.parametrize("kind", KINDS)
def test_a_run_sharing_no_topic_with_the_qrels_has_nan_means_with_the_option(
        tmp_path: Path, kind: str) -> None:
    """qrels of topic 1, a run of topic 2 only: no topic is averaged, every mean is 0/0."""
    qrels, run = no_shared_topic(tmp_path, kind)
    nan = printed(kind, qrels, run, no_relevant_text="nan")
    at = nan.set_index(["measure", "topic"])
    assert at.loc[("num_q", "all"), "official"] == 0
    assert np.isnan(at.loc[(MEANS[kind], "all"), "official"])
    means = ~nan["measure"].isin(["num_q", "num_ret", "num_rel", "num_rel_ret", "ret_size",
                                  "rel_size", "rel_ret_size"])
    assert means.sum() > 10 and nan.loc[means, "official"].isna().all()
    assert len(nan) > 20 and nan["value"].notna().sum() == (~means).sum()
    same = np.isclose(nan["value"], nan["official"], rtol=0, atol=1e-9, equal_nan=True)
    assert same.all(), nan[~same]
    # By default a mean over no topic is 0 (the measures page lists it), the counts as printed.
    zero = printed(kind, qrels, run)
    assert (zero.loc[means, "value"] == 0).all()
    assert (zero.loc[~means, "value"] == zero.loc[~means, "official"]).all()


@pytest.mark.parametrize("kind", KINDS)
def test_a_run_sharing_no_topic_with_complete_averages_the_qrels_topics(
        tmp_path: Path, kind: str) -> None:
    """With -c the qrels topic is averaged (scoring 0): numbers, not NaN, in both programs."""
    qrels, run = no_shared_topic(tmp_path, kind)
    table = printed(kind, qrels, run, no_relevant_text="nan", complete=True)
    assert table.set_index(["measure", "topic"]).loc[(MEANS[kind], "all"), "official"] == 0
    assert len(table) > 20 and table["official"].notna().all()
    assert ((table["value"] - table["official"]).abs() <= 1e-9).all(), table


SPLIT_QRELS = "1 Q0 10 100 1000 50 0:100\n2 Q0 20 100 1000 50 0:100\n"


@pytest.mark.parametrize(("kind", "length"), [
    ("best-in-context", 0), ("relevant-in-context", 50), ("restricted-relevant-in-context", 50)])
def test_a_split_topic_with_recall_past_one_leaves_that_rank_out_of_the_curve(
        tmp_path: Path, kind: str, length: int) -> None:
    """Topic 1 again after topic 2: its article 10 is ranked twice, gR[2] = 2. inex_eval puts
    gP[2] in slot floor(10 gR) = 20 of its array of 101, which the 11-point curve never reads,
    so ircl_prn of topic 1 is gP[1] at every point (-b: 0.9, and 0.9 on average)."""
    qrels, run = tmp_path / "qrels.txt", tmp_path / "run.txt"
    qrels.write_text(SPLIT_QRELS)
    run.write_text(f"1 Q0 10 1 -1 r 0 {length}\n2 Q0 20 1 -1 r 0 {length}\n"
                   f"1 Q0 10 1 -1 r 50 {length}\n")
    table = printed(kind, qrels, run)
    at = table.set_index(["measure", "topic"])
    assert at.loc[("gR[2]", "1"), "official"] == 2
    curve = table[table["measure"].str.startswith("ircl_prn.")]
    assert len(curve) == 11
    if kind == "best-in-context":
        assert (curve["official"] == 0.9).all()
        assert at.loc[("gP[2]", "all"), "official"] == pytest.approx(0.925, abs=1e-12)
    assert len(table) > 60 and table["value"].notna().all()
    differ = table[(table["value"] - table["official"]).abs() > 1e-9]
    assert differ.empty, differ
