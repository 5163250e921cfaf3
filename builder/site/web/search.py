"""The search index: every run, team and topic of every task, with the page each leads to.

Written once as ``search-index.js``, which the search box of every page loads on first use
(``templates/assets/search.js``). Compact, so that it stays small for large campaigns
(1,000 runs from 200 teams and 50 topics: about 160 kB): one array per entry, ``[kind,
label, detail, page]``, the kinds numbered (``KINDS``), the pages relative to the site's
root.
"""

from __future__ import annotations

import json
from pathlib import Path

from builder.site.paths import SiteTask, run_page, topic_page

INDEX = "search-index.js"
KINDS = ("run", "team", "topic")
DETAIL_CHARACTERS = 80
"""A topic's title is cut to this many characters in the index (the search reads it all
on the topic page)."""


def search_entries(tasks: list[SiteTask]) -> list[list[object]]:
    """The entries of every task: the teams (leading to their best run), then the runs (with
    their team), then the topics (with their titles), so that a search lists a team before
    its runs."""
    teams_: list[list[object]] = []
    runs_: list[list[object]] = []
    topics_: list[list[object]] = []
    several = len(tasks) > 1
    for task in tasks:
        spec = task.spec
        where = spec.title if several else ""
        teams: dict[str, list[str]] = {}
        for run in task.runs:
            team = task.metadata.get(run, {}).get("team", "")
            runs_.append([0, run, _detail(team, where),
                            run_page(spec.id, task.run_slugs[run])])
            if team:
                teams.setdefault(team, []).append(run)
        for team, runs in sorted(teams.items()):
            teams_.append([1, team, _detail(f"{len(runs)} run{'s' * (len(runs) != 1)}", where),
                            run_page(spec.id, task.run_slugs[runs[0]])])
        for topic in task.topics:
            title = task.topic_text.get(topic, {}).get("title", "")[:DETAIL_CHARACTERS]
            topics_.append([2, f"topic {topic}", _detail(title, where),
                            topic_page(spec.id, task.topic_slugs[topic])])
    return [*teams_, *runs_, *topics_]


def _detail(*parts: str) -> str:
    """An entry's detail: its non-empty parts, joined by `` · `` (a team's or a title's own
    characters are kept, leading ones too)."""
    return " · ".join(part for part in parts if part)


def search_index(tasks: list[SiteTask]) -> str:
    """The index as a script that sets ``window.APPENDIX_SEARCH``. ``ensure_ascii`` keeps it
    safe in any encoding and from the line separators JavaScript once refused in strings."""
    data = {"kinds": list(KINDS), "entries": search_entries(tasks)}
    return f"window.APPENDIX_SEARCH = {json.dumps(data, separators=(',', ':'))};\n"


def write_search_index(out: Path, tasks: list[SiteTask]) -> None:
    (out / INDEX).write_text(search_index(tasks), encoding="utf-8")
