"""Every reader of a user's file, with real lines to mutate, for the property-based tests
(``test_reader_properties.py``) and the long run of ``benchmarks/bench_readers_fuzz.py``.

The property: whatever the bytes, a reader returns, reports findings, or raises the project's
own ``InputError`` (file, line, reason); anything else is a bug. Runs go through their task
kind's ``read_runs``, so the validators run on whatever the reader let through.
"""

from __future__ import annotations

import atexit
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "data"
SAMPLE_LINES = 40


@dataclass(frozen=True)
class Reader:
    """A reader: the file name it is given, real lines of its format, and how to call it."""

    file_name: str
    lines: list[bytes]
    read: Callable[[Path], object]


def _lines(path: Path, count: int = SAMPLE_LINES) -> list[bytes]:
    return path.read_bytes().splitlines(keepends=True)[:count]


@cache
def _qrels(kind: str) -> object:
    from builder.tasks import get_kind

    return get_kind(kind).read_qrels(DATA / ("adhoc" if kind == "adhoc" else "inex") / "qrels.txt")


def _adhoc_runs(path: Path) -> object:
    from builder.tasks import get_kind

    kind = get_kind("adhoc")
    return kind.read_runs([path], _qrels("adhoc"), kind.options_model())


def _fol_runs(path: Path) -> object:
    from builder.tasks import get_kind

    return [get_kind(name).read_runs([path], _qrels("focused"), get_kind(name).options_model())
            for name in ("focused", "best-in-context")]


def _topics(path: Path) -> object:
    from builder.formats.topic_file import read_topic_file

    return read_topic_file(path)


def _metadata(path: Path) -> object:
    from builder.formats.run_metadata import read_run_metadata

    return read_run_metadata(path)


def _trec_qrels(path: Path) -> object:
    from builder.formats.trec.qrels import read_trec_qrels

    return read_trec_qrels(path)


def _inex_qrels(path: Path) -> object:
    from builder.formats.inex.qrels import read_inex_qrels

    return read_inex_qrels(path)


ARTICLES = {
    "100": '<article><name>Gr\u00fc\u00dfe &amp; m\u00e1s</name><body><section><title>One</title>'
           '<p>First para.</p><p>Second <b>bold</b> para.</p></section>'
           '<section><p>Zweite Sektion</p></section></body></article>',
    "101": '<article><name>Two</name><body><p>Alpha</p><p>Beta <i>gamma</i></p></body></article>',
}
ELEMENT_RUN = b"""1 Q0 100 1 3.5 elem /article[1]/body[1]/section[1]/p[2]
1 Q0 100 2 3.0 elem /article/body/section[2]
1 Q0 101 3 2.5 elem /article[1]/body[1]/p[2]/i[1]
1 Q0 101 4 2.0 elem /article/name/text()
2 Q0 100 1 1.5 elem /article[1]/body[1]/section[1]/p[1]/text()[1]
2 Q0 101 2 1.0 elem /article[1]
"""
INEX_SUBMISSION = b"""<?xml version="1.0"?>
<inex-submission participant-id="9" run-id="xmlrun" task="Focused" result-type="element">
  <topic-fields title="yes"/>
  <topic topic-id="1">
    <result><file>100</file><path>/article[1]/body[1]/section[2]</path><rsv>3</rsv></result>
    <result><file>100</file>
      <passage start="/article[1]/body[1]/section[1]/p[1]/text()[1].6"
               end="/article[1]/body[1]/section[1]/p[2]/text()[1].6"/><rsv>2</rsv></result>
    <result><file>101</file><fol offset="0" length="3"/><rsv>1</rsv></result>
  </topic>
  <topic topic-id="2">
    <result><file>101</file><path>/article[1]/body[1]/p[1]</path><rank>1</rank></result>
  </topic>
</inex-submission>
"""
NAVIGATION = b"""topic rank element probability
# a comment
1 1 a 0.8
1 1 b 0.2
1 2 b 1
1 idealism a 1
1 idealism b 0.5
1 ideal:1 a 1
2 1 c 1
"""


@cache
def _element_reader() -> object:
    """One reader over a two-article corpus written in the scratch folder (its index cached
    there too), so element paths are resolved as well as read."""
    from builder.formats.inex.passage_run import PassageRunReader
    from builder.formats.xml.corpus_index import open_index

    corpus = _folder() / "corpus"
    corpus.mkdir(exist_ok=True)
    for name, text in ARTICLES.items():
        (corpus / f"{name}.xml").write_text(text, encoding="utf-8")
    index = open_index(corpus, cache_dir=_folder() / "cache", workers=1, progress=None)
    return PassageRunReader(corpus, index=index)


def _element_run(path: Path) -> object:
    return _element_reader().read(path)


def _navigation(path: Path) -> object:
    from builder.findings import InputError
    from builder.formats.eprum.navigation import NavigationError, read_navigation

    try:
        return read_navigation(path)
    except NavigationError as error:  # the EPRUM reader's own input error
        raise InputError(error.findings) from None


def _config(path: Path) -> object:
    from builder.pipeline.stages import load_config

    return load_config(path)


XML_TOPICS = b"""<?xml version="1.0" encoding="UTF-8"?>
<topics task="round1">
  <topic number="1">
    <query>coronavirus origin</query>
    <question>what is the origin of COVID-19</question>
    <narrative>seeking range of information about the SARS-CoV-2 virus's origin</narrative>
  </topic>
  <topic number="2">
    <query>coronavirus response to weather changes</query>
    <question>how does the coronavirus respond to changes in the weather</question>
  </topic>
</topics>
"""
METADATA_YAML = b"""irisQL:
  team: Iris Lab
  description: "Query likelihood, Dirichlet mu=1000"
  type: automatic
nbuBM25: {team: Northbridge University, type: manual, notes: [BM25, "k1=0.9"]}
"""
CONFIG = b"""campaign:
  title: Fuzz campaign
  year: 2024
output: site
significance: {B: 100}
tasks:
  - id: adhoc
    title: Ad hoc retrieval
    kind: adhoc
    qrels: DATA/adhoc/qrels.txt
    runs: DATA/adhoc/runs/
    official_measure: map
    measures: [map, P_10]
  - id: focused
    title: Focused
    kind: focused
    qrels: DATA/inex/qrels.txt
    runs: DATA/inex/focused/
    options: {max_results: 100}
""".replace(b"DATA", str(DATA).encode())

READERS: dict[str, Reader] = {
    "trec-run": Reader("run.txt", _lines(DATA / "adhoc" / "runs" / "irisQL.txt"), _adhoc_runs),
    "trec-qrels": Reader("qrels.txt", _lines(DATA / "adhoc" / "qrels.txt"), _trec_qrels),
    "fol-run": Reader("run.txt", _lines(DATA / "inex" / "focused" / "kestrelFocBM25.txt"),
                      _fol_runs),
    "inex-qrels": Reader("qrels.txt", _lines(DATA / "inex" / "qrels.txt"), _inex_qrels),
    "trec-topics": Reader("topics.txt", _lines(DATA / "adhoc" / "topics.txt"), _topics),
    "xml-topics": Reader("topics.xml", XML_TOPICS.splitlines(keepends=True), _topics),
    "inex-topics": Reader("topics.xml", _lines(DATA / "inex" / "topics.xml"), _topics),
    "metadata-csv": Reader("runs.csv", _lines(DATA / "adhoc" / "runs.csv"), _metadata),
    "metadata-yaml": Reader("runs.yml", METADATA_YAML.splitlines(keepends=True), _metadata),
    "config": Reader("site_config.yml", CONFIG.splitlines(keepends=True), _config),
    "trec-element-run": Reader("elements.txt", ELEMENT_RUN.splitlines(keepends=True),
                               _element_run),
    "inex-xml-run": Reader("submission.xml", INEX_SUBMISSION.splitlines(keepends=True),
                           _element_run),
    "eprum-navigation": Reader("navigation.txt", NAVIGATION.splitlines(keepends=True),
                               _navigation),
}

# Bytes that matter to these formats: blanks, line ends, field and YAML/XML/CSV syntax, signs,
# number spellings, bytes that are not UTF-8, a byte order mark, gzip's magic number.
PIECES = [b" ", b"  ", b"\t", b"\r", b"\r\n", b"\n", b"\n\n", b"#", b":", b"-", b"+", b"-1",
          b"0", b"9" * 25, b"nan", b"inf", b"X", b"Q0", b",", b'"', b"'", b"&a ", b"*a",
          b"<", b">", b"</topic>", b"<top>", b"&amp;", b"\x00", b"\xe9", b"\xff\xfe",
          b"\xef\xbb\xbf", b"\x1f\x8b", b"{", b"}", b"[", b"]", b"- ", b"? ", b"!!python/object"]


@st.composite
def mutated(draw: st.DrawFn, lines: list[bytes]) -> bytes:
    """Real lines with a few edits: pieces inserted, spans deleted, lines dropped, repeated,
    swapped or cut, bytes replaced by random ones."""
    chosen = list(lines[: draw(st.just(len(lines)) | st.integers(1, len(lines)))])
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(chosen) - 1))
        line = chosen[at]
        where = draw(st.integers(0, len(line)))
        edit = draw(st.sampled_from(["insert", "random", "delete", "drop", "repeat", "swap",
                                     "cut", "crlf"]))
        if edit == "insert":
            line = line[:where] + draw(st.sampled_from(PIECES)) + line[where:]
        elif edit == "random":
            line = line[:where] + draw(st.binary(min_size=1, max_size=8)) + line[where + 1:]
        elif edit == "delete":
            line = line[:where] + line[where + draw(st.integers(1, 10)):]
        elif edit == "cut":
            line = line[:where]
        elif edit == "crlf":
            line = line.replace(b"\n", b"\r\n")
        elif edit == "repeat":
            chosen.insert(at, line)
        elif edit == "swap" and len(chosen) > 1:
            other = draw(st.integers(0, len(chosen) - 1))
            chosen[at], chosen[other] = chosen[other], chosen[at]
        if edit == "drop" and len(chosen) > 1:
            del chosen[at]
        else:
            chosen[at] = line
    return b"".join(chosen)


def contents(reader: Reader) -> st.SearchStrategy[bytes]:
    """Random bytes (up to 2 KB), mutated real lines, or the real lines as they are."""
    return st.one_of(st.binary(max_size=2048), mutated(reader.lines),
                     st.just(b"".join(reader.lines)))


def read_bytes_as(reader: Reader, content: bytes) -> str:
    """Write ``content`` where the reader looks and read it: ``"read"`` when it returns,
    ``"input error"`` when it raises ``InputError``; any other exception propagates."""
    from builder.findings import InputError

    path = _folder() / reader.file_name
    path.write_bytes(content)
    try:
        reader.read(path)
    except InputError:
        return "input error"
    return "read"


@cache
def _folder() -> Path:
    """One scratch folder per process, removed at exit."""
    folder = tempfile.TemporaryDirectory(prefix="reader-cases-")
    atexit.register(folder.cleanup)
    return Path(folder.name)
