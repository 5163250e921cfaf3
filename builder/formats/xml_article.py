"""One XML article: its text content and the character range of every element and text node.

INEX passage results and assessments (2007-2010) address text as ``file, offset, length`` where
offsets count the characters of the article's *text content*, markup excluded, from 0: the
official submission tools do so ("INEX counts in Unicode characters excluding XML tags",
ATIRE's ``focus_to_INEX``; the INEX assessment tool X-RAI counts element sizes the same way).
We read that convention as the XPath data model does:

- the text content is the concatenation, in document order, of the root element's text nodes;
  the prolog (XML declaration, DOCTYPE, comments before the root) has none;
- an entity or character reference counts as the one character it stands for (``&amp;`` is 1);
  a named entity the article does not declare counts as one character (U+FFFD), as ATIRE
  counts it, and is reported;
- CDATA sections are text (their content counts, not the ``<![CDATA[`` markup); comments and
  processing instructions are markup (their content does not count);
- whitespace-only text between elements counts (X-RAI's ``keep`` whitespace mode).

Element paths are INEX's XPath form, ``/article[1]/body[1]/section[2]/p[1]``: every step with
its position among same-named siblings; the n-th text node child of an element is
``.../text()[n]`` (text nodes split by elements, comments and processing instructions).

Written by hand because no library gives character ranges of elements in the text content:
lxml parses (the one library call per article); the walk below only adds up string lengths.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lxml import etree

_PREDEFINED = {b"amp", b"lt", b"gt", b"quot", b"apos"}
_NAMED_ENTITY = re.compile(rb"&([A-Za-z_][\w.\-]*);")
_REPLACEMENT = "\ufffd".encode()


class ArticleError(ValueError):
    """The article is not well-formed XML (the message says where and why)."""


@dataclass(frozen=True)
class ArticleNodes:
    """The nodes of one article, in document order.

    ``paths[i]`` covers the half-open character range ``[starts[i], ends[i])`` of the text
    content; ``is_text[i]`` tells a text node (``.../text()[n]``) from an element.
    ``undeclared`` names the undeclared entities counted as one character each.
    """

    text_length: int
    paths: list[str]
    starts: list[int]
    ends: list[int]
    is_text: list[bool]
    undeclared: tuple[str, ...] = ()
    text: str | None = None
    """The text content itself, when asked for (``parse_article(..., keep_text=True)``)."""


def _parser() -> etree.XMLParser:
    # No DTD, no network: an article's entities are the predefined ones, or undeclared ones
    # counted as one character; huge_tree for very long Wikipedia pages.
    return etree.XMLParser(resolve_entities=False, load_dtd=False, no_network=True,
                           huge_tree=True, remove_blank_text=False, strip_cdata=True)


def _replace_undeclared(data: bytes) -> tuple[bytes, tuple[str, ...]]:
    names: set[str] = set()

    def swap(match: re.Match[bytes]) -> bytes:
        if match.group(1) in _PREDEFINED:
            return match.group(0)
        names.add(match.group(1).decode("ascii", "replace"))
        return _REPLACEMENT

    return _NAMED_ENTITY.sub(swap, data), tuple(sorted(names))


def _step_name(element: etree._Element) -> str:
    tag = element.tag
    if tag[0] != "{":
        return tag
    local = etree.QName(tag).localname
    return f"{element.prefix}:{local}" if element.prefix else local


def parse_article(data: bytes, keep_text: bool = False) -> ArticleNodes:
    """Parse one article and list its elements and text nodes with their character ranges;
    with ``keep_text`` the text content itself too (``convert`` and the tests quote it)."""
    undeclared: tuple[str, ...] = ()
    try:
        root = etree.fromstring(data, _parser())
    except etree.XMLSyntaxError as exc:
        if "not defined" not in str(exc):
            raise ArticleError(str(exc)) from None
        data, undeclared = _replace_undeclared(data)
        try:
            root = etree.fromstring(data, _parser())
        except etree.XMLSyntaxError as again:
            raise ArticleError(str(again)) from None
    paths: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    is_text: list[bool] = []
    parts: list[str] | None = [] if keep_text else None
    # Bound appends and one inlined text step: this walk is the index build's inner loop.
    add_path, add_start, add_end, add_kind = (paths.append, starts.append, ends.append,
                                              is_text.append)
    keep = parts.append if parts is not None else None
    position = 0

    def walk(element: etree._Element, path: str) -> None:
        nonlocal position
        slot = len(paths)
        add_path(path)
        add_start(position)
        add_end(position)
        add_kind(False)
        texts = 0
        text = element.text
        if text:
            texts = 1
            add_path(f"{path}/text()[1]")
            add_start(position)
            position += len(text)
            add_end(position)
            add_kind(True)
            if keep is not None:
                keep(text)
        seen: dict[str, int] = {}
        for child in element:
            tag = child.tag
            if tag.__class__ is str:  # an element (comments and PIs have a function as tag)
                name = tag if tag[0] != "{" else _step_name(child)
                rank = seen.get(name, 0) + 1
                seen[name] = rank
                walk(child, f"{path}/{name}[{rank}]")
            tail = child.tail
            if tail:
                texts += 1
                add_path(f"{path}/text()[{texts}]")
                add_start(position)
                position += len(tail)
                add_end(position)
                add_kind(True)
                if keep is not None:
                    keep(tail)
        ends[slot] = position

    walk(root, f"/{_step_name(root)}[1]")
    return ArticleNodes(position, paths, starts, ends, is_text, undeclared,
                        None if parts is None else "".join(parts))
