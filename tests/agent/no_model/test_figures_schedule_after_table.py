"""A maturity schedule printed under another table of the same page with no header line of its own (its column
dated by its caption sentence: "... as of September 24, 2022, are as follows (in millions):") is a table of its
own: its caption, not the table above's, says what its years are of, so "due in 2026" finds its row.
Generated PDF read by layout."""

from __future__ import annotations

import pymupdf

from agent.no_model.figures import INTRO, figure_block
from storage.documents.embeddings import get_embedder
from storage.documents.table_layout import layout_units
from storage.schema import Source
from tests.agent.no_model.pdf_statements import LEFT, SIZE, _right

LINES = [
    ("text", "The following table shows share-based compensation expense and the related income tax benefit (in millions):"),
    ("head", ("2022", "2021", "2020")),
    ("row", ("Share-based compensation expense", "$ 9,038", "$ 7,906", "$ 6,829")),
    ("row", ("Income tax benefit related to share-based compensation expense", "$ (1,808)", "$ (2,265)", "$ (1,841)")),
    ("text", "Unconditional Purchase Obligations"),
    ("text", "The Company has entered into certain off-balance sheet commitments that require the future purchase of goods."),
    ("text", "Future payments under unconditional purchase obligations as of September 24, 2022, are as follows (in millions):"),
    ("row", ("2023", "", "", "$ 13,488")),
    ("row", ("2024", "", "", "4,876")),
    ("row", ("2025", "", "", "1,418")),
    ("row", ("2026", "", "", "6,780")),
    ("row", ("2027", "", "", "312")),
    ("row", ("Thereafter", "", "", "412")),
    ("row", ("Total", "", "", "$ 27,286")),
]


def _pdf(path):
    doc = pymupdf.open()
    page = doc.new_page()
    rights, y = (390, 470, 550), 50
    for kind, what in LINES:
        if kind == "text":
            page.insert_text((LEFT, y), what, fontsize=SIZE - 1)
        elif kind == "head":
            for x, t in zip(rights, what):
                _right(page, x, y, t)
        else:
            page.insert_text((LEFT, y), what[0], fontsize=SIZE)
            for x, v in zip(rights, what[1:]):
                if v:
                    _right(page, x, y, v)
        y += 15
    doc.save(path)


def test_a_schedule_under_another_table_answers_its_due_year(tmp_path, monkeypatch):
    _pdf(tmp_path / "NORTHWIND_2022_10K.pdf")
    doc = pymupdf.open(tmp_path / "NORTHWIND_2022_10K.pdf")
    text, words = doc[0].get_text(), doc[0].get_text("words")
    monkeypatch.setattr("agent.no_model.cited_rows.table_units", lambda doc_id, page, t: layout_units(words))
    monkeypatch.setattr("agent.no_model.cited_rows.fiscal_period", lambda doc_id: (None, None))
    monkeypatch.setattr("agent.no_model.cited_rows.fiscal_year_end", lambda doc_id: None)
    sources = [Source(source_id="[^1]", kind="document", doc_id="northwind-10k", page_number=0,
                      source_file="NORTHWIND_2022_10K.pdf", text=text, extra={"issuer": "Northwind"})]
    block = figure_block("What are Northwind's unconditional purchase obligations due in 2026?", sources,
                         lambda src: text, get_embedder())
    assert block and block[0] == INTRO and "$6,780" in block[1], block
