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
Resolution looks every point up at once in the index's integer keys
(``builder.formats.xml_node_keys``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from builder.findings import Finding
from builder.formats.xml_corpus import CorpusIndex
from builder.formats.xml_node_keys import NodeKeys

_CHARACTER_SUFFIX = r"^(?P<path>.*[\])])\.(?P<chars>\d+)$|^(?P<plain>.*)$"
MAX_FINDINGS_PER_REASON = 20


def normalise_paths(paths: pd.Series) -> pd.DataFrame:
    """``path`` in INEX's full form and ``chars`` (the ``.N`` suffix after a step, -1 when
    absent). Arrow's string kernels, one pass over all results: a step without a position
    gets ``[1]``, found by splitting paths into steps (RE2 has no look-ahead)."""
    text = pc.utf8_trim_whitespace(pa.array(paths.to_numpy(dtype=object), pa.string()))
    parts = pc.extract_regex(text, _CHARACTER_SUFFIX)
    suffixed = pc.not_equal(pc.struct_field(parts, "chars"), "")
    bare = pc.if_else(suffixed, pc.struct_field(parts, "path"), pc.struct_field(parts, "plain"))
    bare = pc.utf8_rtrim(bare, "/")
    steps = pc.split_pattern(bare, "/")
    flat = pc.list_flatten(steps)
    needs = pc.and_(pc.not_equal(flat, ""), pc.invert(pc.ends_with(flat, "]")))
    flat = pc.if_else(needs, pc.binary_join_element_wise(flat, "[1]", ""), flat)
    full = pc.binary_join(pa.ListArray.from_arrays(steps.offsets, flat), "/")
    chars = pc.if_else(suffixed, pc.cast(pc.if_else(suffixed, pc.struct_field(parts, "chars"),
                                                    "0"), pa.int64()), -1)
    return pd.DataFrame({"path": full.to_numpy(zero_copy_only=False),
                         "chars": chars.to_numpy()}, index=paths.index)


def _why_unresolved(files: np.ndarray, paths: np.ndarray, nodes: NodeKeys,
                    index: CorpusIndex) -> np.ndarray:
    """A reason per unresolved point: missing file, position out of range, or unknown node."""
    first = pd.Series(paths).str.replace(r"\[\d+\]$", "[1]", regex=True).to_numpy()
    has_first = ~np.isnan(nodes.find(files, first)["start"].to_numpy())
    reason = np.where(has_first, "position out of range in file ", "no such element in file ")
    reason = reason.astype(object) + files + ": " + paths
    known = pc.is_in(pa.array(files, pa.string()), index.articles().column("file"))
    return np.where(known.to_numpy(zero_copy_only=False), reason,
                    "file " + files + " is not in the corpus")


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
    nodes = index.keys()
    start = normalise_paths(table["path"])
    passages = (table["end_path"] != "").to_numpy()
    is_fol = (table["offset"] >= 0).to_numpy()
    files = table["file"].to_numpy(dtype=object)
    first = nodes.find(files, start["path"].to_numpy())
    # An element's end point is the element itself: only passages look theirs up.
    end, last = start.copy(), first.copy()
    if passages.any():
        end.loc[passages] = normalise_paths(table["end_path"][passages]).to_numpy()
        last.loc[passages, ["start", "end"]] = nodes.find(
            files[passages], end["path"].to_numpy()[passages]).to_numpy()
    begin = np.where(start["chars"] >= 0, first["start"] + start["chars"], first["start"])
    finish = np.where(end["chars"] >= 0, last["start"] + end["chars"], last["end"])
    begin = np.where(is_fol, table["offset"], begin)
    finish = np.where(is_fol, table["offset"] + table["length"], finish)
    resolved = (~np.isnan(begin) & ~np.isnan(finish))
    inside = resolved & (np.nan_to_num(finish) >= np.nan_to_num(begin))

    findings: list[Finding] = []
    for points, lookup, part, rows in ((start, first, "", ~is_fol),
                                       (end, last, "end point: ", passages)):
        failed = np.isnan(lookup["start"].to_numpy(dtype=float)) & rows
        if failed.any():
            reasons = _why_unresolved(files[failed], points["path"].to_numpy()[failed], nodes,
                                      index)
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
