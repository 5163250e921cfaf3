"""``appendix compare`` end to end on tiny inline TREC files (real ad hoc kind, real tests)."""

from __future__ import annotations

import io
import typing

import pandas as pd
import pytest

from builder.cli import build_parser, main
from builder.config.significance import (
    CORRECTION_LABELS,
    TEST_LABELS,
    Correction,
    SignificanceTest,
)
from builder.stats.significance.tables import SIGNIFICANCE_COLUMNS

TOPICS = range(1, 6)
QRELS = "".join(f"{t} 0 t{t}-rel 1\n{t} 0 t{t}-non 0\n" for t in TOPICS)
# per-topic AP: A = 1 everywhere, B = 0.5 everywhere, C = (1, 0.5, 0, 0, 0)
RUNS = {
    "A": "".join(f"{t} Q0 t{t}-rel 1 2.0 A\n{t} Q0 t{t}-non 2 1.0 A\n" for t in TOPICS),
    "B": "".join(f"{t} Q0 t{t}-non 1 2.0 B\n{t} Q0 t{t}-rel 2 1.0 B\n" for t in TOPICS),
    "C": "1 Q0 t1-rel 1 2.0 C\n2 Q0 t2-non 1 2.0 C\n2 Q0 t2-rel 2 1.0 C\n"
    + "".join(f"{t} Q0 t{t}-non 1 2.0 C\n" for t in (3, 4, 5)),
}


@pytest.fixture
def campaign(tmp_path):
    (tmp_path / "qrels.txt").write_text(QRELS)
    for name, text in RUNS.items():
        (tmp_path / f"{name}.run").write_text(text)
    (tmp_path / "broken.run").write_text("1 Q0 t1-rel 1 2.0 X\n1 Q0\n")
    return tmp_path


def compare(campaign, capsys, *options: str, runs=("A", "B", "C")) -> tuple[pd.DataFrame, str]:
    paths = [str(campaign / f"{name}.run") for name in runs]
    if "--format" not in options:
        options = (*options, "--format", "csv")
    code = main(["compare", str(campaign / "qrels.txt"), *paths, *options])
    out, err = capsys.readouterr()
    assert code == 0, err
    sep = "\t" if "tsv" in options else ","
    return pd.read_csv(io.StringIO(out), sep=sep), err


def test_exact_randomization_with_holm(campaign, capsys) -> None:
    table, _ = compare(campaign, capsys)
    assert list(table.columns) == SIGNIFICANCE_COLUMNS
    rows = table.set_index(["run_a", "run_b"])
    assert list(rows.index) == [("A", "B"), ("A", "C"), ("B", "C")]
    assert (table["measure"] == "map").all() and (table["test"] == "randomization").all()
    # 2^5 sign vectors: A-B = 0.5 everywhere, only the two uniform signs reach |2.5| -> 2/32;
    # A-C = (0, .5, 1, 1, 1) -> 4/32; B-C = (-.5, 0, .5, .5, .5) -> 20/32
    assert rows["p_value"].tolist() == pytest.approx([0.0625, 0.125, 0.625])
    assert rows["p_adjusted"].tolist() == pytest.approx([0.1875, 0.25, 0.625])
    assert rows["mean_diff"].tolist() == pytest.approx([0.5, 0.7, 0.2])
    assert not table["significant"].any()


def test_options_and_a_rejected_run(campaign, capsys) -> None:
    options = ("--test", "sign", "--correction", "none", "--alpha", "0.5", "--format", "tsv")
    table, err = compare(campaign, capsys, *options, runs=("A", "broken", "C"))
    assert "broken.run" in err and "rejected" in err
    assert len(table) == 1 and table.loc[0, "run_a"] == "A" and table.loc[0, "run_b"] == "C"
    assert table.loc[0, "p_value"] == pytest.approx(0.125)  # 4 wins of 4 decided: 2 / 2^4
    assert table.loc[0, "p_adjusted"] == table.loc[0, "p_value"] and table.loc[0, "significant"]


def test_unknown_measure_is_refused(campaign, capsys) -> None:
    paths = [str(campaign / f"{name}.run") for name in ("A", "B")]
    code = main(["compare", str(campaign / "qrels.txt"), *paths, "--measure", "nope"])
    assert code == 2 and "nope" in capsys.readouterr().err


def test_the_default_output_is_a_table_to_read(campaign, capsys) -> None:
    paths = [str(campaign / f"{name}.run") for name in ("A", "B", "C")]
    assert main(["compare", str(campaign / "qrels.txt"), *paths]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("map: Fisher's randomization test") and "3 pairs, 0 significant" in lines[0]
    assert lines[1].split() == ["run", "A", "run", "B", "mean", "A", "mean", "B", "A-B", "95%",
                                "CI", "p", "adj.", "p", "sig."]
    rows = [line.split() for line in lines[2:]]
    # A = 1 everywhere, B = 0.5, C = (1, .5, 0, 0, 0): means 1, .5, .3; p as in the CSV test
    assert rows[0][:5] == ["A", "B", "1.0000", "0.5000", "+0.5000"]
    assert rows[1][:5] == ["A", "C", "1.0000", "0.3000", "+0.7000"]
    assert rows[2][:5] == ["B", "C", "0.5000", "0.3000", "+0.2000"]
    assert [row[-3:] for row in rows] == [["0.0625", "0.1875", "no"], ["0.1250", "0.2500", "no"],
                                          ["0.6250", "0.6250", "no"]]
    # columns line up: each header starts where its values do (numbers right-aligned)
    assert len({len(line) for line in lines[1:]}) == 1


def test_json_output_has_the_csv_columns(campaign, capsys) -> None:
    import json

    paths = [str(campaign / f"{name}.run") for name in ("A", "B")]
    assert main(["compare", str(campaign / "qrels.txt"), *paths, "--format", "json"]) == 0
    records = json.loads(capsys.readouterr().out)
    assert len(records) == 1 and list(records[0]) == SIGNIFICANCE_COLUMNS
    assert records[0]["mean_diff"] == pytest.approx(0.5)


def test_help_explains_the_columns(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["compare", "--help"])
    text = capsys.readouterr().out
    for column in ("mean A", "A-B", "95% CI", "adj. p", "sig.", "--format csv|tsv|json"):
        assert column in text


@pytest.mark.parametrize("command", ["compare", "evaluate"])
def test_swapped_arguments_give_one_hint(campaign, capsys, command) -> None:
    big = campaign / "big.run"
    big.write_text("".join(f"{t} Q0 d{t}-{r} {r} {1000 - r}.5 big\n"
                           for t in TOPICS for r in range(1, 1001)))
    code = main([command, str(big), str(campaign / "qrels.txt"), str(campaign / "A.run")])
    captured = capsys.readouterr()
    assert code == 2 and captured.out == ""
    assert captured.err.splitlines() == [
        (f"appendix {command}: {big}: this looks like a run file, not relevance judgements: "
        "QRELS comes first, then the run files")]


def test_the_top_level_help_is_for_users(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    text = capsys.readouterr().out
    assert "builder.cli.commands" not in text and "``" not in text
    assert "appendix COMMAND --help" in text and "trec_eval" in text
    for command in ("build", "evaluate", "compare", "validate", "demo"):
        assert f"appendix {command} " in text



def test_the_flags_are_the_config_significance_keys(campaign, capsys) -> None:
    assert typing.get_args(SignificanceTest) == tuple(TEST_LABELS)
    assert typing.get_args(Correction) == tuple(CORRECTION_LABELS)
    (command,) = [action for action in build_parser("compare")._actions if action.choices]
    choices = {action.dest: action.choices for action in command.choices["compare"]._actions}
    assert (choices["test"], choices["correction"]) == (tuple(TEST_LABELS), tuple(CORRECTION_LABELS))
    paths = [str(campaign / f"{name}.run") for name in ("A", "B")]
    code = main(["compare", str(campaign / "qrels.txt"), *paths, "--alpha", "1.5"])
    assert code == 2
    assert "option --alpha (alpha): Input should be less than 1" in capsys.readouterr().err
