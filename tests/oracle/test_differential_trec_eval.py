"""Differential: ``appendix evaluate --profile 10.0`` against trec_eval 10.0 itself, built from
``../shared/tools`` in a temporary folder, on random qrels and runs full of corners (ties,
scores equal only in single precision, grades -1..3, topics missing on either side, depth cuts,
``-l 2``, ``-J`` with rankings of unjudged documents only, ``-N``, grades 0-4 with gains per
level (fractional, less than 1 apart, negative) for ndcg, G, ndcg_rel, Rndcg and binG,
``set_F.x``, ``utility`` and ``rbp_resid`` with parameters under ``-c``; and, read with ``--reading atof``, scores and relevance values that
are not numbers, which trec_eval reads with C's atof and atol). Every line trec_eval prints
(``-q -m all_trec``) must be ours, in its order; ``benchmarks/agreement_trec_eval.py`` runs
thousands of cases and counts by measure.

trec_eval 10.0 stops (exit 4) without ``-c`` when a qrels topic has no results, a regression
of 10.0 (9.0.8 leaves the topic out); the cases without ``-c`` give every qrels topic results.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from builder.cli import main
from tests.oracle.official import trec_eval_rows

TOPICS = ["1", "2", "10"]
DOCS = ["d0", "d1", "d2", "d3", "d4", "d5", "d10", "d11", "D1", "doc-7", "a", "zz9"]
SCORES = [1.0, 2.0, 0.5, 1.0000000001, 1.0000000002, -3.25, 1e-7, 12.0]
"""Few values, so ties are frequent; two equal in single precision only."""
ODD_SCORES = ["1.5abc", ".", "0x1A", "-0x.8p1", "abc", "1e", "2.5e+", "+.5x", "0X1f.8", "-",
              "1e-3zz", "0x", "12.0.1"]
"""Scores C's atof reads (1.5, 0, 26, -1, 0, 1, 2.5, 0.5, 31.5, 0, 0.001, 0, 12):
``--reading atof`` must read them as trec_eval does."""
ODD_GRADES = ["abc", "+-3", "-", "x1", "2.9", "+2", "1e3"]
UNJUDGED_DOCS = ["x1", "x2", "x3"]
"""Documents no qrels line names: a ranking of them only is emptied by -J."""
GAINS = ["0", "0.5", "1", "2.5", "3.5", "4", "9.0", "-1", "1.2"]
"""Gains per level, fractional and less than 1 apart, so trec_eval's comparator
``(int)(g1 - g2)`` calls some equal."""
"""Relevance values C's atol reads (0, 0, 0, 0, 2, 2, 1)."""


@st.composite
def campaigns(draw):
    complete = draw(st.booleans())
    qrels_topics = draw(st.lists(st.sampled_from(TOPICS), min_size=1, max_size=3, unique=True))
    run_topics = set(draw(st.lists(st.sampled_from(TOPICS), min_size=1, max_size=3, unique=True)))
    if not complete:
        run_topics |= set(qrels_topics)
    atof = draw(st.booleans())
    grade_texts = st.one_of(st.integers(-1, 3).map(str), st.sampled_from(ODD_GRADES)) if atof \
        else st.integers(-1, 3).map(str)
    score_texts = st.one_of(st.sampled_from(SCORES).map(repr), st.sampled_from(ODD_SCORES)) \
        if atof else st.sampled_from(SCORES).map(repr)
    qrels, run = [], []
    for topic in qrels_topics:
        docs = draw(st.lists(st.sampled_from(DOCS), min_size=1, max_size=10, unique=True))
        grades = [draw(grade_texts) if draw(st.booleans()) else str(draw(st.integers(0, 4)))
                  for _ in docs]
        grades[0] = "0" if grades[0] == "-1" else grades[0]  # judged only negatively: a crash
        qrels += [f"{topic} 0 {doc} {grade}" for doc, grade in zip(docs, grades)]
    for topic in sorted(run_topics):
        pool = UNJUDGED_DOCS if draw(st.integers(0, 5)) == 0 else DOCS + UNJUDGED_DOCS
        docs = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=12, unique=True))
        run += [f"{topic} Q0 {doc} {i} {draw(score_texts)} r"
                for i, doc in enumerate(docs, 1)]  # fmt: skip
    flags = ["-q", *draw(parameterised()), "-m", "all_trec"] + (["-c"] if complete else [])
    flags += draw(st.sampled_from([[], ["-M", "3"], ["-M", "5"]]))
    flags += draw(st.sampled_from([[], ["-l", "2"]]))
    flags += draw(st.sampled_from([[], [], ["-J"], ["-N", "40"]]))
    return "\n".join(qrels) + "\n", "\n".join(run) + "\n", flags, atof


@st.composite
def parameterised(draw):
    """-m requests with parameters: gains per level 0-4 for the gain measures (binG takes
    and ignores them), set_F.x, utility's four coefficients, rbp_resid's p."""
    flags = []
    for family in draw(st.lists(st.sampled_from(["ndcg", "G", "ndcg_rel", "Rndcg", "binG"]),
                                max_size=3, unique=True)):
        levels = draw(st.lists(st.integers(0, 4), min_size=1, max_size=3))
        flags += ["-m", f"{family}." + ",".join(f"{k}={draw(st.sampled_from(GAINS))}"
                                                for k in levels)]
    if draw(st.booleans()):
        flags += ["-m", f"set_F.{draw(st.sampled_from(['0.5', '2', '0.25', '3']))}"]
    if draw(st.booleans()):
        flags += ["-m", "utility." + ",".join(draw(st.lists(
            st.sampled_from(["1", "-1", "-0.5", "0.25", "2"]), min_size=4, max_size=4)))]
    if draw(st.booleans()):
        flags += ["-m", f"rbp_resid.p={draw(st.sampled_from(['0.5', '0.8', '0.95']))}"]
    return flags


@pytest.fixture(scope="module")
def trec_eval_10(trec_eval_binary):
    return trec_eval_binary("10.0")


@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(case=campaigns())
def test_every_line_equals_trec_eval_10(trec_eval_10, tmp_path, capsys, case):
    qrels_text, run_text, flags, atof = case
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text(qrels_text)
    run.write_text(run_text)
    code, theirs = trec_eval_rows(trec_eval_10, flags, qrels, run)
    capsys.readouterr()
    # Our evaluate averages over every qrels topic unless told otherwise (trec_eval needs -c).
    ours_flags = flags if "-c" in flags else [*flags, "--no-complete"]
    ours_flags += ["--reading", "atof"] if atof else []
    ours_code = main(["evaluate", "--profile", "10.0", *ours_flags, str(qrels), str(run)])
    out = capsys.readouterr().out
    ours = [tuple(field.strip() for field in line.split("\t")) for line in out.splitlines()]
    if code == 7:  # no topic of the run judged
        assert ours_code == 7 and ours == []
        return
    assert code == 0
    # With -J, a ranking left without documents gives trec_eval 0/0: "-nan" for
    # iprec_at_recall and 11pt_avg, and a "-nan" mean; we print 0 (see the measures page).
    nan = {(m, t) for m, t, v in theirs if v.strip().endswith("nan")}
    nan |= {(m, "all") for m, _ in nan}
    assert [row for row in ours if row[:2] not in nan] == [
        row for row in theirs if row[:2] not in nan
    ], (qrels_text, run_text, flags)
