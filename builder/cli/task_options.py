"""The task arguments every command that reads runs shares (``evaluate``, ``validate``,
``compare``): the kind, its options as trec_eval's flags, and ``-o KEY=VALUE`` for any other.

A flag sets the kind's option of the same meaning (``-M`` depth, ``-l`` rel_level, ``-c``
complete, ``--interpolation``) where the kind has one; ``-o`` sets any option by name, so
every key of a ``site_config.yml`` task's ``options`` can be given on the command line.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from builder.tasks import KIND_MODULES

if TYPE_CHECKING:
    from builder.config.schema import TaskSpec

FLAG_OPTIONS = {
    "depth": "depth",
    "rel_level": "rel_level",
    "complete": "complete",
    "interpolation": "interpolation",
    "model": "model",
    "corpus": "corpus",
    "profile": "profile",
    "judged_only": "judged_only",
    "collection_size": "collection_size",
    "reading": "reading",
}
"""argparse destination -> options model field; a flag the kind's model lacks is an error
(it would otherwise be silently ignored)."""
FLAG_NAMES = {
    "depth": "-M", "rel_level": "-l", "complete": "-c/--no-complete",
    "interpolation": "--interpolation", "profile": "--profile", "judged_only": "-J",
    "collection_size": "-N", "model": "--model", "corpus": "--corpus", "reading": "--reading",
}  # fmt: skip


def add_task_arguments(parser: argparse.ArgumentParser) -> None:
    """``--task`` with its choices and every option flag."""
    parser.add_argument(
        "--task", default="adhoc", choices=sorted(KIND_MODULES), help="task kind (default adhoc)"
    )
    parser.add_argument("-M", dest="depth", type=int, help="documents kept per topic (1000)")
    parser.add_argument("-l", dest="rel_level", type=int, help="least relevant value (1)")
    complete = parser.add_mutually_exclusive_group()
    complete.add_argument(
        "-c",
        "--complete",
        dest="complete",
        action="store_true",
        default=None,
        help="average over all qrels topics, missing ones scoring 0 (adhoc default)",
    )
    complete.add_argument(
        "--no-complete",
        dest="complete",
        action="store_false",
        help="average over the topics each run answers",
    )
    parser.add_argument(
        "--interpolation",
        choices=["exact", "trec_eval_9", "lround"],
        help="recall cutoff rounding for interpolated precision (exact, or the profile's)",
    )
    parser.add_argument(
        "--profile",
        choices=["8.1", "9.0.8", "9.0.8-float", "10.0"],
        help="reproduce this trec_eval release (interpolation, score precision, topics printed)",
    )
    parser.add_argument(
        "-J", dest="judged_only", action="store_true", default=None,
        help="score only the judged documents of each ranking (trec_eval -J)",
    )  # fmt: skip
    parser.add_argument(
        "-N", dest="collection_size", type=int, help="documents in the collection (trec_eval -N)"
    )
    parser.add_argument(
        "--reading", choices=["strict", "atof"],
        help="scores and relevance values that are not numbers: an error (strict, the "
             "default) or read with C's atof/atol as trec_eval does, a warning each (atof)")
    parser.add_argument(
        "--model",
        choices=["classical", "tree", "distance"],
        help="EPRUM user model (--task eprum; default tree)",
    )
    parser.add_argument(
        "--corpus", type=Path, metavar="DIR",
        help="XML corpus (folder, tar or zip of articles) for element runs of the INEX tasks")
    parser.add_argument(
        "-o",
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="set any option of the task kind (repeatable)",
    )


def build_options(model: type, args: argparse.Namespace) -> Any:
    """The kind's options from its flags and every ``-o KEY=VALUE``; ValueError on a flag the
    kind does not have (``-l`` with ``--task focused``)."""
    values: dict[str, Any] = {}
    for dest, field in FLAG_OPTIONS.items():
        given = getattr(args, dest, None)
        if given is None:
            continue
        if field not in model.model_fields:
            raise ValueError(
                f"option {FLAG_NAMES[dest]} does not apply to this task kind; its options: "
                f"{', '.join(model.model_fields)}"
            )
        values[field] = given
    for item in args.option:
        key, sep, value = item.partition("=")
        if not sep or key not in model.model_fields:
            known = ", ".join(model.model_fields)
            raise ValueError(f"bad option {item!r}: expected KEY=VALUE with KEY one of {known}")
        values[key] = _option_value(model.model_fields[key].annotation, value)
    from pydantic import ValidationError

    try:
        return model.model_validate(values)
    except ValidationError as invalid:  # one line per problem, not pydantic's dump
        raise ValueError(_readable(invalid)) from None


def _option_value(annotation: Any, value: str) -> Any:
    """``-o ranks=1,5`` as a list for a tuple or list option, ``-o parameters={...}`` as JSON
    for a mapping; other values as given (pydantic converts them)."""
    import json
    import typing

    origin = typing.get_origin(annotation)
    if origin in (tuple, list):
        return [item.strip() for item in value.split(",") if item.strip()]
    if origin is dict:
        try:
            return json.loads(value)
        except json.JSONDecodeError as bad:
            raise ValueError(f"bad option value {value!r}: expected a JSON object") from bad
    return value


def _readable(invalid) -> str:
    """``option -M (depth): Input should be greater than or equal to 1`` per problem."""
    flags = {field: FLAG_NAMES[dest] for dest, field in FLAG_OPTIONS.items()}
    problems = []
    for error in invalid.errors():
        field = str(error["loc"][0]) if error["loc"] else ""
        name = f"{flags[field]} ({field})" if field in flags else field
        problems.append(f"option {name}: {error['msg']}")
    return "; ".join(problems)


def task_of(args: argparse.Namespace, qrels: Path, runs: list[Path]) -> TaskSpec:
    """The task the arguments describe. Raises ValueError on options the kind refuses, and
    with one hint when the relevance judgements are a run file (arguments swapped)."""
    from builder.pipeline.stages import command_task
    from builder.tasks import get_kind

    if looks_like_run_file(qrels):
        raise ValueError(f"{qrels}: this looks like a run file, not relevance judgements: "
                         "QRELS comes first, then the run files")
    kind = get_kind(args.task)
    return command_task(kind, qrels, runs, build_options(kind.options_model, args))


EXIT_REJECTED = 1
EXIT_UNUSABLE = 2


def exit_status(reads: list[Any]) -> int:
    """What a command that reads runs exits with: 2 when a run file could not be read at all
    (missing, a folder, a link loop, permission denied, not UTF-8, broken gzip; unusable qrels
    exit 2 before), 1 when a run was rejected, else 0."""
    from builder.formats.source import is_unreadable

    if any(is_unreadable(f) for read in reads if read.table is None for f in read.findings):
        return EXIT_UNUSABLE
    return EXIT_REJECTED if any(read.rejected for read in reads) else 0


SNIFFED_LINES = 5


def looks_like_run_file(path: Path) -> bool:
    """Whether the file's first lines are run lines (``topic Q0 doc rank score tag ...``: an
    integer rank, a numeric score, then a tag that is not a number), which no qrels format
    has: TREC qrels have 4 fields, INEX qrels numbers after the file name."""
    import gzip

    try:
        with open(path, "rb") as stream:
            head = stream.read(2)
        opener = gzip.open if head == b"\x1f\x8b" else open
        with opener(path, "rt", encoding="utf-8", errors="replace") as stream:
            lines = []
            for line in stream:
                if line.strip():
                    lines.append(line.split())
                if len(lines) == SNIFFED_LINES:
                    break
    except (OSError, EOFError):
        return False
    return bool(lines) and all(_run_line(fields) for fields in lines)


def _run_line(fields: list[str]) -> bool:
    if len(fields) < 6 or not fields[3].lstrip("-").isdigit():
        return False
    return _number(fields[4]) and not _number(fields[5])


def _number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def add_scale_arguments(parser: argparse.ArgumentParser) -> None:
    """``--memory-budget`` and ``--scheduler``: how the evaluate stage runs (same results)."""
    parser.add_argument(
        "--memory-budget", metavar="SIZE",
        help="evaluate the runs in batches whose evaluation fits SIZE (2G, 512M): bounded "
             "memory, identical results")
    parser.add_argument(
        "--scheduler", metavar="ADDRESS",
        help="evaluate the batches of runs on the Dask distributed cluster of this scheduler "
             "(tcp://host:8786); needs pip install 'appendix[distributed]'")


def scale_of(args: argparse.Namespace, extras: bool, overlap: bool = False):
    """The ``Scale`` of the evaluate stage the options ask for, with the command's ``extras``
    and ``overlap`` (ValueError: a bad size, or Dask missing for ``--scheduler``)."""
    from builder.config.sizes import parse_size
    from builder.pipeline.execution.cluster import dask_client
    from builder.pipeline.model import Scale

    budget = None if args.memory_budget is None else parse_size(args.memory_budget)
    if args.scheduler is not None:
        dask_client()  # says now, before reading anything, that Dask is missing
    return Scale(budget, args.scheduler, extras, overlap)
