"""Duplicate runs (``builder.pipeline.analysis.duplicate_runs``): two runs are the same ranking
when they retrieve the same documents in the evaluation's order for every topic, which is
trec_eval's (score descending, ties by docno descending in byte order), not the order of the
lines in the file nor their rank or tag."""

from __future__ import annotations

import pandas as pd

from builder.contract import RunRead
from builder.pipeline.analysis import duplicate_runs, ranking_positions

LINES = [  # topic, doc, score: topic 10 before topic 9 in text order; ties at 2.0 and 1.0
    ("9", "b", 2.0), ("9", "a", 2.0), ("9", "c", 1.0), ("9", "É", 1.0), ("9", "é", 1.0),
    ("10", "x", 5.0), ("10", "y", 7.0),
]


def _table(lines, tag: str = "t") -> pd.DataFrame:
    table = pd.DataFrame(lines, columns=["topic", "doc", "score"])
    return table.assign(topic=table["topic"].astype("category"), tag=tag,
                        rank=range(1, len(table) + 1))


def test_rows_come_in_trec_eval_order() -> None:
    """Per topic in text order, score descending, ties by docno descending in byte order
    (``É`` is C3 89, ``é`` C3 A9: both after ASCII), whatever the lines' order."""
    table = _table(LINES[::-1])
    expected = sorted(range(len(table)), key=lambda i: (
        table["topic"].iloc[i], -table["score"].iloc[i],
        tuple(-b for b in table["doc"].iloc[i].encode())))
    assert ranking_positions(table).tolist() == expected
    ranked = table.iloc[ranking_positions(table)]
    assert ranked["doc"].tolist() == ["y", "x", "b", "a", "é", "É", "c"]


def test_a_shuffled_retagged_copy_is_a_duplicate_and_a_reordered_tie_is_not() -> None:
    shuffled = LINES[3:] + LINES[:3]
    other_order = [("9", "b", 2.0), ("9", "a", 2.5), *LINES[2:]]  # a above b: not the same
    reads = [RunRead("a", "a", _table(LINES)), RunRead("b", "b", _table(shuffled, "other")),
             RunRead("c", "c", _table(other_order))]
    assert duplicate_runs(reads) == {"a": ["b"], "b": ["a"]}


def test_duplicates_are_found_whatever_the_columns_and_types_of_the_other_runs() -> None:
    """The runs' rows are hashed together when their columns agree, one run at a time when
    they do not: a copy whose topics are text rather than categories is a duplicate either
    way, and a run with a column of its own is none."""
    as_text = _table(LINES[::-1]).assign(topic=lambda t: t["topic"].astype(str))
    same = [RunRead("a", "a", _table(LINES)), RunRead("b", "b", as_text)]
    extra = RunRead("c", "c", _table(LINES).assign(passage="p1"))
    assert duplicate_runs(same) == {"a": ["b"], "b": ["a"]}
    assert duplicate_runs([*same, extra]) == {"a": ["b"], "b": ["a"]}
