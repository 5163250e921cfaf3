"""The reference for the element index: a plain walk over lxml's tree, one Python step per
node, adding up string lengths (what the index did before it was computed from arrays)."""

from __future__ import annotations

from lxml import etree

from builder.formats.xml.article import ArticleNodes, parse_root


def _step_name(element: etree._Element) -> str:
    tag = element.tag
    if tag[0] != "{":
        return tag
    local = etree.QName(tag).localname
    return f"{element.prefix}:{local}" if element.prefix else local


def walk_article(data: bytes) -> ArticleNodes:
    """Every element and text node of the article with its character range, in document
    order: an element's range covers its text nodes' and its descendants'."""
    root, undeclared = parse_root(data)
    paths: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    is_text: list[bool] = []
    parts: list[str] = []
    position = 0

    def add_text(path: str, text: str) -> None:
        nonlocal position
        paths.append(path)
        starts.append(position)
        position += len(text)
        ends.append(position)
        is_text.append(True)
        parts.append(text)

    def walk(element: etree._Element, path: str) -> None:
        slot = len(paths)
        paths.append(path)
        starts.append(position)
        ends.append(position)
        is_text.append(False)
        texts = 0
        if element.text:
            texts = 1
            add_text(f"{path}/text()[1]", element.text)
        seen: dict[str, int] = {}
        for child in element:
            if isinstance(child.tag, str):  # comments and PIs have a function as tag
                name = _step_name(child)
                seen[name] = seen.get(name, 0) + 1
                walk(child, f"{path}/{name}[{seen[name]}]")
            if child.tail:
                texts += 1
                add_text(f"{path}/text()[{texts}]", child.tail)
        ends[slot] = position

    walk(root, f"/{_step_name(root)}[1]")
    return ArticleNodes(position, paths, starts, ends, is_text, undeclared, "".join(parts))
