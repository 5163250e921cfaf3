"""A task of one run: a leaderboard of one row, and no page nor chart that compares nothing
(no significance, reliability or run-versus-run page, no bar chart of one bar); the home
page's title says the campaign once; ``build -q`` is ``--quiet``."""

from __future__ import annotations

import io
import shutil
from contextlib import redirect_stderr
from pathlib import Path

from tests.site.browser import ROOT

CONFIG = """
campaign: {title: One run}
tasks:
  - id: adhoc
    title: Ad hoc
    kind: adhoc
    qrels: data/qrels.txt
    runs: data/runs/
    official_measure: map
"""


def test_a_task_of_one_run_compares_nothing(tmp_path: Path) -> None:
    from builder.cli import main

    (tmp_path / "data" / "runs").mkdir(parents=True)
    shutil.copy(ROOT / "data" / "adhoc" / "qrels.txt", tmp_path / "data" / "qrels.txt")
    shutil.copy(ROOT / "data" / "adhoc" / "runs" / "irisQL.txt", tmp_path / "data" / "runs")
    (tmp_path / "site_config.yml").write_text(CONFIG)
    err = io.StringIO()
    with redirect_stderr(err):
        status = main(["build", "--config", str(tmp_path / "site_config.yml"), "--out",
                       str(tmp_path / "site"), "-q"])
    assert status == 0 and err.getvalue() == ""
    site = tmp_path / "site"
    assert (site / "adhoc" / "runs" / "irisQL.html").is_file()
    for page in ("significance.html", "reliability.html", "compare.html"):
        assert not (site / "adhoc" / page).exists(), page
    home = (site / "index.html").read_text()
    assert "figure-leaderboard-adhoc" not in home
    assert "<title>One run</title>" in home
    assert "reliability.html" not in (site / "adhoc" / "runs" / "irisQL.html").read_text()
