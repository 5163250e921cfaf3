"""Runs moved between INEX formats: FOL, the TREC-like element format and INEX XML.

Every run is first brought to character ranges (``element_resolve``); an element result keeps
its (normalised) path, any other result becomes the deepest element whose text range is
exactly its passage, or a finding when no element is. Used by ``appendix convert``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from lxml import etree

from builder.findings import Finding, FindingCode, listed
from builder.formats.inex.passage_run import PassageRunReader
from builder.formats.xml.corpus_index import CorpusIndex


def _deepest_elements(fol: pd.DataFrame, index: CorpusIndex) -> pd.Series:
    """For each row without a path, the deepest element of exactly its range ('' if none)."""
    nodes = index.nodes(fol["file"].unique()).to_pandas()
    nodes = nodes[~nodes["is_text"]]
    nodes = nodes.assign(depth=nodes["path"].str.count("/")).sort_values("depth")
    nodes = nodes.drop_duplicates(["file", "start", "end"], keep="last")
    keys = pd.DataFrame({"file": fol["file"].to_numpy(),
                         "start": fol["offset"].to_numpy(dtype=np.int64),
                         "end": (fol["offset"] + fol["length"]).to_numpy(dtype=np.int64)})
    nodes = nodes.astype({"start": np.int64, "end": np.int64})
    found = keys.merge(nodes[["file", "start", "end", "path"]], how="left",
                       on=["file", "start", "end"])["path"].fillna("")
    return pd.Series(np.where(fol["path"].to_numpy() != "", fol["path"].to_numpy(),
                              found.to_numpy()), index=fol.index)


def _scores(fol: pd.DataFrame) -> pd.Series:
    score = fol["score"].where(np.isfinite(fol["score"]), 0.0)
    return score.map(repr).astype(object)  # text even when no result is left


def write_fol(fol: pd.DataFrame) -> str:
    lines = (fol["topic"].astype(str) + " Q0 " + fol["file"].astype(str) + " "
             + fol["order"].astype(str) + " " + _scores(fol) + " " + fol["tag"].astype(str)
             + " " + fol["offset"].astype(str) + " " + fol["length"].astype(str))
    return "".join(line + "\n" for line in lines)


def write_trec_element(fol: pd.DataFrame) -> str:
    lines = (fol["topic"].astype(str) + " Q0 " + fol["file"].astype(str) + " "
             + fol["order"].astype(str) + " " + _scores(fol) + " " + fol["tag"].astype(str)
             + " " + fol["path"].astype(str))
    return "".join(line + "\n" for line in lines)


def write_inex_xml(fol: pd.DataFrame) -> str:
    tag = str(fol["tag"].iloc[0]) if len(fol) else "run"
    root = etree.Element("inex-submission", {"participant-id": "", "run-id": tag,
                                             "task": "", "query": "automatic",
                                             "result-type": "element"})
    for topic, rows in fol.groupby("topic", sort=False):
        node = etree.SubElement(root, "topic", {"topic-id": str(topic)})
        for file, path, score in zip(rows["file"], rows["path"], _scores(rows), strict=True):
            result = etree.SubElement(node, "result")
            etree.SubElement(result, "file").text = str(file)
            etree.SubElement(result, "path").text = str(path)
            etree.SubElement(result, "rsv").text = score
    return etree.tostring(root, pretty_print=True, xml_declaration=True,
                          encoding="UTF-8").decode("utf-8")


def convert_run(path: Path, index: CorpusIndex, to: str) -> tuple[str | None, list[Finding]]:
    """The run of ``path`` written in format ``to``, and the findings on the way."""
    fol, findings = PassageRunReader(None, index=index).read(Path(path))
    if fol is None:
        return None, findings
    if to == "fol":
        return write_fol(fol), findings
    paths = _deepest_elements(fol, index)
    missing = (paths == "").to_numpy()
    findings += listed(str(path), fol["line"].to_numpy()[missing], "error", FindingCode.UNRESOLVED,
                       "this passage is not the text of one element; left out")
    fol = fol.assign(path=paths.to_numpy())[~missing]
    return (write_trec_element(fol) if to == "trec-element" else write_inex_xml(fol)), findings
