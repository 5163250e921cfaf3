"""The project's documentation builds with ``mkdocs build --strict`` (no warning at all)."""

from __future__ import annotations

import html
import os
import re
import subprocess
import sys
from pathlib import Path

from builder.measures.registry import families, measures_of

ROOT = Path(__file__).resolve().parent.parent


def test_docs_build_strict(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "docs")],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
    )
    assert result.returncode == 0, result.stderr
    measures = (tmp_path / "docs" / "measures" / "index.html").read_text(encoding="utf-8")
    assert "<!-- measures -->" not in measures
    listed = listed_measures(measures)
    counts = {family: len(measures_of(family)) for family in families()}
    assert {family: len(names) for family, names in listed.items()} == counts
    assert re.findall(r"<p>(\d+) measures in \d+ rows\.</p>", measures) == [
        str(n) for n in counts.values()]
    assert "seed 0" not in measures and "References" in measures
    assert {family: sorted(names) for family, names in listed.items()} == {
        family: sorted(names) for family, names in registered_measures().items()}
    # The tables of remaining differences, from the rows the site's measures page shows.
    from builder.measures.adhoc.trec_eval.profiles import TREC_EVAL_DIFFERENCES
    from builder.measures.inex.differences import INEX_EVAL_DIFFERENCES

    for page, rows in (("trec_eval", TREC_EVAL_DIFFERENCES), ("inex_eval", INEX_EVAL_DIFFERENCES)):
        text = (tmp_path / "docs" / page / "index.html").read_text(encoding="utf-8")
        assert "-differences -->" not in text
        assert text.count("<tr><td>") == len(rows) and html.escape(rows[-1].case) in text
    cli = (tmp_path / "docs" / "cli" / "index.html").read_text(encoding="utf-8")
    assert "appendix demo" in cli
    config = (tmp_path / "docs" / "configuration" / "index.html").read_text(encoding="utf-8")
    assert "<code>official_measure</code>" in config


def listed_measures(page: str) -> dict[str, list[str]]:
    """Per family section (``<h2 id="family">``) of the measure reference, the names listed
    (a row of a parameterised family names its measures in ``data-measures``)."""
    sections = re.split(r'<h2 id="([^"]+)"', page)[1:]
    return {family: [name for row in re.findall(r'<tr data-measures="(.*?)">', body)
                     for name in row.split(" ")]
            for family, body in zip(sections[::2], sections[1::2])
            if family not in ("references", "reproducing-the-papers")}


def registered_measures() -> dict[str, list[str]]:
    import html

    return {family: [html.escape(m.name) for m in measures_of(family)] for family in families()}



def test_the_python_api_pages_examples_run(tmp_path: Path, monkeypatch) -> None:
    """Every ``python`` block of docs/python-api.md, in order, in one namespace, in an empty
    folder (the first block writes the demo campaign there)."""
    page = (ROOT / "docs" / "python-api.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", page, flags=re.DOTALL)
    assert len(blocks) >= 6
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}:{os.environ['PATH']}")
    namespace: dict[str, object] = {}
    for block in blocks:
        exec(compile(block, "docs/python-api.md", "exec"), namespace)  # noqa: S102
    assert (tmp_path / "campaign-site" / "index.html").is_file()
