"""INEX runs of any result form, read into the FOL run table the INEX tasks evaluate.

A run is a FOL run (eight fields a line), a TREC-like element run (seven) or an INEX XML
submission (``builder.formats.xml.elements.run``); element results are resolved over the task's XML
corpus (``builder.formats.xml.elements.resolve``) and keep their element path in ``path`` (empty
for passages), which the run pages show. Character ranges are the common currency: after this
reader, element runs go through the focused, thorough and in-context evaluation unchanged.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from builder.findings import Finding, FindingCode, InputError
from builder.formats.bounded import refusing_overflow
from builder.formats.inex.fol_run import read_fol_run
from builder.formats.source import open_regular
from builder.formats.xml.corpus import CorpusError
from builder.formats.xml.elements.run import looks_like_xml, read_element_run

if TYPE_CHECKING:
    from builder.formats.xml.corpus_index import CorpusIndex

FOL_FIELDS = 8


def is_fol_run(path: Path) -> bool:
    """True for a FOL run: not XML, and eight fields on its first non-blank line. Also for a
    file that cannot be opened or is blank: the FOL reader says why it is rejected."""
    try:
        with open_regular(path) as handle:  # a named pipe: rejected, not waited on
            head = handle.read(4096).decode("utf-8", "replace")
    except OSError:
        return True
    if looks_like_xml(head):
        return False
    first = next((line for line in head.splitlines() if line.strip()), None)
    return first is None or len(first.split()) == FOL_FIELDS


class PassageRunReader:
    """Reads the runs of one task; the corpus index is opened at the first element run."""

    def __init__(self, corpus: Path | None, cache: Path | None = None,
                 index: CorpusIndex | None = None) -> None:
        self.corpus = corpus if index is None else index.source
        self.cache = cache
        self._index = index

    def index(self) -> CorpusIndex:
        if self._index is None:
            from builder.formats.xml.corpus_index import open_index  # lxml: element runs only

            assert self.corpus is not None
            self._index = open_index(self.corpus, cache_dir=self.cache)
        return self._index

    def read(self, path: Path, label: str | None = None
             ) -> tuple[pd.DataFrame | None, list[Finding]]:
        """The run's table resolved to character ranges (``None`` when it is rejected as a
        whole) and its findings; what the libraries raise on an input beyond what they can
        hold is a finding too (``refusing_overflow``)."""
        label = label or str(path)
        try:
            with refusing_overflow(label):
                return self._read(path, label)
        except InputError as error:
            return None, error.findings

    def _read(self, path: Path, label: str) -> tuple[pd.DataFrame | None, list[Finding]]:
        if is_fol_run(path):
            table, findings = read_fol_run(path, label=label)
            if table is not None:
                table["path"] = ""  # the reader's own new table: set in place, not copied
            return table, findings
        if self.corpus is None:
            return None, [Finding(label, None, "error", FindingCode.CORPUS,
                                  "an element run (XML paths): its XML corpus is needed to "
                                  "evaluate it (--corpus DIR, or corpus: in the task)")]
        from builder.formats.xml.elements.resolve import normalise_paths, resolve_element_run

        elements, findings = read_element_run(path, label=label)
        if elements is None:
            return None, findings
        try:
            index = self.index()
        except CorpusError as error:
            return None, findings + [Finding(label, None, "error", FindingCode.CORPUS, str(error))]
        fol, unresolved = resolve_element_run(elements, index, label)
        is_element = ((elements["end_path"] == "") & (elements["offset"] < 0)).to_numpy()
        paths = normalise_paths(elements["path"])["path"].where(is_element, "")
        kept = elements["line"].isin(fol["line"]).to_numpy()
        fol["path"] = paths.to_numpy()[kept]
        return fol, findings + unresolved


def element_kinds(runs: pd.DataFrame) -> pd.DataFrame:
    """What element runs return: per run and element name (the last step of the path, as
    ``p`` or ``section``), the number of results and the most returned path of that kind with
    positions left out (``/article/body/section/p``). Empty without element results."""
    elements = runs.loc[runs["path"] != "", ["run", "path"]] if "path" in runs.columns else ()
    if not len(elements):  # FOL runs only: no grouping of nothing
        return pd.DataFrame(columns=["run", "element", "results", "example"])
    shape = elements["path"].str.replace(r"\[\d+\]", "", regex=True)
    table = pd.DataFrame({"run": elements["run"].astype(str).to_numpy(),
                          "element": shape.str.rsplit("/", n=1).str[-1].to_numpy(),
                          "shape": shape.to_numpy()})
    counts = table.groupby(["run", "element"]).size().rename("results")
    example = (table.groupby(["run", "element", "shape"]).size().rename("n").reset_index()
               .sort_values(["run", "element", "n", "shape"], ascending=[True, True, False, True])
               .drop_duplicates(["run", "element"]).set_index(["run", "element"])["shape"])
    return (pd.concat([counts, example.rename("example")], axis=1).reset_index()
            .sort_values(["run", "results", "element"], ascending=[True, False, True],
                         ignore_index=True))
