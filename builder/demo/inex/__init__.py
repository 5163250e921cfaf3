"""The demo campaign's INEX tasks: focused, relevant in context and best in context.

Writes, from a seed, one collection of articles with highlighted passages for all three
tasks (``builder.demo.inex.collection``), the qrels and topics, and per task a folder of FOL
runs with a run metadata CSV beside it::

    qrels.txt  topics.xml  articles.csv
    focused/*.txt  focused.csv
    relevant-in-context/*.txt  relevant-in-context.csv
    best-in-context/*.txt  best-in-context.csv

Two runs carry the flaws validation must catch: ``kestrelFocFusion`` repeats half of a
passage in a later passage of the same article (focused: overlapping passages), and
``kestrelRicMerged`` returns to an article after another one (in context: interleaved).
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

import numpy as np
import pandas as pd

from builder.demo.inex import collection as collection
from builder.demo.inex import passages as passages
from builder.demo.inex.runs import INEX_TEAMS, RUNS, InexRun, Task
from builder.demo.inex.topics import FIRST_TOPIC, TOPICS

SEED = 20240402
TASKS: tuple[Task, ...] = ("focused", "relevant-in-context", "best-in-context")
OVERLAPS = ((2, 3, 11), (7, 0, 25))
"""Flawed focused run: (topic index, line a, line b) - line b of the topic (0-based) becomes a
passage starting in the middle of line a's passage."""
INTERLEAVED_TOPICS = (1, 5)
"""Flawed in-context run: in these topics an article's last passage moves after the next article."""


def write(directory: Path) -> None:
    """Write the three tasks' shared qrels and topics, and each task's runs, into ``directory``."""
    rng = np.random.Generator(np.random.PCG64([SEED, 0]))
    articles = collection.articles(rng)
    pool = collection.pools(rng, articles)
    segment_table = collection.segments(rng, pool)
    bep = collection.best_entry_points(rng, segment_table)
    directory.mkdir(parents=True, exist_ok=True)
    _write_text(directory / "articles.csv", articles.to_csv(index=False, lineterminator="\n"))
    _write_text(directory / "qrels.txt", collection.qrels_text(pool, segment_table, bep))
    _write_text(directory / "topics.xml", topics_xml())
    for task in TASKS:
        (directory / task).mkdir(exist_ok=True)
        _write_text(directory / f"{task}.csv", _metadata_text(task))
    for index, run in enumerate(RUNS, start=1):
        run_rng = np.random.Generator(np.random.PCG64([SEED, index]))
        lines = _run_lines(run, segment_table, bep, run_rng)
        _write_text(directory / run.task / run.file_name, _run_text(lines, run))


def _run_lines(run: InexRun, segment_table: pd.DataFrame, bep: pd.Series,
               rng: np.random.Generator) -> pd.DataFrame:
    depth = run.depth
    ranked = passages.ranked_articles(run, segment_table, rng, depth)
    if run.task == "best-in-context":
        return passages.entry_point_lines(run, ranked, segment_table, bep, rng)
    cut = passages.cut_passages(run, ranked, segment_table, rng)
    if run.task == "focused":
        lines = passages.focused_lines(run, cut, rng)
        return _overlap(lines) if run.flaw == "overlap" else lines
    lines = passages.in_context_lines(cut)
    return _interleave(lines) if run.flaw == "interleaved" else lines


def _overlap(lines: pd.DataFrame) -> pd.DataFrame:
    """Replace line b of some topics by a passage starting mid-way through line a's."""
    lines = lines.reset_index(drop=True)
    starts = np.flatnonzero(np.r_[True, lines["topic"].to_numpy()[1:] != lines["topic"].to_numpy()[:-1]])
    for topic_index, first, second in OVERLAPS:
        a, b = starts[topic_index] + first, starts[topic_index] + second
        lines.loc[b, "file"] = lines.at[a, "file"]
        lines.loc[b, "offset"] = lines.at[a, "offset"] + lines.at[a, "length"] // 2
        lines.loc[b, "length"] = lines.at[a, "length"]
    return lines


def _interleave(lines: pd.DataFrame) -> pd.DataFrame:
    """Move the last passage of a topic's first article with several after the next article."""
    topics = sorted(lines["topic"].unique())
    frames = []
    for topic, rows in lines.groupby("topic", sort=True):
        rows = rows.reset_index(drop=True)
        if topics.index(topic) in INTERLEAVED_TOPICS:
            article = pd.factorize(rows["file"])[0]
            sizes = np.bincount(article)
            several = np.flatnonzero(sizes[:-1] > 1)
            if len(several):
                moved = np.flatnonzero(article == several[0])[-1]
                after = np.flatnonzero(article == several[0] + 1)[-1]
                order = [i for i in range(len(rows)) if i != moved]
                order.insert(order.index(after) + 1, moved)
                rows = rows.loc[order]
        frames.append(rows)
    return pd.concat(frames, ignore_index=True)


def _run_text(lines: pd.DataFrame, run: InexRun) -> str:
    """FOL lines ``topic Q0 file rank rsv run_id offset length``; rank follows the line order."""
    table = pd.DataFrame({
        "topic": lines["topic"].to_numpy(),
        "q0": "Q0",
        "file": lines["file"].to_numpy(),
        "rank": lines.groupby("topic", sort=False).cumcount().to_numpy() + 1,
        "rsv": np.round(10.0 + 2.0 * lines["score"].to_numpy(), 4),
        "tag": run.tag,
        "offset": lines["offset"].to_numpy(np.int64),
        "length": lines["length"].to_numpy(np.int64),
    })
    return table.to_csv(sep=" ", header=False, index=False, lineterminator="\n",
                        float_format="%.4f")


def topics_xml() -> str:
    """The topics as an INEX topic file (title, castitle, description, narrative)."""
    blocks = []
    for offset, (title, castitle, description, narrative) in enumerate(TOPICS):
        blocks.append(
            f"  <topic id={quoteattr(str(FIRST_TOPIC + offset))} ct_no=\"{offset + 1}\">\n"
            f"    <title>{escape(title)}</title>\n"
            f"    <castitle>{escape(castitle)}</castitle>\n"
            f"    <description>{escape(description)}</description>\n"
            f"    <narrative>{escape(narrative)}</narrative>\n"
            "  </topic>\n")
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<inex-topic-file>\n' + "".join(blocks)
            + "</inex-topic-file>\n")


def _metadata_text(task: Task) -> str:
    """The task's run metadata: run (the run tag, which names the run), team, description, type."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["run", "team", "description", "type"])
    for run in RUNS:
        if run.task == task:
            writer.writerow([run.tag, INEX_TEAMS[run.team], run.description, run.type])
    return out.getvalue()


def _write_text(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8", newline="\n")
