"""The measures a caller names, evaluated: what ``appendix evaluate`` and ``builder.evaluate``
both run between the read and validate stages and their output.

    plan_measures(task, requests, spelling) -> read_task -> validate_task -> evaluate_plan

A request is a trec_eval ``-m`` request (``P.5,10``, ``ndcg_cut``, ``all_trec``, a printed name
``P_10``), a measure of another family by its registry name, or, for the ad hoc kind, a name in
ir_measures' spelling (``nDCG@10``, ``P(rel=2)@5``: ``builder.measures.names``). Measures that
need other task options than the task's (a relevance level, ``judged_only``, gains mapped onto
the qrels' values) are computed in an evaluation of their own, one per set of options; the runs
are read and validated once. Each measure's rows are named as the caller spelled it, or in
trec_eval's or ir_measures' spelling (``spelling``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, Literal

from builder.config.schema import TaskSpec
from builder.contract import Evaluation as ScoredRuns
from builder.pipeline.model import Scale, TaskInputs
from builder.pipeline.stages import evaluate_task

Spelling = Literal["given", "trec", "ir_measures"]
SPELLINGS: tuple[str, ...] = ("given", "trec", "ir_measures")
ANSWERED = ("num_q", "num_ret")
"""Kept in the scores of the first evaluation whether asked for or not: they say which topics
each run answered (trec_eval's ``-q -c`` layout, its exit status 7)."""


@dataclass(frozen=True)
class Evaluation:
    """One evaluation of the plan: the task with the options its measures need, the relevance
    values mapped to gains (None: as judged), and its measures' printed names."""

    task: TaskSpec
    gains: tuple[tuple[int, int], ...] | None
    printed: dict[str, str]
    """Registry name -> the name printed."""


@dataclass(frozen=True)
class Plan:
    """The evaluations a request list needs and the names printed, in order."""

    evaluations: tuple[Evaluation, ...]
    names: tuple[str, ...]
    runid: bool = False
    """Whether trec_eval's ``runid`` line is printed (other kinds: always)."""
    integral: frozenset[str] = field(default_factory=frozenset)
    """Printed names of the measures whose values are counts (printed as integers)."""

    def scale(self, scale: Scale) -> Scale:
        """``scale`` for the read stage: runs read once, not overlapped with scoring, when
        more than one evaluation scores them."""
        return replace(scale, overlap=False) if len(self.evaluations) > 1 else scale


def plan_measures(task: TaskSpec, requests: Sequence[str],
                  spelling: Spelling = "given") -> Plan:
    """The evaluations and printed names of ``requests`` (none: the kind's default measures,
    trec_eval's for the ad hoc kind); ValueError on a name we do not compute, with the
    nearest names we have."""
    from builder.measures.registry import measures_of, select_measures

    if spelling not in SPELLINGS:
        raise ValueError(f"names: {spelling!r}: expected one of {', '.join(SPELLINGS)}")
    family = task.kind.family
    counts = {m.name for m in measures_of(family) if m.aggregation.integral}
    if task.kind.name != "adhoc":
        names = select_measures(family, requests, task.kind.default_measures)
        printed = {name: name for name in names}
        return Plan((Evaluation(task, None, printed),), tuple(names), runid=True,
                    integral=frozenset(counts & set(names)))
    return _adhoc_plan(task, list(requests), spelling, counts)


def _adhoc_plan(task: TaskSpec, requests: list[str], spelling: Spelling,
                counts: set[str]) -> Plan:
    from builder.measures.adhoc.trec_eval.profiles import profile_of
    from builder.measures.adhoc.trec_eval.requests import parse_requests
    from builder.measures.names import NamedMeasure, parse_name

    options = task.options
    trec, named = [], []
    for request in requests:
        try:
            parse_requests([request])
            trec.append(request)
        except ValueError as trec_error:
            try:
                named.append(parse_name(request))
            except ValueError as error:
                raise ValueError(str(error) if "@" in request or "(" in request
                                 or request[:1].isupper() else str(trec_error)) from None
    evaluations: list[Evaluation] = []
    names: list[str] = []
    runid = False
    rel, judged = options.rel_level, options.judged_only
    if trec or not named:
        request = parse_requests(trec, trec_10=profile_of(options.profile).new_measures)
        runid = request.runid
        printed = {name: _spelled(NamedMeasure(name, name, name, name), rel, judged, spelling)
                   for name in request.names}
        evaluations.append(_evaluation(task, dict(request.params.given), rel, judged, None,
                                       printed))
        names += printed.values()
    groups: dict[tuple[Any, ...], list[NamedMeasure]] = {}
    for measure in named:
        groups.setdefault(measure.key(), []).append(measure)
    for (level, only_judged, gains), members in groups.items():
        level = rel if level is None else level
        only_judged = judged if only_judged is None else only_judged
        for params, printed in _by_parameters(members, level, only_judged, spelling):
            evaluations.append(_evaluation(task, params, level, only_judged, gains, printed))
            names += printed.values()
    if len(set(names)) < len(names):
        twice = sorted({n for n in names if names.count(n) > 1})
        raise ValueError(f"two measures asked for are both printed {', '.join(twice)}: "
                         "ask once, or print them in another spelling (--names ir_measures)")
    integral = {p for e in evaluations for n, p in e.printed.items() if n in counts}
    return Plan(tuple(evaluations), tuple(names), runid, frozenset(integral))


def _by_parameters(members: list[Any], level: int, judged: bool, spelling: Spelling
                   ) -> list[tuple[dict[str, str], dict[str, str]]]:
    """The measures of one set of options, split into evaluations of one parameter text per
    family (cutoffs of one family merge: ``P@5`` and ``P@10`` are ``P.5,10``)."""
    from builder.measures.adhoc.trec_eval.params import DOUBLE_CUTOFFS, LONG_CUTOFFS

    out: list[tuple[dict[str, str | None], dict[str, str]]] = []
    for measure in members:
        family, text = measure.family, measure.parameter
        cutoffs = family in LONG_CUTOFFS or family in DOUBLE_CUTOFFS
        for params, printed in out:
            if cutoffs or params.get(family, text) == text:
                break
        else:
            params, printed = {}, {}
            out.append((params, printed))
        known = params.get(family)
        params[family] = text if known is None or not cutoffs else f"{known},{text}"
        printed[measure.name] = _spelled(measure, level, judged, spelling)
    return [({family: ",".join(sorted(set(text.split(",")), key=float))
              if family in LONG_CUTOFFS or family in DOUBLE_CUTOFFS else text
              for family, text in params.items() if text is not None}, printed)
            for params, printed in out]


def _spelled(measure: Any, level: int, judged: bool, spelling: Spelling) -> str:
    from builder.measures.names import ir_measures_name

    if spelling == "trec":
        return measure.name
    if spelling == "ir_measures":
        return ir_measures_name(measure.name, level, judged, measure.gains) or measure.name
    return measure.given


def _evaluation(task: TaskSpec, params: dict[str, str], level: int, judged: bool,
                gains: tuple[tuple[int, int], ...] | None, printed: dict[str, str]
                ) -> Evaluation:
    """The task with these options, its evaluation limited to the measures printed (and those
    that say what was answered)."""
    options = task.options
    update: dict[str, Any] = {}
    if params:
        update["parameters"] = {**options.parameters, **params}
    if level != options.rel_level:
        update["rel_level"] = level
    if judged != options.judged_only:
        update["judged_only"] = judged
    if update:
        options = options.model_validate({**options.model_dump(), **update})
    only = frozenset([*printed, *ANSWERED])
    kind = task.kind
    kind = replace(kind, evaluate=partial(kind.evaluate, only=only),
                   read_and_evaluate=kind.read_and_evaluate and partial(
                       kind.read_and_evaluate, only=only))
    return Evaluation(replace(task, kind=kind, options=options), gains, printed)


def evaluate_plan(inputs: TaskInputs, plan: Plan, scale: Scale | None = None
                  ) -> ScoredRuns | None:
    """The plan's evaluations of the task's accepted runs: their scores, rows named as printed
    (``SCORE_COLUMNS``; the first evaluation's ``num_q`` and ``num_ret`` kept under their own
    names), and the first evaluation's extra tables (which topics each run answered, the
    relstrings: what trec_eval's layout prints beside the scores); None when no run was
    accepted."""
    import pandas as pd

    scale = plan.scale(scale or Scale())
    tables = []
    extras = {}
    for number, evaluation in enumerate(plan.evaluations):
        qrels = inputs.qrels
        if evaluation.gains is not None:
            qrels = qrels.assign(rel=qrels["rel"].replace(dict(evaluation.gains)))
        these = replace(inputs, spec=evaluation.task, qrels=qrels)
        result = evaluate_task(these, scale)
        if number == 0:  # the runs read here (a strategy that reads them), for the others
            inputs.reads, inputs.pending = these.reads, these.pending
            inputs.findings = these.findings
        if result.evaluation is None:
            return None
        if number == 0:
            extras = result.evaluation.extras
        scores = result.evaluation.scores
        kept = set(evaluation.printed) | (set(ANSWERED) if number == 0 else set())
        measure = scores["measure"].astype(str)
        scores = scores[measure.isin(kept).to_numpy()].copy()
        # Renamed once per measure, not once per row.
        codes, names = pd.factorize(measure[measure.isin(kept)])
        printed = [evaluation.printed.get(name, name) for name in names]
        scores["measure"] = pd.Index(printed, dtype=object).take(codes).to_numpy()
        tables.append(scores)
    scores = tables[0] if len(tables) == 1 else pd.concat(tables, ignore_index=True)
    return ScoredRuns(scores, extras)
