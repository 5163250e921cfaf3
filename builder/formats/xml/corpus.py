"""An XML corpus: a folder, or a tar or zip archive, of articles named by file id.

The file id of an article is its base name without ``.xml`` (INEX's ``<file>`` value). This
module only finds and reads the articles; their element index is built by
``builder.formats.xml.index_build`` and cached by ``builder.formats.xml.corpus_index``.
"""

from __future__ import annotations

import os
import tarfile
import zipfile
from collections.abc import Iterator
from pathlib import Path


class CorpusError(ValueError):
    """The corpus cannot be read as a whole (missing, not a folder or archive)."""


def file_id(name: str) -> str:
    base = name.rsplit("/", 1)[-1]
    return base[:-4] if base.lower().endswith(".xml") else base


def _is_article(name: str) -> bool:
    return name.lower().endswith(".xml")


def article_bytes(article: bytes | str) -> bytes:
    """An entry's bytes: given (an archive's article), or read from its path (a folder's)."""
    if isinstance(article, bytes):
        return article
    with open(article, "rb") as handle:
        return handle.read()


def corpus_entries(source: Path) -> Iterator[tuple[str, bytes | str]]:
    """(file id, article) of every ``*.xml`` article of a folder, tar or zip archive: an
    archive's articles as their bytes, in name order (a tar's in archive order), a folder's as
    their paths (strings), in path order, so that the process that parses an article reads it
    (the index build's workers) and its bytes cross no pipe (``article_bytes`` reads either)."""
    if source.is_dir():
        for inner, path in folder_articles(source):
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


def folder_articles(source: Path) -> list[tuple[str, str]]:
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
