"""How far the system ranking moves when the judgements or the topics are sampled.

Pal, Mitra and Chakraborty, "Stability of INEX 2007 evaluation measures" (2008): re-rank the
systems on sampled judgements (pool sampling) or on sampled topics (topic sampling) at levels
80/60/40/20 %, ten times each, and compare the ranking with the one on the full judgements by
Kendall's tau; we add tau_ap (Yilmaz, Aslam and Robertson 2008), which weighs the top.

Pool sampling studies the topics with at least ``min_relevant`` relevant units (the paper's
99 of 107 topics with 10 or more); topic sampling and the error rates, as in the paper, all
topics.

Re-scoring is the task kind's own (a ``Rescorer``): for pool sampling it scores every run under
a mask of kept relevant units; topic sampling only re-averages the per-topic values, in topic
order as the evaluators add them, so a sample scores exactly what the evaluator gives on the
qrels restricted to the sampled topics.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import pandas as pd

from builder.stats.reliability.rank_correlation import kendall_tau, tau_ap
from builder.stats.reliability.sampling import pool_sample, topic_sample

STABILITY_COLUMNS = ["sample", "level", "iteration", "measure", "tau", "tau_ap"]
STREAMS = {"pool": 0, "topics": 1, "errors": 2}
"""Each sampling analysis draws from its own random stream of the seed (``streams``)."""


def streams(seed: int) -> dict[str, np.random.Generator]:
    """One generator per analysis, ``default_rng([seed, k])``: switching one analysis off
    leaves the others' samples as they were, and the command draws what the site draws."""
    return {name: np.random.default_rng([seed, k]) for name, k in STREAMS.items()}


@dataclass
class Scores:
    """Per-topic values (measure x run x topic), which (run, topic) pairs are averaged (run x
    topic, bool) and the summaries (measure x run) of one scoring."""

    per_topic: np.ndarray
    evaluated: np.ndarray
    summary: np.ndarray


class Rescorer(Protocol):
    """A task's runs, scorable under any subset of its relevant units.

    ``unit_topic``: topic code of each relevant unit (a relevant document, a highlighted
    passage). ``score(keep)``: the scores with only the units where ``keep`` counting as
    relevant (``None``: the real judgements). ``sampled_qrels(keep)``: those judgements as the
    text of a qrels file of the task's format."""

    runs: list[str]
    topics: list[str]
    measures: list[str]
    unit_topic: np.ndarray

    def score(self, keep: np.ndarray | None) -> Scores: ...

    def sampled_qrels(self, keep: np.ndarray) -> str: ...


def topic_means(per_topic: np.ndarray, evaluated: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Mean per measure, run and sample (measure x run x sample) over the topics of each sample
    (``weights``: samples x topics multiplicities), counting only evaluated (run, topic) pairs.
    Sums run in topic order, one topic after the other, as the evaluators add them."""
    taken = evaluated[:, None, :] * weights[None, :, :]  # run x sample x topic
    sums = np.cumsum(per_topic[:, :, None, :] * taken[None], axis=-1)[..., -1]
    count = taken.sum(axis=-1)
    return np.divide(sums, count, out=np.zeros_like(sums), where=count > 0)


def _correlations(sample: str, level: float, measures: Sequence[str], full: np.ndarray,
                  sampled: np.ndarray) -> pd.DataFrame:
    """Rows of ``STABILITY_COLUMNS``; ``sampled`` is measure x iteration x run."""
    frames = []
    for m, measure in enumerate(measures):
        iterations = len(sampled[m])
        frames.append(pd.DataFrame({
            "sample": sample, "level": level, "iteration": np.arange(1, iterations + 1),
            "measure": measure, "tau": kendall_tau(full[m], sampled[m]),
            "tau_ap": tau_ap(full[m], sampled[m]),
        }))
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=STABILITY_COLUMNS)


def studied_topics(unit_topic: np.ndarray, n_topics: int, min_units: int) -> np.ndarray:
    """The topics pool sampling studies (bool per topic): those with at least ``min_units``
    relevant units, as Pal, Mitra and Chakraborty kept the 99 INEX 2007 topics with 10 or more
    relevant passages (of 107); both rankings are then over these topics alone."""
    return np.bincount(unit_topic, minlength=n_topics) >= min_units


def summary_over(scores: Scores, topics: np.ndarray) -> np.ndarray:
    """The summaries (measure x run) over the topics where ``topics``: the scores'
    own when it holds every topic, else the means the evaluators give on qrels of those
    topics alone (``topic_means``)."""
    if topics.all():
        return scores.summary
    return topic_means(scores.per_topic, scores.evaluated, topics[None].astype(np.int64))[..., 0]


def pool_sampling(
    rescorer: Rescorer, levels: Sequence[float], iterations: int, min_units: int,
    rng: np.random.Generator, full: Scores | None = None,
    on_sample: Callable[[float, int, np.ndarray, Scores], None] | None = None,
) -> pd.DataFrame:
    """tau and tau_ap per level, iteration and measure between the ranking on the full
    judgements and on pool samples, both over the topics with at least ``min_units`` relevant
    units (``studied_topics``). ``on_sample(level, iteration, keep, scores)`` sees each sample
    (``--dump`` writes its qrels)."""
    full = full or rescorer.score(None)
    topics = studied_topics(rescorer.unit_topic, len(rescorer.topics), min_units)
    reference = summary_over(full, topics)  # the same at every level
    frames = []
    for level in levels:
        masks = pool_sample(rescorer.unit_topic, len(rescorer.topics), level, iterations,
                            min_units, rng)
        sampled = []
        for iteration, keep in enumerate(masks, start=1):
            scores = rescorer.score(keep)
            sampled.append(summary_over(scores, topics))
            if on_sample is not None:
                on_sample(level, iteration, keep, scores)
        frames.append(_correlations("pool", level, rescorer.measures, reference,
                                    np.stack(sampled, axis=1)))
    return pd.concat(frames, ignore_index=True)


def topic_sampling(
    measures: Sequence[str], full: Scores, levels: Sequence[float], iterations: int,
    rng: np.random.Generator,
    on_sample: Callable[[float, int, np.ndarray], None] | None = None,
) -> pd.DataFrame:
    """tau and tau_ap per level, iteration and measure between the ranking on all topics and on
    random subsets of them (SRSWOR). ``on_sample(level, iteration, topics)`` sees each sample."""
    frames = []
    n_topics = full.per_topic.shape[-1]
    for level in levels:
        weights = topic_sample(n_topics, level, iterations, rng)
        if on_sample is not None:
            for iteration, chosen in enumerate(weights, start=1):
                on_sample(level, iteration, chosen)
        means = topic_means(full.per_topic, full.evaluated, weights)  # measure x run x sample
        frames.append(_correlations("topics", level, measures, full.summary,
                                    np.swapaxes(means, 1, 2)))
    return pd.concat(frames, ignore_index=True)


def level_summary(table: pd.DataFrame) -> pd.DataFrame:
    """Mean, standard deviation, min and max of tau and tau_ap per sample, measure and level
    (the points and error bars of the stability plot)."""
    grouped = table.groupby(["sample", "measure", "level"], sort=False)[["tau", "tau_ap"]]
    stats = grouped.agg(["mean", "std", "min", "max"])
    stats.columns = [f"{a}_{b}" for a, b in stats.columns]
    return stats.reset_index()
