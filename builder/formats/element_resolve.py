"""Element results resolved to character ranges: the common currency of the INEX tasks.

An element run (``builder.formats.element_run``) becomes a FOL run table
(``builder.formats.fol_run.COLUMNS`` plus ``path``), so focused, thorough and in-context
evaluation run on it unchanged. Paths are normalised as XPath reads INEX's abbreviated paths:
a step without a position is position 1 (``/article/body`` is ``/article[1]/body[1]``), a
trailing slash is dropped, ``text()`` is ``text()[1]``. A passage endpoint may end in ``.N``:
N characters into that node. A passage runs from its start point (the node's start, plus N) to
its end point (the node's end; with ``.N``, the node's start plus N).

A result whose file is not in the corpus, or whose path names no node of the article (unknown
element, position out of range), is a finding with its line, and is left out of the run.
Resolution is one join of the run's paths with the index rows of the files it names.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from builder.findings import Finding
from builder.formats.xml_corpus import CorpusIndex

_STEP_WITHOUT_POSITION = r"/([^/\[\]]+)(?=/|$)"
_CHARACTER_SUFFIX = r"^(?P<path>.*?)(?:\.(?P<chars>\d+))?$"
MAX_FINDINGS_PER_REASON = 20


def normalise_paths(paths: pd.Series) -> pd.DataFrame:
    """``path`` in INEX's full form and ``chars`` (the ``.N`` suffix, -1 when absent)."""
    parts = paths.str.strip().str.extract(_CHARACTER_SUFFIX)
    full = (parts["path"].str.rstrip("/")
            .str.replace(_STEP_WITHOUT_POSITION, r"/\1[1]", regex=True))
    chars = pd.to_numeric(parts["chars"], errors="coerce").fillna(-1).astype(np.int64)
    return pd.DataFrame({"path": full, "chars": chars.to_numpy()}, index=paths.index)


def _lookup(points: pd.DataFrame, nodes: pd.DataFrame) -> pd.DataFrame:
    """``start``/``end`` of each (file, path) point, NaN when the article has no such node."""
    return points.merge(nodes, on=["file", "path"], how="left")


def _why_unresolved(rows: pd.DataFrame, nodes: pd.DataFrame, known: set[str]) -> pd.Series:
    """A reason per unresolved row: missing file, position out of range, or unknown node."""
    first = rows["path"].str.replace(r"\[\d+\]$", "[1]", regex=True)
    has_first = pd.MultiIndex.from_arrays([rows["file"], first]).isin(
        pd.MultiIndex.from_arrays([nodes["file"], nodes["path"]]))
    reason = np.where(has_first, "position out of range in file ", "no such element in file ")
    reason = pd.Series(reason, index=rows.index) + rows["file"] + ": " + rows["path"]
    missing = ~rows["file"].isin(known)
    return reason.where(~missing, "file " + rows["file"] + " is not in the corpus")


def _capped(label: str, lines: np.ndarray, messages: list[str]) -> list[Finding]:
    found = [Finding(label, int(line), "error", message)
             for line, message in zip(lines[:MAX_FINDINGS_PER_REASON],
                                      messages[:MAX_FINDINGS_PER_REASON], strict=True)]
    if len(lines) > MAX_FINDINGS_PER_REASON:
        found.append(Finding(label, None, "error", f"{len(lines) - MAX_FINDINGS_PER_REASON} "
                             "more results that do not resolve"))
    return found


def resolve_element_run(table: pd.DataFrame, index: CorpusIndex, label: str
                        ) -> tuple[pd.DataFrame, list[Finding]]:
    """The FOL table of an element run and the findings of what did not resolve."""
    nodes = (index.nodes(table["file"].unique()).to_pandas()
             .drop_duplicates(["file", "path"]))
    known = set(index.articles().column("file").to_pylist())
    start = normalise_paths(table["path"])
    end = normalise_paths(table["end_path"].where(table["end_path"] != "", table["path"]))
    is_fol = (table["offset"] >= 0).to_numpy()
    first = _lookup(pd.DataFrame({"file": table["file"].to_numpy(), "path": start["path"]}), nodes)
    last = _lookup(pd.DataFrame({"file": table["file"].to_numpy(), "path": end["path"]}), nodes)
    begin = np.where(start["chars"] >= 0, first["start"] + start["chars"], first["start"])
    finish = np.where(end["chars"] >= 0, last["start"] + end["chars"], last["end"])
    begin = np.where(is_fol, table["offset"], begin)
    finish = np.where(is_fol, table["offset"] + table["length"], finish)
    resolved = (~np.isnan(begin) & ~np.isnan(finish))
    inside = resolved & (np.nan_to_num(finish) >= np.nan_to_num(begin))

    findings: list[Finding] = []
    has_end = (table["end_path"] != "").to_numpy()
    for points, lookup, part, rows in ((start, first, "", ~is_fol),
                                       (end, last, "end point: ", has_end)):
        failed = np.isnan(lookup["start"].to_numpy(dtype=float)) & rows
        if failed.any():
            rows = pd.DataFrame({"file": table["file"].to_numpy()[failed],
                                 "path": points["path"].to_numpy()[failed]})
            reasons = _why_unresolved(rows, nodes, known).to_numpy()
            lines = table["line"].to_numpy()[failed]
            findings += _capped(label, lines, [f"{part}{reason}" for reason in reasons])
    backwards = resolved & ~inside
    lines = table["line"].to_numpy()[backwards]
    findings += _capped(label, lines, ["passage ends before it starts"] * len(lines))
    keep = inside
    fol = pd.DataFrame({
        "run": table["run"].to_numpy()[keep], "topic": table["topic"].to_numpy()[keep],
        "file": table["file"].to_numpy()[keep],
        "offset": begin[keep].astype(np.int64),
        "length": (finish[keep] - begin[keep]).astype(np.int64),
        "line": table["line"].to_numpy()[keep], "rank": table["rank"].to_numpy()[keep],
        "score": table["score"].to_numpy()[keep], "tag": table["tag"].to_numpy()[keep],
        "path": table["path"].to_numpy()[keep],
    })
    fol["order"] = fol.groupby("topic", sort=False).cumcount().to_numpy(np.int64) + 1
    return fol, findings
