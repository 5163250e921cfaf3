"""Splitting one TREC run file into part files of whole topics, for ``builder.pipeline.execution.topic_ranges``.

One pass over the file's text (gunzipped as it streams), ``CHUNK_BYTES`` at a time; each line
goes to the part of its topic (its first field): a topic met for the first time joins the
current part, a new part once that part holds ``part_bytes``, so all lines of a topic are in
one part wherever they are in the file; each part keeps the file's line number of each of its
lines. Apart from the evaluation of the parts because it only moves bytes: it knows nothing of
task kinds, findings or scores.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

CHUNK_BYTES = 1 << 26
"""Text read at a time while splitting (cut at the last line end)."""

_FIRST_FIELD = r"^[ \t\f\v\r]*(?P<topic>[^ \t\f\v\r\n]*)"


@dataclass
class Part:
    """The lines of some topics of a run file: their text (``text``), the file's 1-based line
    number of each (``numbers``, int64 in the file ``numbers``), their size in bytes."""

    text: Path
    numbers: Path
    size: int = 0
    topics: set[str] = field(default_factory=set)

    def line_numbers(self) -> np.ndarray:
        import numpy as np

        return np.fromfile(self.numbers, dtype=np.int64)


def split_by_topics(path: Path, part_bytes: int, folder: Path) -> list[Part] | None:
    """The lines of the run file ``path`` in parts of whole topics of about ``part_bytes``
    each, written to ``folder``; None when the file cannot be read through (the reader then
    reads it whole and says why)."""
    from isal import igzip

    try:
        with open(path, "rb") as probe:
            packed = probe.read(2) == b"\x1f\x8b"
        with (igzip.open(path, "rb") if packed else open(path, "rb")) as stream:
            return _split(stream, part_bytes, folder)
    except (OSError, EOFError, ValueError):
        return None


def _split(stream: Any, part_bytes: int, folder: Path) -> list[Part]:
    parts: list[Part] = []
    owner: dict[bytes, int] = {}
    rest, first_line = b"", 1
    while True:
        data = stream.read(CHUNK_BYTES)
        chunk = rest + data
        if not chunk:
            break
        cut = chunk.rfind(b"\n") + 1 if data else len(chunk)
        if not data and not chunk.endswith(b"\n"):
            chunk += b"\n"  # the last line, unended: ended, as the reader takes it
            cut = len(chunk)
        first_line += _route(chunk[:cut], first_line, parts, owner, part_bytes, folder)
        rest = chunk[cut:]
        if not data:
            break
    return parts


def _route(text: bytes, first_line: int, parts: list[Part], owner: dict[bytes, int],
           part_bytes: int, folder: Path) -> int:
    """Each line of ``text`` (whole lines) appended to the part of its topic; the number of
    lines."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    ends = np.flatnonzero(np.frombuffer(text, np.uint8) == 10)
    offsets = np.r_[0, ends + 1].astype(np.int64)
    lines = pa.LargeBinaryArray.from_buffers(pa.large_binary(), len(ends),
                                             [None, pa.py_buffer(offsets), pa.py_buffer(text)])
    keys = pc.dictionary_encode(pc.extract_regex(lines, _FIRST_FIELD).field("topic"))
    codes = keys.indices.to_numpy()
    sizes = np.bincount(codes, weights=np.diff(offsets), minlength=len(keys.dictionary))
    _, first = np.unique(codes, return_index=True)
    part_of = np.empty(len(keys.dictionary), np.int64)
    for code in np.argsort(first, kind="stable"):  # topics in order of first appearance
        key = keys.dictionary[code].as_py()
        if key not in owner:
            if not parts or parts[-1].size >= part_bytes:
                number = len(parts)
                parts.append(Part(folder / f"part{number}", folder / f"part{number}.lines"))
            owner[key] = len(parts) - 1
        part_of[code] = owner[key]
        parts[owner[key]].size += int(sizes[code])
    line_part = part_of[codes]
    for number in np.unique(line_part):
        at = np.flatnonzero(line_part == number)
        if at[-1] - at[0] + 1 == len(at):  # one stretch of lines, as topics usually are
            piece = text[offsets[at[0]]:offsets[at[-1] + 1]]
        else:
            taken = lines.take(pa.array(at))
            bounds = np.frombuffer(taken.buffers()[1], np.int64)[taken.offset:]
            piece = taken.buffers()[2].to_pybytes()[bounds[0]:bounds[len(at)]]
        with open(parts[number].text, "ab") as out:
            out.write(piece)
        with open(parts[number].numbers, "ab") as out:
            out.write((at + first_line).astype(np.int64).tobytes())
    return len(ends)
