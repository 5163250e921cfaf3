"""Counts of errors say how many problems there are, in the right number: a finding that counts
the lines not listed one by one ("5 more lines") is as many errors on the validation page and
in the rejected runs' reasons, "1 more line" is singular, and the console names the runs it
rejected."""

from __future__ import annotations

import csv
import io
import re
from contextlib import redirect_stderr
from pathlib import Path

import pytest

from tests.archive.campaign import appendix, write_campaign

LONG_TAG = "a-tag-too-long"


def _lines(count: int) -> str:
    return "".join(f"{1 + k % 3} Q0 x{k} {1 + k // 3} {100 - k} {LONG_TAG}\n"
                   for k in range(count))


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The small campaign with two runs whose tag is longer than the config's limit on
    names: one on 25 lines (20 listed, 5 counted), one on 21 (20 listed, 1 counted)."""
    root = tmp_path_factory.mktemp("counts")
    config = write_campaign(root, publish_inputs=False)
    config.write_text(config.read_text().replace("significance:", "limits: {name: 5}\n"
                                                 "significance:"))
    (root / "runs.csv").write_text("run,team\nalpha,a\nbeta,b\ngamma,g\n")  # names of 5 at most
    (root / "runs" / "many.txt").write_text(_lines(25))
    (root / "runs" / "one.txt").write_text(_lines(21))
    err = io.StringIO()
    with redirect_stderr(err):
        assert appendix("build", "--config", str(config), "--out", str(root / "site")) == 0
    return root / "site", err.getvalue()


def test_the_validation_page_counts_every_line(built) -> None:
    site, _ = built
    for run, errors in (("many", 25), ("one", 21)):
        page = (site / "adhoc" / "validation" / f"{run}.html").read_text(encoding="utf-8")
        assert f"<p>{errors} errors, 0 warnings, 0 notes." in page, run
        with open(site / "adhoc" / "validation" / f"{run}.findings.csv", newline="",
                  encoding="utf-8") as file:
            rows = list(csv.DictReader(file))
        assert len(rows) == 21  # 20 listed, one counting the rest
        counted = rows[-1]["Message"] if rows[-1]["Line"] == "" else rows[0]["Message"]
        more = errors - 20
        assert counted.endswith(f": {more} more line{'s' if more != 1 else ''}"), counted


def test_the_rejected_runs_give_the_number_of_their_other_errors(built) -> None:
    site, _ = built
    with open(site / "index.rejected-adhoc.csv", newline="", encoding="utf-8") as file:
        reasons = {row["Run"]: row["Reason"] for row in csv.DictReader(file)}
    assert reasons["many"].endswith("(and 24 more errors)")
    assert reasons["one"].endswith("(and 20 more errors)")


def test_the_console_names_the_rejected_runs(built) -> None:
    _, console = built
    assert re.search(r"\] validate +3 accepted, 2 rejected: many, one\s", console), console
