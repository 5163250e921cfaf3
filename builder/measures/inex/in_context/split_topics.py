"""A topic whose lines come in two or more blocks of a run, ranked as inex_eval 3.1 ranks it.

inex_eval 3.1 (``inex_eval.EvalRun``, ``Topic.UpdateRetrieved``, ``Topic.ComputeBEPScore``,
read with ``javap -c``) reads a run line by line and keeps, across topics, one rank counter,
the previous line's article and a table of the articles met; it resets all three only at the
first line of a topic it has not met before (``Topic.maxRank == 0``). A topic that starts again
after other topics therefore carries on from the topic before it:

- a line of a new article (not the previous line's) adds 1 to the counter, which becomes the
  topic's ``num_ret`` (``maxRank``); an article already in the table (met in this topic or in
  the topic before, since the last reset) stops the program ("interleaved");
- each line then goes to the topic's list of ranked entries: added to the entry at
  ``maxRank - 1`` when the counter equals the list's length, else appended as a new entry (its
  relevance is that of the appending line's article, its "found so far" the relevant articles
  counted until then). Best in context appends every line;
- gP, gR and AgP run over the first ``maxRank`` entries only; when ``maxRank`` exceeds the
  number of entries the program stops with an index error.

In a topic's first block the counter and the list keep step, which gives the usual ranking
(``builder.measures.inex.in_context.scores``). In a later block they part whenever the topic before
did not end on as many articles as this topic had ranked: the block's first article may be merged
into the topic's last entry, later entries may fall beyond ``maxRank`` (counted in the sizes, not in
gP), an article's lines may each make an entry. ``rank_split_topics`` follows these rules for the
runs with a split topic; a run on which inex_eval stops (an index error, an article met again in the
table, best in context's second entry point for the previous line's article) keeps the usual
ranking, each block's articles after the topic's earlier ones.

The article scores are those of ``builder.measures.inex.in_context.scores``: relevant in context
scores an entry from its lines' characters (F-beta with the appending article's relevant
characters), restricted relevant in context by the article of its last line (inex_eval replaces the
entry's article on each added line), best in context by its one line.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd


@dataclass
class _Topic:
    max_rank: int = 0
    found: int = 0
    entries: list[list] = field(default_factory=list)
    """[appending article row, last article row, found at append, rel_ret chars, chars]"""


@dataclass
class SplitRanking:
    """Entries of the runs that have a split topic (as ``retrieved`` rows) and the runs on
    which inex_eval 3.1 stops (their rows are left as they were)."""

    entries: pd.DataFrame
    runs: list[str]
    stopped: list[str]


def split_runs(passages: pd.DataFrame) -> list[str]:
    """The runs with a topic in more than one block of lines (file order)."""
    run_code, run_names = pd.factorize(passages["run"])
    topic_code, topic_names = pd.factorize(passages["topic"])
    order = np.lexsort((passages["line"].to_numpy(), run_code))
    run, topic = run_code[order], topic_code[order]
    start = np.r_[True, (run[1:] != run[:-1]) | (topic[1:] != topic[:-1])][: len(run)]
    blocks = run[start].astype(np.int64) * max(len(topic_names), 1) + topic[start]
    unique, counts = np.unique(blocks, return_counts=True)
    split = unique[counts > 1] // max(len(topic_names), 1)
    return sorted(str(run_names[code]) for code in np.unique(split))


def rank_split_topics(passages: pd.DataFrame, retrieved: pd.DataFrame, best: bool,
                      runs: list[str]) -> SplitRanking:
    """inex_eval's entries of every topic of ``runs`` (see the module docstring).

    passages: the assessed lines with ``run``, ``topic``, ``file``, ``line``, ``article`` (row
    of ``retrieved``), ``size`` and ``rsize`` (relevant characters, 0 where not computed).
    retrieved: one row per article and block, with ``relevant``.
    """
    chosen = passages[passages["run"].isin(runs)].sort_values(["run", "line"], kind="stable")
    relevant = retrieved["relevant"].to_numpy(bool)
    rows, stopped = [], []
    # One step per line of these runs: the program's state passes from line to line, across
    # topics; few runs have a split topic (a run normally writes each topic in one block).
    for run, lines in chosen.groupby("run", sort=False):
        topics = _run_entries(lines, relevant, best)
        if topics is None or any(t.max_rank > len(t.entries) for t in topics.values()):
            stopped.append(run)
            continue
        for topic, state in topics.items():
            kept, beyond = state.entries[: state.max_rank], state.entries[state.max_rank:]
            # Entries beyond maxRank are not ranked, but their characters are in the sizes.
            tail = [sum(e[3] for e in beyond), sum(e[4] for e in beyond)]
            for rank, entry in enumerate(kept, 1):
                rows.append((run, topic, rank, *entry, state.found,
                             *(tail if rank == len(kept) else [0, 0])))
    columns = ["run", "topic", "rank", "first_article", "last_article", "found", "rel_ret_chars",
               "ret_chars", "found_total", "tail_rel_ret_chars", "tail_ret_chars"]
    return SplitRanking(pd.DataFrame(rows, columns=columns), list(runs), stopped)


def _run_entries(lines: pd.DataFrame, relevant: np.ndarray, best: bool) -> dict | None:
    """The topics' entries of one run's lines (file order), or None when inex_eval stops."""
    topic = lines["topic"].to_numpy()
    file = lines["file"].to_numpy()
    article = lines["article"].to_numpy()
    size = lines["size"].to_numpy(np.int64)
    rsize = lines["rsize"].to_numpy(np.int64)
    topics: dict[str, _Topic] = {}
    counter, previous, table = 0, None, set()
    for i in range(len(topic)):
        state = topics.get(topic[i])
        if state is None or state.max_rank == 0:
            state = topics.setdefault(topic[i], _Topic())
            counter, previous, table = 0, None, set()
        if file[i] != previous:
            counter += 1
            state.max_rank = counter
            previous = file[i]
            if file[i] in table:  # "article results are interleaved"
                return None
            table.add(file[i])
            state.found += int(relevant[article[i]])
        elif best and i and topic[i - 1] != topic[i]:
            return None  # "multiple results from single article"
        if not best and counter == len(state.entries):
            entry = state.entries[state.max_rank - 1]
            entry[1] = article[i]
            entry[3] += rsize[i]
            entry[4] += size[i]
        else:
            state.entries.append([article[i], article[i], state.found, rsize[i], size[i]])
    return topics
