"""Generated Wikipedia-like XML articles: an ``<article>`` with a ``<name>`` and a ``<body>`` of
sections, titles and paragraphs, with bold text, links, entities and non-ASCII words, as the
INEX Wikipedia collections have them. Deterministic for a seed (numpy's generator), so tests,
benchmarks and the demo campaign get the same corpus on any machine.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

WORDS = ("retrieval", "evaluation", "element", "passage", "relevance", "corpus", "topic",
         "assessor", "structure", "précision", "Zürich", "naïve", "東京", "Ελλάδα", "café",
         "XML", "focused", "context", "highlight", "measure", "système", "recall")
"""Article vocabulary: ASCII, accented Latin, Greek and CJK words."""


def _sentence(rng: np.random.Generator, words: int) -> str:
    picks = rng.integers(0, len(WORDS), size=words)
    text = " ".join(WORDS[i] for i in picks)
    return text[0].upper() + text[1:] + "."


def _paragraph(rng: np.random.Generator) -> str:
    parts = []
    for _ in range(int(rng.integers(1, 6))):
        sentence = _sentence(rng, int(rng.integers(5, 16)))
        roll = rng.random()
        if roll < 0.2:
            sentence = f"<b>{sentence}</b>"
        elif roll < 0.35:
            sentence = f'<link xlink:href="{int(rng.integers(1, 99999))}.xml">{sentence}</link>'
        elif roll < 0.45:
            sentence = sentence.replace(" ", " &amp; ", 1)
        parts.append(sentence)
    return "<p>" + " ".join(parts) + "</p>"


def article_xml(rng: np.random.Generator, file_id: str) -> str:
    """One article: 1-8 sections of a title and 1-8 paragraphs each (about 7 KB, the mean
    size of the INEX 2007 Wikipedia collection's articles)."""
    sections = []
    for _ in range(int(rng.integers(1, 9))):
        paragraphs = "\n".join(_paragraph(rng) for _ in range(int(rng.integers(1, 9))))
        sections.append(f"<section>\n<title>{_sentence(rng, 3)}</title>\n{paragraphs}\n</section>")
    body = "\n".join(sections)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<article xmlns:xlink="http://www.w3.org/1999/xlink">\n'
            f"<name id=\"{file_id}\">{_sentence(rng, 2)}</name>\n<body>\n{body}\n</body>\n"
            "</article>\n")


def write_articles(folder: Path, count: int, seed: int = 2007, first_id: int = 1000) -> list[str]:
    """Write ``count`` articles ``<id>.xml`` into ``folder``; their file ids, in order."""
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    ids = [str(first_id + i) for i in range(count)]
    for file_id in ids:
        (folder / f"{file_id}.xml").write_text(article_xml(rng, file_id), encoding="utf-8")
    return ids
