"""Qrels and topics named ``irds:DATASET_ID``, read through ir_datasets: a small dataset
registered from local files (no network) gives the numbers of the same judgements given as a
file, and builds a site; a dataset that is not there, or ir_datasets missing, is said so."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from builder.cli import main

QRELS = "101 0 d1 2\n101 0 d2 0\n101 0 d3 1\n102 0 d1 1\n102 0 d4 1\n"
RUNS = {
    "alpha": "101 Q0 d1 1 3.0 alpha\n101 Q0 d3 2 2.0 alpha\n102 Q0 d4 1 1.0 alpha\n",
    "beta": "101 Q0 d2 1 3.0 beta\n101 Q0 d1 2 2.0 beta\n102 Q0 d1 1 2.0 beta\n"
            "102 Q0 d4 2 1.0 beta\n",
}
TOPICS = ("<top>\n<num> Number: 101\n<title> tidal energy storage\n</top>\n\n"
          "<top>\n<num> Number: 102\n<title> coral & reef bleaching\n</top>\n")


@pytest.fixture(scope="module")
def dataset(tmp_path_factory) -> Iterator[tuple[str, Path]]:
    """``irds:appendix-tests/tiny``, registered from local files; the folder of the files.
    ir_datasets' home (where the qrels and topics files are written) is a folder of the test's
    own."""
    folder = tmp_path_factory.mktemp("irds")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("IR_DATASETS_HOME", str(tmp_path_factory.mktemp("irds-home")))
        yield _registered(folder)


def _registered(folder: Path) -> tuple[str, Path]:
    (folder / "qrels.txt").write_text(QRELS)
    (folder / "topics.txt").write_text(TOPICS)
    for name, text in RUNS.items():
        (folder / "runs").mkdir(exist_ok=True)
        (folder / "runs" / f"{name}.txt").write_text(text)
    ir_datasets = pytest.importorskip("ir_datasets")
    from ir_datasets.datasets.base import Dataset
    from ir_datasets.formats import GenericQuery, TrecQrels, TrecQueries
    from ir_datasets.util import LocalDownload

    dataset_id = f"appendix-tests/tiny-{folder.name}"
    ir_datasets.registry.register(dataset_id, Dataset(
        TrecQrels(LocalDownload(folder / "qrels.txt"), {0: "not", 1: "relevant", 2: "highly"}),
        TrecQueries(LocalDownload(folder / "topics.txt"), qtype=GenericQuery,
                    qtype_map={"<num> *(Number:)?": "query_id", "<title>": "text"}),
    ))
    missing = f"{dataset_id}-gone"
    ir_datasets.registry.register(missing, Dataset(
        TrecQrels(LocalDownload(folder / "absent" / "qrels.txt", mkdir=False), {1: "rel"})))
    return dataset_id, folder


def evaluate(capsys, qrels: str, folder: Path) -> tuple[int, str, str]:
    code = main(["evaluate", qrels, *(str(folder / "runs" / f"{n}.txt") for n in RUNS),
                 "-q", "-m", "all_trec", "--format", "tsv"])
    out, err = capsys.readouterr()
    return code, out, err


def test_evaluate_irds_qrels_gives_the_numbers_of_the_same_qrels_as_a_file(dataset, capsys):
    dataset_id, folder = dataset
    from_file = evaluate(capsys, str(folder / "qrels.txt"), folder)
    from_irds = evaluate(capsys, f"irds:{dataset_id}", folder)
    assert from_file[0] == 0 and from_file[1].count("\n") > 100
    assert from_irds == from_file


def test_a_site_built_from_irds_qrels_and_topics(dataset, tmp_path, capsys):
    dataset_id, folder = dataset
    config = tmp_path / "site_config.yml"
    config.write_text(
        "campaign: {title: T}\ntasks:\n"
        f"  - {{id: t, title: T, kind: adhoc, qrels: 'irds:{dataset_id}', "
        f"topics: 'irds:{dataset_id}', runs: {folder / 'runs'}}}\n")
    assert main(["build", "--config", str(config), "--out", str(tmp_path / "site"), "-q"]) == 0
    assert capsys.readouterr().err == ""
    site = tmp_path / "site"
    scores = (site / "t" / "downloads" / "scores.csv").read_text()
    assert {line.split(",")[0] for line in scores.splitlines()[1:]} == set(RUNS)
    topics = "".join(p.read_text() for p in (site / "t" / "topics").glob("*.html"))
    assert "tidal energy storage" in topics and "coral &amp; reef bleaching" in topics
    published = "".join(p.read_text(errors="replace") for p in site.rglob("*")
                        if p.is_file() and p.suffix in (".html", ".json", ".csv"))
    home = os.environ["IR_DATASETS_HOME"]  # where the dataset's files were written
    assert any(Path(home, "appendix").rglob("qrels.txt"))
    assert home not in published and "appendix-irds" not in published  # no build machine path


def test_a_dataset_id_with_white_space_is_said_so(dataset, capsys):
    """A judgement whose document id holds a space cannot be a TREC qrels line: said so, with
    the dataset, rather than written as a line of five fields."""
    ir_datasets = pytest.importorskip("ir_datasets")
    from ir_datasets.datasets.base import Dataset
    from ir_datasets.formats import BaseQrels, TrecQrel

    class Spaced(BaseQrels):  # ir_datasets' qrels readers split on white space: rows given
        def qrels_iter(self):
            yield TrecQrel("101", "d 1", 1, "0")

        def qrels_cls(self):
            return TrecQrel

    _, folder = dataset
    dataset_id = f"appendix-tests/spaced-{folder.name}"
    ir_datasets.registry.register(dataset_id, Dataset(Spaced()))
    code, _, err = evaluate(capsys, f"irds:{dataset_id}", folder)
    assert (code, err) == (2, (f"appendix evaluate: irds:{dataset_id}: row 0: doc_id 'd 1' "
                               "is empty or holds white space\n"))


def test_a_dataset_not_available_here_is_said_so(dataset, tmp_path, capsys):
    dataset_id, folder = dataset
    code, _, err = evaluate(capsys, f"irds:{dataset_id}-gone", folder)
    assert code == 2
    assert err.startswith(f"appendix evaluate: irds:{dataset_id}-gone: the dataset is not "
                          "available here")
    code, _, err = evaluate(capsys, "irds:no-such/dataset", folder)
    assert (code, err) == (2, ("appendix evaluate: irds:no-such/dataset: ir_datasets has no "
                               "dataset 'no-such/dataset' (https://ir-datasets.com lists them)\n"))
    config = tmp_path / "c.yml"
    config.write_text("campaign: {title: T}\ntasks:\n  - {id: t, title: T, kind: adhoc, "
                      f"qrels: 'irds:{dataset_id}-gone', runs: {folder / 'runs'}}}\n")
    assert main(["build", "--config", str(config), "-q"]) == 2
    assert f"tasks[0].qrels: irds:{dataset_id}-gone: the dataset is not available here" in \
        capsys.readouterr().err


def test_without_ir_datasets_the_extra_is_named(dataset, monkeypatch, capsys):
    """ir_datasets made impossible to import, as where the extra is not installed."""
    _, folder = dataset
    monkeypatch.setitem(sys.modules, "ir_datasets", None)
    code, _, err = evaluate(capsys, "irds:msmarco-passage/trec-dl-2019/judged", folder)
    assert (code, err) == (2, ("appendix evaluate: irds:msmarco-passage/trec-dl-2019/judged: "
                               "reading ir_datasets' datasets needs the extra 'irds' "
                               "(pip install 'appendix[irds]')\n"))
