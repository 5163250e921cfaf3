"""Element results resolved to character ranges: the common currency of the INEX tasks.

An element run (``builder.formats.xml.elements.run``) becomes a FOL run table
(``builder.formats.inex.fol_run.COLUMNS`` plus ``path``), so focused, thorough and in-context
evaluation run on it unchanged. Paths are normalised as XPath reads INEX's abbreviated paths:
a step without a position is position 1 (``/article/body`` is ``/article[1]/body[1]``), a
trailing slash is dropped, ``text()`` is ``text()[1]``. A passage endpoint may end in ``.N``:
N characters into that node. A passage runs from its start point (the node's start, plus N) to
its end point (the node's end; with ``.N``, the node's start plus N).

A result whose file is not in the corpus, or whose path names no node of the article (unknown
element, position out of range), is a finding with its line, and is left out of the run.
Resolution looks every point up at once in the index's integer keys
(``builder.formats.xml.node_keys``).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from builder.findings import Finding, FindingCode, counted, listed
from builder.formats.xml.corpus_index import CorpusIndex
from builder.formats.xml.index_build import MALFORMED
from builder.formats.xml.node_keys import NodeKeys

_CHARACTER_SUFFIX = r"^(?P<path>.*[\])])\.(?P<chars>\d+)$|^(?P<plain>.*)$"
ELEMENT_POINT = ("an element path cannot end in a character position (.N): only a passage's "
                 "start and end points take one")
MAX_CHARACTER_DIGITS = 15


_FULL_FORM = r"^(/[^/\[\]\s]+\[\d+\])+$"
"""A path already in INEX's full form (every step with its position, no ``.N``): most of a
run's, which then skip the costly regex extraction."""


def _strings(values: pd.Series | np.ndarray) -> pa.Array:
    """One Arrow string array (zero-copy from a pandas Arrow-backed column)."""
    array = pa.array(values) if isinstance(values, pd.Series) else pa.array(values, pa.string())
    if isinstance(array, pa.ChunkedArray):
        array = array.combine_chunks()
    return array.cast(pa.string()) if array.type != pa.string() else array


def normal_form(paths: pd.Series | np.ndarray) -> tuple[pa.Array, np.ndarray]:
    """Each path in INEX's full form, and its ``.N`` suffix (-1 when absent). Arrow's string
    kernels, one pass over all results: a step without a position gets ``[1]``, found by
    splitting paths into steps (RE2 has no look-ahead); paths already in full form are only
    recognised."""
    text = pc.utf8_trim_whitespace(_strings(paths))
    full = pc.match_substring_regex(text, _FULL_FORM).to_numpy(zero_copy_only=False)
    chars = np.full(len(text), -1, dtype=np.int64)
    if full.all():
        return text, chars
    other = np.flatnonzero(~full)
    parts = pc.extract_regex(text.take(other), _CHARACTER_SUFFIX)
    suffixed = pc.not_equal(pc.struct_field(parts, "chars"), "")
    bare = pc.if_else(suffixed, pc.struct_field(parts, "path"), pc.struct_field(parts, "plain"))
    bare = pc.utf8_rtrim(bare, "/")
    steps = pc.split_pattern(bare, "/")
    flat = pc.list_flatten(steps)
    needs = pc.and_(pc.not_equal(flat, ""), pc.invert(pc.ends_with(flat, "]")))
    flat = pc.if_else(needs, pc.binary_join_element_wise(flat, "[1]", ""), flat)
    fixed = pc.binary_join(pa.ListArray.from_arrays(steps.offsets, flat), "/")
    digits = pc.struct_field(parts, "chars")
    # More digits than any text has characters (and than int64 holds): beyond the node.
    digits = pc.if_else(pc.greater(pc.utf8_length(digits), MAX_CHARACTER_DIGITS),
                        "9" * MAX_CHARACTER_DIGITS, digits)
    chars[other] = pc.if_else(suffixed, pc.cast(pc.if_else(suffixed, digits, "0"), pa.int64()),
                              -1).to_numpy()
    # Put the fixed paths back in place: take from the concatenation [text, fixed].
    source = np.arange(len(text), dtype=np.int64)
    source[other] = len(text) + np.arange(len(other))
    return pa.concat_arrays([text, fixed.cast(pa.string())]).take(pa.array(source)), chars


def normalise_paths(paths: pd.Series) -> pd.DataFrame:
    """``path`` in INEX's full form and ``chars`` (the ``.N`` suffix after a step, -1 when
    absent), as ``normal_form`` makes them, indexed as ``paths``."""
    full, chars = normal_form(paths)
    return pd.DataFrame({"path": full.to_numpy(zero_copy_only=False), "chars": chars},
                        index=paths.index)


def _why_unresolved(files: np.ndarray, paths: np.ndarray, nodes: NodeKeys,
                    index: CorpusIndex) -> np.ndarray:
    """A reason per unresolved point: missing file, article not well-formed, position out of
    range, or unknown node."""
    first = pd.Series(paths).str.replace(r"\[\d+\]$", "[1]", regex=True).to_numpy()
    has_first = ~np.isnan(nodes.find(files, first)[0])
    reason = np.where(has_first, "position out of range in file ", "no such element in file ")
    reason = reason.astype(object) + files + ": " + paths
    articles = index.articles()
    at = pc.index_in(pa.array(files, pa.string()), articles.column("file"))
    problem = articles.column("problem").take(at).to_numpy(zero_copy_only=False)
    malformed = np.array([isinstance(p, str) and p.startswith(MALFORMED) for p in problem],
                         dtype=bool)
    reason = np.where(malformed, "article " + files + " is " + problem.astype(str), reason)
    return np.where(pc.is_valid(at).to_numpy(zero_copy_only=False), reason,
                    "file " + files + " is not in the corpus")


def _capped(label: str, lines: np.ndarray, message: str | Callable[[int], str],
            code: FindingCode = FindingCode.UNRESOLVED) -> list[Finding]:
    """An error for each line of ``lines`` that does not resolve (``listed``: the first ones,
    then a count of the results not listed)."""
    return listed(label, lines, "error", code, message,
                  lambda n: (f"{counted(n, 'more result')} that do{'es' if n == 1 else ''} "
                             "not resolve"))


def resolve_element_run(table: pd.DataFrame, index: CorpusIndex, label: str
                        ) -> tuple[pd.DataFrame, list[Finding]]:
    """The FOL table of an element run and the findings of what did not resolve."""
    nodes = index.keys()
    files = _strings(table["file"])
    start_path, start_chars = normal_form(table["path"])
    passages = (table["end_path"] != "").to_numpy()
    is_fol = (table["offset"] >= 0).to_numpy()
    first_start, first_end = nodes.find(files, start_path)
    # An element's end point is the element itself: only passages look theirs up.
    last_start, last_end, end_chars = first_start.copy(), first_end.copy(), start_chars.copy()
    end_path = start_path
    if passages.any():
        at = np.flatnonzero(passages)
        given, end_chars[at] = normal_form(table["end_path"].to_numpy(dtype=object)[at])
        last_start[at], last_end[at] = nodes.find(files.take(at), given)
        source = np.arange(len(table), dtype=np.int64)
        source[at] = len(table) + np.arange(len(at))
        end_path = pa.concat_arrays([start_path, given]).take(pa.array(source))
    begin = np.where(start_chars >= 0, first_start + start_chars, first_start)
    finish = np.where(end_chars >= 0, last_start + end_chars, last_end)
    begin = np.where(is_fol, table["offset"], begin)
    finish = np.where(is_fol, table["offset"] + table["length"], finish)
    # A ``.N`` point is a position in the text, not an element: only passages take one.
    point = ~is_fol & ~passages & (start_chars >= 0)
    # A ``.N`` point lies in its node: N at most the node's length.
    with np.errstate(invalid="ignore"):
        beyond = ~is_fol & ~point & (
            ((start_chars >= 0) & (first_start + start_chars > first_end))
            | (passages & (end_chars >= 0) & (last_start + end_chars > last_end)))
    resolved = (~np.isnan(begin) & ~np.isnan(finish)) & ~beyond & ~point
    inside = resolved & (np.nan_to_num(finish) >= np.nan_to_num(begin))

    findings: list[Finding] = []
    for paths, found, part, rows in ((start_path, first_start, "", ~is_fol & ~point),
                                     (end_path, last_start, "end point: ", passages)):
        failed = np.flatnonzero(np.isnan(found) & rows)
        if len(failed):
            reasons = _why_unresolved(
                files.take(failed).to_numpy(zero_copy_only=False),
                paths.take(failed).to_numpy(zero_copy_only=False), nodes, index)
            lines = table["line"].to_numpy()[failed]
            findings += _capped(label, lines,
                                lambda i, part=part, reasons=reasons: f"{part}{reasons[i]}")
    lines = table["line"].to_numpy()[beyond]
    findings += _capped(label, lines, "a character position (.N) beyond the end of its node")
    lines = table["line"].to_numpy()[point]
    findings += _capped(label, lines, ELEMENT_POINT, FindingCode.VALUE)
    backwards = resolved & ~inside
    lines = table["line"].to_numpy()[backwards]
    findings += _capped(label, lines, "passage ends before it starts", FindingCode.VALUE)
    # The run's columns as they are (Arrow strings stay Arrow strings), the range replaced.
    fol = table.loc[inside, ["run", "topic", "file", "offset", "length", "line", "rank",
                             "score", "tag", "path"]].reset_index(drop=True)
    fol["offset"] = begin[inside].astype(np.int64)
    fol["length"] = (finish[inside] - begin[inside]).astype(np.int64)
    fol["order"] = fol.groupby("topic", sort=False).cumcount().to_numpy(np.int64) + 1
    return fol, findings
