"""``appendix build`` on the demo campaign: a golden, reproducible, self-contained site.

The golden site (``tests/site/golden``, ``tests.site.golden_site``) is the demo site built with
SOURCE_DATE_EPOCH=1700000000. After a deliberate change to the site, regenerate it with:

    python -m tests.site.test_build --regenerate      (from the repository root)

and review ``git diff tests/site/golden`` with the change.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

from builder.cli import main
from builder.site.assets import plotly_js
from tests.site.golden_site import COPIES, HASHES, golden_differences, write_golden
from tests.site.site_checks import broken_references, file_hashes, published_leaks

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "site_config.yml"
EPOCH = "1700000000"
SCRIPT_RUN = "<script>alert(1)</script>"


def build_demo(out: Path, *extra: str) -> int:
    previous = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = EPOCH
    try:
        return main(["build", "--config", str(CONFIG), "--out", str(out), "--quiet", *extra])
    finally:
        if previous is None:
            del os.environ["SOURCE_DATE_EPOCH"]
        else:
            os.environ["SOURCE_DATE_EPOCH"] = previous


@pytest.fixture
def stamped_site(stamped_demo_site) -> Path:
    """The demo site built with the fixed SOURCE_DATE_EPOCH of the golden site (once for
    the session, ``tests/conftest.py``)."""
    return stamped_demo_site


def test_two_builds_are_byte_identical(stamped_site, tmp_path):
    again = tmp_path / "again"
    assert build_demo(again) == 0
    assert file_hashes(again) == file_hashes(stamped_site)


def test_the_stamped_site_matches_the_golden_site(stamped_site):
    """Every file of the demo site equals the golden site's: the text files up to 64 KiB (the
    pages, CSV, JSON, Markdown and LaTeX downloads, scripts, stylesheet) byte for byte with a
    copy, so a failure names each page that changed and shows the unified diff of its lines;
    the larger per-topic score downloads (``*/downloads/scores.csv`` and ``scores.json``, up to
    3 MB) by their SHA-256, as a copy would make most of the golden folder and a diff of
    thousands of lines, while the run pages kept as copies show the same numbers. plotly.min.js
    is the installed plotly's own file, not compared; the other assets are compared with their
    sources in ``templates/assets``. ``tests.site.golden_site`` says more."""
    differences = golden_differences(stamped_site)
    assert not differences, "\n".join([
        ("the demo site differs from the golden site (after a deliberate change: "
         "python -m tests.site.test_build --regenerate)"), *differences])


def test_every_link_and_asset_resolves_inside_the_site(stamped_site):
    assert broken_references(stamped_site) == []


def test_plotly_is_copied_once_and_loaded_once_per_page(stamped_site):
    assert (stamped_site / "assets" / "plotly.min.js").read_bytes() == plotly_js().read_bytes()
    assert not [p for p in stamped_site.rglob("*.js") if p.name == "plotly.min.js"][1:]
    board = (stamped_site / "adhoc" / "index.html").read_text()
    assert board.count("plotly.min.js") == 1
    for page in (stamped_site / "adhoc" / "runs").glob("*.html"):
        assert page.read_text().count("assets/plotly.min.js") == 1


def test_run_tags_are_shown_as_text(stamped_site):
    board = (stamped_site / "adhoc" / "index.html").read_text()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in board
    for page in stamped_site.rglob("*.html"):
        assert SCRIPT_RUN not in page.read_text(), page


def test_every_run_has_a_page_and_the_rejected_run_a_reason(stamped_site):
    runs = sorted((ROOT / "data" / "adhoc" / "runs").iterdir())
    assert len(list((stamped_site / "adhoc" / "validation").glob("*.html"))) == len(runs)
    board = (stamped_site / "adhoc" / "index.html").read_text()
    rejected = board.split('<table id="rejected-adhoc"', 1)[1].split("</table>", 1)[0]
    assert "irisBroken" in rejected
    run_pages = list((stamped_site / "adhoc" / "runs").glob("*.html"))
    assert len(run_pages) == len(runs) - rejected.count("<tr>") + 1
    for page in run_pages:
        assert page.stat().st_size < 100_000


def test_a_table_with_no_rows_has_neither_csv_nor_link(stamped_site):
    clean = (stamped_site / "adhoc" / "validation" / "irisManual.html").read_text()
    assert "No problem found." in clean and ".csv" not in clean
    assert not (stamped_site / "adhoc" / "validation" / "irisManual.findings.csv").exists()
    flawed = next(page for page in (stamped_site / "adhoc" / "validation").glob("*.html")
                  if "irisBroken" in page.name)
    assert (flawed.parent / flawed.name.replace(".html", ".findings.csv")).exists()
    assert flawed.name.replace(".html", ".findings.csv") in flawed.read_text()


def test_the_manifest_names_the_inputs_with_relative_paths(stamped_site):
    import json

    manifest = json.loads((stamped_site / "manifest.json").read_text())
    paths = [entry["path"] for entry in manifest["inputs"]]
    assert paths[0] == "site_config.yml"
    assert "data/adhoc/qrels.txt" in paths
    assert all(not Path(p).is_absolute() for p in paths)
    assert str(ROOT) not in "".join(p.read_text() for p in stamped_site.rglob("*.html"))


def test_no_published_file_leaks_an_internal_reference_or_a_machine_path(stamped_site):
    assert published_leaks(stamped_site, [stamped_site, ROOT, ROOT / "data"]) == []


def test_strict_fails_on_rejected_runs_and_publishes_nothing(tmp_path):
    assert build_demo(tmp_path / "strict", "--strict") == 1
    assert not (tmp_path / "strict").exists()
    assert list(tmp_path.iterdir()) == []


def test_a_config_error_exits_2(tmp_path):
    config = tmp_path / "site.yml"
    config.write_text("campaign: {title: T}\ntasks: [{id: x}]\n")
    assert main(["build", "--config", str(config), "--quiet"]) == 2


def test_a_failed_build_leaves_the_previous_site_untouched(stamped_site, tmp_path):
    out = tmp_path / "site"
    shutil.copytree(stamped_site, out)
    before = file_hashes(out)
    campaign = tmp_path / "campaign"
    shutil.copytree(ROOT / "data", campaign / "data")
    (campaign / "data" / "adhoc" / "topics.txt").write_text("<top>\n<num> Number: 401\n")
    config = campaign / "site_config.yml"
    config.write_text(CONFIG.read_text())
    assert main(["build", "--config", str(config), "--out", str(out), "--quiet"]) == 2
    assert file_hashes(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["campaign", "site"]


def test_a_failure_while_rendering_leaves_the_previous_site_untouched(stamped_site, tmp_path,
                                                                     monkeypatch):
    import builder.site.writer as site_module

    out = tmp_path / "site"
    shutil.copytree(stamped_site, out)
    before = file_hashes(out)

    def full_disk(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(site_module, "write_manifest", full_disk)
    assert build_demo(out) == 2  # said on stderr, without a traceback
    assert file_hashes(out) == before
    assert [p.name for p in tmp_path.iterdir()] == ["site"]


def test_an_unrelated_output_folder_is_not_replaced(tmp_path):
    out = tmp_path / "documents"
    out.mkdir()
    (out / "thesis.tex").write_text("keep me")
    assert build_demo(out) == 2
    assert (out / "thesis.tex").read_text() == "keep me"


def regenerate() -> None:
    """Build the demo site and make it the golden site."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        site = Path(folder) / "site"
        assert build_demo(site) == 0
        copies, hashes = write_golden(site)
    print(f"wrote {COPIES} ({copies} files) and {HASHES} ({hashes} hashes)")


if __name__ == "__main__" and sys.argv[1:] == ["--regenerate"]:
    regenerate()


def test_the_measures_page_lists_every_difference_from_the_official_programs(stamped_site):
    """The demo has ad hoc and INEX tasks: every trec_eval and inex_eval difference is a row
    (program, case, ours, theirs, reason), in its declared order, and nothing else."""
    import csv

    from builder.measures.adhoc.trec_eval.profiles import TREC_EVAL_DIFFERENCES
    from builder.measures.inex.differences import INEX_EVAL_DIFFERENCES

    with (stamped_site / "measures.differences.csv").open(encoding="utf-8", newline="") as f:
        rows = [tuple(row) for row in csv.reader(f)]
    assert rows[0] == ("Program", "Case", "This site", "The program", "Reason")
    expected = [tuple(d.__dict__.values()) for d in (*TREC_EVAL_DIFFERENCES,
                                                     *INEX_EVAL_DIFFERENCES)]
    assert rows[1:] == expected
    assert {row[0] for row in rows[1:]} >= {"trec_eval 8.1", "trec_eval 9.0.8", "trec_eval 10.0",
                                            "inex_eval 3.1"}
