"""One XML article: its text content and the character range of every element and text node.

INEX passage results and assessments (2007-2010) address text as ``file, offset, length`` where
offsets count the characters of the article's *text content*, markup excluded, from 0: the
official submission tools do so ("INEX counts in Unicode characters excluding XML tags",
ATIRE's ``focus_to_INEX``; the INEX assessment tool X-RAI counts element sizes the same way).
We read that convention as the XPath data model does:

- the text content is the concatenation, in document order, of the root element's text nodes;
  the prolog (XML declaration, DOCTYPE, comments before the root) has none;
- an entity or character reference counts as the one character it stands for (``&amp;`` is 1);
  an entity the article declares in its internal DTD subset counts as its replacement text
  (markup in it makes elements, as an XML processor expands it); a named entity the article
  does not declare (an external DTD is never read) counts as one character (U+FFFD), as ATIRE
  counts it, and is reported;
- CDATA sections are text (their content counts, not the ``<![CDATA[`` markup); comments and
  processing instructions are markup (their content does not count);
- whitespace-only text between elements counts (X-RAI's ``keep`` whitespace mode);
- line ends are XML's: ``\r\n`` and a lone ``\r`` are read as one ``\n``.

Element paths are INEX's XPath form, ``/article[1]/body[1]/section[2]/p[1]``: every step with
its position among same-named siblings; the n-th text node child of an element is
``.../text()[n]`` (text nodes split by elements, comments and processing instructions).

lxml parses (well-formedness, encodings, entities, CDATA, line ends) and serialises each
article; the ranges are then computed over many articles at once from those serialisations
(``builder.formats.xml.ranges``), so no Python code runs per node.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lxml import etree

from builder.formats.xml.ranges import chunk_nodes

_PREDEFINED = {b"amp", b"lt", b"gt", b"quot", b"apos"}
_NAMED_ENTITY = re.compile(rb"&([A-Za-z_][\w.\-]*);")
_DECLARED_ENTITY = re.compile(rb"<!ENTITY\s+([A-Za-z_][\w.\-]*)\s+[\"']")
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


_PARSER: list[etree.XMLParser] = []


def _parser() -> etree.XMLParser:
    # No external DTD, no network: an article's entities are the predefined ones, its internal
    # subset's, or undeclared ones counted as one character; huge_tree for very long pages
    # (libxml2's entity amplification limit still holds). One per process, reused.
    if not _PARSER:
        _PARSER.append(etree.XMLParser(resolve_entities="internal", load_dtd=False,
                                       no_network=True, huge_tree=True,
                                       remove_blank_text=False, strip_cdata=True))
    return _PARSER[0]


def _replace_undeclared(data: bytes) -> tuple[bytes, tuple[str, ...]]:
    declared = set(_DECLARED_ENTITY.findall(data))
    names: set[str] = set()

    def swap(match: re.Match[bytes]) -> bytes:
        if match.group(1) in _PREDEFINED or match.group(1) in declared:
            return match.group(0)
        names.add(match.group(1).decode("ascii", "replace"))
        return _REPLACEMENT

    return _NAMED_ENTITY.sub(swap, data), tuple(sorted(names))


def parse_root(data: bytes) -> tuple[etree._Element, tuple[str, ...]]:
    """The article's root element, and the undeclared entities counted as one character."""
    try:
        return etree.fromstring(data, _parser()), ()
    except etree.XMLSyntaxError as exc:
        if "not defined" not in str(exc):
            raise ArticleError(str(exc)) from None
    data, undeclared = _replace_undeclared(data)
    try:
        return etree.fromstring(data, _parser()), undeclared
    except etree.XMLSyntaxError as again:
        raise ArticleError(str(again)) from None


def serialise(root: etree._Element) -> bytes:
    """The root element as libxml2 writes it in UTF-8 (what ``xml_ranges`` reads)."""
    return etree.tostring(root, encoding="UTF-8", xml_declaration=False, with_tail=False)


def parse_article(data: bytes, keep_text: bool = False) -> ArticleNodes:
    """Parse one article and list its elements and text nodes with their character ranges;
    with ``keep_text`` the text content itself too (``convert`` and the tests quote it)."""
    root, undeclared = parse_root(data)
    nodes = chunk_nodes([serialise(root)])
    text = etree.tostring(root, method="text", encoding="unicode") if keep_text else None
    return ArticleNodes(int(nodes.text_length[0]), nodes.path.to_pylist(), nodes.start.tolist(),
                        nodes.end.tolist(), nodes.is_text.tolist(), undeclared, text)
