"""Element runs against the official program: a generated XML corpus, element assessments
highlighted on it, element runs resolved over it; inex_eval 3.1 (``../shared/tools``) scores
the converted FOL run, we score the element run, and every value must agree."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from test_inex_eval_focused import oracle_table  # inex_eval's printed values

from builder.cli import main
from builder.demo.inex.xml_articles import write_articles
from builder.formats.xml.corpus_index import open_index
from builder.formats.xml.elements.convert import write_fol
from builder.formats.xml.elements.resolve import resolve_element_run
from builder.formats.xml.elements.run import read_element_run
from builder.tasks import get_kind
from builder.validate.fol_run import DEFAULT_MAX_RESULTS, validate_fol_run

TOPICS = ["2024001", "2024002", "2024003", "2024004"]


def _inex_eval(shared_tools: Path) -> Path:
    jar = shared_tools / "inex_eval" / "inex_eval.jar"
    if shutil.which("java") is None:
        pytest.fail("java is needed to run inex_eval (.ci/run installs it)")
    return jar


def _elements(nodes: pd.DataFrame, kind: str) -> pd.DataFrame:
    elements = nodes[~nodes["is_text"]]
    if kind == "p":
        return elements[elements["path"].str.endswith(("]/p[1]", "]/p[2]", "]/p[3]"))
                        | elements["path"].str.contains(r"/p\[\d+\]$")]
    return elements[elements["path"].str.contains(r"/section\[\d+\]$")]


@pytest.fixture(scope="module")
def campaign(tmp_path_factory):
    root = tmp_path_factory.mktemp("elements")
    files = write_articles(root / "corpus", 60, seed=11)
    index = open_index(root / "corpus", cache_dir=root / "cache", workers=1, progress=None)
    nodes = index.nodes().to_pandas()
    lengths = index.articles().to_pandas().set_index("file")["text_length"]
    rng = np.random.default_rng(3)
    paragraphs = _elements(nodes, "p")
    qrels_lines, run_lines, thorough_lines = [], [], []
    for topic in TOPICS:
        relevant = rng.choice(files, size=12, replace=False)
        for file in relevant:
            chosen = paragraphs[paragraphs["file"] == file].sample(
                n=min(2, (paragraphs["file"] == file).sum()), random_state=int(rng.integers(1e6)))
            chosen = chosen.sort_values("start")
            spans = " ".join(f"{s}:{e - s}" for s, e in zip(chosen["start"], chosen["end"]))
            rel = int((chosen["end"] - chosen["start"]).sum())
            qrels_lines.append(f"{topic} Q0 {file} {rel} {lengths[file]} {chosen['start'].iloc[0]} "
                               f"{spans}")
        retrieved = rng.choice(files, size=20, replace=False)
        rank = 0
        for file in retrieved:
            # Focused: disjoint paragraphs of one article. Thorough: nested elements, the
            # paragraphs, then their sections, then the whole article (inex_eval -t counts the
            # text retrieved twice once).
            mine = paragraphs[paragraphs["file"] == file]
            picked = mine.sample(n=min(3, len(mine)), random_state=int(rng.integers(1e6)))
            for path in picked["path"]:
                rank += 1
                run_lines.append(f"{topic} Q0 {file} {rank} {100 - rank} elem {path}")
            sections = _elements(nodes[nodes["file"] == file], "section")["path"]
            for path in [*picked["path"], *sections, "/article[1]"]:
                thorough_lines.append(f"{topic} Q0 {file} {rank} {100 - rank} elem {path}")
    (root / "qrels.txt").write_text("\n".join(qrels_lines) + "\n")
    (root / "focused.txt").write_text("\n".join(run_lines) + "\n")
    (root / "thorough.txt").write_text("\n".join(thorough_lines) + "\n")
    return root, index


def _official(jar: Path, flag: str, qrels: Path, fol: Path) -> pd.DataFrame:
    out = subprocess.run(["java", "-jar", str(jar), flag, "-q", str(qrels), str(fol)],
                         capture_output=True, text=True, check=True, timeout=120).stdout
    printed = fol.with_suffix(".inex_eval.txt")
    printed.write_text(out)
    return oracle_table(printed).rename(columns={"oracle": "official"})


@pytest.mark.parametrize(("kind_name", "flag", "run"), [("focused", "-f", "focused.txt"),
                                                        ("thorough", "-t", "thorough.txt")])
def test_element_run_equals_inex_eval_on_its_fol_conversion(campaign, shared_tools, kind_name,
                                                            flag, run):
    root, index = campaign
    kind = get_kind(kind_name)
    qrels = kind.read_qrels(root / "qrels.txt")
    elements, findings = read_element_run(root / run, label=run)
    fol, unresolved = resolve_element_run(elements, index, run)
    assert findings == [] and unresolved == [] and len(fol) == len(elements)
    table, problems = validate_fol_run(fol.drop(columns="path"), run, qrels.topics,
                                       DEFAULT_MAX_RESULTS, kind_name == "focused")
    assert not [p for p in problems if p.severity == "error"]
    ours = kind.evaluate(qrels, table, kind.options_model()).scores
    converted = root / f"{run}.fol"
    converted.write_text(write_fol(fol))
    official = _official(_inex_eval(shared_tools), flag, root / "qrels.txt", converted)
    merged = official.merge(ours, on=["measure", "topic"], how="left")
    assert len(official) > 150  # per topic: counts, iP[0.00-0.10], AiP; all: 101 iP
    assert merged["value"].notna().all(), merged[merged["value"].isna()].head()
    assert (merged["value"] - merged["official"]).abs().max() <= 1e-9


def test_an_element_and_its_ancestor_overlap_in_a_focused_run(campaign, tmp_path):
    root, index = campaign
    kind = get_kind("focused")
    qrels = kind.read_qrels(root / "qrels.txt")
    first = (root / "focused.txt").read_text().splitlines()[0]
    parent = first.rsplit("/", 1)[0]
    run = tmp_path / "nested.txt"
    run.write_text(f"{first}\n{parent}\n")
    elements, _ = read_element_run(run, label="nested.txt")
    fol, _ = resolve_element_run(elements, index, "nested.txt")
    _, problems = validate_fol_run(fol.drop(columns="path"), "nested.txt", qrels.topics,
                                   DEFAULT_MAX_RESULTS, True)
    errors = [p for p in problems if p.severity == "error"]
    assert [p.line for p in errors] == [2] and "overlap" in errors[0].message
    assert "line 1" in errors[0].message


def _evaluate_tsv(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["evaluate", *args, "--format", "tsv"])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("task", ["focused", "thorough", "relevant-in-context", "eprum"])
def test_evaluate_with_corpus_equals_evaluate_on_the_conversion(campaign, capsys, monkeypatch,
                                                               task):
    # EPRUM's tree model on element runs: containment of the elements' text ranges.
    root, index = campaign
    monkeypatch.setenv("XDG_CACHE_HOME", str(root / "xdg"))
    run = root / "focused.txt"
    converted = root / f"cli-{task}.fol"
    converted.write_text(write_fol(resolve_element_run(read_element_run(run)[0], index, "r")[0]))
    code, elements, err = _evaluate_tsv(capsys, "--task", task, "--corpus",
                                        str(root / "corpus"), str(root / "qrels.txt"), str(run))
    assert code == 0 and "Traceback" not in err
    code, fol, _ = _evaluate_tsv(capsys, "--task", task, str(root / "qrels.txt"), str(converted))
    assert code == 0 and elements == fol and len(elements.splitlines()) > 50


def test_an_element_run_without_its_corpus_is_rejected_with_a_reason(campaign, capsys):
    root, _ = campaign
    code, out, err = _evaluate_tsv(capsys, "--task", "focused", str(root / "qrels.txt"),
                                   str(root / "focused.txt"))
    assert code == 1 and out == "" and "Traceback" not in err
    assert "its XML corpus is needed" in err and "focused.txt" in err
