"""Where each page lives in the site, and relative links between pages.

Every link is relative and ends in ``.html``, so the site works from ``file://`` and under
any path of a web server. Names from runs and topics become safe file names: characters
outside ``[A-Za-z0-9._-]`` are replaced and a short hash keeps distinct names distinct (also
on case-insensitive file systems). No file name starts with ``.``: static hosts (GitHub Pages)
do not serve such files. Published input files keep their names where every common file
system takes them (``portable_names``).
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from builder.pipeline.analysis import TaskAnalysis

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")
_RESERVED = re.compile(r"(con|prn|aux|nul|com[0-9]|lpt[0-9])(\.|$)", re.IGNORECASE)
"""Names Windows refuses for a file, whatever follows their first dot."""
_NOT_PORTABLE = re.compile(r'[<>:"/\\|?*\x00-\x1f\x7f-\x9f\u2028\u2029]')
"""What some file system or static host refuses in a file name: Windows' reserved characters,
the path separators, and control characters and line breaks."""
MAX_NAME_BYTES = 120
"""The longest published input file name, in UTF-8 bytes (file systems take 255, and a
downloaded name gains a suffix such as `` (1)``)."""


def _hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]


def slugs(names: Iterable[str]) -> dict[str, str]:
    """A file-name-safe slug for each name, unique across ``names`` ignoring case, never
    starting with ``.`` nor a name Windows reserves."""
    names = sorted(set(names))
    plain = {name: _UNSAFE.sub("_", name)[:80] or "_" for name in names}
    plain = {name: f"_{slug[1:]}" if slug.startswith(".") else slug
             for name, slug in plain.items()}
    plain = {name: f"_{slug}" if _RESERVED.match(slug) else slug
             for name, slug in plain.items()}
    # Only names kept as they are can collide (the others get a hash of their own), so a
    # name's slug changes only when a name differing from it by case alone is added.
    folded = Counter(slug.lower() for name, slug in plain.items() if slug == name)
    return {name: slug if slug == name and folded[slug.lower()] == 1
            else f"{slug}-{_hash(name)}" for name, slug in plain.items()}


def portable_names(files: Mapping[str, str]) -> dict[str, str]:
    """For each file (key: what tells it apart, such as its path; value: its name), the name
    it is published under: its own where every common file system and static host takes it
    (no character of ``_NOT_PORTABLE``, no leading ``.``, no trailing ``.`` or space, not a
    reserved name, at most ``MAX_NAME_BYTES``) and no other file's name differs from it only
    by case; else made so, its last extension kept, with a short hash of its key."""
    folded = Counter(name.casefold() for name in files.values())
    return {key: name if _is_portable(name) and folded[name.casefold()] == 1
            else _made_portable(name, key) for key, name in files.items()}


def _is_portable(name: str) -> bool:
    return (bool(name) and not _NOT_PORTABLE.search(name) and not name.startswith(".")
            and not name.endswith((".", " ")) and not _RESERVED.match(name)
            and len(name.encode("utf-8")) <= MAX_NAME_BYTES)


def _made_portable(name: str, key: str) -> str:
    clean = _NOT_PORTABLE.sub("_", name)
    stem, dot, extension = clean.rpartition(".")
    if not dot or not stem or len(extension) > 8:
        stem, extension = clean, ""
    else:
        extension = f".{extension.rstrip('. ')}" if extension.rstrip(". ") else ""
    stem = stem.lstrip(".").rstrip(". ") or "_"
    if _RESERVED.match(stem):
        stem = f"_{stem}"
    tail = f"-{_hash(key)}{extension}"
    while len((stem + tail).encode("utf-8")) > MAX_NAME_BYTES:
        stem = stem[:-1]
    return stem + tail


def team_folder(team: str) -> str:
    """The team's name as the folder name of its bundle (``appendix build --team``)."""
    return slugs([team])[team]


def run_page(task: str, run_slug: str) -> str:
    return f"{task}/runs/{run_slug}.html"


def topic_page(task: str, topic_slug: str) -> str:
    return f"{task}/topics/{topic_slug}.html"


def validation_page(task: str, run_slug: str) -> str:
    return f"{task}/validation/{run_slug}.html"


def task_page(task: str) -> str:
    """The page of a task of a campaign of several: its leaderboard in full."""
    return f"{task}/index.html"


def appendix_page(task: str) -> str:
    """The task's printable appendix: every run's sheet in one document
    (``builder.site.runs.volume``)."""
    return f"{task}/appendix.html"


def sheet_anchor(run_slug: str) -> str:
    """The id of a run's sheet in its task's printable appendix."""
    return f"sheet-{run_slug}"


def table_csv(page: str, table_id: str) -> str:
    """The CSV of a table, next to its page: ``adhoc/runs/x.html`` -> ``adhoc/runs/x.table.csv``."""
    return f"{page[: -len('.html')]}.{table_id}.csv"



@dataclass
class SiteTask(TaskAnalysis):
    """A task's analysis with the file names of its pages, what the page models read.

    run_slugs: the file name of each run's pages; read_slugs: of each read's validation page
    (a second file claiming a taken run name gets its own); topic_slugs: of each topic's page;
    submitted: each run's submitted file; metadata_paths: the run metadata's paths.
    """

    run_slugs: dict[str, str] = field(default_factory=dict)
    read_slugs: list[str] = field(default_factory=list)
    topic_slugs: dict[str, str] = field(default_factory=dict)
    submitted: dict[str, dict[str, str]] = field(default_factory=dict)
    """Run -> its submitted file: name, SHA-256 as the manifest records it and, when
    published (``publish_inputs``), ``href`` from the site root (``submitted_files``)."""
    metadata_paths: dict[str, tuple[str, str]] = field(default_factory=dict)
    """Run metadata value that is a path -> its text and its link from the site root ("" when
    not published): ``builder.site.runs.metadata.metadata_paths``."""
    leaderboard: str = "index.html"
    """The page of the task's full leaderboard: the home page of a campaign of one task, the
    task's page (``task_page``) in a campaign of several."""
    shared: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    """What the pages of several render jobs read, made once by the first of them and kept
    here (key: its maker's constant, such as ``significance.TASK_COMPARISONS``)."""

    @classmethod
    def of(cls, analysis: TaskAnalysis, several: bool = False) -> SiteTask:
        """``analysis`` with its pages' names; ``several``: the campaign has several tasks,
        each with its page."""
        names = [read.name for read in analysis.result.inputs.reads]
        run_slugs = slugs(names)
        return cls(**{f.name: getattr(analysis, f.name) for f in fields(TaskAnalysis)},
                   run_slugs=run_slugs, read_slugs=_read_slugs(names, run_slugs),
                   topic_slugs=slugs(analysis.topics),
                   leaderboard=task_page(analysis.spec.id) if several else "index.html")


def _read_slugs(names: list[str], run_slugs: dict[str, str]) -> list[str]:
    seen: set[str] = set()
    result = []
    for index, name in enumerate(names):
        result.append(run_slugs[name] if name not in seen else f"{run_slugs[name]}-{index + 1}")
        seen.add(name)
    return result
