"""The evaluate stage under a memory budget, a run file whose evaluation alone exceeds the
budget read, validated and evaluated by ranges of its topics; the other files in batches
(``builder.pipeline.execution.reading``), as the ``batches`` strategy evaluates them. For one
such file:

    split: the file's lines in parts of whole topics, each part keeping the file's line number
        of each of its lines (``builder.pipeline.execution.topic_files``)
    each part: read (the kind's reader) -> line numbers and findings put back to the file's ->
        duplicates (a topic's lines are all in the part) -> evaluated -> its topics' rows kept
    then: the checks of the whole file (tags, topics, depth) from the parts' counts, and the
        run's summary rows (topic ``all``) from its per-topic rows, summed in the one-shot
        evaluation's order

so that at most one part of the run and its evaluation are in memory. The score rows are those
of ``kind.evaluate`` over the whole run, bit for bit: each topic is scored from its own lines
only, and the summary of a measure is the same sum over the same per-topic values, in the same
order (the qrels' topics, sorted), finished by the measure's declared aggregation. Only the
scores are made so (the kind's extra tables, which the site's pages read, are not), and only
for a kind whose lines each name their topic (``TaskKind.topic_parts``).
"""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from builder.pipeline.execution.budget import (
    EVALUATION_FACTOR,
    TABLE_PER_TEXT_BYTE,
    evaluation_bytes,
)
from builder.pipeline.execution.memory import empty_like, give_back
from builder.pipeline.execution.merge import CompactEvaluation, compact, evaluate_batch, merge
from builder.pipeline.execution.reading import EvaluatedRun, read_batches
from builder.pipeline.execution.topic_files import Part, split_by_topics
from builder.pipeline.model import Scale, TaskInputs, TaskResult

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd

    from builder.findings import Finding

defers_runs = True


def evaluate(inputs: TaskInputs, scale: Scale) -> TaskResult:
    """The task's run files read, validated and evaluated batch by batch, a file larger than
    the budget by topic ranges; the scores are those of the one-shot path."""
    assert scale.budget is not None and not scale.extras
    spec = inputs.spec
    budget = scale.budget

    def alone(path: Path) -> EvaluatedRun | None:
        if evaluation_bytes(path) <= budget:
            return None
        part_bytes = max(1, int(budget / (TABLE_PER_TEXT_BYTE * EVALUATION_FACTOR)))
        return evaluate_by_topics(spec.kind, inputs.qrels, path, spec.options, part_bytes)

    parts = [group if isinstance(group, tuple) else
             evaluate_batch(spec.kind, inputs.qrels, group, spec.options, extras=False)
             for group in read_batches(inputs, budget, keep=False, alone=alone)]
    return TaskResult(inputs, merge(parts, text=False) if parts else None)


def evaluate_by_topics(kind: Any, qrels: Any, path: Path, options: Any, part_bytes: int
                       ) -> EvaluatedRun | None:
    """The run file ``path`` read, validated and evaluated a part of its topics at a time;
    None when it cannot be split (then it is read whole)."""
    folder = Path(tempfile.mkdtemp(prefix="appendix-topics-"))
    try:
        parts = split_by_topics(path, part_bytes, folder)
        if parts is None or len(parts) < 2:
            return None
        return _evaluated(kind, qrels, path, parts, options)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _evaluated(kind: Any, qrels: Any, path: Path, parts: list[Part], options: Any
               ) -> EvaluatedRun:
    import numpy as np

    from builder.contract import RunRead
    from builder.findings import has_error
    from builder.tasks.naming import name_runs
    from builder.validate.trec_run import duplicate_findings, file_findings

    kind, added = _with_sources(kind)
    file = str(path)
    findings: list[Finding] = []  # the reader's, then the duplicates', as one read gives
    duplicates: list[Finding] = []
    sizes: dict[str, int] = {}
    tags: dict[str, None] = {}
    kept: list[pd.DataFrame] = []
    columns = None
    first = None
    for number, part in enumerate(parts):
        read = kind.read_run_files([part.text], qrels, options)[0]
        numbers = part.line_numbers()
        findings += [_moved(finding, file, numbers) for finding in read.findings]
        table = read.table
        if table is None:
            continue
        table["line"] = numbers[table["line"].to_numpy() - 1]
        duplicates += duplicate_findings(table, file)
        counts = table["topic"].value_counts(sort=False)
        for topic, count in counts[counts > 0].items():
            sizes[topic] = sizes.get(topic, 0) + int(count)
        tags.update(dict.fromkeys(table["tag"].astype(str).unique()))
        del table["tag"]
        columns = empty_like(table)
        if has_error(findings) or duplicates or table.empty:
            continue  # rejected: the rest is read for its findings only
        evaluation, dtypes = evaluate_batch(kind, qrels, [table], options, extras=False)
        present = set(counts[counts > 0].index)
        rows = evaluation.scores
        is_topic = rows["topic"].isin(present).to_numpy()
        kept.append(rows[is_topic])
        if first is None:
            first = (evaluation, dtypes)  # the rows of topics without lines, and the summary
        del table, evaluation, rows
        give_back()
    name = name_runs([path], [_tag_table(tags)], getattr(options, "run_names", "tag"))[0][0]
    topics = list(sizes)
    findings += duplicates
    findings += file_findings(file, topics, np.array([sizes[t] for t in topics]), list(tags),
                              set(qrels["topic"].unique()), depth=options.depth,
                              complete=options.complete) \
        if topics else [_empty_run(file)]
    read = RunRead(file, name, columns, findings)
    if read.rejected or first is None:
        return EvaluatedRun(read, None)
    return EvaluatedRun(read, _whole_run(first, kept, set(sizes), name, kind, qrels, options,
                                     added))


def _with_sources(kind: Any) -> tuple[Any, set[str]]:
    """The kind, its evaluation asked also for the per-topic measures whose values a
    geometric mean asked for sums (``gm_map``: ``map``), and the names so added (their rows
    are left out of the run's table)."""
    from functools import partial

    evaluate = kind.evaluate
    only = evaluate.keywords.get("only") if isinstance(evaluate, partial) else None
    if only is None:
        return kind, set()
    added = {name[3:] for name in only if name.startswith("gm_")} - set(only)
    return replace(kind, evaluate=partial(evaluate, only=frozenset(only) | added)), added


def _moved(finding: Finding, file: str, numbers: np.ndarray) -> Finding:
    """A part's finding about the run file: its file, its line in the file."""
    line = None if finding.line is None else int(numbers[finding.line - 1])
    return replace(finding, file=file, line=line)


def _tag_table(tags: dict[str, None]) -> pd.DataFrame:
    """A table of the run's distinct tags, for ``name_runs``."""
    import pandas as pd

    return pd.DataFrame({"tag": list(tags)})


def _empty_run(file: str) -> Finding:
    from builder.findings import Finding, FindingCode

    return Finding(file, None, "error", FindingCode.EMPTY, "empty run: no result lines")


def _whole_run(first: CompactEvaluation, kept: list[pd.DataFrame], present: set[str],
               name: str, kind: Any, qrels: Any, options: Any, added: set[str]
               ) -> CompactEvaluation:
    """The run's score table as ``kind.evaluate`` makes it over the whole run: for each
    measure in its order, its per-topic rows (each from the part holding the topic, the first
    part's for topics without lines) in the qrels' topic order (sorted, as
    ``judge_rankings`` numbers them), then its summary row."""
    import numpy as np
    import pandas as pd

    from builder.contract import SUMMARY_TOPIC, Evaluation

    evaluation, dtypes = first
    scores = evaluation.scores
    summary = (scores["topic"] == SUMMARY_TOPIC).to_numpy()
    absent = ~summary & ~scores["topic"].isin(present).to_numpy()
    rows = pd.concat([frame.astype({"topic": str, "measure": str}) for frame in
                      [*kept, scores[absent]]], ignore_index=True)
    measures = [str(m) for m in pd.unique(scores["measure"])]
    topic_rank = {t: i for i, t in enumerate(sorted(pd.unique(qrels["topic"])))}
    rows = rows.iloc[np.lexsort((rows["topic"].map(topic_rank).to_numpy(np.int64),
                                 rows["measure"].map({m: i for i, m in enumerate(measures)})
                                 .to_numpy(np.int64)))]
    evaluated = rows["topic"].nunique()
    topics, names, values = [], [], []
    for measure in (m for m in measures if m not in added):
        mine = rows[rows["measure"] == measure]
        topics += [mine["topic"].to_numpy(object), [SUMMARY_TOPIC]]
        names += [mine["measure"].to_numpy(object), [measure]]
        values += [mine["value"].to_numpy(np.float64),
                   [_summary(measure, rows, evaluated, scores, summary, kind, options)]]
    topic = np.concatenate(topics)
    table = pd.DataFrame({"run": np.full(len(topic), name, object), "topic": topic,
                          "measure": np.concatenate(names),
                          "value": np.concatenate(values).astype(np.float64)})
    return Evaluation(compact(table)[0], {}), dtypes


def _summary(measure: str, rows: pd.DataFrame, evaluated: int, scores: pd.DataFrame,
             summary: np.ndarray, kind: Any, options: Any) -> float:
    """The summary value of ``measure`` as ``kind.evaluate`` makes it from the per-topic
    values: their declared aggregation's terms summed in topic order (``np.bincount``, the
    same sequential sum), finished over the ``evaluated`` topics."""
    import numpy as np

    from builder.measures.registry import Aggregation, measures_of

    declared = {m.name: m for m in measures_of(kind.family)}
    how = declared[measure].aggregation if measure in declared else Aggregation.MEAN
    if how is Aggregation.COUNT:
        return float(how.finish(0.0, evaluated))
    if measure == "num_rel" and getattr(options, "complete", False):
        # Under -c, the qrels' count of every topic, the same in every part.
        at = (scores["measure"] == measure).to_numpy() & summary
        return float(scores.loc[at, "value"].iloc[0])
    source = measure[3:] if how is Aggregation.GMEAN else measure  # gm_map: map's values
    values = rows.loc[rows["measure"] == source, "value"].to_numpy(np.float64)
    total = np.bincount(np.zeros(len(values), np.intp), weights=how.terms(values), minlength=1)
    return float(how.finish(total, np.float64(evaluated))[0])
