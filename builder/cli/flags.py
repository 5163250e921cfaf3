"""Command-line flags made from the fields of pydantic models that declare one
(``Annotated[int, Flag("-M")]``, ``builder.config.flags``).

A flag's type and choices come from the field's annotation (``int``, ``float``, ``Path``, a
``Literal``, a ``list`` of them given by repeating the flag; a ``bool`` is a switch, with its
``off`` flag beside it), its help from the field's description, followed by what the models say
of it: which of them have it and its default. A flag several models declare (``-c`` of every
task kind, ``--corpus`` of the INEX ones) is one argument; they must agree on its field and type.
"""

from __future__ import annotations

import argparse
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from builder.config.flags import Flag

if TYPE_CHECKING:
    from pydantic import BaseModel
    from pydantic.fields import FieldInfo

LIMITS_CONFIG = "limits_config"
"""Where a command that reads inputs keeps its ``--config`` (``add_config_argument``)."""


def add_config_argument(parser: argparse.ArgumentParser) -> None:
    """``--config FILE``: a site config whose input limits (``limits:``) the command reads its
    inputs under, as ``appendix build`` does (``builder.cli.config_limits`` applies them)."""
    parser.add_argument(
        "--config", dest=LIMITS_CONFIG, type=Path, metavar="FILE",
        help="read the inputs under the input limits of this site config (its limits: "
             "section), as appendix build does, so that a file the site accepts is accepted "
             "here too (default: the default limits)")


VALUE_TYPES = (int, float, str, Path)
"""The annotations a flag with a value may have (besides a ``Literal`` and ``bool``)."""


@dataclass(eq=False)
class ModelFlag:
    """One flag and the models that declare it: ``owners`` by name, each with its default."""

    flag: Flag
    key: str
    """The field the flag sets, the same in every owner (and the argparse destination)."""
    info: FieldInfo
    """The first owner's field: its description is the help."""
    owners: dict[str, Any] = field(default_factory=dict)
    """Owner name -> the field's default there."""


def flag_of(info: FieldInfo) -> Flag | None:
    """The flag a field declares, if any."""
    return next((item for item in info.metadata if isinstance(item, Flag)), None)


def model_flags(models: Mapping[str, type[BaseModel]]) -> list[ModelFlag]:
    """Every flag the models declare, merged by flag, in the order they first appear.
    ValueError when two models give one flag different fields or types."""
    merged: dict[Flag, ModelFlag] = {}
    for owner, model in models.items():
        for key, info in model.model_fields.items():
            flag = flag_of(info)
            if flag is None:
                continue
            known = merged.setdefault(flag, ModelFlag(flag, key, info))
            if (known.key, _value_type(known.info)) != (key, _value_type(info)):
                raise ValueError(f"flag {flag.spelling}: {owner}.{key} ({info.annotation}) is "
                                 f"not {known.key} ({known.info.annotation}) of the others")
            known.owners[owner] = _default(info)
    spellings = [name for known in merged.values()
                 for name in (*known.flag.names, *([known.flag.off] if known.flag.off else []))]
    if len(spellings) != len(set(spellings)):
        raise ValueError(f"a flag is declared twice, differently: {sorted(spellings)}")
    return list(merged.values())


def add_model_flags(parser: argparse.ArgumentParser, flags: list[ModelFlag],
                    owners: list[str], owner_word: str = "--task") -> None:
    """An argument per flag, its value None unless given. ``owners``: every model's name, for
    the help of a flag only some have (``--task adhoc``)."""
    for known in flags:
        flag, value_type = known.flag, _value_type(known.info)
        help_text = _help(known.info.description or "", _notes(known, owners, owner_word, True))
        if value_type is bool:
            switch = parser.add_mutually_exclusive_group() if flag.off else parser
            switch.add_argument(*flag.names, dest=known.key, action="store_true", default=None,
                                help=help_text)
            if flag.off:
                switch.add_argument(flag.off, dest=known.key, action="store_false",
                                    help=_help(flag.off_help,
                                               _notes(known, owners, owner_word, False)))
            continue
        choices = value_type if isinstance(value_type, tuple) else None
        parser.add_argument(
            *flag.names, dest=known.key, metavar=flag.metavar, help=help_text,
            type=type(choices[0]) if choices else value_type, choices=choices,
            action="append" if _repeated(known.info) else "store")


def given_flags(args: argparse.Namespace, flags: list[ModelFlag]) -> dict[ModelFlag, Any]:
    """The flags given on the command line, with their values."""
    return {known: getattr(args, known.key) for known in flags
            if getattr(args, known.key, None) is not None}


def readable_errors(invalid: Any, flags: list[ModelFlag]) -> str:
    """A pydantic ValidationError as ``option -M (depth): Input should be ...`` per problem."""
    spellings = {known.key: known.flag.spelling for known in flags}
    problems = []
    for error in invalid.errors():
        key = str(error["loc"][0]) if error["loc"] else ""
        name = f"{spellings[key]} ({key})" if key in spellings else key
        problems.append(f"option {name}: {error['msg']}")
    return "; ".join(problems)


def _given(annotation: Any) -> Any:
    """The annotation without ``None`` (``int | None`` -> ``int``)."""
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        given = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
        return given[0] if len(given) == 1 else annotation
    return annotation


def _repeated(info: FieldInfo) -> bool:
    return typing.get_origin(_given(info.annotation)) is list


def _value_type(info: FieldInfo) -> Any:
    """``bool``, one of ``VALUE_TYPES``, or a ``Literal``'s values as a tuple, of the field or
    of each item of a ``list`` field. TypeError for an annotation no flag can give."""
    annotation = _given(info.annotation)
    if _repeated(info):
        (annotation,) = typing.get_args(annotation)
    if typing.get_origin(annotation) is typing.Literal:
        return typing.get_args(annotation)
    if annotation is bool or annotation in VALUE_TYPES:
        return annotation
    raise TypeError(f"a flag cannot give a value of type {annotation}")


def _default(info: FieldInfo) -> Any:
    return None if info.default_factory is not None else info.default


def _notes(known: ModelFlag, owners: list[str], owner_word: str, switched_on: bool) -> list[str]:
    """What follows the description: the owners that have the flag, unless all do, and its
    default (a switch with an ``off`` flag: on for all, for some, or for none of them)."""
    notes = ["repeatable"] if _repeated(known.info) else []
    if set(known.owners) != set(owners):
        notes.append(_owners(list(known.owners), owners, owner_word))
    defaults = list(known.owners.values())
    if _value_type(known.info) is bool:
        on = [owner for owner, value in known.owners.items() if value]
        some = 0 < len(on) < len(defaults)
        if known.flag.off and some:
            notes.append(f"default for {_owners(on, owners, owner_word)}" if switched_on
                         else "default for the others")
        elif known.flag.off and bool(on) is switched_on:
            notes.append("default")
    elif defaults[0] is not None and all(value == defaults[0] for value in defaults):
        notes.append(f"default {defaults[0]}")
    return notes


def _owners(some: list[str], every: list[str], word: str) -> str:
    """``--task adhoc``, ``every --task but adhoc``, ``--task focused or thorough``."""
    prefix = f"{word} " if word else ""
    missing = [owner for owner in every if owner not in some]
    if len(some) > 1 and len(missing) < len(some):
        return f"every {prefix}but {', '.join(missing)}"
    names = some if len(some) == 1 else [", ".join(some[:-1]), some[-1]]
    return prefix + " or ".join(names)


def _help(description: str, notes: list[str]) -> str:
    """The description as argparse help (lower case first, no final stop), then the notes."""
    text = description.rstrip().rstrip(".")
    if text[1:2].islower():
        text = text[0].lower() + text[1:]
    return f"{text} ({'; '.join(notes)})" if notes else text
