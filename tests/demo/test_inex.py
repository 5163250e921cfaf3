"""The demo campaign's INEX tasks: readable inputs, runs of clearly different quality, and the
two flawed runs rejected by the engines for the flaws they were given."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest

from builder.contract import SUMMARY_TOPIC, RunRead
from builder.demo import write_demo
from builder.demo.inex.runs import RUNS, runs_of
from builder.demo.inex.topics import TOPICS
from builder.formats.inex.topics import read_inex_topics
from builder.formats.topic_file import read_topic_file
from builder.tasks import get_kind


@pytest.fixture(scope="module")
def inex(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("demo")
    write_demo(directory)
    return directory / "inex"


def _reads(inex: Path, task: str):
    kind = get_kind(task)
    qrels = kind.read_qrels(inex / "qrels.txt")
    reads = kind.read_runs(sorted((inex / task).iterdir()), qrels, kind.options_model())
    return kind, qrels, reads


def _summary(kind, qrels, reads: list[RunRead], measure: str) -> dict[str, float]:
    runs = pd.concat([read.table for read in reads if not read.rejected])
    scores = kind.evaluate(qrels, runs, kind.options_model()).scores
    rows = scores[(scores["topic"] == SUMMARY_TOPIC) & (scores["measure"] == measure)]
    return dict(zip(rows["run"], rows["value"], strict=True))


def _fields(path: Path) -> list[list[str]]:
    return [line.split() for line in path.read_text().splitlines()]


def test_qrels_and_topics_are_read_without_findings(inex: Path) -> None:
    qrels = get_kind("focused").read_qrels(inex / "qrels.txt")
    assert qrels.findings == []
    assert len(qrels.topics) == len(TOPICS)
    relevant = qrels.articles[qrels.articles["rel_chars"] > 0]
    assert relevant.groupby("topic").size().min() >= 4
    assert (qrels.articles["rel_chars"] == 0).sum() > 2 * len(relevant)
    highlighted = qrels.passages.groupby(["topic", "file"])["length"].sum()
    assert highlighted.to_dict() == relevant.set_index(["topic", "file"])["rel_chars"].to_dict()
    topics = read_inex_topics(inex / "topics.xml")
    assert topics["topic"].tolist() == qrels.topics
    assert (topics[["title", "castitle", "description", "narrative"]] != "").all().all()
    assert any("&" in title and "<" in title for title in topics["title"])
    table, findings = read_topic_file(inex / "topics.xml")
    assert findings == [] and table["castitle"].tolist() == topics["castitle"].tolist()


def test_focused_overlapping_run_is_rejected_at_its_overlaps(inex: Path) -> None:
    _, _, reads = _reads(inex, "focused")
    rejected = {read.name: read for read in reads if read.rejected}
    assert sorted(rejected) == [run.tag for run in runs_of("focused") if run.flaw]
    fields = _fields(inex / "focused" / "kestrelFocFusion.txt")
    errors = [f for f in rejected["kestrelFocFusion"].findings if f.severity == "error"]
    assert len(errors) >= 2
    for finding in errors:
        first = int(re.search(r"line (\d+)", finding.message).group(1))
        a, b = fields[first - 1], fields[finding.line - 1]
        assert a[0] == b[0] and a[2] == b[2], finding  # same topic and article
        a_start, b_start = int(a[6]), int(b[6])
        assert a_start < b_start + int(b[7]) and b_start < a_start + int(a[7]), finding


def test_in_context_interleaving_run_is_rejected_where_an_article_comes_back(inex: Path) -> None:
    _, _, reads = _reads(inex, "relevant-in-context")
    rejected = {read.name: read for read in reads if read.rejected}
    assert sorted(rejected) == [r.tag for r in runs_of("relevant-in-context") if r.flaw]
    fields = _fields(inex / "relevant-in-context" / "kestrelRicMerged.txt")
    errors = [f for f in rejected["kestrelRicMerged"].findings if f.severity == "error"]
    assert len(errors) >= 2
    for finding in errors:
        topic, article = fields[finding.line - 1][0], fields[finding.line - 1][2]
        before = [f[2] for f in fields[: finding.line - 1] if f[0] == topic]
        assert article in before and before[-1] != article, finding


def test_valid_in_context_runs_keep_articles_together(inex: Path) -> None:
    for task in ("relevant-in-context", "best-in-context"):
        for run in runs_of(task):
            if run.flaw:
                continue
            fields = pd.DataFrame(_fields(inex / task / run.file_name))
            blocks = fields[(fields[[0, 2]] != fields[[0, 2]].shift()).any(axis=1)]
            assert not blocks.duplicated([0, 2]).any(), run.tag
            if task == "best-in-context":
                assert len(blocks) == len(fields), run.tag


@pytest.mark.parametrize(("task", "measure"), [("focused", "iP[0.01]"),
                                               ("relevant-in-context", "MAgP"),
                                               ("best-in-context", "MAgP")])
def test_valid_runs_differ_clearly_in_quality(inex: Path, task: str, measure: str) -> None:
    kind, qrels, reads = _reads(inex, task)
    values = _summary(kind, qrels, reads, measure)
    valid = [run for run in runs_of(task) if not run.flaw]
    assert sorted(values) == sorted(run.tag for run in valid)
    ordered = sorted(values.values())
    assert ordered[-1] > 0.45 and ordered[0] < ordered[-1] / 2, values
    assert len({round(v, 1) for v in ordered}) >= 4, values
    strongest = max(valid, key=lambda run: run.signal * (1 + run.focus))
    weakest = min(valid, key=lambda run: run.signal)
    assert values[weakest.tag] == ordered[0], values
    assert values[strongest.tag] >= ordered[-2], values


def test_metadata_names_every_run_as_the_engine_names_it(inex: Path) -> None:
    for task in ("focused", "relevant-in-context", "best-in-context"):
        meta = pd.read_csv(inex / f"{task}.csv")
        assert list(meta.columns) == ["run", "team", "description", "type"]
        _, _, reads = _reads(inex, task)
        assert sorted(meta["run"]) == sorted(read.name for read in reads)
        assert all(read.name != Path(read.path).name for read in reads)
        assert 2 <= meta["team"].nunique() <= 3
    assert len(RUNS) == sum(len(list((inex / t).iterdir()))
                            for t in ("focused", "relevant-in-context", "best-in-context"))
