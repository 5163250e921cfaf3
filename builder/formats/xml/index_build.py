"""Building the element index of an XML corpus: every element and text node of every article
with its character range, written as Parquet.

The tables: ``nodes.parquet`` (file, path, start, end, is_text) and ``articles.parquet``
(file, text_length, problem), with integer keys of the nodes for resolving results
(``builder.formats.xml.node_keys``). Articles (``builder.formats.xml.corpus``) are parsed in
parallel (one process per core, ``builder.formats.xml.article``) in chunks whose node ranges are
computed at once (``builder.formats.xml.ranges``) and written as row groups as they come, so
memory stays bounded by a few chunks whatever the corpus size (the INEX 2007 Wikipedia
collection: 659,388 articles, 4.6 GB). Where the index is cached and when it is built again is
``builder.formats.xml.corpus_index``.
"""

from __future__ import annotations

import ctypes
import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from builder.formats.xml.article import ArticleError, parse_root, serialise
from builder.formats.xml.corpus import article_bytes, corpus_entries
from builder.formats.xml.node_keys import NodeKeyWriter
from builder.formats.xml.ranges import chunk_nodes

NODE_SCHEMA = pa.schema([
    ("file", pa.string()), ("path", pa.string()),
    ("start", pa.int32()), ("end", pa.int32()), ("is_text", pa.bool_()),
])
TRANSIT_SCHEMA = NODE_SCHEMA.set(1, pa.field("path", pa.dictionary(pa.int32(), pa.string())))
ARTICLE_SCHEMA = pa.schema([
    ("file", pa.string()), ("text_length", pa.int32()), ("problem", pa.string()),
])
MALFORMED = "not well-formed XML: "
"""How an article's problem starts when it could not be parsed (it then has no nodes)."""
CHUNK_ARTICLES = 512
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3  # glibc's mallopt parameters


def _index_chunk(chunk: list[tuple[str, bytes | str]]
                 ) -> tuple[pa.RecordBatch, pa.RecordBatch, int]:
    """Parse a chunk's articles one by one (lxml), then find all their nodes' ranges at once
    (``xml_ranges``); an article that is not well-formed has no nodes and says why. The
    paths come dictionary-encoded (``TRANSIT_SCHEMA``: far fewer bytes between processes);
    the bytes read come last."""
    names = [name for name, _ in chunk]
    problems: list[str | None] = [None] * len(chunk)
    serialised: list[bytes] = []
    parsed: list[int] = []
    size = 0
    for position, (_, article) in enumerate(chunk):
        data = article_bytes(article)
        size += len(data)
        try:
            root, undeclared = parse_root(data)
        except ArticleError as exc:
            problems[position] = f"{MALFORMED}{exc}"
            continue
        if undeclared:
            problems[position] = ("undeclared entities counted as one character: "
                                  + ", ".join(undeclared))
        serialised.append(serialise(root))
        parsed.append(position)
    nodes = chunk_nodes(serialised)
    lengths = np.zeros(len(chunk), dtype=np.int32)
    lengths[parsed] = nodes.text_length
    article_of = np.asarray(parsed, dtype=np.int64)[nodes.article]
    node_batch = pa.RecordBatch.from_arrays([
        pa.array(names, pa.string()).take(pa.array(article_of)), nodes.path,
        pa.array(nodes.start.astype(np.int32)), pa.array(nodes.end.astype(np.int32)),
        pa.array(nodes.is_text)], schema=TRANSIT_SCHEMA)
    article_batch = pa.RecordBatch.from_arrays([
        pa.array(names, pa.string()), pa.array(lengths), pa.array(problems, pa.string())],
        schema=ARTICLE_SCHEMA)
    return node_batch, article_batch, size


def _keep_freed_memory() -> None:
    """In a worker: let glibc keep the memory of freed large arrays instead of returning it to
    the system, as each chunk allocates arrays of the same sizes again (returned pages cost a
    fault each when touched again: about a tenth of the worker's time). Elsewhere, nothing."""
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.mallopt(_M_MMAP_THRESHOLD, 256 << 20)
        libc.mallopt(_M_TRIM_THRESHOLD, 512 << 20)
    except (OSError, AttributeError):
        pass


def _chunks(articles: Iterable[tuple[str, bytes | str]], size: int
            ) -> Iterator[list[tuple[str, bytes | str]]]:
    chunk: list[tuple[str, bytes | str]] = []
    for article in articles:
        chunk.append(article)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


Progress = Callable[[int, int, float], None]
"""Called after each chunk with (articles indexed, bytes read, seconds so far)."""


class StderrProgress:
    """A progress line on standard error, at most every ``every`` seconds (so a small corpus
    indexes silently and a large one reports as it goes)."""

    def __init__(self, every: float = 2.0) -> None:
        self.every = every
        self.shown = 0.0

    def __call__(self, articles: int, size: int, seconds: float) -> None:
        if seconds - self.shown < self.every:
            return
        self.shown = seconds
        rate = size / 1e6 / seconds if seconds > 0 else 0.0
        end = "\r" if sys.stderr.isatty() else "\n"
        print(f"indexing the corpus: {articles:,} articles, {size / 1e6:,.1f} MB, "
              f"{rate:,.1f} MB/s", end=end, file=sys.stderr, flush=True)


def build_index(source: Path, target: Path, workers: int | None = None,
                progress: Progress | None = None) -> None:
    """Parse every article of ``source`` and write ``target/nodes.parquet`` and
    ``target/articles.parquet`` (written under temporary names, renamed when complete)."""
    target.mkdir(parents=True, exist_ok=True)
    workers = workers or os.cpu_count() or 1
    partial_nodes = target / "nodes.parquet.partial"
    partial_articles = target / "articles.parquet.partial"
    start = time.perf_counter()
    done = read = 0
    keys = NodeKeyWriter(target)
    # Paths go in as dictionary arrays (no strings rebuilt) and are read back as strings: the
    # file keeps no Arrow schema of its own.
    with pq.ParquetWriter(partial_nodes, TRANSIT_SCHEMA, store_schema=False) as node_writer, \
            pq.ParquetWriter(partial_articles, ARTICLE_SCHEMA) as article_writer:
        def write(batches: tuple[pa.RecordBatch, pa.RecordBatch, int], count: int) -> None:
            nonlocal done, read
            nodes, articles, size = batches
            keys.write(nodes, articles)
            node_writer.write_batch(nodes)
            article_writer.write_batch(articles)
            done += count
            read += size
            if progress is not None:
                progress(done, read, time.perf_counter() - start)

        chunks = _chunks(corpus_entries(source), CHUNK_ARTICLES)
        if workers == 1:
            for chunk in chunks:
                write(_index_chunk(chunk), len(chunk))
        else:
            with ProcessPoolExecutor(max_workers=workers, initializer=_keep_freed_memory) as pool:
                pending: list = []
                for chunk in chunks:
                    # At most two chunks per worker in flight: memory stays bounded.
                    pending.append((pool.submit(_index_chunk, chunk), len(chunk)))
                    while len(pending) > 2 * workers:
                        future, count = pending.pop(0)
                        write(future.result(), count)
                for future, count in pending:
                    write(future.result(), count)
    keys.close()
    partial_articles.replace(target / "articles.parquet")
    partial_nodes.replace(target / "nodes.parquet")  # last: its presence marks a whole index
