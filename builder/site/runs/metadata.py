"""A run's metadata as information: the run as its submitter described it, never mixed with
what was computed, its fields in the metadata file's order, each value that is a web address
(``http``, ``https``) or names a file the site publishes (with ``publish_inputs``: the qrels,
topics, run metadata and run files) a link to it.

Any other value stays text, as written: a ``javascript:`` or ``file:`` address, or a path to a
file the site does not publish (``reports/X.pdf``). An absolute path (which would tell the
folders of the machine the site was built on) is shown as the site names every input,
relative to the config's folder or by its file name alone (``SiteSpec.relative``).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

from builder.config.schema import SiteSpec
from builder.site.pages.downloads import Download
from builder.site.paths import SiteTask
from builder.site.tables import Table, key_value_table, text

METADATA_FIRST = ("team", "type", "description")
"""The metadata fields the site names itself (capitalised); every field is shown in the
metadata file's order."""
_URL = re.compile(r"^https?://\S+$")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
"""A value with a scheme (``javascript:``, ``mailto:``, ``C:``) is not a path of the campaign."""
_LONGEST_PATH = 4096


def metadata_table(run: str, meta: dict[str, str],
                   paths: Mapping[str, tuple[str, str]]) -> Table:
    """The run's metadata, its fields in the metadata file's order; a value that is a web
    address links to it, one that ``paths`` knows (``metadata_paths``) is shown and linked
    as it says."""
    keys = [k for k in meta if k != "run" and meta[k].strip() and meta[k] != "nan"]
    pairs = [("Run", text(run))]
    for key in keys:
        value = meta[key].strip()
        label = key.capitalize() if key in METADATA_FIRST else key
        if _URL.match(value):
            cell = text(value, href=value)
        elif value in paths:
            shown, href = paths[value]
            cell = text(shown, href=href or None)
        else:
            cell = text(value)
        pairs.append((label, cell))
    return key_value_table("metadata", "Run metadata", pairs, ("Field", "Value"))


def metadata_paths(analysis: SiteTask, files: Iterable[Download],
                   site: SiteSpec) -> dict[str, tuple[str, str]]:
    """Metadata value -> (its text, its link from the site root or "") for every value of the
    task's run metadata that is a path: to a published input file (``files``; a relative path
    is read from the metadata file's folder, then from the config's), or absolute. Values not
    listed are shown as written."""
    published: dict[str, str] = {}
    for file in files:
        if file.source is not None and not file.withheld:
            for form in _forms(file.source):
                published[form] = file.href
    metadata = analysis.spec.run_metadata
    folders = ([metadata.parent] if metadata is not None else []) + [site.base]
    paths: dict[str, tuple[str, str]] = {}
    seen: set[str] = set()  # a value repeated over the runs (a team's description) looked up once
    for row in analysis.metadata.values():
        for key, value in row.items():
            value = value.strip()
            if key == "run" or value in seen or not _path_like(value):
                continue
            seen.add(value)
            path = Path(value)
            candidates = [path] if path.is_absolute() else [folder / path for folder in folders]
            href = next((published[form] for candidate in candidates
                         for form in _forms(candidate) if form in published), "")
            if href or path.is_absolute():
                paths[value] = (site.relative(path) if path.is_absolute() else value, href)
    return paths


def _path_like(value: str) -> bool:
    """Whether ``value`` may name a file: one line, no scheme, not too long for a path."""
    return (0 < len(value) <= _LONGEST_PATH and "\n" not in value and "\0" not in value
            and not _SCHEME.match(value))


def _forms(path: Path) -> set[str]:
    """``path`` absolute as written and with its links followed: a published input and a
    metadata value name the same file when any of their forms agree."""
    return {os.path.abspath(path), os.path.realpath(path)}
