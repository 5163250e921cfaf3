"""Per topic, the worst, median and best of the task's runs, as a NIST appendix page shows them:
on each run page's per-topic tables and difference-from-median figures, on the topics list
and on each topic's page, every number checked against a brute force over the published
score table (``downloads/scores.csv``), topic by topic, with plain Python.

The campaign is written here: four runs on four topics, one run without a topic and evaluated
without ``-c`` (so that topic's median is over three runs, not four), so that both an odd and
an even count of runs are taken."""

from __future__ import annotations

import csv
import html
import io
import json
import random
import re
import statistics
from contextlib import redirect_stderr
from pathlib import Path

import pytest

CONFIG = """
campaign: {title: Spread}
output: site
tasks:
  - id: adhoc
    title: Ad hoc
    kind: adhoc
    qrels: qrels.txt
    runs: runs/
    official_measure: map
    measures: [map, P_10]
    options: {complete: false}
"""
TOPICS = ["1", "2", "3", "10"]
RUNS = ["alpha", "beta", "gamma", "delta"]
MISSING = ("delta", "3")
"""delta retrieves nothing for topic 3: that topic's worst, median and best are over three runs."""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("spread")
    rng = random.Random(28)
    docs = [f"D{i:03d}" for i in range(40)]
    qrels = [f"{t} 0 {d} {int(rng.random() < 0.3)}" for t in TOPICS for d in docs]
    (root / "qrels.txt").write_text("\n".join(qrels) + "\n")
    (root / "runs").mkdir()
    for run in RUNS:
        lines = []
        for topic in TOPICS:
            if (run, topic) == MISSING:
                continue
            ranked = rng.sample(docs, 25)
            lines += [f"{topic} Q0 {d} {r} {100 - r} {run}" for r, d in enumerate(ranked, 1)]
        (root / "runs" / f"{run}.txt").write_text("\n".join(lines) + "\n")
    (root / "site_config.yml").write_text(CONFIG)
    from builder.cli import main

    err = io.StringIO()
    with redirect_stderr(err):
        status = main(["build", "--config", str(root / "site_config.yml")])
    assert status == 0, err.getvalue()
    return root / "site"


def _rows(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as file:
        return list(csv.DictReader(file))


@pytest.fixture(scope="module")
def spread(site: Path) -> dict[tuple[str, str], tuple[float, float, float]]:
    """(measure, topic) -> (worst, median, best) over the runs that have a value, by brute
    force over the long score table (every measure here is better when higher)."""
    values: dict[tuple[str, str], list[float]] = {}
    for row in _rows(site / "adhoc" / "downloads" / "scores.csv"):
        if row["topic"] != "all":
            values.setdefault((row["measure"], row["topic"]), []).append(float(row["value"]))
    assert len(values[("map", MISSING[1])]) == 3 and len(values[("map", "1")]) == 4
    return {key: (min(v), statistics.median(v), max(v)) for key, v in values.items()}


def _close(shown: str, value: float) -> bool:
    """A number as the site prints it (4 decimals) is ``value``."""
    return abs(float(shown) - value) <= 0.00005 + 1e-12


def test_each_run_page_gives_worst_median_and_best_per_topic(site: Path, spread) -> None:
    for run in RUNS:
        for measure, suffix in (("map", ""), ("P_10", "-P_10")):
            rows = _rows(site / "adhoc" / "runs" / f"{run}.per-topic{suffix}.csv")
            assert [r["Topic"] for r in rows] == TOPICS
            for row in rows:
                worst, median, best = spread[(measure, row["Topic"])]
                assert _close(row[f"Worst {measure}"], worst), (run, measure, row)
                assert _close(row[f"Median {measure}"], median), (run, measure, row)
                assert _close(row[f"Best {measure}"], best), (run, measure, row)
                assert float(row[f"Worst {measure}"]) <= float(row[f"Best {measure}"])


def test_the_difference_figure_marks_worst_and_best_beside_the_run(site: Path, spread) -> None:
    page = (site / "adhoc" / "runs" / "beta.html").read_text(encoding="utf-8")
    found = re.search(r'<script type="application/json" id="figure-difference-from-median-data">'
                      r"(.*?)</script>", page, re.DOTALL)
    assert found is not None
    traces = {t["name"]: t for t in json.loads(found.group(1))["data"]}
    assert set(traces) == {"this run minus median", "task best minus median",
                           "task worst minus median"}
    for name, which in (("task worst minus median", 0), ("task best minus median", 2)):
        trace = traces[name]
        assert trace["x"] == TOPICS
        for topic, shown in zip(trace["x"], trace["y"]):
            reference = spread[("map", topic)]
            assert abs(shown - (reference[which] - reference[1])) <= 0.00005 + 1e-12
    assert "worst and best" in page


def test_topic_pages_give_worst_median_and_best(site: Path, spread) -> None:
    rows = _rows(site / "adhoc" / "topics" / "index.topics.csv")
    assert [r["Topic"] for r in rows] == TOPICS
    for row in rows:
        worst, median, best = spread[("map", row["Topic"])]
        assert (_close(row["Worst map"], worst) and _close(row["Median map"], median)
                and _close(row["Best map"], best)), row
    for topic in TOPICS:
        text = html.unescape((site / "adhoc" / "topics" / f"{topic}.html").read_text("utf-8"))
        worst, median, best = spread[("map", topic)]
        for name, value in (("Worst", worst), ("Median", median), ("Best", best)):
            shown = re.search(rf"<dt>{name} MAP</dt>\s*<dd>([0-9.]+)</dd>", text)
            assert shown is not None, (topic, name)
            assert _close(shown.group(1), value), (topic, name, shown.group(1))


def test_on_a_phone_the_marks_turn_with_the_bars(demo_site: Path, visit) -> None:
    """The demo's 25 topics do not fit a small phone's width (320 px) as named columns: the
    chart is drawn as horizontal bars, and the worst and best marks turn with them (drawn
    across each bar), every topic named."""
    seen = visit(demo_site / "adhoc" / "runs" / "lakeLTR.html", viewport=(320, 640))
    page = seen.page
    page.wait_for_selector("#figure-difference-from-median svg.main-svg")
    traces = page.evaluate("""() => document.getElementById('figure-difference-from-median')
        .data.map(t => [t.name, t.orientation || '', (t.marker || {}).symbol || '', t.y.length,
                        t.x.length])""")
    topics = traces[0][3]  # the topics, on the turned bars' y axis
    assert traces[0][:2] == ["this run minus median", "h"] and topics == 25
    assert sorted(t[0] for t in traces[1:]) == ["task best minus median",
                                                "task worst minus median"]
    assert all(t[2] == "line-ns-open" and t[3] == t[4] == topics for t in traces[1:])
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    assert seen.console_errors == []
