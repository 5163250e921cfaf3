"""Integer keys of a corpus index's nodes, so that element results resolve with one
``searchsorted`` instead of a join on two string columns.

Written beside the Parquet index while it is built (``NodeKeyWriter``): every article gets a
file code (its position in the corpus), every distinct path a path code (first seen, first
numbered), and every node the key ``file_code << 32 | path_code`` with its character range.
Articles come in increasing file code, and each chunk's keys are sorted before they are
appended, so the whole key array is sorted without a global sort: memory stays bounded by a
chunk (plus the path dictionary). Files: ``keys.bin`` (int64), ``starts.bin``/``ends.bin``
(int32), ``files.arrow`` and ``paths.arrow`` (the dictionaries, in code order).

``NodeKeys.find`` maps a run's files and paths to codes with Arrow's hash kernels
(``index_in``) and looks the keys up in the memory-mapped arrays.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from pyarrow import feather

PATH_BITS = 32


class NodeKeyWriter:
    """Appends the keys of each indexed chunk; ``close`` writes the dictionaries."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.handles = {name: (folder / f"{name}.bin.partial").open("wb")
                        for name in ("keys", "starts", "ends")}
        self.files: list[str] = []
        self.paths: dict[str, int] = {}

    def write(self, nodes: pa.RecordBatch, articles: pa.RecordBatch) -> None:
        chunk_files = articles.column(0)
        base = len(self.files)
        self.files.extend(chunk_files.to_pylist())
        if nodes.num_rows == 0:
            return
        local = pc.index_in(nodes.column(0), value_set=chunk_files).to_numpy()
        paths = nodes.column(1)
        encoded = paths if pa.types.is_dictionary(paths.type) else pc.dictionary_encode(paths)
        # The chunk's distinct paths (a few thousand) get their global codes in Python.
        codes = np.fromiter((self.paths.setdefault(path, len(self.paths))
                             for path in encoded.dictionary.to_pylist()),
                            dtype=np.int64, count=len(encoded.dictionary))
        keys = ((base + local.astype(np.int64)) << PATH_BITS) | codes[encoded.indices.to_numpy()]
        order = np.argsort(keys, kind="stable")
        self.handles["keys"].write(keys[order].tobytes())
        self.handles["starts"].write(nodes.column(2).to_numpy()[order].astype(np.int32).tobytes())
        self.handles["ends"].write(nodes.column(3).to_numpy()[order].astype(np.int32).tobytes())

    def close(self) -> None:
        for name, handle in self.handles.items():
            handle.close()
            (self.folder / f"{name}.bin.partial").replace(self.folder / f"{name}.bin")
        feather.write_feather(pa.table({"file": pa.array(self.files, pa.string())}),
                              self.folder / "files.arrow")
        feather.write_feather(pa.table({"path": pa.array(list(self.paths), pa.string())}),
                              self.folder / "paths.arrow")


class NodeKeys:
    """The keys of one index, memory-mapped."""

    def __init__(self, folder: Path) -> None:
        self.keys = _mapped(folder / "keys.bin", np.int64)
        self.starts = _mapped(folder / "starts.bin", np.int32)
        self.ends = _mapped(folder / "ends.bin", np.int32)
        self.files = feather.read_table(folder / "files.arrow").column("file")
        self.paths = feather.read_table(folder / "paths.arrow").column("path")

    def find(self, files: np.ndarray | pa.Array, paths: np.ndarray | pa.Array
             ) -> tuple[np.ndarray, np.ndarray]:
        """``start`` and ``end`` of each (file, path) point, NaN where the article has no such
        node or the corpus no such article (the first article, where an id stands twice)."""
        file_code = pc.index_in(_string_array(files), value_set=self.files)
        path_code = pc.index_in(_string_array(paths), value_set=self.paths)
        known = pc.and_(pc.is_valid(file_code), pc.is_valid(path_code)).to_numpy(
            zero_copy_only=False)
        key = ((pc.fill_null(file_code, 0).to_numpy().astype(np.int64) << PATH_BITS)
               | pc.fill_null(path_code, 0).to_numpy().astype(np.int64))
        start = np.full(len(key), np.nan)
        end = np.full(len(key), np.nan)
        if len(self.keys):
            # Sorted needles walk the key array in order: several times faster than random
            # probes into a large (memory-mapped) array.
            order = np.argsort(key, kind="stable")
            at = np.empty(len(key), dtype=np.int64)
            at[order] = np.searchsorted(self.keys, key[order])
            at = np.minimum(at, len(self.keys) - 1)
            found = known & (self.keys[at] == key)
            start[found] = self.starts[at[found]]
            end[found] = self.ends[at[found]]
        return start, end


def _string_array(values: np.ndarray | pa.Array) -> pa.Array:
    return values if isinstance(values, pa.Array) else pa.array(values, pa.string())


def _mapped(path: Path, dtype: type) -> np.ndarray:
    """The array of a binary file, memory-mapped (numpy cannot map an empty file)."""
    if path.stat().st_size == 0:
        return np.zeros(0, dtype)
    return np.memmap(path, dtype=dtype, mode="r")
