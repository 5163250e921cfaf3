"""Run versus run: one page per task that compares any two of its runs in the browser.

A task of n runs has n (n - 1) / 2 pairs (10,153 for TREC-COVID round 1), so rather than a page
per pair the task gets one page, ``{task}/compare.html``, and one compact data file beside it,
``{task}/compare-data.js``: every run's per-topic scores on the official and tested measures,
and every tested pair's result (difference, confidence interval, p, adjusted p, verdict), all
from the analyse stage (the score tables and the ``SignificanceReport``). The page's script
(``assets/compare.js``) picks a pair, ``compare.html#a=RUN&b=RUN``, and draws it: the data is a
script, not JSON, because browsers refuse ``fetch`` of a local file under ``file://``.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from builder.config.significance import JOINT_TESTS, TEST_LABELS
from builder.site.models import Page, PageBuilder, Scope, SiteBuild
from builder.site.parallel import Cost
from builder.site.paths import SiteTask, run_page, topic_page

DATA_VARIABLE = "APPENDIX_RUN_PAIRS"
"""The global the data file assigns, read by ``assets/compare.js``."""


def compare_page_path(task: str) -> str:
    return f"{task}/compare.html"


def compare_data_path(task: str) -> str:
    return f"{task}/compare-data.js"


def compare_link(task: str, run_a: str, run_b: str | None = None) -> str:
    """The comparison page opened on ``run_a`` (and ``run_b``), from the site root."""
    from urllib.parse import quote

    fragment = f"#a={quote(run_a, safe='')}"
    if run_b is not None:
        fragment += f"&b={quote(run_b, safe='')}"
    return compare_page_path(task) + fragment


def has_pairs(analysis: SiteTask) -> bool:
    """Whether the task has two runs and a measure with per-topic values to compare them on."""
    return len(analysis.runs) >= 2 and bool(compared_measures(analysis))


def compared_measures(analysis: SiteTask) -> list[str]:
    """The official measure, then the tested ones: those tested (a summary measure such as
    MAgP on its per-topic one, AgP) or with per-topic values."""
    report = analysis.significance
    tested = list(report.matrices) if report is not None else []
    wanted = dict.fromkeys([analysis.spec.official_measure, *tested])
    return [m for m in wanted if m in tested or m in analysis.per_topic.columns]


def _rounded(values: np.ndarray, digits: int = 4) -> list[float | None]:
    return [None if math.isnan(v) else round(v, digits) for v in values.tolist()]


def _significant_digits(values: np.ndarray) -> list[float | None]:
    """p-values to 4 significant digits (a p of 1e-5 must not become 0)."""
    return [None if math.isnan(v) else float(f"{v:.4g}") for v in values.tolist()]


def compare_data(analysis: SiteTask) -> dict[str, Any]:
    """The task's data for the comparison page (links relative to the page's folder).

    scores[measure][i][k]: run ``runs[i]`` on topic ``topics[k]`` (null: no value), to 4
    decimals as trec_eval prints them; means[measure][i]: its value over all topics (``_means``).
    ``official``: the official measure, or the per-topic one it is tested on. tests[measure]: the tested pairs as columns: ``a``, ``b``
    (indices into ``runs``; ``a`` the higher on the measure's leaderboard), the mean difference
    a - b, its confidence interval, p, adjusted p and whether it is significant.
    """
    spec = analysis.spec
    runs, topics = list(analysis.runs), list(analysis.topics)
    position = {run: i for i, run in enumerate(runs)}
    measures = compared_measures(analysis)
    scores, means = {}, {}
    for measure in measures:
        means[measure] = _rounded(_means(analysis, measure, runs))
        scores[measure] = [_rounded(row) for row in _per_topic(analysis, measure, runs, topics)]
    tests: dict[str, Any] = {}
    report = analysis.significance
    if report is not None:
        for measure in report.matrices:
            if measure not in scores:
                continue
            pairs = report.pairs(measure)
            tests[measure] = {
                "a": [position[r] for r in pairs["run_a"].astype(str)],
                "b": [position[r] for r in pairs["run_b"].astype(str)],
                "diff": _rounded(pairs["mean_diff"].to_numpy(dtype=float)),
                "low": _rounded(pairs["ci_low"].to_numpy(dtype=float)),
                "high": _rounded(pairs["ci_high"].to_numpy(dtype=float)),
                "p": _significant_digits(pairs["p_value"].to_numpy(dtype=float)),
                "adjusted": _significant_digits(pairs["p_adjusted"].to_numpy(dtype=float)),
                "significant": [int(v) for v in pairs["significant"].to_numpy(dtype=bool)],
            }
    settings = report.settings if report is not None else None
    folder = f"{spec.id}/"
    return {
        "task": spec.title,
        "official": measures[0],
        "measures": measures,
        "labels": {m: analysis.label(m) for m in measures},
        "runs": runs,
        "runPages": [run_page(spec.id, analysis.run_slugs[r]).removeprefix(folder) for r in runs],
        "topics": topics,
        "topicTitles": [str(analysis.topic_text.get(t, {}).get("title", "")) for t in topics],
        "topicPages": [topic_page(spec.id, analysis.topic_slugs[t]).removeprefix(folder)
                       for t in topics],
        "scores": scores,
        "means": means,
        "tests": tests,
        "test": None if settings is None else {
            "name": TEST_LABELS[settings.test], "settings": settings.describe(),
            "alpha": settings.alpha, "ciLevel": settings.ci_level,
            "familyWise": settings.test in JOINT_TESTS},
    }


def _per_topic(analysis: SiteTask, measure: str, runs: list[str],
               topics: list[str]) -> np.ndarray:
    """runs x topics: the values the tests compared (a missing topic scoring 0) for a tested
    measure, else the per-topic table's (NaN where a run has no value)."""
    report = analysis.significance
    if report is not None and measure in report.matrices:
        matrix = report.matrices[measure]
        wide = pd.DataFrame(matrix.values, index=list(matrix.runs), columns=list(matrix.topics))
    else:
        wide = analysis.per_topic[measure].unstack("topic")
    return wide.reindex(index=runs, columns=topics).to_numpy(dtype=float)


def _means(analysis: SiteTask, measure: str, runs: list[str]) -> np.ndarray:
    """Each run's value over all topics: its summary value (MAgP is a geometric mean), else
    the tests' mean of its per-topic values (NaN where there is neither)."""
    if measure in analysis.summary.columns:
        return analysis.summary[measure].reindex(runs).to_numpy(dtype=float)
    report = analysis.significance
    if report is not None and measure in report.matrices:
        matrix = report.matrices[measure]
        means = dict(zip(matrix.runs, matrix.means.tolist()))
        return np.array([means.get(run, math.nan) for run in runs], dtype=float)
    return np.full(len(runs), math.nan)


def compare_data_script(data: dict[str, Any]) -> str:
    """The data as a script that sets ``window.APPENDIX_RUN_PAIRS`` (safe in any page)."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True,
                      allow_nan=False)
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return f"window.{DATA_VARIABLE} = {text};\n"


def write_compare_data(analysis: SiteTask, out: Path) -> None:
    """Write ``{task}/compare-data.js`` under ``out``."""
    path = out / compare_data_path(analysis.spec.id)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(compare_data_script(compare_data(analysis)), encoding="utf-8")


def compare_pages(analysis: SiteTask, build: SiteBuild) -> list[Page]:
    """The comparison page of the task, its data file written beside it in the staging folder
    ([] and no file: fewer than two runs to compare)."""
    if not has_pairs(analysis):
        return []
    write_compare_data(analysis, build.out)
    spec = analysis.spec
    page = Page(compare_page_path(spec.id), "compare.html", f"{spec.title}: run versus run")
    report = analysis.significance
    page.context = {
        "analysis": analysis, "data": "compare-data.js",
        "measures": compared_measures(analysis),
        "titles": any(analysis.topic_text.get(t, {}).get("title") for t in analysis.topics),
        "settings": report.settings.describe() if report is not None else None,
        "significance": f"{spec.id}/significance.html" if report is not None else None,
    }
    return [page]


COMPARE_PAGE = PageBuilder("compare", Scope.TASK, compare_pages, Cost.MEDIUM)
