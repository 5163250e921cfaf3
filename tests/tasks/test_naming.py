"""Run names: the run tag when a file has one, else the file name without an extension that
only says it is a run (``.run``, ``.txt``, ``.res``, and ``.gz``); a taken name is an error."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from builder.tasks import get_kind
from builder.tasks.naming import name_runs

TREC_QRELS = "1 0 d1 1\n1 0 d2 0\n"
INEX_QRELS = "1 Q0 100 50 1000 10 10:50\n1 Q0 200 0 500\n"
TREC_LINE = "1 Q0 d{n} {n} {score} {tag}\n"
FOL_LINE = "1 Q0 {n}00 {n} {score} {tag} 10 50\n"
RUN_TAGS = {"a.run": ["A"], "b.txt": ["A", "B"], "c.run": ["A"], "d.run": ["D"]}
"""Run file -> the tag of each of its lines."""


def _write_campaign(folder: Path, kind: str) -> tuple[Path, list[Path]]:
    trec = kind == "adhoc"
    qrels = folder / "qrels.txt"
    qrels.write_text(TREC_QRELS if trec else INEX_QRELS)
    paths = []
    for file, tags in RUN_TAGS.items():
        line = TREC_LINE if trec else FOL_LINE
        text = "".join(line.format(n=n, score=3.0 - n, tag=tag) for n, tag in enumerate(tags, 1))
        (folder / file).write_text(text)
        paths.append(folder / file)
    return qrels, paths


@pytest.mark.parametrize("kind_name", ["adhoc", "focused", "thorough", "relevant-in-context",
                                       "best-in-context"])
def test_every_kind_names_runs_by_their_single_tag(tmp_path: Path, kind_name: str) -> None:
    kind = get_kind(kind_name)
    qrels_path, paths = _write_campaign(tmp_path, kind_name)
    qrels = kind.read_qrels(qrels_path)
    reads = kind.read_runs(paths, qrels, kind.options_model())
    assert [read.name for read in reads] == ["A", "b", "A", "D"]
    assert [read.rejected for read in reads] == [False, False, True, False]
    errors = [f for f in reads[2].findings if f.severity == "error"]
    assert [(f.file, f.line, f.message) for f in errors] == [
        (str(paths[2]), None, ("run name A already used by a.run (task option run_names: file "
                               "names runs by file name)"))]
    for read in reads:
        assert set(read.table["run"]) == {read.name}


def test_an_unread_or_empty_file_is_named_by_its_file_name() -> None:
    tagged = pd.DataFrame({"tag": ["x", "x"]})
    named = name_runs(["runs/one.run", "runs/two.run", "other/one.run"],
                      [None, pd.DataFrame({"tag": pd.Series(dtype=str)}), tagged])
    assert named == [("one", []), ("two", []), ("x", [])]


def test_a_file_name_taken_by_a_tag_is_an_error_too() -> None:
    named = name_runs(["a/x", "b/y.run"], [pd.DataFrame({"tag": ["y"]}), None])
    assert named[0] == ("y", [])
    name, findings = named[1]
    assert name == "y" and [f.message for f in findings] == [
        "run name y already used by x (task option run_names: file names runs by file name)"]


@pytest.mark.parametrize(("file", "name"), [
    ("runs/bert_inex_converted.run", "bert_inex_converted"), ("b.TXT", "b"),
    ("c.run.gz", "c"), ("x.res", "x"), ("y.gz", "y"),
    # TREC's own file names (input.TAG) and other extensions are the run's name
    ("input.BBGhelani1", "input.BBGhelani1"), ("input.BBGhelani1.gz", "input.BBGhelani1"),
    ("run.v2.tsv", "run.v2.tsv"), (".run", ".run")])
def test_a_run_named_by_its_file_drops_what_only_says_it_is_a_run(file: str, name: str) -> None:
    assert name_runs([file], [None], "file") == [(name, [])]


@pytest.mark.parametrize("kind_name", ["adhoc", "focused", "thorough", "relevant-in-context",
                                       "best-in-context"])
def test_every_kind_can_name_runs_by_file(tmp_path: Path, kind_name: str) -> None:
    kind = get_kind(kind_name)
    qrels_path, paths = _write_campaign(tmp_path, kind_name)
    options = kind.options_model.model_validate({"run_names": "file"})
    reads = kind.read_runs(paths, kind.read_qrels(qrels_path), options)
    assert [read.name for read in reads] == ["a", "b", "c", "d"]
    assert not any(read.rejected for read in reads)
