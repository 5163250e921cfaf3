"""An XML corpus (a folder, or a tar or zip archive, of articles named by file id) and its
element index: every element and text node of every article with its character range.

The index is built once per corpus and cached as Parquet (``nodes.parquet``: file, path,
start, end, is_text; ``articles.parquet``: file, text_length, problem), with integer keys of
the nodes for resolving results (``builder.formats.xml_node_keys``); readers of the Parquet
tables read only the rows of the files they name (Arrow's dataset filter). Articles are
parsed in parallel (one process per core, ``builder.formats.xml_article``) in chunks whose
node ranges are computed at once (``builder.formats.xml_ranges``) and written as row groups as
they come, so memory stays bounded by a few chunks whatever the corpus size (the INEX 2007
Wikipedia collection: 659,388 articles, 4.6 GB).

The file id of an article is its base name without ``.xml`` (INEX's ``<file>`` value).
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import sys
import tarfile
import time
import zipfile
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq

from builder.formats.xml_article import ArticleError, parse_root, serialise
from builder.formats.xml_node_keys import NodeKeys, NodeKeyWriter
from builder.formats.xml_ranges import chunk_nodes

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
INDEX_VERSION = "3"
"""Part of the cache key: a change of the index's rules makes a new index."""


class CorpusError(ValueError):
    """The corpus cannot be read as a whole (missing, not a folder or archive)."""


def file_id(name: str) -> str:
    base = name.rsplit("/", 1)[-1]
    return base[:-4] if base.lower().endswith(".xml") else base


def _is_article(name: str) -> bool:
    return name.lower().endswith(".xml")


def _read(article: bytes | str) -> bytes:
    if isinstance(article, bytes):
        return article
    with open(article, "rb") as handle:
        return handle.read()


def corpus_articles(source: Path) -> Iterator[tuple[str, bytes]]:
    """(file id, bytes) of every ``*.xml`` article of a folder, tar or zip archive, by name."""
    for name, article in corpus_entries(source):
        yield name, _read(article)


def corpus_entries(source: Path) -> Iterator[tuple[str, bytes | str]]:
    """``corpus_articles``, but a folder's articles as their paths (strings): the process that
    parses an article reads it (the index build's workers), so its bytes cross no pipe."""
    if source.is_dir():
        for inner, path in _folder_articles(source):
            yield file_id(inner), path
    elif zipfile.is_zipfile(source):
        with zipfile.ZipFile(source) as archive:
            for info in sorted(archive.infolist(), key=lambda i: i.filename):
                if not info.is_dir() and _is_article(info.filename):
                    yield file_id(info.filename), archive.read(info)
    elif source.is_file() and tarfile.is_tarfile(source):
        # Streamed in archive order: a tar cannot be read out of order without re-reading it.
        with tarfile.open(source, mode="r|*") as archive:
            for member in archive:
                if member.isfile() and _is_article(member.name):
                    handle = archive.extractfile(member)
                    if handle is not None:
                        yield file_id(member.name), handle.read()
    elif source.exists():
        raise CorpusError(f"{source}: not a folder, a tar or a zip archive of XML articles")
    else:
        raise CorpusError(f"{source}: no such corpus (a folder, tar or zip of XML articles)")


def _folder_articles(source: Path) -> list[tuple[str, str]]:
    """(path within the folder, path) of every ``*.xml`` file under a folder, in path order.
    Strings, not ``Path``: ``os.walk`` tells files from folders without a ``stat`` each, and
    pathlib's objects cost tens of microseconds a file (seconds for a Wikipedia collection)."""
    root = str(source)
    found = []
    for folder, _, names in os.walk(root):
        inner = os.path.relpath(folder, root)
        parts = () if inner == "." else tuple(inner.split(os.sep))
        found.extend(((*parts, name), os.path.join(folder, name))
                     for name in names if _is_article(name))
    found.sort()
    return [(os.path.join(*parts), path) for parts, path in found]


def corpus_signature(source: Path) -> str:
    """What the cache key hashes: the corpus's path, and the names, sizes and times of its
    articles (a folder) or of the archive, so any change of the corpus makes a new index."""
    digest = hashlib.sha256(f"{INDEX_VERSION}\0{source.resolve()}".encode())
    if source.is_dir():
        for inner, path in _folder_articles(source):
            stat = os.stat(path)
            digest.update(f"{inner}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    else:
        stat = source.stat()
        digest.update(f"{stat.st_size}\0{stat.st_mtime_ns}".encode())
    return digest.hexdigest()[:24]


def default_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "appendix"


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
        data = _read(article)
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


@dataclass(frozen=True)
class CorpusIndex:
    """The cached index of one corpus."""

    source: Path
    folder: Path

    def nodes(self, files: Iterable[str] | None = None,
              columns: list[str] | None = None) -> pa.Table:
        """The index rows of ``files`` (every row when None)."""
        dataset = ds.dataset(self.folder / "nodes.parquet", format="parquet")
        if files is None:
            return dataset.to_table(columns=columns)
        wanted = pa.array(sorted(set(files)), pa.string())
        return dataset.to_table(columns=columns, filter=ds.field("file").isin(wanted))

    def articles(self) -> pa.Table:
        return pq.read_table(self.folder / "articles.parquet")

    def keys(self) -> NodeKeys:
        """The nodes' integer keys, for resolving results (``xml_node_keys``)."""
        return NodeKeys(self.folder)


def open_index(source: Path, cache_dir: Path | None = None, workers: int | None = None,
               progress: Progress | None = None) -> CorpusIndex:
    """The index of ``source``, built first when the cache has none for its current state."""
    source = Path(source)
    if not source.exists():
        raise CorpusError(f"{source}: no such corpus (a folder, tar or zip of XML articles)")
    base = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    folder = base / f"xml-index-{corpus_signature(source)}"
    if not (folder / "nodes.parquet").exists():
        _writable_cache(base, folder)
        build_index(source, folder, workers, progress or StderrProgress())
    return CorpusIndex(source, folder)


def _writable_cache(base: Path, folder: Path) -> None:
    """Make the index's folder, or say in one line why the cache cannot hold it."""
    if base.exists() and not base.is_dir():
        raise CorpusError(f"{base}: the corpus index cache must be a folder; this is a file")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / ".writable"
        probe.touch()
        probe.unlink()
    except OSError as error:
        reason = error.strerror or str(error)
        raise CorpusError(f"{base}: cannot write the corpus index cache there: "
                          f"{reason[0].lower()}{reason[1:]}") from None
