"""HTML made into plain text, safely: parsed by the standard library's tolerant parser,
never rendered, never fetched from, nothing executed.

Scripts, styles, templates, SVG and the like are dropped with their content; comments and
processing instructions are ignored; character references are decoded; block elements
(paragraphs, headings, list items, rows, line breaks) end a line. The title is the
`<title>`, else the first `<h1>`.
"""

from __future__ import annotations

from html.parser import HTMLParser

_SKIP = frozenset({"script", "style", "noscript", "template", "svg", "math", "iframe",
                   "object", "embed", "canvas", "select", "button"})
_BLOCK = frozenset({"p", "div", "br", "li", "tr", "td", "th", "h1", "h2", "h3", "h4", "h5",
                    "h6", "table", "section", "article", "ul", "ol", "pre", "blockquote",
                    "dd", "dt", "dl", "hr", "header", "footer", "main", "aside", "nav",
                    "figure", "figcaption", "caption", "summary", "details"})
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skipping: list[str] = []
        self.title = ""
        self.h1 = ""
        self.where: str | None = None  # 'title' or 'h1' while inside one

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIP:
            self.skipping.append(tag)
        elif tag == "title" or (tag == "h1" and not self.h1):
            self.where = tag
        if tag in _BLOCK:
            self.parts.append("\n\n" if tag in _HEADINGS or tag == "p" else "\n")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _BLOCK:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP and tag in self.skipping:
            while self.skipping and self.skipping.pop() != tag:
                pass
            return
        if tag == self.where:
            self.where = None
        if tag in _BLOCK:
            self.parts.append("\n\n" if tag in _HEADINGS or tag == "p" else "\n")

    def handle_data(self, data: str) -> None:
        if self.skipping:
            return
        if self.where == "title":
            self.title += data
            return  # the title is not part of the text
        if self.where == "h1":
            self.h1 += data
        self.parts.append(data)


def html_to_text(html: str) -> tuple[str, str]:
    """(title, text) of an HTML document; the title is '' when it has none."""
    parser = _Text()
    parser.feed(html)
    parser.close()
    title = " ".join((parser.title or parser.h1).split())
    return title, "".join(parser.parts)
