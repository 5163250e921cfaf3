"""Incremental rebuilds: each run's evaluation kept between builds, keyed by what it follows
from, so that a rebuild evaluates only the runs that changed.

A run's evaluation is a function of its validated table, the qrels, the task's kind and
options (an XML corpus included) and the software's version; its key (``keys``) is a SHA-256
of all of them: the run file's bytes, the qrels file's bytes, the options as loaded, the
version. Anything else changed (a run's metadata, the topics, the significance settings) does
not change an evaluation: the analyses and pages are made again from the evaluations, as a
clean build makes them, so the site is byte-identical to a clean build's.

Each run is evaluated alone, as the memory-budget strategy evaluates a batch
(``builder.pipeline.execution.merge.evaluate_batch``), and the runs' evaluations are put back
together as one (``merge``), the result of evaluating them at once.

The cache is a folder beside the site (``store``), bounded: after each build only the entries
of that build's runs are kept.
"""

from __future__ import annotations

from builder.pipeline.incremental.evaluate import evaluate_cached
from builder.pipeline.incremental.store import EvaluationStore, cache_folder

__all__ = ["EvaluationStore", "cache_folder", "evaluate_cached"]
