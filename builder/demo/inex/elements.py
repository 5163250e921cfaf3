"""The demo campaign's XML element task: a small generated Wikipedia-like corpus, highlighted
passages on it and element runs.

Writes, from a seed::

    corpus/<file id>.xml        40 articles (builder.demo.inex.xml_articles)
    qrels.txt  topics.xml       INEX passage qrels (whole paragraphs highlighted) and topics
                                with content-and-structure (CAS) titles
    runs/*  runs.csv            element runs, in the TREC-like element format and as an INEX
                                XML submission, with their metadata

Runs: ``ndParagraphs`` returns paragraphs, ``ndSections`` sections (an INEX XML submission),
``ndNested`` a section after its best paragraph (overlap, scored by HiXEval's element tree),
and ``ndBadPaths`` names a paragraph its article does not have (rejected, with its line).
"""

from __future__ import annotations

from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

import numpy as np
import pandas as pd

from builder.demo.inex.xml_articles import write_articles
from builder.formats.xml.article import parse_article

SEED = 20250515
ARTICLES = 40
FIRST_ARTICLE = 7000
TOPICS = (
    ("2025001", "evaluation of focused retrieval", "//article//section[about(., evaluation)]",
     "How are focused retrieval systems evaluated?"),
    ("2025002", "structure of café culture", "//article[about(., café)]//p[about(., culture)]",
     "Which paragraphs describe café culture in Zürich or 東京?"),
    ("2025003", "relevance assessors highlighting", "//section[about(., assessor highlight)]",
     "How do assessors highlight relevant text?"),
    ("2025004", "naïve recall measures", "//article//p[about(., recall measure)]",
     "Which naïve measures of recall are used, and what is their précision?"),
)
RUNS = (
    ("ndParagraphs", "Nordic Digital Library", "BM25 over paragraphs; ten paragraphs a topic."),
    ("ndSections", "Nordic Digital Library", "BM25 over sections, submitted as INEX XML."),
    ("ndNested", "Nordic Digital Library", "The best paragraph, then its whole section."),
    ("ndBadPaths", "Nordic Digital Library", "Paragraph run with paths its articles lack."),
)


def _elements(folder: Path, files: list[str]) -> pd.DataFrame:
    """Every element of the corpus: file, path, start, end, and its name."""
    frames = []
    for file in files:
        nodes = parse_article((folder / f"{file}.xml").read_bytes())
        frames.append(pd.DataFrame({"file": file, "path": nodes.paths, "start": nodes.starts,
                                    "end": nodes.ends, "is_text": nodes.is_text,
                                    "length": nodes.text_length}))
    table = pd.concat(frames, ignore_index=True)
    table = table[~table["is_text"]].drop(columns="is_text")
    return table.assign(name=table["path"].str.extract(r"/([^/\[]+)\[\d+\]$")[0])


def _qrels(rng: np.random.Generator, elements: pd.DataFrame, files: list[str]) -> pd.DataFrame:
    """Per topic 8 relevant articles (1-2 whole paragraphs highlighted) and 4 judged others."""
    paragraphs = elements[elements["name"] == "p"]
    rows = []
    for topic, *_ in TOPICS:
        chosen = rng.choice(files, size=12, replace=False)
        for i, file in enumerate(chosen):
            length = int(elements.loc[elements["file"] == file, "length"].iloc[0])
            if i >= 8:
                rows.append((topic, file, length, ""))
                continue
            mine = paragraphs[paragraphs["file"] == file]
            picked = mine.iloc[np.sort(rng.choice(len(mine), size=min(len(mine), 1 + i % 2),
                                                  replace=False))]
            spans = " ".join(f"{s}:{e - s}" for s, e in zip(picked["start"], picked["end"]))
            rows.append((topic, file, length, spans))
    return pd.DataFrame(rows, columns=["topic", "file", "length", "spans"])


def _qrels_text(qrels: pd.DataFrame) -> str:
    lines = []
    for topic, file, length, spans in qrels.itertuples(index=False):
        if not spans:
            lines.append(f"{topic} Q0 {file} 0 {length}")
            continue
        pairs = [tuple(map(int, span.split(":"))) for span in spans.split()]
        relevant = sum(n for _, n in pairs)
        lines.append(f"{topic} Q0 {file} {relevant} {length} {pairs[0][0]} {spans}")
    return "\n".join(lines) + "\n"


def _ranking(rng: np.random.Generator, qrels: pd.DataFrame, elements: pd.DataFrame,
             topic: str, name: str) -> pd.DataFrame:
    """A topic's ranked elements of one kind: relevant articles first, with some noise."""
    judged = qrels.loc[qrels["topic"] == topic, "file"].tolist()
    others = sorted(set(elements["file"]) - set(judged))
    files = judged[: int(rng.integers(4, 9))] + list(rng.choice(others, size=4, replace=False))
    files = [files[i] for i in rng.permutation(len(files))]
    pool = elements[(elements["name"] == name) & elements["file"].isin(files)]
    return pool.groupby("file", sort=False).head(2).set_index("file").loc[files].reset_index()


def _element_lines(rng, qrels, elements, tag: str, nested: bool) -> list[str]:
    lines = []
    for topic, *_ in TOPICS:
        rank = 0
        for file, path in _ranking(rng, qrels, elements, topic, "p")[["file", "path"]].itertuples(
                index=False):
            paths = [path, path.rsplit("/", 1)[0]] if nested else [path]
            for result in paths:
                rank += 1
                lines.append(f"{topic} Q0 {file} {rank} {100 - rank} {tag} {result}")
    return lines


def _submission(rng, qrels, elements) -> str:
    parts = ['<?xml version="1.0" encoding="UTF-8"?>',
             ('<inex-submission participant-id="42" run-id="ndSections" task="Thorough" '
              'query="automatic" result-type="element">'),
             '<topic-fields title="yes" castitle="no" description="no" narrative="no"/>']
    for topic, *_ in TOPICS:
        parts.append(f"<topic topic-id={quoteattr(topic)}>")
        ranking = _ranking(rng, qrels, elements, topic, "section")
        for rank, (file, path) in enumerate(ranking[["file", "path"]].itertuples(index=False), 1):
            parts.append(f"  <result><file>{file}</file><path>{escape(path)}</path>"
                         f"<rsv>{100 - rank}</rsv></result>")
        parts.append("</topic>")
    return "\n".join(parts + ["</inex-submission>"]) + "\n"


def _topics_xml() -> str:
    parts = ['<?xml version="1.0" encoding="UTF-8"?>', "<inex-topic-file>"]
    for topic, title, castitle, description in TOPICS:
        parts += [f"  <topic id={quoteattr(topic)}>", f"    <title>{escape(title)}</title>",
                  f"    <castitle>{escape(castitle)}</castitle>",
                  f"    <description>{escape(description)}</description>",
                  "    <narrative>Relevant text answers the description.</narrative>",
                  "  </topic>"]
    return "\n".join(parts + ["</inex-topic-file>"]) + "\n"


def _write_text(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8", newline="\n")


def write(directory: Path) -> None:
    """Write the corpus, qrels, topics and runs into ``directory``."""
    rng = np.random.Generator(np.random.PCG64([SEED, 0]))
    files = write_articles(directory / "corpus", ARTICLES, seed=SEED, first_id=FIRST_ARTICLE)
    elements = _elements(directory / "corpus", files)
    qrels = _qrels(rng, elements, files)
    _write_text(directory / "qrels.txt", _qrels_text(qrels))
    _write_text(directory / "topics.xml", _topics_xml())
    runs = directory / "runs"
    _write_text(runs / "ndParagraphs.txt",
                "\n".join(_element_lines(rng, qrels, elements, "ndParagraphs", False)) + "\n")
    _write_text(runs / "ndSections.xml", _submission(rng, qrels, elements))
    _write_text(runs / "ndNested.txt",
                "\n".join(_element_lines(rng, qrels, elements, "ndNested", True)) + "\n")
    bad = _element_lines(rng, qrels, elements, "ndBadPaths", False)
    bad[3] = bad[3].rsplit("/", 1)[0] + "/p[99]"
    _write_text(runs / "ndBadPaths.txt", "\n".join(bad) + "\n")
    metadata = pd.DataFrame(RUNS, columns=["run", "team", "description"]).assign(type="automatic")
    _write_text(directory / "runs.csv", metadata.to_csv(index=False, lineterminator="\n"))
