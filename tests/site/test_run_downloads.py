"""Each run page offers the run's scores as the official program prints them with ``-q``: the
file it links is, byte for byte, what ``appendix evaluate -q`` prints for that run file with
the task's kind and options; the page also gives the submitted file's SHA-256 (that of the
file read) and, when the inputs are published, links its published copy."""

from __future__ import annotations

import hashlib
import html
import io
import re
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from builder.cli import main
from builder.pipeline.stages import load_config, read_task, validate_task
from tests.site.conftest import COVID_CONFIG, DEMO_CONFIG

LINK = re.compile(r'<a href="((?:\.\./)*)([^"]+\.scores\.txt)">')
HASH = re.compile(r'SHA-256 <code class="hash">([0-9a-f]{64})</code>')


def _evaluate(spec, run_file: Path) -> str:
    """``appendix evaluate -q`` of one run file with the task's kind and options."""
    options = spec.options.model_dump(exclude_defaults=True, mode="json")
    args = ["evaluate", str(spec.qrels), str(run_file), "-q", "--task", spec.kind.name]
    for key, value in options.items():
        args += ["-o", f"{key}={value}"]
    out = io.StringIO()
    with redirect_stdout(out), redirect_stderr(io.StringIO()):
        main(args)
    return out.getvalue()


def _check_task(site: Path, spec, runs: int | None = None) -> int:
    inputs = read_task(spec)
    validate_task(inputs)
    checked = 0
    for read in inputs.accepted[:runs]:
        pages = [p for p in (site / spec.id / "runs").glob("*.html")
                 if f"<span class=\"name\">{html.escape(read.name, quote=False)}</span>"
                 in p.read_text(encoding="utf-8")]
        assert len(pages) == 1, read.name
        text = pages[0].read_text(encoding="utf-8")
        prefix, href = LINK.search(text).groups()
        download = (pages[0].parent / prefix / href).resolve()
        expected = _evaluate(spec, Path(read.path))
        assert expected.strip(), read.name
        assert download.read_text(encoding="utf-8") == expected, read.name
        digest = hashlib.sha256(Path(read.path).read_bytes()).hexdigest()
        assert HASH.search(text).group(1) == digest
        checked += 1
    return checked


@pytest.mark.parametrize("task", ["adhoc", "focused", "relevant-in-context", "best-in-context"])
def test_each_run_pages_scores_equal_appendix_evaluate_q(demo_site: Path, task: str) -> None:
    spec = next(t for t in load_config(DEMO_CONFIG).tasks if t.id == task)
    assert _check_task(demo_site, spec) >= 3


def test_trec_covid_run_pages_scores_equal_appendix_evaluate_q(covid_site: Path) -> None:
    spec = load_config(COVID_CONFIG).tasks[0]
    assert _check_task(covid_site, spec, runs=3) == 3


def test_scores_download_equals_evaluate_when_judged_only_empties_a_topic(tmp_path: Path) -> None:
    """trec_eval 9.0.8 with -c and -J prints a topic the run answered with unjudged documents
    only (its results emptied by -J): the download, like the command, reads which topics each
    run answered from the evaluation, not from what is left after -J."""
    root = tmp_path / "campaign"
    (root / "runs").mkdir(parents=True)
    (root / "qrels.txt").write_text("1 0 a 1\n1 0 b 0\n2 0 c 1\n3 0 d 1\n")
    (root / "runs" / "r1.txt").write_text(
        "1 Q0 a 1 3.0 r1\n1 Q0 x 2 2.0 r1\n2 Q0 y 1 2.0 r1\n2 Q0 z 2 1.0 r1\n")
    (root / "runs" / "r2.txt").write_text("1 Q0 b 1 3.0 r2\n2 Q0 c 1 2.0 r2\n3 Q0 d 1 1.0 r2\n")
    config = root / "site_config.yml"
    config.write_text(
        "campaign: {title: Judged only}\ntasks:\n  - id: t\n    title: T\n    kind: adhoc\n"
        "    qrels: qrels.txt\n    runs: runs/\n"
        "    options: {profile: '9.0.8', complete: true, judged_only: true}\n")
    assert main(["build", "--config", str(config), "--out", str(root / "site"), "--quiet"]) == 0
    spec = load_config(config).tasks[0]
    assert _check_task(root / "site", spec) == 2
    r1 = _evaluate(spec, root / "runs" / "r1.txt")
    assert re.search(r"^num_ret\s+2\s+0$", r1, re.MULTILINE)  # topic 2: answered, emptied by -J
