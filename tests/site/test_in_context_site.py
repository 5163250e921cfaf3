"""The in-context site of examples/inex_ipcs_in_context.yml against inex_eval 3.1's outputs.

The site is built once from ../shared/data/inex_ipcs (read in place); its leaderboards, run
pages and rejected runs are compared with the oracle files of inex_eval 3.1 (``-r``, ``-i``,
``-b`` with ``-q``).
"""

from __future__ import annotations

import csv
import html
import re
from pathlib import Path

import pytest

from builder.cli import main
from tests.site.site_checks import broken_references

ROOT = Path(__file__).resolve().parents[2]

TASKS = {  # task id -> (inex_eval flag, accepted run file stem, rejected run file stems)
    "relevant-in-context": ("-r", "derived_ric", ["bert_inex_converted"]),
    "restricted-relevant-in-context": ("-i", "derived_ric", []),
    "best-in-context": ("-b", "derived_bic", ["bert_inex_converted"]),
}
RANKS = (1, 2, 3, 5, 10, 25, 50)
RUN_NAMES = {"derived_ric": "derivedRiC", "derived_bic": "derivedBiC",
             "bert_inex_converted": "TREC2INEX"}
"""Run file stem (as in the oracle file names) -> run name: the run tag, column 6 of the file."""


@pytest.fixture(scope="module")
def site(shared_data, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("inex-ipcs") / "site"
    config = ROOT / "examples" / "inex_ipcs_in_context.yml"
    assert main(["build", "--config", str(config), "--out", str(out), "--quiet"]) == 0
    return out


def oracle_file(shared_data: Path, flag: str, run: str) -> Path:
    return shared_data / "inex_ipcs" / "oracle_inex_eval_3.1" / f"inex_eval_{flag}_-q.{run}.txt"


def oracle_values(shared_data: Path, flag: str, run: str) -> dict[tuple[str, str], float]:
    """(measure, topic) -> value of an inex_eval output."""
    values = {}
    for line in oracle_file(shared_data, flag, run).read_text().splitlines():
        fields = line.split()
        if len(fields) == 3 and not line.startswith("<"):
            values[(fields[0], fields[1])] = float(fields[2])
    return values


def read_csv(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as stream:
        return list(csv.DictReader(stream))


@pytest.mark.parametrize("task", TASKS)
def test_leaderboard_magp_is_inex_eval(site, shared_data, task):
    flag, run, _ = TASKS[task]
    expected = oracle_values(shared_data, flag, run)
    summary = {row["run"]: row for row in read_csv(site / task / "downloads" / "summary.csv")}
    assert set(summary) == {RUN_NAMES[run]}
    for measure in ("MAgP", "gP[5]", "gP[10]", "gP[25]", "gP[50]"):
        assert float(summary[RUN_NAMES[run]][measure]) == pytest.approx(
            expected[(measure, "all")], abs=1e-9), measure
    board = read_csv(site / task / f"index.leaderboard-{task}.csv")
    # the official measure right after the run, then the task's others in its order
    assert list(board[0])[2] == "MAgP"
    assert [c for c in board[0] if c.startswith("gP")] == ["gP[5]", "gP[10]", "gP[25]", "gP[50]"]
    assert board[0]["MAgP"] == f"{expected[('MAgP', 'all')]:.4f}"


@pytest.mark.parametrize("task", [t for t in TASKS if TASKS[t][2]])
def test_interleaved_run_is_rejected_with_inex_eval_reason(site, shared_data, task):
    flag, _, rejected = TASKS[task]
    for run in rejected:
        error = oracle_file(shared_data, flag, run).read_text()
        topic, article = re.search(r"interleaved in topic (\S+)\s+article id: (\S+)", error).groups()
        rows = {row["Run"]: row["Reason"] for row in read_csv(site / task / f"index.rejected-{task}.csv")}
        reason = rows[RUN_NAMES[run]]
        assert f"article results are interleaved in topic {topic}, article id: {article} " in reason
        assert reason in html.unescape((site / task / "index.html").read_text(encoding="utf-8"))
        assert not (site / task / "runs" / f"{RUN_NAMES[run]}.html").exists()


@pytest.mark.parametrize("task", TASKS)
def test_run_page_has_gp_figures_and_tables(site, shared_data, task):
    flag, run, _ = TASKS[task]
    expected = oracle_values(shared_data, flag, run)
    page = site / task / "runs" / f"{RUN_NAMES[run]}.html"
    text = page.read_text(encoding="utf-8")
    for element in ('id="figure-gP"', 'id="figure-gR"', 'id="figure-difference-from-median"',
                    '<table id="cutoffs"', '<table id="per-topic"', '<table id="top-articles"',
                    "<details>"):
        assert element in text, element
    # 120 topics, and a per-topic table and chart for each of the five shown measures (per
    # topic the worst, median and best of the runs: the worst added about 35 KB, 216 KB at
    # most), and the significance comparisons on each shown measure: not a page that grows
    # with runs times topics
    assert page.stat().st_size < 240_000
    cutoffs = {row["r"]: row for row in read_csv(site / task / "runs" / f"{RUN_NAMES[run]}.cutoffs.csv")}
    assert list(cutoffs) == [str(r) for r in RANKS]
    for r in RANKS:
        assert cutoffs[str(r)]["gP[r]"] == f"{expected[(f'gP[{r}]', 'all')]:.4f}"
        assert cutoffs[str(r)]["gR[r]"] == f"{expected[(f'gR[{r}]', 'all')]:.4f}"
    per_topic = read_csv(site / task / "runs" / f"{RUN_NAMES[run]}.per-topic.csv")
    for row in per_topic:
        if row["AgP"]:
            assert float(row["AgP"]) == pytest.approx(expected[("AgP", row["Topic"])], abs=5e-5)


@pytest.mark.parametrize("task", TASKS)
def test_article_scores_cover_every_retrieved_article(site, shared_data, task):
    flag, run, _ = TASKS[task]
    expected = oracle_values(shared_data, flag, run)
    articles = read_csv(site / task / "runs" / f"{RUN_NAMES[run]}.article-scores.csv")
    retrieved = sum(v for (measure, topic), v in expected.items()
                    if measure == "num_ret" and topic != "all")
    assert len(articles) == retrieved
    assert list(articles[0]) == ["run", "topic", "rank", "file", "score"]
    assert all(0 <= float(row["score"]) <= 1 for row in articles)
    top = read_csv(site / task / "runs" / f"{RUN_NAMES[run]}.top-articles.csv")
    first = {(row["topic"], row["rank"]): row["score"] for row in articles}
    for row in top:
        for rank in range(1, 11):
            score = first.get((row["Topic"], str(rank)))
            assert row[str(rank)] == ("" if score is None else f"{float(score):.4f}")


def test_measures_page_shows_how_in_context_measures_differ(site):
    from builder.measures.registry import measures_of

    text = html.unescape((site / "measures.html").read_text(encoding="utf-8"))
    notes = {m.differs for m in measures_of("in-context") if m.differs}
    assert notes
    for note in notes:
        assert note in text


def test_links_resolve(site):
    assert broken_references(site) == []


def test_eprum_block_only_where_the_task_enables_it(site, shared_data, capsys):
    """The example enables EPRUM (tree model) on restricted relevant in context only."""
    page = (site / "restricted-relevant-in-context" / "runs" / "derivedRiC.html").read_text()
    assert 'id="figure-eprum"' in page
    shown = read_csv(site / "restricted-relevant-in-context" / "runs" / "derivedRiC.eprum.csv")
    assert [row["Measure"] for row in shown][-1] == "avgP"
    capsys.readouterr()
    folder = shared_data / "inex_ipcs"
    assert main(["evaluate", "--task", "eprum", "--model", "tree", "-m", "avgP", "--format", "tsv",
                 str(folder / "INEX_Qrels.txt"), str(folder / "runs" / "derived_ric.run")]) == 0
    printed = [line.split("\t") for line in capsys.readouterr().out.splitlines()]
    average = next(float(value) for _, _, topic, value in printed if topic == "all")
    assert abs(float(shown[-1]["This run"]) - average) < 0.00005 + 1e-12
    other = (site / "relevant-in-context" / "runs" / "derivedRiC.html").read_text()
    assert "eprum" not in other
