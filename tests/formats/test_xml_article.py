"""Character ranges of elements in an article's text content, on hand-built articles whose
offsets are known: every expected range is found with ``str.index`` on the expected text."""

from __future__ import annotations

import pytest

from builder.formats.xml.article import ArticleError, parse_article

ARTICLE = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE article>
<!-- a comment before the root has no text -->
<article id="7">
<name lang="fr">Caf&#233; &amp; Cr&egrave;me</name>
<body>
  <section><title>Über</title><p>Première <b>phrase</b> ici.</p><!-- note -->
    <p><![CDATA[<not markup> & raw]]> text</p><?proc x?>
  </section>
  <section><p>日本語 text</p></section>
</body></article>"""

EXPECTED_TEXT = (
    "\nCafé & Cr\ufffdme\n\n  ÜberPremière phrase ici.\n    <not markup> & raw text\n"
    "  \n  日本語 text\n")


@pytest.fixture(scope="module")
def article():
    return parse_article(ARTICLE.encode("utf-8"), keep_text=True)


def node(article, path):
    i = article.paths.index(path)
    return article.starts[i], article.ends[i]


def test_text_content_excludes_markup_counts_entities_once_and_keeps_cdata(article):
    assert article.text == EXPECTED_TEXT
    assert article.text_length == len(EXPECTED_TEXT)
    assert article.undeclared == ("egrave",)


@pytest.mark.parametrize(("path", "text"), [
    ("/article[1]/name[1]", "Café & Cr\ufffdme"),
    ("/article[1]/body[1]/section[1]/title[1]", "Über"),
    ("/article[1]/body[1]/section[1]/p[1]", "Première phrase ici."),
    ("/article[1]/body[1]/section[1]/p[1]/b[1]", "phrase"),
    ("/article[1]/body[1]/section[1]/p[1]/text()[2]", " ici."),
    ("/article[1]/body[1]/section[1]/p[2]", "<not markup> & raw text"),
    ("/article[1]/body[1]/section[2]/p[1]", "日本語 text"),
])
def test_element_ranges_are_their_text(article, path, text):
    start, end = node(article, path)
    assert article.text[start:end] == text
    assert start == EXPECTED_TEXT.index(text)


def test_whitespace_only_text_counts_and_comments_split_text_nodes(article):
    # section[1]'s children are separated by a comment: "\n    " after it is text()[1].
    start, end = node(article, "/article[1]/body[1]/section[1]/text()[1]")
    assert article.text[start:end] == "\n    "
    whole = node(article, "/article[1]")
    assert whole == (0, len(EXPECTED_TEXT))


def test_positions_count_same_named_siblings_only(article):
    assert "/article[1]/body[1]/section[2]/p[1]" in article.paths
    assert "/article[1]/body[1]/section[1]/title[1]" in article.paths
    assert not any("p[3]" in p for p in article.paths)


def test_not_well_formed_is_an_article_error():
    with pytest.raises(ArticleError, match="line 1"):
        parse_article(b"<article><p>open</article>")
