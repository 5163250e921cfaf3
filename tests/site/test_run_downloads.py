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
