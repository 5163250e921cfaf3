"""Where each page lives in the site, and relative links between pages.

Every link is relative and ends in ``.html``, so the site works from ``file://`` and under
any path of a web server. Names from runs and topics become safe file names: characters
outside ``[A-Za-z0-9._-]`` are replaced and a short hash keeps distinct names distinct (also
on case-insensitive file systems).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, fields

from builder.pipeline.analysis import TaskAnalysis

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")


def slugs(names: Iterable[str]) -> dict[str, str]:
    """A file-name-safe slug for each name, unique across ``names`` ignoring case."""
    names = sorted(set(names))
    plain = {name: _UNSAFE.sub("_", name)[:80] or "_" for name in names}
    folded: dict[str, int] = {}
    for slug in plain.values():
        folded[slug.lower()] = folded.get(slug.lower(), 0) + 1
    result = {}
    for name, slug in plain.items():
        if slug != name or slug.startswith(".") or folded[slug.lower()] > 1:
            slug = f"{slug}-{hashlib.sha256(name.encode('utf-8')).hexdigest()[:8]}"
        result[name] = slug
    return result


def team_folder(team: str) -> str:
    """The team's name as the folder name of its bundle (``appendix build --team``)."""
    return slugs([team])[team]


def run_page(task: str, run_slug: str) -> str:
    return f"{task}/runs/{run_slug}.html"


def topic_page(task: str, topic_slug: str) -> str:
    return f"{task}/topics/{topic_slug}.html"


def validation_page(task: str, run_slug: str) -> str:
    return f"{task}/validation/{run_slug}.html"


def table_csv(page: str, table_id: str) -> str:
    """The CSV of a table, next to its page: ``adhoc/runs/x.html`` -> ``adhoc/runs/x.table.csv``."""
    return f"{page[: -len('.html')]}.{table_id}.csv"



@dataclass
class SiteTask(TaskAnalysis):
    """A task's analysis with the file names of its pages, what the page models read.

    run_slugs: the file name of each run's pages; read_slugs: of each read's validation page
    (a second file claiming a taken run name gets its own); topic_slugs: of each topic's page.
    """

    run_slugs: dict[str, str] = field(default_factory=dict)
    read_slugs: list[str] = field(default_factory=list)
    topic_slugs: dict[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, analysis: TaskAnalysis) -> SiteTask:
        names = [read.name for read in analysis.result.inputs.reads]
        run_slugs = slugs(names)
        return cls(**{f.name: getattr(analysis, f.name) for f in fields(TaskAnalysis)},
                   run_slugs=run_slugs, read_slugs=_read_slugs(names, run_slugs),
                   topic_slugs=slugs(analysis.topics))


def _read_slugs(names: list[str], run_slugs: dict[str, str]) -> list[str]:
    seen: set[str] = set()
    result = []
    for index, name in enumerate(names):
        result.append(run_slugs[name] if name not in seen else f"{run_slugs[name]}-{index + 1}")
        seen.add(name)
    return result
