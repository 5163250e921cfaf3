"""Qrels and topics named by an ir_datasets id (``irds:msmarco-passage/trec-dl-2019/judged``),
read through ir_datasets (the optional extra ``irds``: ``pip install 'appendix[irds]'``).

The dataset's judgements are written once as a TREC qrels file (``topic 0 doc rel``, by the
writer of tables given to the API, ``builder.formats.trec.frames``), its queries as a TREC
topic file, beside the dataset in ir_datasets' own home (``IR_DATASETS_HOME``, by default
``~/.ir_datasets``: the user's, not a folder of the system's temporary directory that every
user shares), in ``appendix/`` and a folder named by the dataset; the task then reads them with
the readers of any other qrels or topics, so the numbers, findings and options
(``reading: atof`` ...) are those of the same judgements given as a file. The site names them
by their file name only (``SiteSpec.relative``). ir_datasets downloads a dataset on first use;
a dataset it has not downloaded, or cannot, is said so, with ir_datasets' reason, rather than
raised as its exception.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from builder.findings import InputError

PREFIX = "irds:"


class IrdsError(Exception):
    """A dataset named by ``irds:`` that cannot be used: ir_datasets missing, an unknown id, no
    qrels or queries, or the data not available here."""


def is_irds(value: object) -> bool:
    return str(value).startswith(PREFIX)


def qrels_file(name: str) -> Path:
    """The judgements of ``name`` (``irds:ID``) as a TREC qrels file."""
    import pandas as pd

    from builder.formats.trec.frames import write_qrels  # pandas and Arrow: at first use

    dataset_id, dataset = _dataset(name)
    if not dataset.has_qrels():
        raise IrdsError(f"{name}: the dataset has no relevance judgements (qrels)")
    # ir_datasets gives rows as named tuples (its only interface); from there, columns
    # (query_id, doc_id, relevance: names the table writer knows).
    qrels = pd.DataFrame(_rows(name, dataset.qrels_iter))
    if qrels.empty:
        raise IrdsError(f"{name}: the dataset's relevance judgements are empty")
    with _written(dataset_id, "qrels.txt") as (partial, target):
        try:
            write_qrels(qrels, partial, name)
        except InputError as error:  # an id holding white space: no TREC file can hold it
            raise IrdsError(f"{name}: {error.findings[0].message}") from None
    return target


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
    with _written(dataset_id, "topics.txt") as (partial, target):
        partial.write_text("".join(blocks), encoding="utf-8")
    return target


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


@contextmanager
def _written(dataset_id: str, file_name: str) -> Iterator[tuple[Path, Path]]:
    """A partial file to write and the file it becomes once the block ends without error (a
    name taken only once complete, so that two builds at once each read a complete file), in
    the dataset's folder of ir_datasets' home."""
    from ir_datasets.util import home_path

    folder = home_path() / "appendix" / re.sub(r"[^\w.-]", "_", dataset_id)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle, partial = tempfile.mkstemp(dir=folder, prefix=f".{file_name}.")
    except OSError as error:
        raise IrdsError(f"irds:{dataset_id}: cannot write its files into {folder}: "
                        f"{error.strerror}") from None
    os.close(handle)
    try:
        yield Path(partial), folder / file_name
        os.replace(partial, folder / file_name)
    finally:
        Path(partial).unlink(missing_ok=True)
