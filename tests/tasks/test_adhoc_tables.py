"""The ad hoc kind's run tables: shared categories, so concatenation keeps small codes, and
scores that do not depend on how the columns are stored; extras made only when read."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from builder.contract import LazyTables
from builder.tasks.adhoc import KIND, AdhocOptions

QRELS = "1 0 a 1\n1 0 b 0\n2 0 c 2\n2 0 a 1\n"
RUNS = {
    "x.run": "1 Q0 a 1 2.0 X\n1 Q0 b 2 1.0 X\n2 Q0 c 1 3.0 X\n",
    "y.run": "2 Q0 a 1 5.0 Y\n2 Q0 b 2 5.0 Y\n9 Q0 a 1 1.0 Y\n",
}


def _read(tmp_path: Path):
    (tmp_path / "qrels").write_text(QRELS)
    for name, text in RUNS.items():
        (tmp_path / name).write_text(text)
    qrels = KIND.read_qrels(tmp_path / "qrels")
    reads = KIND.read_runs([tmp_path / name for name in RUNS], qrels, AdhocOptions())
    return qrels, reads


def test_run_and_topic_columns_share_their_categories_across_files(tmp_path: Path) -> None:
    _, reads = _read(tmp_path)
    x, y = (read.table for read in reads)
    assert "tag" not in x.columns
    assert list(x["run"].cat.categories) == list(y["run"].cat.categories) == ["X", "Y"]
    assert list(x["topic"].cat.categories) == list(y["topic"].cat.categories) == ["1", "2", "9"]
    runs = pd.concat([x, y], ignore_index=True)
    assert isinstance(runs["run"].dtype, pd.CategoricalDtype)
    assert runs["run"].tolist() == ["X"] * 3 + ["Y"] * 3
    assert runs["topic"].tolist() == ["1", "1", "2", "2", "2", "9"]


def test_scores_are_the_same_from_categorical_and_from_text_columns(tmp_path: Path) -> None:
    qrels, reads = _read(tmp_path)
    runs = pd.concat([read.table for read in reads], ignore_index=True)
    as_text = runs.astype({"run": str, "topic": str})
    from_categories = KIND.evaluate(qrels, runs, AdhocOptions()).scores
    from_text = KIND.evaluate(qrels, as_text, AdhocOptions()).scores
    pd.testing.assert_frame_equal(from_categories, from_text)
    ap = from_text.set_index(["run", "topic", "measure"])["value"]
    # a and b tied at 5.0: docno descending puts b (non-relevant) first; R = 2 (a and c)
    assert ap["Y", "2", "map"] == 0.25


def test_lazy_tables_are_made_once_and_only_when_read() -> None:
    made: list[str] = []

    def table() -> pd.DataFrame:
        made.append("points")
        return pd.DataFrame({"x": [1]})

    extras = LazyTables({"points": table})
    assert list(extras) == ["points"] and len(extras) == 1 and made == []
    assert extras["points"]["x"].tolist() == [1]
    assert extras["points"] is extras["points"] and made == ["points"]


def test_relevant_points_are_the_relevant_rows_of_every_rank(tmp_path: Path) -> None:
    qrels, reads = _read(tmp_path)
    runs = pd.concat([read.table for read in reads], ignore_index=True)
    extras = KIND.evaluate(qrels, runs, AdhocOptions()).extras
    every = extras["pr_points"]
    relevant = every[every["relevant"]].reset_index(drop=True)
    pd.testing.assert_frame_equal(extras["relevant_points"], relevant)
    assert len(relevant) == 3 and len(every) == 5  # topic 9 is not judged: its line is dropped
