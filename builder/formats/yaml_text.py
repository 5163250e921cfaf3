"""YAML as the config and run metadata are written: plain data, each key once, no aliases.

PyYAML's safe loader accepts anchors and aliases (``&a`` ... ``*a``), so a file of a few
hundred bytes can name a structure of billions of nodes ("billion laughs") that anything
walking it (printing, rendering a page) expands; and it takes a repeated key silently, the
last one winning. A config or metadata file needs neither: both are refused here, with the
line of the offending alias or key. Nesting deeper than the input limits allow
(``limits: nesting``) is refused too: PyYAML composes a node by recursion, so a file of a
few thousand ``[`` would otherwise end in Python's ``RecursionError``.
"""

from __future__ import annotations

from typing import Any

import yaml
from yaml.composer import ComposerError
from yaml.constructor import ConstructorError

from builder.findings import FindingCode, InputError
from builder.formats.limits import current_limits


class _PlainLoader(yaml.SafeLoader):
    """The safe loader without aliases, with each mapping key at most once and at most
    ``nesting`` levels of collections."""

    def __init__(self, text: str, nesting: int) -> None:
        super().__init__(text)
        self.nesting, self.depth = nesting, 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise ComposerError(None, None, f"alias *{event.anchor} is not accepted: write the "
                                "value out (aliases can expand without bound)", event.start_mark)
        self.depth += 1
        try:
            if self.depth > self.nesting:
                raise ComposerError(None, None, f"nested deeper than {self.nesting} levels "
                                    "(limits: nesting)", self.peek_event().start_mark)
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1

    def construct_mapping(self, node: Any, deep: bool = False) -> dict[Any, Any]:
        seen: dict[Any, int] = {}
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=True)
            try:
                repeated = key in seen
            except TypeError:
                continue  # an unhashable key: the base class reports it
            if repeated:
                raise ConstructorError(None, None, f"key {key!r} is given twice (first on line "
                                       f"{seen[key]})", key_node.start_mark)
            seen[key] = key_node.start_mark.line + 1
        return super().construct_mapping(node, deep=deep)


def load_yaml(text: str, file: str) -> tuple[Any, Any]:
    """The data of ``text`` and its composed node tree (for line numbers); ``InputError`` at
    the line of a syntax error, an alias or a repeated key."""
    loader = None
    try:
        loader = _PlainLoader(text, current_limits().nesting)  # checks the characters first
        node = loader.get_single_node()
        data = None if node is None else loader.construct_document(node)
    except yaml.YAMLError as error:
        raise InputError.at(file, _line(error, text), FindingCode.SYNTAX,
                            f"not valid YAML: {_problem(error)}") from None
    finally:
        if loader is not None:
            loader.dispose()
    return data, node


def _line(error: yaml.YAMLError, text: str) -> int | None:
    mark = getattr(error, "problem_mark", None)
    if mark is not None:
        return mark.line + 1
    position = getattr(error, "position", None)  # a character YAML does not allow
    return None if position is None else text.count("\n", 0, position) + 1


def _problem(error: yaml.YAMLError) -> str:
    if isinstance(error, yaml.reader.ReaderError):
        code = error.character if isinstance(error.character, int) else ord(error.character)
        return f"character U+{code:04X} is not allowed in YAML"
    return getattr(error, "problem", None) or str(error)
