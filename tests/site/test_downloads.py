"""The vectorised score CSV writer against pandas' ``to_csv``, byte for byte."""

from __future__ import annotations

import math

import pandas as pd

from builder.site import downloads
from builder.site.downloads import write_long_csv, write_long_json


def test_long_csv_matches_pandas_on_awkward_names_and_values(tmp_path):
    scores = pd.DataFrame({
        "run": ["plain", 'say "hi"', "a,b", "line\nbreak", "plain", ""],
        "topic": ["1", "2", "10", "1", "2", " spaced "],
        "measure": ["map", "P_10", "map", "num_rel", "iprec_at_recall_0.00", "map"],
        "value": [0.1, 1.0, math.nan, 1e-05, 1 / 3, 250.0],
    })
    written = tmp_path / "scores.csv"
    write_long_csv(scores, written)
    assert written.read_bytes() == scores.to_csv(index=False, lineterminator="\n").encode()


def test_long_csv_of_no_scores_is_the_header(tmp_path):
    scores = pd.DataFrame({"run": [], "topic": [], "measure": [], "value": []})
    written = tmp_path / "scores.csv"
    write_long_csv(scores, written)
    assert written.read_bytes() == scores.to_csv(index=False, lineterminator="\n").encode()


def test_long_json_matches_pandas_on_awkward_names_and_values(tmp_path):
    scores = pd.DataFrame({
        "run": ["plain", 'say "hi"', "a/b", "line\nbreak", "plain", "é😀<&>", "x"],
        "topic": ["1", "2", "10", "1", "2", " spaced ", "3"],
        "measure": ["map", "P_10", "map", "num_rel", "iprec_at_recall_0.00", "map", "map"],
        "value": [0.1, 1.0, math.nan, 1e-05, 1 / 3, 250.0, -1e17],
    })
    written = tmp_path / "scores.json"
    write_long_json(scores, written)
    expected = scores.to_json(orient="records", double_precision=15) + "\n"
    assert written.read_bytes() == expected.encode()
    write_long_json(scores.iloc[:0], written)
    assert written.read_text() == "[]\n"


def test_long_writers_lay_out_many_blocks_as_one(tmp_path, monkeypatch):
    monkeypatch.setattr(downloads, "BLOCK_ROWS", 3)
    scores = pd.DataFrame({"run": [f"r{i % 4}" for i in range(10)], "topic": ["1"] * 10,
                           "measure": ["map"] * 10, "value": [i / 7 for i in range(10)]})
    write_long_csv(scores, tmp_path / "scores.csv")
    write_long_json(scores, tmp_path / "scores.json")
    assert (tmp_path / "scores.csv").read_text() == scores.to_csv(index=False,
                                                                   lineterminator="\n")
    assert (tmp_path / "scores.json").read_text() == scores.to_json(
        orient="records", double_precision=15) + "\n"
