"""Qrels and topics named by an ir_datasets id (``irds:msmarco-passage/trec-dl-2019/judged``),
read through ir_datasets (the optional extra ``irds``: ``pip install 'appendix[irds]'``).

The dataset's judgements are written once as a TREC qrels file (``topic 0 doc rel``), its
queries as a TREC topic file, into a folder of the system's temporary directory named by the
dataset; the task then reads them with the readers of any other qrels or topics, so the
numbers, findings and options (``reading: atof`` ...) are those of the same judgements given
as a file. ir_datasets downloads a dataset on first use and keeps it in its own home
(``IR_DATASETS_HOME``); a dataset it has not downloaded, or cannot, is said so, with
ir_datasets' reason, rather than raised as its exception.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

PREFIX = "irds:"


class IrdsError(Exception):
    """A dataset named by ``irds:`` that cannot be used: ir_datasets missing, an unknown id, no
    qrels or queries, or the data not available here."""


def is_irds(value: object) -> bool:
    return str(value).startswith(PREFIX)


def qrels_file(name: str) -> Path:
    """The judgements of ``name`` (``irds:ID``) as a TREC qrels file."""
    import pandas as pd

    dataset_id, dataset = _dataset(name)
    if not dataset.has_qrels():
        raise IrdsError(f"{name}: the dataset has no relevance judgements (qrels)")
    # ir_datasets gives rows as named tuples (its only interface); from there, columns.
    qrels = pd.DataFrame(_rows(name, dataset.qrels_iter))
    if qrels.empty:
        raise IrdsError(f"{name}: the dataset's relevance judgements are empty")
    table = pd.DataFrame({"topic": qrels["query_id"].astype(str), "iteration": "0",
                          "doc": qrels["doc_id"].astype(str),
                          "rel": qrels["relevance"].astype(int)})
    return _written(dataset_id, "qrels.txt",
                    table.to_csv(sep=" ", header=False, index=False, lineterminator="\n"))


def topics_file(name: str) -> Path:
    """The queries of ``name`` (``irds:ID``) as a TREC topic file: each query's ``title`` or
    ``text`` as its title, its ``description`` and ``narrative`` when it has them."""
    dataset_id, dataset = _dataset(name)
    if not dataset.has_queries():
        raise IrdsError(f"{name}: the dataset has no queries (topics)")
    blocks = []
    for query in _rows(name, dataset.queries_iter):
        fields = query._asdict()
        title = fields.get("title") or fields.get("text") or ""
        block = [f"<top>\n<num> Number: {query.query_id}\n<title> {title}\n"]
        for tag, key in (("desc", "description"), ("narr", "narrative")):
            if fields.get(key):
                block.append(f"<{tag}> {fields[key]}\n")
        blocks.append("".join(block) + "</top>\n\n")
    return _written(dataset_id, "topics.txt", "".join(blocks))


def _dataset(name: str):
    dataset_id = name[len(PREFIX):] if is_irds(name) else name
    try:
        import ir_datasets
    except ImportError:
        raise IrdsError(f"{name}: reading ir_datasets' datasets needs the extra 'irds' "
                        "(pip install 'appendix[irds]')") from None
    try:
        return dataset_id, ir_datasets.load(dataset_id)
    except KeyError:
        raise IrdsError(f"{name}: ir_datasets has no dataset {dataset_id!r} "
                        "(https://ir-datasets.com lists them)") from None


def _rows(name: str, rows) -> list:
    """Every row of ``rows()``, or what ir_datasets says when it cannot give them (a download
    refused or impossible offline, a file it expected missing)."""
    try:
        return list(rows())
    except Exception as error:  # noqa: BLE001 - ir_datasets raises anything from downloads
        raise IrdsError(f"{name}: the dataset is not available here (ir_datasets needs to "
                        f"download it, or could not read it: {error})") from None


def _written(dataset_id: str, file_name: str, text: str) -> Path:
    """``text`` in the dataset's folder of the temporary directory, written whole (a name
    taken only once complete), so that two builds at once each read a complete file."""
    folder = Path(tempfile.gettempdir()) / "appendix-irds" / re.sub(r"[^\w.-]", "_", dataset_id)
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / file_name
    handle, partial = tempfile.mkstemp(dir=folder, prefix=f".{file_name}.")
    with os.fdopen(handle, "w", encoding="utf-8") as file:
        file.write(text)
    os.replace(partial, target)
    return target
