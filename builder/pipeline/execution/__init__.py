"""How the evaluate stage executes: interchangeable strategies, one module each, chosen here.

Every strategy gives the same result, bit for bit, as ``at_once`` (the tests of
``tests/scale`` and ``tests/tasks/test_adhoc_overlap.py`` hold them to it); they differ in
memory, time and where the work is done. Each is a module with ``defers_runs`` and
``evaluate(inputs, scale) -> TaskResult`` (``builder.pipeline.model.Strategy``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from builder.pipeline.execution import at_once, batches, distributed, overlapped, topic_ranges

if TYPE_CHECKING:
    from builder.pipeline.model import Scale, Strategy, TaskInputs, TaskResult
    from builder.tasks import TaskKind


def choose(kind: TaskKind, scale: Scale) -> Strategy:
    """The strategy that executes the evaluate stage of a task of ``kind`` as ``scale`` asks.

    ==========  ===========  ====================================  ==============  =============
    budget      scheduler    also                                  strategy        runs read
    ==========  ===========  ====================================  ==============  =============
    none        none         ``overlap`` and the kind can          overlapped      by it
    none        none         otherwise                             at_once         read stage
    none        given                                              distributed     read stage
    given       none         no ``extras``, ``kind.topic_parts``   topic_ranges    batch by batch
    given       any          otherwise                             batches         batch by batch
    ==========  ===========  ====================================  ==============  =============

    Why each exists:

    - ``at_once``: the kind's ``evaluate`` on every accepted run; the simplest and, when the
      evaluation fits in memory, the fastest; the build's default, its stages each reported.
    - ``overlapped``: the kind reads later files while it scores earlier ones
      (``TaskKind.read_and_evaluate``), hiding most of the reading time; ``appendix
      evaluate`` asks for it (``Scale.overlap``).
    - ``batches``: under a memory budget, the run files read, validated and evaluated a batch
      at a time, so a campaign larger than memory is evaluated; given a scheduler, each batch
      goes to a worker of the cluster.
    - ``topic_ranges``: as ``batches``, and a single run file whose evaluation alone exceeds
      the budget is evaluated a range of its topics at a time. Only scores are made that way
      (not the extra tables the site reads), and only for kinds whose lines name their topic;
      the parts are evaluated here, so not with a scheduler.
    - ``distributed``: without a budget, the runs cut into a batch per worker of the Dask
      cluster at ``scheduler``, so that many machines share the evaluation.
    """
    if scale.budget is not None:
        if scale.scheduler is None and not scale.extras and kind.topic_parts:
            return topic_ranges
        return batches
    if scale.scheduler is not None:
        return distributed
    if scale.overlap and kind.read_and_evaluate is not None:
        return overlapped
    return at_once


def execute(inputs: TaskInputs, scale: Scale) -> TaskResult:
    """The evaluate stage of ``inputs`` (read by ``read_task`` with the same ``scale``), by the
    strategy ``choose`` picks."""
    return choose(inputs.spec.kind, scale).evaluate(inputs, scale)
