"""How the evaluate stage executes: ``choose``'s table, row by row, and every local strategy
giving the scores of the at-once evaluation on one small task, bit for bit, the runs read
where the chosen strategy says."""

from __future__ import annotations

import pkgutil
import random
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from builder.pipeline import execution
from builder.pipeline.execution import at_once, batches, distributed, overlapped, topic_ranges
from builder.pipeline.model import Scale
from builder.pipeline.stages import command_task, evaluate_task, read_task, validate_task
from builder.tasks import get_kind

ADHOC = get_kind("adhoc")  # reads and evaluates overlapped; lines name their topic
FOCUSED = get_kind("focused")  # neither

TABLE = [
    # (kind, scale, strategy): one row of ``choose``'s docstring each.
    (ADHOC, Scale(overlap=True), overlapped),
    (FOCUSED, Scale(overlap=True), at_once),
    (ADHOC, Scale(), at_once),
    (ADHOC, Scale(scheduler="tcp://host:8786", overlap=True), distributed),
    (ADHOC, Scale(budget=1, extras=False), topic_ranges),
    (ADHOC, Scale(budget=1, extras=True), batches),
    (FOCUSED, Scale(budget=1, extras=False), batches),
    (ADHOC, Scale(budget=1, scheduler="tcp://host:8786", extras=False), batches),
]


@pytest.mark.parametrize(("kind", "scale", "strategy"), TABLE)
def test_choose_follows_its_table(kind, scale, strategy):
    assert execution.choose(kind, scale) is strategy


def test_every_strategy_is_in_the_table_and_speaks_the_protocol():
    """A new strategy module is a new row of ``choose``'s docstring, with the same two names."""
    shared = {"budget", "cluster", "memory", "merge", "reading", "topic_files"}
    modules = {m.name for m in pkgutil.iter_modules(execution.__path__)} - shared
    assert modules == {"at_once", "batches", "distributed", "overlapped", "topic_ranges"}
    table = execution.choose.__doc__
    for name in modules:
        module = getattr(execution, name)
        assert f" {name} " in table and isinstance(module.defers_runs, bool)
        assert callable(module.evaluate)
    assert {row[2] for row in TABLE} == {getattr(execution, name) for name in modules}


def test_the_strategies_import_no_pandas():
    """The stages import every strategy; pandas waits until one evaluates (``appendix
    validate --help`` and the like pay nothing for them)."""
    code = "import sys, builder.pipeline.stages; print(sorted({'pandas', 'numpy'} & set(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "[]"


@pytest.fixture(scope="module")
def task(tmp_path_factory):
    """An ad hoc task of six runs over twelve topics (a run's topics in a random order, so
    that topic ranges are not stretches of lines), one of them rejected (a line too short)."""
    folder = tmp_path_factory.mktemp("task")
    rng = random.Random(7)
    topics = [str(t) for t in range(1, 13)]
    (folder / "qrels").write_text("".join(f"{t} 0 d{d} {rng.randint(0, 2)}\n"
                                          for t in topics for d in range(0, 30, 2)))
    runs = []
    for number in range(6):
        lines = [f"{t} Q0 d{d} {rank} {40 - rank} run{number}\n" for t in topics
                 for rank, d in enumerate(rng.sample(range(30), 20), 1)]
        rng.shuffle(lines)
        if number == 3:
            lines.insert(5, "4 Q0\n")
        runs.append(folder / f"run{number}")
        runs[-1].write_text("".join(lines))
    return command_task(ADHOC, folder / "qrels", runs, ADHOC.options_model())


def executed(task, scale: Scale):
    """The task's reads and score table (text columns as text) by the stages under ``scale``;
    whether the read stage read the runs."""
    inputs = read_task(task, scale)
    read_in_stage = not inputs.pending
    validate_task(inputs)
    result = evaluate_task(inputs, scale)
    scores = result.evaluation.scores
    scores = scores.astype({c: str for c in ("run", "topic", "measure")})
    return inputs, scores, read_in_stage


@pytest.mark.parametrize(("scale", "strategy", "split"), [
    (Scale(extras=False, overlap=True), overlapped, 0),
    (Scale(budget=1, extras=False), topic_ranges, 4),  # all but the first batch's two
    (Scale(budget=10**9, extras=False), topic_ranges, 0),  # every run in one batch
    (Scale(budget=1), batches, 0),
])
def test_each_strategy_gives_the_at_once_scores(task, scale, strategy, split, monkeypatch):
    chosen, by_topics = [], []
    choose, evaluated = execution.choose, topic_ranges._evaluated
    monkeypatch.setattr(execution, "choose",
                        lambda kind, scale: chosen.append(choose(kind, scale)) or chosen[-1])
    monkeypatch.setattr(topic_ranges, "_evaluated",
                        lambda *args: by_topics.append(args[2]) or evaluated(*args))
    inputs, scores, read_in_stage = executed(task, scale)
    assert set(chosen) == {strategy} and read_in_stage is not strategy.defers_runs
    assert len(by_topics) == split
    expected_inputs, expected, read_at_once = executed(task, Scale())
    assert read_at_once and chosen[-1] is at_once
    assert [(r.name, r.rejected) for r in inputs.reads] \
        == [(r.name, r.rejected) for r in expected_inputs.reads]
    assert [r.rejected for r in inputs.reads].count(True) == 1
    assert len(expected) > 1000
    pd.testing.assert_frame_equal(scores[["run", "topic", "measure"]],
                                  expected[["run", "topic", "measure"]])
    assert (scores["value"].to_numpy().view(np.int64)
            == expected["value"].to_numpy().view(np.int64)).all()
