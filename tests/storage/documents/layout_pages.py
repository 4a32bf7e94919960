"""Statement pages in the layouts filings print, generated with PyMuPDF (words at positions), and the facts
the ingestion read (storage/documents/facts.py) takes from them.

A `Statement` is what a person sees: title lines at the left, header lines over right-aligned value
columns, rows (label at the left, "$" printed apart at a column's left edge, figures right-aligned).
A header line is a str centred over every column, or a list whose k-th str is centred over column k
and whose (text, first column, last column) tuples are centred over the columns they span; `header_left` prints a caption at
the left of a header line ("(In millions)   2023   2022"). `filing` prints statements on pages of a
document, with a running header and a page-number footer when asked (they are told apart from the
statement across pages, so a filing with them has several pages).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pymupdf

from storage.documents.facts import read_document
from storage.schema import Fact, PageContent

FONT = 9
_RIGHTS = {1: (545,), 2: (455, 545), 3: (365, 455, 545), 4: (314, 391, 468, 545), 5: (290, 354, 418, 482, 545)}
_WIDTH = 52  # a column's width, "$" at its left
LABEL_X = 56


def _rights(n: int) -> tuple[float, ...]:
    """The right edges of `n` value columns (six and more: narrower, from x=200)."""
    if n in _RIGHTS:
        return _RIGHTS[n]
    pitch = (545 - 200) / (n - 1)
    return tuple(round(200 + k * pitch, 1) for k in range(n))


def _width(rights: tuple[float, ...]) -> float:
    return min(_WIDTH, rights[1] - rights[0] - 8) if len(rights) > 1 else _WIDTH


@dataclass
class Statement:
    title: list[str]
    header: list  # see the module doc
    rows: list[tuple]  # (label, value, ...); a label alone is a section line; "" leaves a cell empty
    header_left: dict[int, str | list] = field(default_factory=dict)  # header line -> text at its left, or [(x, text)]
    columns: int = 0  # 0: the longest row's value count
    align: str = "centre"  # header texts centred over their columns, or "right": right-aligned with the figures
    under_header: list[str] = field(default_factory=list)  # lines at the left between the header and the rows
    row_pitch: float = 13  # points from one row's baseline to the next

    @property
    def n(self) -> int:
        return self.columns or max(len(r) - 1 for r in self.rows)


# ---- words at positions: the primitives every generated statement page is printed with

def right_aligned(page, x1: float, y: float, text: str, size: float = FONT) -> None:
    """Print `text` ending at x1 (figures are right-aligned in statements)."""
    page.insert_text((x1 - pymupdf.get_text_length(text, fontsize=size), y), text, fontsize=size)


def centred(page, x_mid: float, y: float, text: str, size: float = FONT) -> None:
    """Print `text` centred on x_mid (a header over its column)."""
    page.insert_text((x_mid - pymupdf.get_text_length(text, fontsize=size) / 2, y), text, fontsize=size)


def page_with(draw_on) -> pymupdf.Page:
    """A new letter-size page of a new document, `draw_on(page)` printed on it."""
    page = pymupdf.open().new_page(width=612, height=792)
    draw_on(page)
    return page


def placed_words(lines: list[tuple[float, list[tuple[float, str, bool]]]]) -> list[tuple]:
    """The words (`get_text("words")`) of a page printing `lines`: (y, [(x, text, right-aligned at x)])."""
    def draw_on(page):
        for y, items in lines:
            for x, text, right in items:
                if right:
                    right_aligned(page, x, y, text)
                else:
                    page.insert_text((x, y), text, fontsize=FONT)
    return page_with(draw_on).get_text("words")


def rows_at(page, labels_values: list[tuple], top: float, edges: tuple[float, ...], pitch: float = 14) -> None:
    """Rows (label, value, ...) from `top`, the label at the left, each value right-aligned at its column's edge."""
    for k, (label, *values) in enumerate(labels_values):
        page.insert_text((LABEL_X, top + pitch * k), label, fontsize=FONT)
        for x1, v in zip(edges, values):
            if v:
                right_aligned(page, x1, top + pitch * k, v)


def _centred(page, text: str, left: float, right: float, y: float, size: float = FONT) -> None:
    centred(page, (left + right) / 2, y, text, size)


def _right(page, text: str, right: float, y: float) -> None:
    right_aligned(page, right, y, text)


def draw(page, st: Statement, top: float = 90) -> float:
    """Print `st` on `page` from `top`; returns the y below it."""
    rights = _rights(st.n)
    width = _width(rights)
    y = top
    for line in st.title:
        page.insert_text((LABEL_X, y), line, fontsize=10)
        y += 14
    y += 4
    for i, line in enumerate(st.header):
        left = st.header_left.get(i, [])
        for x, text in [(LABEL_X, left)] if isinstance(left, str) else left:
            page.insert_text((x, y), text, fontsize=FONT)
        if isinstance(line, str):
            _centred(page, line, rights[0] - width, rights[-1], y)
        else:
            spans = [(t, k, k) if isinstance(t, str) else t for k, t in enumerate(line)]
            for text, a, b in spans:
                if text and st.align == "right":
                    _right(page, text, rights[b], y)
                elif text:
                    _centred(page, text, rights[a] - width, rights[b], y)
        y += 12
    for line in st.under_header:
        page.insert_text((LABEL_X, y), line, fontsize=FONT)
        y += 12
    y += 4
    for label, *values in st.rows:
        page.insert_text((LABEL_X, y), label, fontsize=FONT)
        for right, value in zip(rights, values):
            if value.startswith("$"):
                page.insert_text((right - width, y), "$", fontsize=FONT)
                value = value[1:].strip()
            if value.endswith("%") and not value.endswith(" %"):
                _right(page, value, right + pymupdf.get_text_length("%", fontsize=FONT), y)  # "%" beyond the digits
            elif value:
                _right(page, value, right, y)
        y += st.row_pitch
    return y


def filing(statements: list[Statement], running_header: str = "", footer: bool = False, prose_pages: int = 0) -> bytes:
    """A PDF: `prose_pages` pages of prose, then one page per statement; each page with the running
    header at its top and its page number at its foot when asked."""
    doc = pymupdf.open()

    def new_page():
        page = doc.new_page()
        if running_header:
            page.insert_text((LABEL_X, 36), running_header, fontsize=8)
        if footer:
            _centred(page, f"{doc.page_count + 51}", 0, page.rect.width, 770, 8)
        return page

    for n in range(prose_pages):
        page = new_page()
        page.insert_text((LABEL_X, 110), f"Item {n + 7}. Discussion of the results of the year.", fontsize=10)
        page.insert_text((LABEL_X, 126), "We sell products through distributors in many markets.", fontsize=10)
    for st in statements:
        draw(new_page(), st)
    data = doc.tobytes()
    doc.close()
    return data


def read_facts(pdf: bytes) -> list[Fact]:
    """The facts the ingestion read takes from a PDF (furniture dropped, pages read by layout)."""
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        pages = [PageContent(page_number=i, text=p.get_text()) for i, p in enumerate(doc)]
        return read_document(doc, pages).facts


def facts_of(*statements: Statement, **kwargs) -> list[Fact]:
    return read_facts(filing(list(statements), **kwargs))


def fact(facts: list[Fact], label: str, column: int, page: int | None = None) -> Fact:
    found = [f for f in facts if f.label == label and f.column == column and (page is None or f.page == page)]
    assert found, f"no fact {label!r} in column {column}: {sorted({(f.label, f.column) for f in facts})}"
    return found[0]


def check_fact(facts: list[Fact], label: str, column: int, **want) -> None:
    """The fact of `label` in `column` has the fields `want` (e.g. `span(...)`, `as_of(...)`, unit, scale)."""
    f = fact(facts, label, column)
    got = {k: getattr(f, k) for k in want}
    assert got == want, f"{label!r} column {column} ({f.period!r})"


def span(start, end, months) -> dict:
    """The period fields of a flow column: start, end and length in months."""
    return {"period_start": start, "period_end": end, "duration_months": months, "as_of": None}


def as_of(day) -> dict:
    """The period fields of a balance column: a date."""
    return {"period_start": None, "period_end": day, "duration_months": None, "as_of": day}
