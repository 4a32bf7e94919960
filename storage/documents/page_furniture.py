"""Page furniture: running headers and footers, page numbers and "Table of Contents" links.

A 10-K prints the company, the form and the year at the top of every page ("NORTHWIND BEVERAGES,
INC. ANNUAL REPORT ON FORM 10-K FISCAL YEAR 2022") and a page number at the foot; they belong to no
table and no section, and a layout read that takes such a header for the first line of a statement
page reads the statement's own title as a section of its rows. Furniture is told as a class, per
document: a line in the top or bottom band of a page (among its first or last lines) whose text,
digits masked, is printed so on many pages of the document; a page number ("43", "Page 43", "- 43 -",
"F-12", "43 | Northwind") in the band; a "Table of Contents" line anywhere. The line naming a
registrant just above a statement's title ("PG&E CORPORATION") is never furniture.

    keys = furniture_keys([page_lines(words, height) for each page])
    words = drop_furniture(words, height, keys)   # before storage/documents/table_layout.layout_units
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from storage.documents.table_words import Line, Word, visual_lines

BAND = 0.12  # the top and bottom 12% of a page's height
EDGE_LINES = 3  # furniture stands among a page's first or last three lines
MIN_PAGES = 3  # a line repeated on at least this many pages ...
MIN_SHARE = 0.2  # ... and on this share of the document's pages is a running header or footer
_PAGE_NUMBER = re.compile(r"(?i)^[-–—\s]*(?:page\s+)?(?:[a-z]-?)?\d{1,3}(?:\s+of\s+\d{1,3})?[-–—\s]*$|^[ivxlc]{1,6}$")
_TOC = re.compile(r"(?i)^\W*(?:back\s+to\s+)?(?:table\s+of\s+contents|index)\W*$")
_TITLE = re.compile(  # a statement's title: the line above it names the registrant (storage/documents/page_tables.py)
    r"(?i)^(?:condensed\s+)?(?:consolidated\s+)?(?:statements?\s+of\s+(?:income|operations|earnings|comprehensive|cash\s+flows|"
    r"financial\s+position|(?:changes\s+in\s+)?(?:stockholders|shareholders))|balance\s+sheets?)\b")


@dataclass(frozen=True)
class EdgeLine:
    key: str  # lower case, digits masked: "northwind beverages, inc. annual report on form #-k fiscal year #"
    text: str
    before_title: bool  # the next line is a statement's title


def mask(text: str) -> str:
    return " ".join(re.sub(r"\d+", "#", text.lower()).split())


def _is_row_like(key: str) -> bool:
    return "#,#" in key or "#.#" in key or key.count("#") >= 4  # a table row's figures, not a header's year and page


def _lines(words: list[tuple]) -> tuple[list[Line], dict[int, tuple]]:
    ws = [(Word(*map(float, w[:4]), str(w[4])), w) for w in words if str(w[4]).strip()]
    return visual_lines([word for word, _ in ws]), {id(word): raw for word, raw in ws}


def _edges(lines: list[Line], height: float) -> list[tuple[int, EdgeLine]]:
    """(index, line) of the lines among a page's first or last EDGE_LINES that stand in its band."""
    out = []
    n = len(lines)
    for i in sorted(set(range(min(EDGE_LINES, n))) | set(range(max(n - EDGE_LINES, 0), n))):
        line = lines[i]
        top, bottom = min(w.y0 for w in line.words), max(w.y1 for w in line.words)
        if i < EDGE_LINES and bottom <= BAND * height or i >= n - EDGE_LINES and top >= (1 - BAND) * height:
            nxt = lines[i + 1].text if i + 1 < n else ""
            out.append((i, EdgeLine(mask(line.text), line.text, bool(_TITLE.match(nxt.strip())))))
    return out


def page_lines(words: list[tuple], height: float) -> list[EdgeLine]:
    """The lines of a page's band (`pymupdf.Page.get_text("words")` tuples) that could be furniture."""
    return [line for _, line in _edges(_lines(words)[0], height)]


def furniture_keys(pages: list[list[EdgeLine]]) -> frozenset[str]:
    """The masked texts that are running headers or footers of a document: band lines repeated on
    MIN_PAGES pages and MIN_SHARE of its pages (page numbers and "Table of Contents" lines are
    furniture wherever they stand in the band, repeated or not)."""
    counts: dict[str, int] = {}
    for lines in pages:
        for key in {ln.key for ln in lines if not ln.before_title and not _is_row_like(ln.key)}:
            counts[key] = counts.get(key, 0) + 1
    need = max(MIN_PAGES, MIN_SHARE * len(pages))
    return frozenset(k for k, n in counts.items() if n >= need and re.search(r"[a-z#]", k))


def is_furniture(line: EdgeLine, keys: frozenset[str]) -> bool:
    return (line.key in keys and not line.before_title) or bool(_PAGE_NUMBER.match(line.text.strip())) \
        or bool(_TOC.match(line.text.strip())) or _footer_number(line.text)


def _footer_number(text: str) -> bool:
    """"43 | Northwind Beverages", "Northwind Beverages | 2022 Form 10-K | 43": a page number printed
    beside a title with a bar."""
    parts = [p.strip() for p in re.split(r"\s+[|•·]\s+", text) if p.strip()]
    return len(parts) >= 2 and any(re.fullmatch(r"\d{1,4}", p) for p in (parts[0], parts[-1]))


def drop_furniture(words: list[tuple], height: float, keys: frozenset[str]) -> list[tuple]:
    """The page's words without its furniture lines (running header and footer, page number, "Table
    of Contents"), for the layout read."""
    return kept_words(words, *_lines(words), height, keys) if words else words


def kept_words(words: list[tuple], lines: list[Line], raw: dict[int, tuple], height: float,
               keys: frozenset[str]) -> list[tuple]:
    """`drop_furniture` over a page's lines read already (`_lines`)."""
    drop = {i for i, line in _edges(lines, height) if is_furniture(line, keys)}
    drop |= {i for i, line in enumerate(lines) if _TOC.match(line.text.strip())}
    if not drop:
        return words
    return [raw[id(w)] for i, line in enumerate(lines) if i not in drop for w in line.words]


def read_pages(pages: dict[int, tuple[list[tuple], float]]) -> tuple[frozenset[str], dict[int, list[tuple]]]:
    """A document's furniture keys and each page's words without its furniture (`pages`: page ->
    (words, height)), each page's lines read once."""
    read = {n: (ws, h, *_lines(ws)) for n, (ws, h) in pages.items()}
    keys = furniture_keys([[line for _, line in _edges(lines, h)] for ws, h, lines, raw in read.values()])
    return keys, {n: kept_words(ws, lines, raw, h, keys) if ws else ws for n, (ws, h, lines, raw) in read.items()}


def text_edges(text: str) -> list[tuple[int, str]]:
    """The lines of a page's text (an OCR page's, without word boxes) that could be furniture: its first
    and last EDGE_LINES non-empty lines, each once, top to bottom, as (index in `text.splitlines()`, the
    line with its spaces collapsed)."""
    content = [(i, " ".join(line.split())) for i, line in enumerate(text.splitlines()) if line.strip()]
    return content[:EDGE_LINES] + content[EDGE_LINES:][-EDGE_LINES:]


def drop_furniture_text(text: str, keys: frozenset[str]) -> str:
    """A page's text (an OCR page's, without word boxes) without the lines that are the document's
    furniture: a running header or footer among its first or last lines, a page number there, a
    "Table of Contents" line."""
    lines = text.splitlines()
    edges = text_edges(text)
    edge = {i for i, _ in edges}
    ends = {edges[0][0], edges[-1][0]} if edges else set()  # a bare number elsewhere may be a table's value
    out = []
    for i, line in enumerate(lines):
        s = line.strip()
        if _TOC.match(s) or i in edge and mask(s) in keys or i in ends and (_PAGE_NUMBER.match(s) or _footer_number(s)):
            continue
        out.append(line)
    return "\n".join(out)
