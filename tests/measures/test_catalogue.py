"""The compact measures table and the bibliography it cites."""

from __future__ import annotations

import importlib
import pkgutil

import builder.measures
from builder.measures.adhoc.trec_eval.profiles import DEFAULT_RULES, TREC_EVAL_DIFFERENCES
from builder.measures.bibliography import REFERENCES, cite, cited_in
from builder.measures.catalogue import catalogue
from builder.measures.inex.differences import INEX_EVAL_DIFFERENCES, NO_RELEVANT_TEXT
from builder.measures.registry import REGISTRY, Measure, measures_of


def _all_declared() -> None:
    for module in pkgutil.iter_modules(builder.measures.__path__):
        importlib.import_module(f"builder.measures.{module.name}")
    importlib.import_module("builder.tasks.inex.thorough")


def test_no_declaration_cites_an_internal_name():
    _all_declared()
    for measure in REGISTRY.values():
        for text in (measure.source, measure.description, measure.differs):
            assert "seed" not in text.lower(), (measure.family, measure.name, text)


def test_a_parameterised_measure_is_one_row_with_its_parameters():
    _all_declared()
    rows = {row.name: row for row in catalogue(measures_of("adhoc")).rows}
    assert "P_10" not in rows
    assert rows["P_k"].parameters == "k = 5, 10, 15, 20, 30, 100, 200, 500, 1000"
    assert rows["P_k"].description.startswith("Precision after k documents")
    assert rows["success_k"].description == "1 if a relevant document is among the first k, else 0."
    focused = {row.name: row for row in catalogue(measures_of("focused")).rows}
    assert "iP[x]" in focused and "(101 values)" in focused["iP[x]"].parameters
    assert len(focused["iP[x]"].measures) == 101


def test_a_note_shared_by_rows_is_written_once():
    _all_declared()
    listed = catalogue(measures_of("adhoc"))
    rows = {row.name: row for row in listed.rows}
    assert len(listed.notes) == 1
    assert rows["iprec_at_recall_x"].note == rows["11pt_avg"].note == 1
    assert rows["iprec_at_recall_x"].differs == ""
    assert rows["bpref"].note == 0 and rows["bpref"].differs


def test_a_difference_from_an_official_program_is_stated_once_in_its_row():
    # The measures a row of remaining differences concerns point at the row; none says again
    # what the program prints there (NaN for a topic without relevant text, 9.0.8's and
    # 10.0's rounding of x R), and a measure's note names no agreement as a difference.
    _all_declared()
    rows = (*TREC_EVAL_DIFFERENCES, *INEX_EVAL_DIFFERENCES)
    pointers = {row.see(): row for row in rows}
    assert len(pointers) == len(rows)  # each pointer names one row
    for measure in REGISTRY.values():
        for said in ("NaN", "lround", "(long)", "As trec_eval"):
            assert said not in measure.differs, (measure.family, measure.name)
    pointing = {(m.family, m.name): [row for see, row in pointers.items() if see in m.differs]
                for m in REGISTRY.values()}
    for family, name in (("adhoc", "iprec_at_recall_0.10"), ("adhoc", "11pt_avg")):
        assert pointing[family, name] == [DEFAULT_RULES]
    for family, name in (("focused", "art_rec"), ("thorough", "char_rec"),
                         ("in-context", "gR[5]"), ("in-context", "MAgP")):
        assert pointing[family, name] == [NO_RELEVANT_TEXT]
    assert "lround" in DEFAULT_RULES.theirs and "interpolation" in DEFAULT_RULES.ours
    assert "NaN" in NO_RELEVANT_TEXT.theirs and "no_relevant_text" in NO_RELEVANT_TEXT.ours
    assert REGISTRY["adhoc", "num_rel"].differs == ""


def test_measures_differing_in_more_than_numbers_stay_apart():
    measures = [Measure("a_1", "t", "first 1", "x", {"cutoff": 1}),
                Measure("a_2", "t", "second 2", "x", {"cutoff": 2}),
                Measure("b", "t", "alone", "x")]
    rows = catalogue(measures).rows
    assert [row.name for row in rows] == ["a_k", "b"]
    assert rows[0].description == "first 1"  # the words differ: the first one is shown


def test_citations_resolve_to_full_references():
    assert cite("kamps2008", "eq. 11") == "Kamps et al. 2008, eq. 11"
    cited = cited_in(["Kamps et al. 2008, eq. 11; inex_eval 3.1"])
    assert [ref.key for ref in cited] == ["kamps2008", "inex_eval"]
    full = REFERENCES["kamps2008"].format()
    assert "INEX 2007 evaluation measures" in full and "2008" in full and "Lalmas" in full
