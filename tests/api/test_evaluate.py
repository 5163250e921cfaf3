"""``builder.evaluate`` gives the numbers ``appendix evaluate`` prints, whether the runs and
qrels are files, DataFrames or pytrec_eval's dicts: TREC-COVID round 1, every run."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import builder
from builder.findings import FindingCode

MEASURES = ["map", "P.10", "ndcg_cut.10", "nDCG@20", "P(rel=2)@5", "RR", "Judged@10"]


@pytest.fixture(scope="module")
def covid(shared_data: Path) -> tuple[Path, list[Path]]:
    folder = shared_data / "trec_covid_round1"
    return folder / "qrels.covid-round1.txt", sorted((folder / "runs").glob("*.gz"))


@pytest.fixture(scope="module")
def command_line(covid) -> pd.DataFrame:
    """What ``appendix evaluate --format tsv`` prints (per topic and summary)."""
    qrels, runs = covid
    done = subprocess.run(
        [sys.executable, "-m", "builder", "evaluate", "--format", "tsv",
         *(arg for m in MEASURES for arg in ("-m", m)), str(qrels), *map(str, runs)],
        capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    table = pd.read_csv(io.StringIO(done.stdout), sep="\t", header=None, dtype=str,
                        names=["run", "measure", "topic", "value"])
    return _sorted(table.astype({"value": float}))


def _sorted(table: pd.DataFrame) -> pd.DataFrame:
    table = table[["run", "topic", "measure", "value"]].astype(
        {"run": str, "topic": str, "measure": str})
    return table.sort_values(["run", "measure", "topic"]).reset_index(drop=True)


def _frames(runs: list[Path]) -> list[pd.DataFrame]:
    """Each run read by pandas, in ir_measures' column names (its tag column names it)."""
    return [pd.read_csv(run, sep=r"\s+", header=None, dtype={0: str, 2: str, 5: str},
                        names=["query_id", "q0", "doc_id", "rank", "score", "tag"])
            for run in runs]


def test_files_give_the_command_lines_numbers(covid, command_line) -> None:
    qrels, runs = covid
    scores = builder.evaluate(qrels, runs, MEASURES)
    assert len(set(scores["run"])) == len(runs) == 143
    pd.testing.assert_frame_equal(_sorted(scores), command_line, check_exact=True)


def test_dataframes_and_dicts_give_the_command_lines_numbers(covid, command_line) -> None:
    qrels, runs = covid
    frames = _frames(runs)
    judged = pd.read_csv(qrels, sep=r"\s+", header=None, dtype={0: str, 2: str},
                         names=["query_id", "iteration", "doc_id", "relevance"])
    # One DataFrame holding every run, split by its tag column.
    from_frames = builder.evaluate(judged, pd.concat(frames, ignore_index=True), MEASURES)
    pd.testing.assert_frame_equal(_sorted(from_frames), command_line, check_exact=True)
    # pytrec_eval's dicts: {run name: {topic: {doc: score}}} and {topic: {doc: relevance}}.
    as_dicts = {frame["tag"].iloc[0]: _nested(frame, "score") for frame in frames}
    from_dicts = builder.evaluate(_nested(judged, "relevance"), as_dicts, MEASURES)
    pd.testing.assert_frame_equal(_sorted(from_dicts), command_line, check_exact=True)


def _nested(table: pd.DataFrame, value: str) -> dict[str, dict[str, float]]:
    """``table`` as pytrec_eval's dict of dicts, made from numpy arrays per topic (a pandas
    group per topic iterates its Arrow strings one Python object at a time: seconds a run)."""
    docs, values = table["doc_id"].to_numpy(object), table[value].to_numpy()
    return {topic: dict(zip(docs[rows].tolist(), values[rows].tolist()))
            for topic, rows in table.groupby("query_id", sort=False).indices.items()}


def test_wide_is_one_row_per_run_and_topic(covid) -> None:
    qrels, runs = covid
    wide = builder.evaluate(qrels, runs[:2], ["nDCG@10", "map"], wide=True)
    long = builder.evaluate(qrels, runs[:2], ["nDCG@10", "map"])
    # Measures in the order the command line prints them: trec_eval's table, then the others.
    assert list(wide.columns) == ["run", "topic", "map", "nDCG@10"]
    assert len(wide) == len(long) / 2
    row = wide[(wide["run"] == long["run"].iloc[0]) & (wide["topic"] == "all")]
    assert row["map"].item() == long[(long["run"] == row["run"].item()) & (long["topic"] == "all")
                                     & (long["measure"] == "map")]["value"].item()


def test_a_bad_run_given_as_a_dataframe_raises_the_tools_error_with_its_findings(covid) -> None:
    qrels, runs = covid
    run = _frames(runs[:1])[0].drop(columns="tag")
    run.loc[7, "score"] = float("nan")
    run.loc[12, "doc_id"] = run.loc[11, "doc_id"]  # the same document twice for one topic
    with pytest.raises(builder.InputError) as raised:
        builder.evaluate(qrels, {"mine": run}, ["nDCG@10"])
    found = {(f.file, f.line, f.code) for f in raised.value.findings}
    assert ("run 'mine' (table)", 8, FindingCode.VALUE) in found
    assert ("run 'mine' (table)", 13, FindingCode.DUPLICATE) in found
    assert all(f.message.startswith("row ") for f in raised.value.findings)
    assert "row 7: " in str(raised.value)


def test_a_table_without_the_columns_of_a_run_says_which(covid) -> None:
    qrels, _ = covid
    with pytest.raises(builder.InputError, match=r"no column doc \(or doc_id"):
        builder.evaluate(qrels, pd.DataFrame({"topic": ["1"], "score": [1.0]}))
    with pytest.raises(ValueError, match="nearest we have: nDCG@10"):
        builder.evaluate(qrels, pd.DataFrame({"topic": ["1"], "doc": ["d"], "score": [1.0]}),
                         ["nDGC@10"])


def test_compare_read_run_and_read_qrels(covid) -> None:
    qrels, runs = covid
    table = builder.compare(qrels, runs[:3], ["nDCG@10"], resamples=200)
    assert len(table) == 3 and set(table["measure"]) == {"ndcg_cut_10"}
    judged = builder.read_qrels(qrels)
    assert list(judged.columns[:3]) == ["topic", "doc", "rel"] and len(judged) > 8000
    run = builder.read_run(runs[0], qrels)
    assert run["topic"].nunique() == 30 and run["run"].nunique() == 1
