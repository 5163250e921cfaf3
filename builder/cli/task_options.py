"""The task arguments every command that reads runs shares (``evaluate``, ``validate``,
``compare``, ``correlate``, ``stability``, ``ties``): the kind, its options' flags, ``-o
KEY=VALUE`` for any other, and ``--config``, a site config whose input limits apply.

The flags are those the kinds' options declare (``builder.tasks.options``: ``-M`` depth, ``-l``
rel_level, ``-c`` complete, ``--interpolation`` ...): a flag sets the option that declares it in
the chosen kind's options, and is an error for a kind without it; ``-o`` sets any option by name,
so every key of a ``site_config.yml`` task's ``options`` can be given on the command line.
"""

from __future__ import annotations

import argparse
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from builder.cli.flags import (
    ModelFlag,
    add_config_argument,
    add_model_flags,
    flag_of,
    given_flags,
    model_flags,
    readable_errors,
)
from builder.tasks import KIND_MODULES
from builder.tasks.options import KIND_OPTIONS

if TYPE_CHECKING:
    from builder.config.schema import TaskSpec


@cache
def task_flags() -> list[ModelFlag]:
    """The flags of every kind's options, each once."""
    return model_flags(KIND_OPTIONS)


def add_task_arguments(parser: argparse.ArgumentParser) -> None:
    """``--task`` with its choices, every option flag, ``-o`` and ``--config``."""
    parser.add_argument(
        "--task", default="adhoc", choices=sorted(KIND_MODULES), help="task kind (default adhoc)"
    )
    add_model_flags(parser, task_flags(), list(KIND_OPTIONS))
    parser.add_argument(
        "-o",
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="set any option of the task kind (repeatable)",
    )
    add_config_argument(parser)


def build_options(model: type, args: argparse.Namespace) -> Any:
    """The kind's options from its flags and every ``-o KEY=VALUE``; ValueError on a flag the
    kind does not have (``-l`` with ``--task focused``)."""
    values: dict[str, Any] = {}
    for known, given in given_flags(args, task_flags()).items():
        info = model.model_fields.get(known.key)
        if info is None or flag_of(info) != known.flag:
            raise ValueError(
                f"option {known.flag.spelling} does not apply to this task kind; its options: "
                f"{', '.join(model.model_fields)}"
            )
        values[known.key] = given
    for item in args.option:
        key, sep, value = item.partition("=")
        if not sep or key not in model.model_fields:
            known_keys = ", ".join(model.model_fields)
            raise ValueError(f"bad option {item!r}: expected KEY=VALUE with KEY one of {known_keys}")
        values[key] = _option_value(model.model_fields[key].annotation, value)
    from pydantic import ValidationError

    try:
        return model.model_validate(values)
    except ValidationError as invalid:  # one line per problem, not pydantic's dump
        raise ValueError(readable_errors(invalid, task_flags())) from None


def _option_value(annotation: Any, value: str) -> Any:
    """``-o ranks=1,5`` as a list for a tuple or list option, ``-o parameters={...}`` as JSON
    for a mapping; other values as given (pydantic converts them)."""
    import json
    import types
    import typing

    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):  # an optional list or mapping
        given = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
        if len(given) == 1:
            return _option_value(given[0], value)
    if origin in (tuple, list):
        return [item.strip() for item in value.split(",") if item.strip()]
    if origin is dict:
        try:
            return json.loads(value)
        except json.JSONDecodeError as bad:
            raise ValueError(f"bad option value {value!r}: expected a JSON object") from bad
    return value


def task_of(args: argparse.Namespace, qrels: Path, runs: list[Path]) -> TaskSpec:
    """The task the arguments describe (``qrels`` a file or ``irds:DATASET_ID``). Raises
    ValueError on options the kind refuses or a dataset that cannot be read, and with one
    hint when the relevance judgements are a run file (arguments swapped)."""
    from builder.formats import irds
    from builder.pipeline.stages import command_task
    from builder.tasks import get_kind

    if irds.is_irds(qrels):  # irds:DATASET_ID, the judgements of ir_datasets' dataset
        try:
            qrels = irds.qrels_file(str(qrels))
        except irds.IrdsError as error:
            raise ValueError(str(error)) from None
    if looks_like_run_file(qrels):
        raise ValueError(f"{qrels}: this looks like a run file, not relevance judgements: "
                         "QRELS comes first, then the run files")
    kind = get_kind(args.task)
    return command_task(kind, qrels, runs, build_options(kind.options_model, args))


EXIT_REJECTED = 1
EXIT_UNUSABLE = 2


def exit_status(reads: list[Any]) -> int:
    """What a command that reads runs exits with: 2 when a run file could not be read at all
    (missing, a folder, a link loop, permission denied, not UTF-8, broken gzip, beyond the
    input limits; unusable qrels exit 2 before), 1 when a run was rejected, else 0."""
    from builder.findings import FindingCode

    if any(f.code in (FindingCode.UNREADABLE, FindingCode.TOO_LARGE)
           for read in reads if read.table is None for f in read.findings):
        return EXIT_UNUSABLE
    return EXIT_REJECTED if any(read.rejected for read in reads) else 0


SNIFFED_LINES = 5
SNIFFED_BYTES = 1 << 16


def looks_like_run_file(path: Path) -> bool:
    """Whether the file's first lines are run lines (``topic Q0 doc rank score tag ...``: an
    integer rank, a numeric score, then a tag that is not a number), which no qrels format
    has: TREC qrels have 4 fields, INEX qrels numbers after the file name."""
    import gzip
    import zlib

    from builder.formats.source import open_regular

    try:
        with open_regular(path) as raw:  # a named pipe or a device: not a run, not waited on
            stream = gzip.GzipFile(fileobj=raw) if raw.read(2) == b"\x1f\x8b" else raw
            raw.seek(0)
            # The head only: a file without a line end is not read whole to find its first.
            head = stream.read(SNIFFED_BYTES).decode("utf-8", "replace")
    except (OSError, EOFError, zlib.error):
        return False
    whole = head.splitlines()[:-1] if len(head) >= SNIFFED_BYTES else head.splitlines()
    lines = [line.split() for line in whole if line.strip()][:SNIFFED_LINES]
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
