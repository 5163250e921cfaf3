"""The element index computed from arrays equals a plain walk over lxml's tree (the reference,
``tests/formats/xml_walk.py``), node for node, on hand-built articles with every corner of the
text content, indexed together in one chunk, and on the generated demo corpus."""

from __future__ import annotations

import pytest

from builder.formats.xml.article import parse_article
from builder.formats.xml.corpus_index import open_index
from builder.formats.xml.index_build import CHUNK_ARTICLES
from tests.formats.xml_walk import walk_article

ARTICLES = {
    "nested": "<article><b>bold <i>and <u>deep</u></i> back</b> after<p>x</p><p>y</p></article>",
    "entities": ("<article><p>Caf&#233; &amp; cr&#xE8;me &lt;tag&gt; a;b &amp;; "
                 "&#x1F600; smile &quot;q&quot; &apos;</p></article>"),
    "cdata": "<article><p>a<![CDATA[<not> & ]] ; &amp;]]>b</p><![CDATA[]]><p/></article>",
    "comments": ("<!-- before --><article><!-- <x> & a;b <? --><p>one<!-- -->two</p>"
                 "<?pi <p>x</p> & --> ?>tail<?empty?></article><!-- after -->"),
    "attributes": ('<article a="1 > 0" b="&lt;&amp;&gt;;" c=\'"&#62;"\'>'
                   '<p title="a>b" x="/">t</p><q x="/"/></article>'),
    "whitespace": "<article>\n  <p> </p>\n\t<p>\n</p>  \n</article>",
    "non-ascii": "<artículo><τίτλος>Ελλάδα</τίτλος><p>東京 naïve 😀</p></artículo>",
    "self-closing": "<article><br/><p>a<br/>b<br></br>c</p><empty></empty><br/></article>",
    "doctype": ('<?xml version="1.0"?>\n<!DOCTYPE article [\n<!ENTITY co "Company &amp; Co">\n'
                '<!ENTITY mark "<b>mark</b>">\n<!ATTLIST p id CDATA #IMPLIED>\n]>\n'
                '<article><p id="1">&co; and &mark; and &undeclared;.</p></article>'),
    "line-ends": "<article>\r\n<p>a\r\nb\rc&#13;d</p>\r\n</article>\r\n",
    "namespaces": ('<article xmlns="urn:a" xmlns:x="urn:x"><x:p>prefixed</x:p><p>plain</p>'
                   '<x:p><p xmlns="urn:b">other</p></x:p></article>'),
    "siblings": "<a><b/><c/><b>1</b><c><b>2</b><b>3</b></c><b>4</b>t1<c/>t2</a>",
    "deep": "<a>" + "<d>" * 300 + "core" + "</d>" * 300 + "</a>",
    "text-only": "<article>just text</article>",
    "empty-root": "<article/>",
    "broken": "<article><p>open</article>",
    "latin-1": '<?xml version="1.0" encoding="ISO-8859-1"?><article>caf\xe9 cr\xe8me</article>',
}


def _bytes(name: str, text: str) -> bytes:
    return text.encode("latin-1" if name == "latin-1" else "utf-8")


@pytest.fixture(scope="module")
def index(tmp_path_factory):
    root = tmp_path_factory.mktemp("ranges")
    (root / "corpus").mkdir()
    for name, text in ARTICLES.items():
        (root / "corpus" / f"{name}.xml").write_bytes(_bytes(name, text))
    return open_index(root / "corpus", cache_dir=root / "cache", workers=1, progress=None)


def _rows(index, file: str) -> list[tuple[str, int, int, bool]]:
    table = index.nodes([file]).to_pandas()
    return list(zip(table["path"], table["start"], table["end"], table["is_text"], strict=True))


def _walked(name: str) -> list[tuple[str, int, int, bool]]:
    nodes = walk_article(_bytes(name, ARTICLES[name]))
    return list(zip(nodes.paths, nodes.starts, nodes.ends, nodes.is_text, strict=True))


@pytest.mark.parametrize("name", [n for n in ARTICLES if n != "broken"])
def test_every_node_equals_the_walk(index, name):
    assert _rows(index, name) == _walked(name)
    lengths = index.articles().to_pandas().set_index("file")["text_length"]
    assert lengths[name] == walk_article(_bytes(name, ARTICLES[name])).text_length


@pytest.mark.parametrize("name", [n for n in ARTICLES if n != "broken"])
def test_each_range_is_its_text(index, name):
    text = walk_article(_bytes(name, ARTICLES[name])).text
    assert parse_article(_bytes(name, ARTICLES[name]), keep_text=True).text == text
    for path, start, end, is_text in _rows(index, name):
        if is_text:
            assert end > start
            assert text[start:end]  # a text node is never empty


def test_hand_counted_ranges(index):
    rows = {path: (start, end) for path, start, end, _ in _rows(index, "doctype")}
    # "Company & Co and mark and \ufffd.": the internal entities' replacement text counts,
    # markup in it makes an element; an undeclared entity is one character.
    expected = "Company & Co and mark and \ufffd."
    assert rows["/article[1]/p[1]"] == (0, len(expected))
    assert rows["/article[1]/p[1]/b[1]"] == (expected.index("mark"), expected.index("mark") + 4)
    rows = {path: (start, end) for path, start, end, _ in _rows(index, "entities")}
    assert rows["/article[1]/p[1]"] == (0, len("Café & crème <tag> a;b &; 😀 smile \"q\" '"))
    rows = {path: (start, end) for path, start, end, _ in _rows(index, "line-ends")}
    assert rows["/article[1]/p[1]"] == (1, 1 + len("a\nb\nc\rd"))  # XML's line-end rule
    problems = index.articles().to_pandas().set_index("file")["problem"]
    assert problems["doctype"] == "undeclared entities counted as one character: undeclared"
    assert problems["broken"].startswith("not well-formed XML: ")
    assert _rows(index, "broken") == []


def test_the_generated_corpus_equals_the_walk(tmp_path):
    from builder.demo.inex.xml_articles import write_articles

    ids = write_articles(tmp_path / "corpus", 40, seed=11)
    built = open_index(tmp_path / "corpus", cache_dir=tmp_path / "cache", workers=2,
                       progress=None)
    table = built.nodes().to_pandas()
    assert CHUNK_ARTICLES > 1
    for file in ids:
        rows = table[table["file"] == file]
        nodes = walk_article((tmp_path / "corpus" / f"{file}.xml").read_bytes())
        assert rows["path"].tolist() == nodes.paths
        assert rows["start"].tolist() == nodes.starts
        assert rows["end"].tolist() == nodes.ends
        assert rows["is_text"].tolist() == nodes.is_text
