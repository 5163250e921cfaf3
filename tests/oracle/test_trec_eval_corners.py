"""Corners where trec_eval's printed output is followed under ``--profile``: each case a few
lines of qrels and run, run through trec_eval 9.0.8 and 10.0 built from ``../shared/tools``
and through ``appendix evaluate --profile VERSION``; every line and the exit status must be
the program's. The expected values are never written here: the program prints them."""

from __future__ import annotations

import pytest

from builder.cli import main
from tests.oracle.official import build_trec_eval, trec_eval_rows

GAIN_QRELS = "1 0 a 1\n1 0 b 3\n1 0 c 4\n1 0 d 2\n1 0 e 3\n1 0 f 1\n"
GAIN_RUN = "1 Q0 b 1 5 r\n1 Q0 a 2 4 r\n1 Q0 c 3 3 r\n1 Q0 z 4 2 r\n1 Q0 f 5 1 r\n"
RELSTRING_QRELS = "1 0 A 1\n1 0 B 0\n1 0 C 2\n1 0 D 12\n1 0 E -1\n2 0 X 1\n"
RELSTRING_RUN = ("1 Q0 A 1 9 r\n1 Q0 B 2 8 r\n1 Q0 Z 3 7 r\n1 Q0 C 4 6 r\n1 Q0 D 5 5 r\n"
                 "1 Q0 E 6 4 r\n2 Q0 X 1 3 r\n")
CASES = {
    # set_F.x is (x + 1) P R / (x P + R), x not squared.
    "set_F.2": ("1 0 A 1\n1 0 B 0\n1 0 C 1\n", "1 Q0 A 1 3 r\n1 Q0 B 2 2 r\n1 Q0 X 3 1 r\n",
                ["-m", "set_F.2"]),
    # A gain given to level 0 counts in the ideal ranking.
    "level 0 gain": ("1 0 A 1\n1 0 B 0\n", "1 Q0 B 1 2 r\n1 Q0 A 2 1 r\n",
                     ["-m", "ndcg.0=0.5", "-m", "G.0=0.5", "-m", "ndcg_rel.0=0.5",
                      "-m", "Rndcg.0=0.5"]),
    # Levels ordered by (int)(g1 - g2) through glibc's merge sort: 3.5 and 3 are "equal".
    "comparator order": (GAIN_QRELS, GAIN_RUN,
                         ["-m", "ndcg.1=3.5,2=9.0", "-m", "G.1=3.5,2=9.0",
                          "-m", "ndcg_rel.1=3.5,2=9.0", "-m", "Rndcg.1=3.5,2=9.0",
                          "-m", "binG.1=2"]),
    "level given twice": (GAIN_QRELS, GAIN_RUN, ["-m", "ndcg.1=3.5,1=0"]),
    "negative and fractional gains": (GAIN_QRELS, GAIN_RUN,
                                      ["-q", "-m", "G.1=0.5,2=-1", "-m", "ndcg_rel.1=0.5,3=-2",
                                       "-m", "Rndcg.1=0.5,2=0"]),
    "gains not increasing": ("5 0 A 4\n5 0 B 3\n5 0 C 1\n", "5 Q0 A 1 1 r\n",
                             ["-m", "ndcg.1=3.5"]),
    # -J: a topic whose retrieved documents are all unjudged keeps its rows.
    "-J all unjudged": ("1 0 A 1\n2 0 C 1\n", "1 Q0 A 1 2 r\n2 Q0 X 1 1 r\n",
                        ["-q", "-J", "-m", "map", "-m", "num_ret", "-m", "P.5"]),
    "-J -c all unjudged": ("1 0 A 1\n2 0 C 1\n3 0 E 1\n", "1 Q0 A 1 2 r\n2 Q0 X 1 1 r\n",
                           ["-q", "-J", "-c", "-m", "map", "-m", "num_ret"]),
    "-M 0": ("1 0 A 1\n2 0 C 1\n", "1 Q0 A 1 2 r\n2 Q0 X 1 1 r\n",
             ["-q", "-M", "0", "-m", "map", "-m", "num_ret", "-m", "P.5"]),
    # Every result counts under a profile, not 1000.
    "depth": ("1 0 d1100 1\n", "".join(f"1 Q0 d{i} {i} {2000 - i} r\n" for i in range(1, 1101)),
              ["-m", "num_ret", "-m", "map"]),
    # -c without any run topic judged: 9.0.8 stops (exit 7), 10.0 scores.
    "-c no topic": ("1 0 A 1\n2 0 C 1\n", "3 Q0 A 1 2 r\n", ["-c", "-m", "map"]),
    "-c parameterised utility": ("1 0 A 1\n1 0 B 0\n2 0 C 1\n2 0 D 1\n",
                                 "1 Q0 A 1 2 r\n1 Q0 B 2 1 r\n",
                                 ["-q", "-c", "-N", "10", "-m", "utility.1,-1,-0.5,0.25",
                                  "-m", "utility"]),
    "11pt_avg levels unsorted": ("1 0 A 1\n1 0 B 0\n1 0 C 1\n1 0 D 1\n",
                                 "1 Q0 A 1 5 r\n1 Q0 B 2 4 r\n1 Q0 X 3 3 r\n1 Q0 C 4 2 r\n",
                                 ["-m", "11pt_avg.0.9,0.2,0.5"]),
    "hexadecimal score": ("1 0 A 1\n1 0 B 0\n", "1 Q0 A 1 0x1.8p1 r\n1 Q0 B 2 2.5 r\n",
                          ["-q", "-m", "map"]),
    # relstring: printed per topic in all_trec, after P (levels above 9 '>', not in the qrels
    # '-', judged negative '.'), cut by -M and -J, its length truncated as C's (long).
    "relstring in all_trec": (RELSTRING_QRELS, RELSTRING_RUN, ["-q", "-m", "all_trec"]),
    "relstring -J -M -c": (RELSTRING_QRELS + "3 0 Y 1\n", RELSTRING_RUN,
                           ["-q", "-J", "-M", "5", "-c", "-m", "relstring", "-m", "P.5"]),
    "relstring parameters": (RELSTRING_QRELS, RELSTRING_RUN,
                             ["-q", "-m", "relstring.2.7", "-m", "relstring.-2"]),
}
TEN_ONLY = {
    "-c parameterised rbp_resid": ("1 0 A 1\n1 0 B 0\n2 0 C 1\n2 0 D 1\n",
                                   "1 Q0 A 1 2 r\n1 Q0 B 2 1 r\n",
                                   ["-q", "-c", "-m", "rbp_resid.p=0.5", "-m", "rbp_resid"]),
}


@pytest.fixture(scope="module")
def trec_eval(shared_tools, tmp_path_factory):
    folder = tmp_path_factory.mktemp("trec_eval")
    try:
        return {version: build_trec_eval(version, folder) for version in ("9.0.8", "10.0")}
    except FileNotFoundError as missing:
        pytest.fail(str(missing))


def _compare(binary, version, case, tmp_path, capsys):
    qrels_text, run_text, flags = case
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text(qrels_text)
    run.write_text(run_text)
    code, theirs = trec_eval_rows(binary, flags, qrels, run)
    capsys.readouterr()
    ours_flags = flags if "-c" in flags else [*flags, "--no-complete"]
    ours_code = main(["evaluate", "--profile", version, *ours_flags, str(qrels), str(run)])
    out = capsys.readouterr().out
    ours = [tuple(field.strip() for field in line.split("\t")) for line in out.splitlines()]
    assert ours_code == code
    assert [row for row in ours if row[0] != "runid"] == [row for row in theirs
                                                          if row[0] != "runid"]


@pytest.mark.parametrize("version", ["9.0.8", "10.0"])
@pytest.mark.parametrize("name", list(CASES))
def test_corner_prints_what_trec_eval_prints(trec_eval, version, name, tmp_path, capsys):
    _compare(trec_eval[version], version, CASES[name], tmp_path, capsys)


@pytest.mark.parametrize("name", list(TEN_ONLY))
def test_corner_of_10_prints_what_trec_eval_10_prints(trec_eval, name, tmp_path, capsys):
    _compare(trec_eval["10.0"], "10.0", TEN_ONLY[name], tmp_path, capsys)


def test_sorted_gain_order_is_the_definition(tmp_path, capsys):
    """--gain-order sorted: the ideal ranking best first (9, 4, 3.5, 3.5, 3, 3), not
    trec_eval's (9, 4, 3, 3, 3.5, 3.5); the two differ on this case."""
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text(GAIN_QRELS)
    run.write_text(GAIN_RUN)
    values = {}
    for order in ("trec_eval", "sorted"):
        main(["evaluate", "--no-complete", "--gain-order", order, "-m", "ndcg.1=3.5,2=9.0",
              "--format", "tsv", str(qrels), str(run)])
        rows = [line.split("\t") for line in capsys.readouterr().out.splitlines()]
        values[order] = float(next(r[3] for r in rows if r[2] == "all"))
    dcg = 3 + 3.5 / 1.584962500721156 + 4 / 2 + 3.5 / 2.584962500721156
    ideal = 9 + 4 / 1.584962500721156 + 3.5 / 2 + 3.5 / 2.321928094887362 \
        + 3 / 2.584962500721156 + 3 / 2.807354922057604
    assert values["sorted"] == pytest.approx(dcg / ideal)
    assert values["trec_eval"] != pytest.approx(values["sorted"])
