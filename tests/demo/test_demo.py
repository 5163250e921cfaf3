"""The demo campaign: ``data/`` is exactly what the generator writes, and it makes a good demo."""

from __future__ import annotations

import filecmp
import io
import re
from pathlib import Path

import pandas as pd
import pytest

from builder.cli import main
from builder.contract import SUMMARY_TOPIC, RunRead
from builder.demo import write_demo
from builder.demo.adhoc.runs import ESCAPE_TAG, RUNS
from builder.tasks import get_kind

DATA = Path(__file__).resolve().parents[2] / "data"


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("demo")
    write_demo(directory)
    return directory


def _files(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())


def test_checked_in_data_is_the_generator_output(generated: Path) -> None:
    assert _files(generated) == _files(DATA)
    differing = [name for name in _files(DATA)
                 if not filecmp.cmp(generated / name, DATA / name, shallow=False)]
    assert differing == [], "regenerate with: appendix demo data"


def test_demo_command_writes_the_same_campaign(generated: Path, tmp_path: Path) -> None:
    assert main(["demo", str(tmp_path / "out")]) == 0
    for name in _files(generated):
        assert (tmp_path / "out" / name).read_bytes() == (generated / name).read_bytes(), name


def _without_opening_comment(text: str) -> list[str]:
    lines = text.splitlines()
    return lines[next(k for k, line in enumerate(lines) if not line.startswith("#")):]


def test_the_repository_config_is_the_demo_config_over_data(generated: Path) -> None:
    """``site_config.yml`` builds the demo site from ``data/``, the demo's own config builds it
    from the campaign's folder: the same tasks, each input path under ``data/``."""
    demo = _without_opening_comment((generated / "site_config.yml").read_text())
    inputs = re.compile(r"^(\s+(?:qrels|topics|runs|run_metadata|corpus): )")
    over_data = [inputs.sub(r"\1data/", line) for line in demo]
    assert over_data != demo
    assert _without_opening_comment((DATA.parent / "site_config.yml").read_text()) == over_data


@pytest.fixture(scope="module")
def validated(generated: Path) -> tuple[pd.DataFrame, list[RunRead]]:
    """The demo's qrels and runs, read and validated by the ad hoc task kind."""
    kind = get_kind("adhoc")
    qrels = kind.read_qrels(generated / "adhoc" / "qrels.txt")
    paths = sorted((generated / "adhoc" / "runs").iterdir())
    return qrels, kind.read_runs(paths, qrels, kind.options_model())


def test_validation_rejects_exactly_the_flawed_runs(
    validated: tuple[pd.DataFrame, list[RunRead]],
) -> None:
    _, reads = validated
    rejected = {Path(read.path).name: read for read in reads if read.rejected}
    assert sorted(rejected) == sorted(f"{run.file_stem}.txt" for run in RUNS if run.flaw)
    error_lines = {name: sorted(f.line for f in read.findings if f.severity == "error")
                   for name, read in rejected.items()}
    assert error_lines["kestrelDup.txt"] == [209, 1409]
    assert {5, 1211} <= set(error_lines["irisBroken.txt"])


def test_valid_runs_differ_clearly_in_quality(
    validated: tuple[pd.DataFrame, list[RunRead]],
) -> None:
    qrels, reads = validated
    kind = get_kind("adhoc")
    runs = pd.concat([read.table.assign(run=read.name) for read in reads if not read.rejected])
    scores = kind.evaluate(qrels, runs, kind.options_model()).scores
    summary = scores[(scores["topic"] == SUMMARY_TOPIC) & (scores["measure"] == "map")]
    mean_ap = dict(zip(summary["run"], summary["value"], strict=True))
    assert sorted(mean_ap) == sorted(run.tag for run in RUNS if not run.flaw)
    assert 12 <= len(mean_ap) <= 16
    ordered = sorted(mean_ap.values())
    assert ordered[-1] > 0.45, mean_ap
    assert ordered[0] < 0.02, mean_ap
    # tiers: from the best to the worst, MAP falls in steps, not all at once
    assert len({round(value, 1) for value in ordered}) >= 5, mean_ap
    # the ranking follows the simulated strength of each system
    signal = {run.tag: run.signal for run in RUNS}
    assert mean_ap[max(mean_ap, key=signal.get)] == ordered[-1]
    assert mean_ap[min(mean_ap, key=signal.get)] == ordered[0]


def test_runs_are_trec_runs_with_ties_and_teams(generated: Path) -> None:
    meta = pd.read_csv(generated / "adhoc" / "runs.csv")
    assert list(meta.columns) == ["run", "team", "description", "type"]
    assert set(meta["type"]) == {"automatic", "manual"}
    assert 4 <= meta["team"].nunique() <= 5
    assert sorted(meta["run"]) == sorted(run.tag for run in RUNS)
    tied_runs = 0
    for run in RUNS:
        if run.flaw:
            continue
        text = (generated / "adhoc" / "runs" / f"{run.file_stem}.txt").read_text()
        table = pd.read_csv(io.StringIO(text), sep=" ", header=None, dtype={0: str, 2: str})
        assert table.shape[1] == 6 and set(table[5]) == {run.tag}
        assert table.groupby(0)[2].nunique().eq(table.groupby(0).size()).all()
        assert table.groupby(0).size().max() <= 1000
        tied_runs += bool(table.duplicated([0, 4]).any())
    assert tied_runs >= 2


def test_flawed_runs_hold_the_flaws_validation_must_catch(generated: Path) -> None:
    runs = generated / "adhoc" / "runs"
    broken = [line.split() for line in (runs / "irisBroken.txt").read_text().splitlines()]
    assert {len(fields) for fields in broken} == {5, 6, 7}
    scores = [fields[4] for fields in broken if len(fields) == 6]
    assert any(not _is_number(score) for score in scores)
    dup = pd.read_csv(runs / "kestrelDup.txt", sep=" ", header=None, dtype=str)
    assert dup.duplicated([0, 2]).sum() == 2


def test_escape_run_tag_is_html_and_valid(generated: Path) -> None:
    text = (generated / "adhoc" / "runs" / "lakeEscape.txt").read_text()
    assert {line.split()[5] for line in text.splitlines()} == {ESCAPE_TAG}
    assert "<" in ESCAPE_TAG and not any(c.isspace() for c in ESCAPE_TAG)


def test_topics_in_trec_format_with_text_to_escape(generated: Path) -> None:
    text = (generated / "adhoc" / "topics.txt").read_text()
    assert text.count("<top>") == text.count("</top>") == 25
    assert text.count("<desc> Description:") == text.count("<narr> Narrative:") == 25
    numbers = [int(line.split()[-1]) for line in text.splitlines() if line.startswith("<num>")]
    assert numbers == list(range(401, 426))
    qrels = (generated / "adhoc" / "qrels.txt").read_text().splitlines()
    qrels_topics = sorted({int(line.split()[0]) for line in qrels})
    assert qrels_topics == numbers
    titles = [line[len("<title> "):] for line in text.splitlines() if line.startswith("<title>")]
    assert any("&" in title and "<" in title for title in titles)


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True
