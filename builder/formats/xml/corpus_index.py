"""The cached element index of an XML corpus: where it lives, when it is built, its rows.

The index (``builder.formats.xml.index_build``) is built once per corpus and cached as Parquet
under the user's cache folder, in a folder named by a hash of the corpus's path and of the
names, sizes and times of its articles, so any change of the corpus makes a new index. Readers
of the Parquet tables read only the rows of the files they name (Arrow's dataset filter).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq

from builder.formats.xml.corpus import CorpusError, folder_articles
from builder.formats.xml.index_build import Progress, StderrProgress, build_index
from builder.formats.xml.node_keys import NodeKeys

INDEX_VERSION = "3"
"""Part of the cache key: a change of the index's rules (``xml_index_build``) makes a new index."""


def corpus_signature(source: Path) -> str:
    """What the cache key hashes: the corpus's path, and the names, sizes and times of its
    articles (a folder) or of the archive, so any change of the corpus makes a new index."""
    digest = hashlib.sha256(f"{INDEX_VERSION}\0{source.resolve()}".encode())
    if source.is_dir():
        for inner, path in folder_articles(source):
            stat = os.stat(path)
            digest.update(f"{inner}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    else:
        stat = source.stat()
        digest.update(f"{stat.st_size}\0{stat.st_mtime_ns}".encode())
    return digest.hexdigest()[:24]


def default_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "appendix"


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
