"""Run versus run on the TREC-COVID site: one page and one data file per task, drawn in the
browser for any pair from ``file://``, reached from run pages and from the significance matrix;
its numbers are those of the task's downloads."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from builder.site.pages.run_pairs import DATA_VARIABLE
from tests.site.browser import axe_report, vnu_errors

OFFICIAL = "ndcg_cut_10"
"""The example's official measure, the one its significance tests and comparisons use."""


def _csv(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as stream:
        return list(csv.DictReader(stream))


@pytest.fixture(scope="module")
def data(covid_site: Path) -> dict[str, Any]:
    text = (covid_site / "covid" / "compare-data.js").read_text(encoding="utf-8")
    prefix = f"window.{DATA_VARIABLE} = "
    assert text.startswith(prefix) and text.endswith(";\n")
    return json.loads(text[len(prefix):-2])


@pytest.fixture(scope="module")
def pair(covid_site: Path) -> dict[str, str]:
    """A tested pair far apart on the leaderboard: the best run and the 40th."""
    board = _csv(covid_site / "index.leaderboard-covid.csv")
    a, b = board[0]["Run"], board[39]["Run"]
    row = next(r for r in _csv(covid_site / "covid" / "downloads" / "significance.csv")
               if r["run_a"] == a and r["run_b"] == b and r["measure"] == OFFICIAL)
    return row


def test_the_data_file_holds_the_downloads_numbers(covid_site: Path, data, pair) -> None:
    runs, topics = data["runs"], data["topics"]
    assert len(runs) == 143 and len(topics) == 30 and data["official"] == OFFICIAL
    per_topic = {(r["run"], r["topic"]): float(r["value"])
                 for r in _csv(covid_site / "covid" / "downloads" / "scores.csv")
                 if r["measure"] == OFFICIAL}
    summary = {r["run"]: float(r[OFFICIAL])
               for r in _csv(covid_site / "covid" / "downloads" / "summary.csv")}
    for i in (0, 71, 142):
        for k, topic in enumerate(topics):
            assert data["scores"][OFFICIAL][i][k] == pytest.approx(per_topic[runs[i], topic],
                                                                abs=5e-5)
        assert data["means"][OFFICIAL][i] == pytest.approx(summary[runs[i]], abs=5e-5)
    tests = data["tests"][OFFICIAL]
    assert len(tests["a"]) == 143 * 142 // 2
    k = next(k for k in range(len(tests["a"]))
             if runs[tests["a"][k]] == pair["run_a"] and runs[tests["b"][k]] == pair["run_b"])
    for key, column in (("diff", "mean_diff"), ("low", "ci_low"), ("high", "ci_high"),
                        ("p", "p_value"), ("adjusted", "p_adjusted")):
        assert tests[key][k] == pytest.approx(float(pair[column]), abs=5e-5), key
    assert bool(tests["significant"][k]) == (pair["significant"] == "True")
    # one page and one data file for the task, not one page per pair
    assert len(list((covid_site / "covid").glob("compare*"))) == 2


def test_the_pair_is_drawn_from_file(covid_site: Path, visit: Any, data, pair) -> None:
    a, b = pair["run_a"], pair["run_b"]
    seen = visit(covid_site / "covid" / "compare.html", f"#a={quote(a)}&b={quote(b)}")
    page = seen.page
    for figure in ("#pair-scatter", "#pair-differences"):
        page.wait_for_selector(f"{figure} svg.main-svg")
        assert page.locator(figure).bounding_box()["height"] > 200
    assert page.locator("#pair-scatter .scatterlayer .point").count() == 30
    assert page.locator("#pair-differences .bars .point").count() == 30
    assert page.locator("#run-a").input_value() == a
    assert page.locator("#run-b").input_value() == b
    cells = page.locator("#pair-tests tbody tr").first.locator("td").all_inner_texts()
    means = data["means"][OFFICIAL]
    assert cells[0] == f"{means[data['runs'].index(a)]:.4f}"
    assert cells[1] == f"{means[data['runs'].index(b)]:.4f}"
    assert cells[2] == f"{float(pair['mean_diff']):+.4f}"
    assert cells[3] == f"[{float(pair['ci_low']):+.4f}, {float(pair['ci_high']):+.4f}]"
    assert cells[6] == ("yes" if pair["significant"] == "True" else "no")
    differences = [float(t) for t in page.locator("#pair-topics tbody tr td:last-child")
                   .all_inner_texts()]
    assert len(differences) == 10
    assert [abs(d) for d in differences] == sorted((abs(d) for d in differences), reverse=True)
    bars = page.evaluate("document.getElementById('pair-differences').data[0].y")
    assert bars == sorted(bars, reverse=True)
    assert max(abs(d) for d in bars) == pytest.approx(abs(differences[0]), abs=1e-4)
    # swapping the runs flips the signs and updates the URL
    page.get_by_role("button", name="Swap A and B").click()
    assert page.locator("#pair-tests tbody tr").first.locator("td").nth(2).inner_text() == (
        f"{-float(pair['mean_diff']):+.4f}")
    assert page.evaluate("location.hash") == f"#a={quote(b, safe='')}&b={quote(a, safe='')}"
    assert seen.console_errors == [] and seen.remote_requests() == []
    assert axe_report(page, "covid/compare.html") == []


def test_a_run_page_links_to_the_comparison(covid_site: Path, visit: Any, data) -> None:
    run = data["runs"][5]
    seen = visit(covid_site / "covid" / data["runPages"][5])
    seen.page.get_by_role("link", name="Compare with another run").click()
    seen.page.wait_for_selector("#pair-scatter svg.main-svg")
    assert seen.page.locator("#run-a").input_value() == run
    assert seen.page.locator("#run-b").input_value() != run
    seen.page.go_back()
    seen.page.get_by_role("link", name="rank 6 of 143").click()
    assert seen.page.locator("tr.highlight th").inner_text() == run
    assert seen.console_errors == []


def test_a_cell_of_the_significance_matrix_opens_its_pair(covid_site: Path, visit: Any,
                                                         data) -> None:
    seen = visit(covid_site / "covid" / "significance.html")
    page = seen.page
    page.wait_for_selector("#figure-significance-ndcg_cut_10 svg.main-svg")
    page.locator("#figure-significance-ndcg_cut_10").scroll_into_view_if_needed()
    i, j = 2, 7  # row run i, column run j
    x, y = page.evaluate(
        """([i, j]) => {
            const gd = document.getElementById('figure-significance-ndcg_cut_10');
            const xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis;
            return [xa._offset + xa.l2p(j), ya._offset + ya.l2p(i)];
        }""", [i, j])
    box = page.locator("#figure-significance-ndcg_cut_10").bounding_box()
    page.mouse.click(box["x"] + x, box["y"] + y)
    page.wait_for_url("**/compare.html#*")
    page.wait_for_selector("#pair-scatter svg.main-svg")
    assert page.locator("#run-a").input_value() == data["runs"][i]
    assert page.locator("#run-b").input_value() == data["runs"][j]
    assert seen.console_errors == []


def test_the_new_pages_are_valid_html(covid_site: Path, data) -> None:
    pages = [covid_site / "covid" / "compare.html", covid_site / "covid" / "significance.html",
             covid_site / "covid" / data["runPages"][0]]
    assert vnu_errors(pages, covid_site) == []
