"""Generated statement PDFs for the figure rules: text inserted at positions with PyMuPDF (a title,
a unit caption, period headers over right-aligned value columns, section lines and rows), read
back by the layout reader the answer path uses (storage/documents/table_layout.py), so a rule is
tested on what a page prints, not on hand-made rows."""

from __future__ import annotations

from dataclasses import dataclass, field

import pymupdf
import pytest

from agent.no_model.figures import INTRO, figure_block
from storage.documents.embeddings import get_embedder
from storage.documents.table_layout import layout_units
from storage.schema import Source

LEFT, FIRST_COLUMN, COLUMN_GAP, SIZE = 56, 430, 80, 9


@dataclass
class Page:
    title: str  # "CONSOLIDATED STATEMENTS OF OPERATIONS"
    columns: tuple[str, ...]  # the period over each value column ("2022", "2021")
    rows: list[tuple[str, ...]]  # (label, value, ...); a label alone is a section line
    caption: str = "(In millions, except per share data)"
    span: str = "Years Ended December 31,"  # printed over the columns, "" for none
    above: list[str] = field(default_factory=list)  # lines printed above the title (a running header)
    first_column: float = FIRST_COLUMN  # the right edge of the first value column (four columns: move it left)
    gap: float = COLUMN_GAP
    # header lines printed above the columns' own titles, each a list of (text, first column, last column): the text
    # centred over those columns ("Three Months Ended" over columns 0-1, "GAAP" over 0-2); printed instead of `span`
    heads: list[list[tuple[str, int, int]]] = field(default_factory=list)
    stub: str = ""  # printed at the left of the columns' own titles ("Q1 2023  GAAP  Non-GAAP")


def _right(page, x_right: float, y: float, text: str) -> None:
    page.insert_text((x_right - pymupdf.get_text_length(text, fontsize=SIZE), y), text, fontsize=SIZE)


def build_pdf(path, pages: list[Page]):
    doc = pymupdf.open()
    for spec in pages:
        page = doc.new_page()
        y = 40
        for line in [*spec.above, spec.title, spec.caption]:
            if line:
                page.insert_text((LEFT, y), line, fontsize=SIZE + 1)
                y += 16
        right = [spec.first_column + spec.gap * i for i in range(len(spec.columns))]
        y += 8
        if spec.span and not spec.heads:
            _right(page, right[-1], y, spec.span)
            y += 13
        for line in spec.heads:
            for text, first, last in line:
                mid = (right[first] - 0.6 * spec.gap + right[last]) / 2
                page.insert_text((mid - pymupdf.get_text_length(text, fontsize=SIZE) / 2, y), text, fontsize=SIZE)
            y += 13
        if spec.stub:
            page.insert_text((LEFT, y), spec.stub, fontsize=SIZE)
        for x, column in zip(right, spec.columns):
            _right(page, x, y, column)
        y += 18
        for label, *values in spec.rows:
            page.insert_text((LEFT, y), label, fontsize=SIZE)
            for x, value in zip(right, values):
                _right(page, x, y, value)
            y += 14
    doc.save(path)
    doc.close()
    return path


@pytest.fixture
def statement_pdf(tmp_path, monkeypatch):
    """`statement_pdf([Page, ...], fiscal=(year, quarter[, year_end]), issuer=...)` -> (sources, page_text): a
    generated filing (its cover's fiscal year and quarter, its issuer), one source per page (rank = page order), its rows read by
    layout from the PDF as at answer time."""
    def make(pages: list[Page], file: str = "NORTHWIND_2022_10K.pdf", fiscal: tuple = (None, None), issuer: str = ""):
        path = build_pdf(tmp_path / file, pages)
        doc = pymupdf.open(path)
        texts = [p.get_text() for p in doc]
        words = [p.get_text("words") for p in doc]
        monkeypatch.setattr("agent.no_model.cited_rows.table_units", lambda doc_id, page, text: layout_units(words[page]))
        # fiscal: (year, quarter) of its DocumentInfo, and an annual filing's year end (its cover's period end)
        monkeypatch.setattr("agent.no_model.cited_rows.fiscal_period", lambda doc_id: tuple(fiscal[:2]))
        monkeypatch.setattr("agent.no_model.cited_rows.fiscal_year_end", lambda doc_id: (fiscal[2:] or [None])[0])
        sources = [Source(source_id=f"[^{i + 1}]", kind="document", doc_id="northwind-10k", page_number=i,
                          source_file=file, text=text, extra={"issuer": issuer}) for i, text in enumerate(texts)]
        return sources, lambda src: texts[src.page_number]
    return make


def asked_block(question: str, sources: list[Source], page_text) -> list[str] | None:
    """The figure block a no-model answer leads with (agent/no_model/figures.py `figure_block`), or None."""
    return figure_block(question, sources, page_text, get_embedder())


def asked_lead(question: str, sources: list[Source], page_text) -> str:
    """The lead figure line of a question that must be answered with a figure."""
    block = asked_block(question, sources, page_text)
    assert block and block[0] == INTRO, block
    return block[1]
