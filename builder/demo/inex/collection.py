"""The demo INEX tasks' collection and assessments: articles, pools and highlighted passages.

A collection of ``ARTICLES`` articles (ids and lengths in characters; no text is needed to
evaluate). Per topic: relevant articles, judged non-relevant ones and unjudged candidates.
Each candidate article is cut into 1-3 equal segments; in each segment of a relevant article
the assessor highlighted one passage (its *target*), and the best entry point is near the
start of the first one. Non-relevant articles get targets too: the text a system would pick
there, which is not highlighted. Runs (``builder.demo.inex.passages``) cut their passages
around the targets.

Only uniform draws, integer arithmetic and floors (see ``builder.demo.adhoc``), so the files
are the same to the byte on any machine.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from builder.demo.inex.topics import FIRST_TOPIC, TOPICS

ARTICLES = 1500
UNJUDGED_CANDIDATES = 60
MIN_TARGET = 40
"""Shortest highlighted passage, in characters."""
BEP_SHIFT = 30
"""The best entry point lies up to this many characters after the first highlighted passage."""


def articles(rng: np.random.Generator) -> pd.DataFrame:
    """Columns file (article id, increasing) and length (characters, 600 to about 24,600)."""
    ids = 12000 + np.cumsum(1 + np.floor(rng.random(ARTICLES) * 900).astype(np.int64))
    length = 600 + np.floor(rng.random(ARTICLES) * rng.random(ARTICLES) * 24000).astype(np.int64)
    return pd.DataFrame({"file": ids.astype(str), "length": length})


def pools(rng: np.random.Generator, collection: pd.DataFrame) -> pd.DataFrame:
    """Per topic its candidate articles: topic, file, length, grade (1 relevant, 0 judged
    non-relevant, -1 unjudged) and the topic's difficulty."""
    frames = []
    for offset in range(len(TOPICS)):
        relevant = 4 + int(np.floor(rng.random() * 14))
        judged = 2 * relevant + 15
        size = relevant + judged + UNJUDGED_CANDIDATES
        chosen = np.argsort(rng.random(ARTICLES), kind="stable")[:size]
        grade = np.full(size, -1)
        grade[:relevant] = 1
        grade[relevant:relevant + judged] = 0
        frames.append(pd.DataFrame({
            "topic": str(FIRST_TOPIC + offset),
            "file": collection["file"].to_numpy()[chosen],
            "length": collection["length"].to_numpy()[chosen],
            "grade": grade,
            "difficulty": 0.5 + rng.random(),
        }))
    return pd.concat(frames, ignore_index=True)


def segments(rng: np.random.Generator, pool: pd.DataFrame) -> pd.DataFrame:
    """One row per segment of each candidate article: the pool's columns and segment (0, 1,
    ...), start, end (the segment) and target_start, target_end (its highlighted or would-be
    passage); ``highlighted`` for the segments of relevant articles."""
    count = 1 + np.floor(rng.random(len(pool)) * 3).astype(np.int64)
    rows = pool.loc[np.repeat(pool.index.to_numpy(), count)].reset_index(drop=True)
    index = rows.groupby(["topic", "file"], sort=False).cumcount().to_numpy()
    length = rows["length"].to_numpy()
    width = length // np.repeat(count, count)
    start = index * width
    end = np.where(index == np.repeat(count, count) - 1, length, start + width)
    share = 0.1 + 0.6 * rng.random(len(rows))
    target = np.maximum(MIN_TARGET, np.floor((end - start) * share).astype(np.int64))
    target_start = start + np.floor((end - start - target) * rng.random(len(rows))).astype(np.int64)
    return rows.assign(segment=index, start=start, end=end, target_start=target_start,
                       target_end=target_start + target, highlighted=rows["grade"].to_numpy() == 1)


def best_entry_points(rng: np.random.Generator, segment_table: pd.DataFrame) -> pd.Series:
    """Per (topic, file) of a relevant article: a little after its first highlighted passage."""
    first = segment_table[segment_table["highlighted"] & (segment_table["segment"] == 0)]
    shift = np.floor(rng.random(len(first)) * BEP_SHIFT).astype(np.int64)
    bep = np.minimum(first["target_start"].to_numpy() + shift, first["target_end"].to_numpy() - 1)
    return pd.Series(bep, index=pd.MultiIndex.from_frame(first[["topic", "file"]]), name="bep")


def qrels_text(pool: pd.DataFrame, segment_table: pd.DataFrame, bep: pd.Series) -> str:
    """INEX passage qrels: ``topic Q0 file rel_chars doc_chars BEP off:len ...`` for relevant
    articles, ``topic Q0 file 0 doc_chars`` for judged non-relevant ones; by topic and file."""
    highlighted = segment_table[segment_table["highlighted"]]
    pairs = (highlighted["target_start"].astype(str) + ":"
             + (highlighted["target_end"] - highlighted["target_start"]).astype(str))
    grouped = pairs.groupby([highlighted["topic"], highlighted["file"]], sort=False)
    passages = grouped.agg(" ".join)
    rel_chars = (highlighted["target_end"] - highlighted["target_start"]).groupby(
        [highlighted["topic"], highlighted["file"]], sort=False).sum()
    judged = pool[pool["grade"] >= 0].set_index(["topic", "file"])
    line = judged["length"].astype(str)
    relevant = judged["grade"].to_numpy() == 1
    keys = judged.index[relevant]
    line[relevant] = (rel_chars.reindex(keys).astype(str).to_numpy() + " " + line[relevant]
                      + " " + bep.reindex(keys).astype(str).to_numpy() + " "
                      + passages.reindex(keys).to_numpy())
    line[~relevant] = "0 " + line[~relevant]
    table = pd.DataFrame({"topic": judged.index.get_level_values("topic"),
                          "file": judged.index.get_level_values("file"), "rest": line.to_numpy()})
    table = table.assign(number=table["file"].astype(np.int64)).sort_values(
        ["topic", "number"], kind="stable")
    return "".join(f"{t} Q0 {f} {r}\n" for t, f, r in zip(table["topic"], table["file"],
                                                          table["rest"], strict=True))
