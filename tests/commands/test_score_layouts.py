"""``appendix evaluate``'s layouts built by columns give the text of the row-by-row formatting
(trec_eval's printf, pandas' ``to_csv``) on values of every magnitude, odd names and topics."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from builder.contract import SUMMARY_TOPIC
from builder.pipeline.layouts import scores as score_layouts
from builder.pipeline.layouts.official import TrecLayout
from builder.pipeline.layouts.scores import csv_text, fixed_texts, trec_text, tsv_text

ODD_VALUES = [0.0, -0.0, 0.00005, 0.00015, 0.12345, 0.99995, 1.00005, 2.5e-5, 1e-9, 12345.6789,
              999999.99995, 1e6, 1e12, -0.00004, -1.23456, np.nan, np.inf, -np.inf, 5e-324]


def test_fixed_texts_equal_printf_at_every_magnitude():
    rng = np.random.default_rng(5)
    values = np.concatenate([
        rng.random(50_000), rng.random(5_000) * 1e-3, rng.random(5_000) * 1e6,
        rng.integers(0, 10**8, 20_000) / 1e4 + 0.00005,  # halves of the last digit
        rng.integers(0, 10**5, 5_000) / 7.0, -rng.random(1_000), ODD_VALUES,
    ])  # fmt: skip
    assert fixed_texts(values).to_pylist() == [f"{v:.4f}" for v in values.tolist()]


def reference_trec(scores: pd.DataFrame, measures: list[str], integral: set[str],
                   layout: TrecLayout) -> str:
    """The row-by-row formatting the column one replaced."""
    lines: list[str] = []

    def rows_of(rows):
        return [f"{m:<22}\t{t}\t" + (f"{round(v)}" if m in integral else f"{v:.4f}")
                for m, t, v in zip(rows["measure"], rows["topic"], rows["value"])]

    for run, table in scores.groupby("run", sort=False):
        table = table[table["measure"].isin(measures)]
        table = table.assign(order=table["measure"].map({m: i for i, m in enumerate(measures)}))
        topics = table[table["topic"] != SUMMARY_TOPIC]
        if layout.per_topic:
            for topic, rows in topics.groupby("topic", sort=True):
                if layout.answered is None or (run, topic) in layout.answered:
                    lines += rows_of(rows.sort_values("order", kind="stable"))
        if layout.summary and layout.runid:
            lines.append(f"{'runid':<22}\t{SUMMARY_TOPIC}\t{run}")
        if layout.summary:
            lines += rows_of(table[table["topic"] == SUMMARY_TOPIC].sort_values("order",
                                                                               kind="stable"))
    return "\n".join(lines) + "\n" if lines else ""


def odd_scores() -> pd.DataFrame:
    """Measure-major rows of three runs (one with a long, quoted, comma'd name), topics that
    sort as text (10 before 9), counts and values of every kind."""
    rng = np.random.default_rng(11)
    runs = ["b run", 'a,"quoted"', "a_name_longer_than_twenty_two_characters"]
    topics = ["9", "10", "x y", "101"]
    measures = ["num_ret", "map", "P_5", "a_measure_name_longer_than_22"]
    rows = [(r, t, m) for m in measures for t in [*topics, SUMMARY_TOPIC] for r in runs
            if not (r == runs[2] and t == "10")]
    values = rng.random(len(rows))
    values[: len(ODD_VALUES)] = ODD_VALUES
    values[[i for i, (_, _, m) in enumerate(rows) if m == "num_ret"]] = 7.5  # round half even
    frame = pd.DataFrame(rows, columns=["run", "topic", "measure"]).assign(value=values)
    return frame[~frame["value"].isna() | (frame["measure"] != "num_ret")]


@pytest.mark.parametrize("per_topic", [False, True])
@pytest.mark.parametrize("summary,runid", [(True, True), (True, False), (False, True)])
@pytest.mark.parametrize("answered", [None, "some"])
def test_trec_text_equals_row_by_row(per_topic, summary, runid, answered, monkeypatch):
    monkeypatch.setattr(score_layouts, "SLICE_ROWS", 7)  # several slices
    scores = odd_scores()
    if answered == "some":
        answered = frozenset(zip(scores["run"][::3], scores["topic"][::3]))
    layout = TrecLayout(per_topic=per_topic, answered=answered, runid=runid, summary=summary)
    measures = ["P_5", "num_ret", "a_measure_name_longer_than_22", "map"]  # not the rows' order
    expected = reference_trec(scores, measures, {"num_ret"}, layout)
    assert "".join(trec_text(scores, measures, {"num_ret"}, layout)) == expected


def test_csv_and_tsv_text_equal_row_by_row(monkeypatch):
    monkeypatch.setattr(score_layouts, "SLICE_ROWS", 5)
    table = odd_scores()[["run", "measure", "topic", "value"]]
    table.loc[table.index[3], "topic"] = "line\nend\r"
    assert "".join(csv_text(table)) == table.to_csv(index=False)
    ok = table[table["run"] != 'a,"quoted"']
    ok = ok[~ok["topic"].str.contains("\n")]
    assert "".join(tsv_text(ok)) == "".join(
        f"{r}\t{m}\t{t}\t{v!r}\n" for r, m, t, v in ok.itertuples(index=False))
    assert "".join(csv_text(table.iloc[:0])) == table.iloc[:0].to_csv(index=False)
