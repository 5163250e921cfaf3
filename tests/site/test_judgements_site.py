"""The judgements page, the leaderboard's Pooled and Unjudged@10 columns and the run pages'
row, on the TREC-COVID round 1 site in a real headless browser; a single-run task and the INEX
tasks of the demo have a judgements page without an empty section."""

from __future__ import annotations

import csv
import gzip
from pathlib import Path
from typing import Any

from builder.cli import main
from tests.site.browser import axe_report

SECTION_CHECK = """() => [...document.querySelectorAll('main section')].map(s => ({
    heading: s.querySelector('h2').textContent.trim(),
    rows: s.querySelectorAll('tbody tr').length,
    items: s.querySelectorAll('li').length}))"""


def table_rows(page: Any, selector: str) -> list[list[str]]:
    return page.evaluate("""(selector) => [...document.querySelector(selector).tBodies[0].rows]
        .map(r => [...r.cells].map(c => c.textContent.trim()))""", selector)


def header(page: Any, selector: str) -> list[str]:
    return page.evaluate("""(selector) => [...document.querySelector(selector).tHead.rows[0]
        .cells].map(c => c.textContent.trim())""", selector)


def top_ten_unjudged(run_file: Path, judged: set[tuple[str, str]], topics: set[str]) -> float:
    """A run's first 10 documents per qrels topic (score descending, docno descending), the
    share the qrels do not judge (relevance >= 0), all topics together."""
    rankings: dict[str, list[tuple[float, str]]] = {}
    with gzip.open(run_file, "rt") as lines:
        for line in lines:
            topic, _, doc, _, score, _ = line.split()[:6]
            if topic in topics:
                rankings.setdefault(topic, []).append((float(score), doc))
    top = [(topic, doc) for topic, rows in rankings.items()
           for _, doc in sorted(rows, reverse=True)[:10]]
    return sum(key not in judged for key in top) / len(top)


def test_covid_judgements_page_leaderboard_and_run_page(covid_site: Path, shared_data: Path,
                                                       visit: Any) -> None:
    data = shared_data / "trec_covid_round1"
    judged, grades = set(), {}
    for line in (data / "qrels.covid-round1.txt").read_text().splitlines():
        topic, _, doc, rel = line.split()
        if int(float(rel)) >= 0:
            judged.add((topic, doc))
            grades[topic] = grades.get(topic, 0) + 1
    with open(data / "leaderboard.round1.csv", newline="") as stream:
        pooled = {row["run"] for row in csv.DictReader(stream)
                  if row["contributed judgments"] == "yes"}

    page = visit(covid_site / "covid" / "judgements.html").page
    topics = table_rows(page, "#judged-topics")
    assert {row[0]: int(row[1]) for row in topics} == grades  # judged per topic
    runs = table_rows(page, "#judged-runs")
    columns = header(page, "#judged-runs")
    assert columns == ["Run", "Team", "Pooled", "Unjudged@10", "Unjudged@100", "Unjudged@1000",
                       "Contributed", "Unique", "Unique relevant"]
    assert len(runs) == 143
    assert {row[0] for row in runs if row[2] == "pooled"} == pooled
    # a pooled run contributes its first 7 documents per topic (the depth found: 7), fewer
    # where it has fewer
    for row in runs:
        if row[2] == "pooled":
            with gzip.open(data / "runs" / f"{row[0]}.gz", "rt") as lines:
                counts: dict[str, int] = {}
                for line in lines:
                    counts[line.split()[0]] = counts.get(line.split()[0], 0) + 1
            assert int(row[6]) == sum(min(7, n) for t, n in counts.items() if t in grades)
    assert all(row[6] == row[7] == row[8] == "" for row in runs if row[2] != "pooled")
    assert "first 7 documents" in page.locator("main .lede").inner_text()
    assert axe_report(page, "covid/judgements.html") == []

    board = visit(covid_site / "index.html").page
    board_columns = header(board, "#leaderboard-covid")
    pooled_at = board_columns.index("Pooled")
    assert board_columns[pooled_at + 1] == "Unjudged@10"
    rows = table_rows(board, "#leaderboard-covid")
    assert {row[1] for row in rows if row[pooled_at] == "pooled"} == pooled
    shares = {row[1]: row[pooled_at + 1] for row in rows}
    topic_set = set(grades)
    for run in ("run1", "BM25R2", "sheikh_bm25_manual"):
        expected = top_ten_unjudged(data / "runs" / f"{run}.gz", judged, topic_set)
        assert shares[run] == f"{100 * expected:.1f}%", run
    assert board.locator("a", has_text="judgements").first.get_attribute("href") \
        == "covid/judgements.html"

    run_page = visit(covid_site / "covid" / "runs" / "run1.html").page
    row = table_rows(run_page, "#run-judgements")
    assert row == [next(r for r in runs if r[0] == "run1")]
    run_page.get_by_role("link", name="Judgements of the task").click()
    run_page.wait_for_load_state()
    assert run_page.url.endswith("covid/judgements.html")


def _sections(page: Any) -> list[dict[str, Any]]:
    return page.evaluate(SECTION_CHECK)


INEX_TASKS = ("focused", "relevant-in-context", "best-in-context", "elements")
JUDGEMENT_COLUMNS = ("Pooled", "Unjudged@10", "Unjudged@100", "Unjudged@1000", "Contributed",
                     "Unique", "Unique relevant")


def test_no_empty_section_on_inex_and_single_run_tasks(demo_site: Path, tmp_path: Path,
                                                       visit: Any) -> None:
    """On every INEX task of the demo (no run metadata saying which runs were pooled, no
    ranking a depth pool reads): the judgements page has its topics and no run section, the
    leaderboard no judgement column, a run page no judgements section. On a task of one ad
    hoc run: the page has both sections, the leaderboard its Unjudged@10 (no Pooled column:
    nothing says which runs were pooled), the run page its row of the page."""
    for task in INEX_TASKS:
        board = visit(demo_site / task / "index.html").page  # the task's own leaderboard
        sections = _sections(visit(demo_site / task / "judgements.html").page)
        assert [s["heading"] for s in sections] == ["Per topic", "References"], task
        assert all(s["rows"] or s["items"] for s in sections), (task, sections)
        assert not set(JUDGEMENT_COLUMNS) & set(header(board, f"#leaderboard-{task}")), task
        run_page = next((demo_site / task / "runs").glob("*.html"))
        page = visit(run_page).page
        assert page.locator("section.run-judgements").count() == 0, run_page
        assert page.get_by_role("link", name="Judgements of the task").count() == 0
    folder = tmp_path / "single"
    (folder / "runs").mkdir(parents=True)
    (folder / "qrels.txt").write_text("1 0 a 1\n1 0 b 0\n2 0 c 2\n")
    (folder / "runs" / "only.txt").write_text("1 Q0 a 1 2.0 only\n1 Q0 z 2 1.0 only\n"
                                              "2 Q0 c 1 3.0 only\n")
    (folder / "site_config.yml").write_text(
        "campaign: {title: One run}\ntasks:\n  - id: t\n    title: T\n    kind: adhoc\n"
        "    qrels: qrels.txt\n    runs: runs/\n")
    assert main(["build", "--config", str(folder / "site_config.yml"), "--out",
                 str(folder / "site"), "--quiet"]) == 0
    page = visit(folder / "site" / "t" / "judgements.html").page
    sections = _sections(page)
    assert [s["heading"] for s in sections] == ["Per topic", "Per run", "References"]
    assert all(s["rows"] or s["items"] for s in sections), sections
    # the one run is the pool: judged to depth 1 on topic 1 (z unjudged), 1 on topic 2
    only = ["only", "", "pooled", "33.3%", "33.3%", "33.3%", "2", "2", "2"]
    assert table_rows(page, "#judged-runs") == [only]
    board = visit(folder / "site" / "index.html").page
    columns = header(board, "#leaderboard-t")
    assert [c for c in columns if c in JUDGEMENT_COLUMNS] == ["Unjudged@10"]
    row, = table_rows(board, "#leaderboard-t")
    assert row[columns.index("Unjudged@10")] == "33.3%"  # a of 1 and z, c of 2: 1 of 3
    run_page = visit(folder / "site" / "t" / "runs" / "only.html").page
    assert table_rows(run_page, "#run-judgements") == [only]
    assert run_page.get_by_role("link", name="Judgements of the task").count() == 1


def test_reliability_page_reports_the_condensed_lists(demo_site: Path, visit: Any) -> None:
    """The demo's ad hoc reliability page: tau and tau_ap between the leaderboard and the
    ranking on condensed lists, as ``condensed_lists`` computes them on the accepted runs."""
    import pandas as pd

    from builder.stats.reliability.adhoc_rejudge import judge_once
    from builder.stats.reliability.condensed import condensed_lists
    from builder.tasks.adhoc.reading import read_qrels, read_run_files
    from builder.tasks.options.adhoc import AdhocOptions

    folder = Path(__file__).resolve().parents[2] / "data" / "adhoc"
    qrels, options = read_qrels(folder / "qrels.txt"), AdhocOptions()
    runs = [p for p in sorted((folder / "runs").glob("*.txt"))
            if "Broken" not in p.name and "Dup" not in p.name]
    reads = read_run_files(runs, qrels, options)
    _, agreement = condensed_lists(
        judge_once(pd.concat([r.table for r in reads], ignore_index=True), qrels, options), "map")
    page = visit(demo_site / "adhoc" / "reliability.html").page
    section = page.locator("section[aria-labelledby=condensed-heading]").inner_text()
    assert f"Kendall's tau is {agreement['tau']:.4f} and tau_ap {agreement['tau_ap']:.4f}" \
        in section
