"""The demo INEX runs: simulated systems cutting passages around the assessors' targets.

A run scores each candidate article as ``signal * difficulty(topic) * gain(article) + noise``
(gain 1 plus the highlighted share for relevant articles, 0.45 for judged non-relevant ones,
which were pooled because systems liked them, 0 otherwise; noise as in ``builder.demo.adhoc``),
then cuts one passage per segment of each article it keeps: the segment's target, widened on
each side by up to ``(1 - focus)`` of the segment and clipped to the segment, so passages of
one article never overlap. Focused runs rank passages across articles; in-context runs keep
each article's passages together; best-in-context runs point once into each article.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from builder.demo.inex.runs import InexRun

JUDGED_NONRELEVANT_GAIN = 0.45
ENTRY_SPREAD = 3000
"""Characters an entry point of a system with focus 0 may fall from the best entry point."""


def ranked_articles(run: InexRun, segment_table: pd.DataFrame, rng: np.random.Generator,
                    depth: int) -> pd.DataFrame:
    """The run's ``depth`` best articles per topic: topic, file, length, latent, best first."""
    articles = segment_table.drop_duplicates(["topic", "file"])
    highlighted = (segment_table["target_end"] - segment_table["target_start"]).where(
        segment_table["highlighted"], 0).groupby([segment_table["topic"], segment_table["file"]],
                                                 sort=False).sum()
    share = highlighted.reindex(pd.MultiIndex.from_frame(articles[["topic", "file"]])).to_numpy()
    grade = articles["grade"].to_numpy()
    gain = np.where(grade == 1, 1.0 + share / articles["length"].to_numpy(),
                    np.where(grade == 0, JUDGED_NONRELEVANT_GAIN, 0.0))
    size = len(articles)
    noise = (rng.random(size) + rng.random(size) + rng.random(size) + rng.random(size) - 2.0)
    latent = run.signal * articles["difficulty"].to_numpy() * gain + noise * np.sqrt(3.0)
    ranked = articles.assign(latent=latent).sort_values(["topic", "latent"],
                                                       ascending=[True, False], kind="stable")
    return ranked.groupby("topic", sort=False).head(depth)[["topic", "file", "length", "latent"]]


def cut_passages(run: InexRun, articles: pd.DataFrame, segment_table: pd.DataFrame,
                 rng: np.random.Generator) -> pd.DataFrame:
    """One passage per segment of each ranked article (a whole article in ``article`` mode):
    topic, file, segment, offset, length, latent (the article's), in article rank order."""
    rows = articles.merge(segment_table[["topic", "file", "segment", "start", "end",
                                         "target_start", "target_end"]],
                          on=["topic", "file"], how="left", sort=False)
    if run.mode == "article":
        rows = rows[rows["segment"] == 0]
        return rows.assign(offset=0, length=rows["length"])[
            ["topic", "file", "segment", "offset", "length", "latent"]]
    width = (rows["end"] - rows["start"]).to_numpy()
    spread = (1.0 - run.focus) * width
    left = np.floor(spread * rng.random(len(rows))).astype(np.int64)
    right = np.floor(spread * rng.random(len(rows))).astype(np.int64)
    offset = np.maximum(rows["start"].to_numpy(), rows["target_start"].to_numpy() - left)
    end = np.minimum(rows["end"].to_numpy(), rows["target_end"].to_numpy() + right)
    # an unfocused system also misses some of an article's text: it drops later segments
    kept = (rows["segment"].to_numpy() == 0) | (rng.random(len(rows)) >= (1.0 - run.focus) / 2)
    rows = rows.assign(offset=offset, length=end - offset)[kept]
    return rows[["topic", "file", "segment", "offset", "length", "latent"]]


def focused_lines(run: InexRun, passages: pd.DataFrame, rng: np.random.Generator) -> pd.DataFrame:
    """Passages ranked across articles by the article's score and the passage's own, cut at
    the run's depth: topic, file, offset, length, score."""
    score = (passages["latent"].to_numpy() - 0.4 * passages["segment"].to_numpy()
             + 0.8 * rng.random(len(passages)))
    ranked = passages.assign(score=score).sort_values(["topic", "score"], ascending=[True, False],
                                                      kind="stable")
    return ranked.groupby("topic", sort=False).head(run.depth)[
        ["topic", "file", "offset", "length", "score"]]


def in_context_lines(passages: pd.DataFrame) -> pd.DataFrame:
    """Each article's passages together in reading order, articles best first."""
    return passages.assign(score=passages["latent"])[["topic", "file", "offset", "length", "score"]]


def entry_point_lines(run: InexRun, articles: pd.DataFrame, segment_table: pd.DataFrame,
                      bep: pd.Series, rng: np.random.Generator) -> pd.DataFrame:
    """One entry point per ranked article: near the best entry point (relevant articles) or
    the first target (others), off by up to ``(1 - focus) * ENTRY_SPREAD`` characters; the
    article's first character in ``start`` mode."""
    first = segment_table[segment_table["segment"] == 0].set_index(["topic", "file"])
    keys = pd.MultiIndex.from_frame(articles[["topic", "file"]])
    aim = bep.reindex(keys).fillna(first["target_start"].reindex(keys)).to_numpy(np.int64)
    error = np.floor((rng.random(len(articles)) - 0.5) * 2 * (1.0 - run.focus) * ENTRY_SPREAD)
    offset = np.clip(aim + error.astype(np.int64), 0, articles["length"].to_numpy() - 1)
    if run.mode == "start":
        offset = np.zeros(len(articles), dtype=np.int64)
    return pd.DataFrame({"topic": articles["topic"].to_numpy(), "file": articles["file"].to_numpy(),
                         "offset": offset, "length": 0, "score": articles["latent"].to_numpy()})
