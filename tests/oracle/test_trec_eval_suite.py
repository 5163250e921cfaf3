"""Oracle: trec_eval's own test suite (``../shared/data/trec_eval_tests``), line by line.

The ``out.*`` files come from trec_eval 10.0, whose interpolated precision rounds the recall
cutoff with lround; with ``--interpolation lround`` every line we print must be in the file and
every line of the file for a measure we implement must be ours. With the default exact
rounding only ``iprec_at_recall_*`` and ``11pt_avg`` lines may differ.
"""

from __future__ import annotations

import pytest

from builder.cli import main
from builder.measures.adhoc import scores as adhoc_measures
from builder.measures.registry import measures_of

SUITE = {
    # expected output: (flags, qrels, results); commands of the suite's README
    "out.test": ([], "qrels.test", "results.test"),
    "out.test.a": (["-m", "all_trec"], "qrels.test", "results.test"),
    "out.test.aq": (["-m", "all_trec", "-q"], "qrels.test", "results.test"),
    "out.test.aqc": (["-m", "all_trec", "-q", "-c"], "qrels.test", "results.trunc"),
    "out.test.aqcM": (["-m", "all_trec", "-q", "-c", "-M", "100"], "qrels.test", "results.trunc"),
    # As trec_eval's Makefile makes it: relstring of the first 20 documents.
    "out.test.aql": (["-m", "all_trec", "-m", "relstring.20", "-q", "-l", "2"], "qrels.rel_level",
                     "results.test"),
    "out.comment.test": ([], "qrels.comment.test", "results.comment.test"),
}
CASES = [*SUITE.items(), ("out.test", ([], "qrels.test.with-comments", "results.test"))]
INTERPOLATED = ("iprec_at_recall_", "11pt_avg")


def ours(capsys, folder, flags, qrels, results, interpolation):
    code = main(
        [
            "evaluate",
            *flags,
            # trec_eval averages over the run's topics unless -c; our evaluate, over all.
            *([] if "-c" in flags else ["--no-complete"]),
            "--interpolation",
            interpolation,
            str(folder / qrels),
            str(folder / results),
        ]
    )
    assert code == 0
    return capsys.readouterr().out.splitlines()


def implemented(lines):
    names = {"runid"} | {m.name for m in measures_of(adhoc_measures.FAMILY)}
    return [line for line in lines if line.split("\t")[0].strip() in names
            or line.startswith("relstring")]  # relstring, relstring_20: text, printed too


@pytest.mark.parametrize(("expected", "command"), CASES, ids=[f"{e}-{c[1]}" for e, c in CASES])
def test_lines_reproduced(capsys, shared_data, expected, command):
    folder = shared_data / "trec_eval_tests"
    want = implemented((folder / expected).read_text().splitlines())
    got = ours(capsys, folder, *command, "lround")
    assert got == want
    exact = ours(capsys, folder, *command, "exact")
    changed = [g for g, e in zip(got, exact) if g != e]
    assert len(exact) == len(got)
    assert all(line.startswith(INTERPOLATED) for line in changed)


MEAS_PARAMS = [
    "-q", "-miprec_at_recall..10,.20,.25,.75,.50", "-m", "P.5,7,3", "-m", "recall.20,2000",
    "-m", "Rprec_mult.5.0,0.2,0.35", "-mutility.2,-1,0,0", "-m", "11pt_avg..25,.5,.75",
    "-mndcg.1=3,2=9,4=4.5", "-mndcg_cut.10,20,23.4", "-msuccess.2,5,20",
]  # fmt: skip


def test_measure_parameters_reproduced_line_for_line(capsys, shared_data):
    """trec_eval's own ``out.test.meas_params``: every line, in order, nothing more."""
    folder = shared_data / "trec_eval_tests"
    code = main(
        ["evaluate", "--profile", "10.0", *MEAS_PARAMS,
         str(folder / "qrels.test"), str(folder / "results.test")]
    )  # fmt: skip
    assert code == 0
    assert capsys.readouterr().out == (folder / "out.test.meas_params").read_text()
