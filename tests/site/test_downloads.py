"""The long score writers: CSV quoted as the csv module quotes, JSON records, every value at
full precision (its shortest round-trip text), the same digits in both."""

from __future__ import annotations

import json
import math

import pandas as pd

from builder.site.pages import downloads
from builder.site.pages.downloads import LongScores, _write_json, write_long_csv, write_long_json

AWKWARD = pd.DataFrame({
    "run": ["plain", 'say "hi"', "a,b/c", "line\nbreak", "plain", "é😀<&>", "x"],
    "topic": ["1", "2", "10", "1", "2", " spaced ", "3"],
    "measure": ["map", "P_10", "map", "num_rel", "iprec_at_recall_0.00", "map", "map"],
    "value": [0.1, 1.0, math.nan, 1e-05, 1 / 3, 250.0, 0.5685229840957013],
})


def test_long_csv_quotes_awkward_names_and_keeps_every_digit(tmp_path):
    written = tmp_path / "scores.csv"
    write_long_csv(LongScores.of(AWKWARD), written)
    assert written.read_text(encoding="utf-8") == (
        'run,topic,measure,value\n'
        'plain,1,map,0.1\n'
        '"say ""hi""",2,P_10,1\n'
        '"a,b/c",10,map,\n'
        '"line\nbreak",1,num_rel,0.00001\n'
        'plain,2,iprec_at_recall_0.00,0.3333333333333333\n'
        'é😀<&>, spaced ,map,250\n'
        'x,3,map,0.5685229840957013\n'
    )
    read = pd.read_csv(written, dtype={"topic": str}, keep_default_na=False, na_values=[""])
    pd.testing.assert_frame_equal(read, AWKWARD)  # exact values, NaN where empty


def test_long_csv_of_no_scores_is_the_header(tmp_path):
    scores = pd.DataFrame({"run": [], "topic": [], "measure": [], "value": []})
    written = tmp_path / "scores.csv"
    write_long_csv(LongScores.of(scores), written)
    assert written.read_bytes() == scores.to_csv(index=False, lineterminator="\n").encode()


def test_long_json_keeps_every_digit_and_names_as_written(tmp_path):
    written = tmp_path / "scores.json"
    write_long_json(LongScores.of(AWKWARD), written)
    records = json.loads(written.read_text(encoding="utf-8"))
    expected = [{**row, "value": None if math.isnan(row["value"]) else row["value"]}
                for row in AWKWARD.to_dict(orient="records")]
    assert records == expected  # exact float equality: 16-17 digits where needed
    assert '"value":0.5685229840957013}' in written.read_text(encoding="utf-8")
    write_long_json(LongScores.of(AWKWARD.iloc[:0]), written)
    assert written.read_text() == "[]\n"


def test_long_writers_lay_out_many_blocks_as_one(tmp_path, monkeypatch):
    monkeypatch.setattr(downloads, "BLOCK_ROWS", 3)
    scores = pd.DataFrame({"run": [f"r{i % 4}" for i in range(10)], "topic": ["1"] * 10,
                           "measure": ["map"] * 10, "value": [i / 7 for i in range(10)]})
    write_long_csv(LongScores.of(scores), tmp_path / "scores.csv")
    write_long_json(LongScores.of(scores), tmp_path / "scores.json")
    monkeypatch.setattr(downloads, "BLOCK_ROWS", 1000)
    write_long_csv(LongScores.of(scores), tmp_path / "one.csv")
    assert (tmp_path / "scores.csv").read_text() == (tmp_path / "one.csv").read_text()
    pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "scores.csv", dtype={"topic": str}),
                                  scores)
    assert json.loads((tmp_path / "scores.json").read_text()) == scores.to_dict(orient="records")


def test_summary_json_keeps_every_digit_and_writes_missing_as_null(tmp_path):
    summary = pd.DataFrame({"run": ["a", "b"], "map": [1 / 3, math.nan],
                            "num_q": [25.0, 30.0]})
    written = tmp_path / "summary.json"
    _write_json(summary, written)
    assert json.loads(written.read_text()) == [
        {"run": "a", "map": 1 / 3, "num_q": 25.0}, {"run": "b", "map": None, "num_q": 30.0}]
