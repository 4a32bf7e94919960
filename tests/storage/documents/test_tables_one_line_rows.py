"""Tables printed one row per text line (label and values together, as generated PDFs and some
filings lay them out): read as rows with their period header when answering, while the chunks'
text stays as ingested."""

from __future__ import annotations

import re
from pathlib import Path

import pymupdf
import pytest

from agent.citations.answer import build_answer
from agent.run import run_turn
from storage.documents import chunking
from storage.documents.chunking import chunk_pages
from storage.documents.ingest import process_and_index_pdf
from storage.schema import PageContent
from storage.documents.tables import is_one_line_row, page_units, row_cells
from tests.fixtures_agent import context
from ui.citations import cited_words
from ui.page_images import find_passage_rects

HEADER = "Years ended December 31, 2019 2018 2017"
ROWS = [
    "Net sales $ 12,645 $ 11,876 $ 10,980",
    "Cost of sales (8,100) (7,650) (7,020)",
    "Gross profit 4,545 4,226 3,960",
    "Research and development expense 912 884 801",
    "Number of stores at year end 1,024 1,008 995",
]
PROSE = "Research spending rose as the company opened two laboratories. Sales grew in every region."


def make_one_line_statement_pdf(path: Path) -> Path:
    """Each row written as one string, so PyMuPDF's text layer prints it on one line."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((56, 60), "Contoso Instruments", fontsize=11)
    page.insert_text((56, 76), "Consolidated Statements of Operations", fontsize=11)
    page.insert_text((56, 92), "(Dollars in thousands)", fontsize=9)
    y = 116
    for line in [HEADER, *ROWS]:
        page.insert_text((56, y), line, fontsize=9)
        y += 14
    page.insert_textbox(pymupdf.Rect(56, y + 20, 540, y + 120), PROSE, fontsize=10)
    doc.save(path)
    doc.close()
    return path


def _page_text(path: Path) -> str:
    with pymupdf.open(path) as doc:
        return doc[0].get_text()


def test_the_generated_pdf_prints_each_row_on_one_line(tmp_path):
    text = _page_text(make_one_line_statement_pdf(tmp_path / "s.pdf"))
    lines = [" ".join(line.split()) for line in text.splitlines()]
    assert HEADER in lines and ROWS[0] in lines  # the layout this file is about


def test_one_line_rows_get_their_period_cells(tmp_path):
    text = _page_text(make_one_line_statement_pdf(tmp_path / "s.pdf"))
    cells = {c[0].label: {x.period: x.value for x in c}
             for u in page_units(text, one_line_rows=True) if (c := row_cells(u))}
    assert cells["Net sales"] == {"Years ended December 31, 2019": "$12,645",
                                  "Years ended December 31, 2018": "$11,876",
                                  "Years ended December 31, 2017": "$10,980"}
    assert cells["Cost of sales"]["Years ended December 31, 2018"] == "(7,650)"
    assert cells["Number of stores at year end"]["Years ended December 31, 2017"] == "995"
    assert len(cells) == len(ROWS)
    # without the option (chunking) nothing changes: no cells, the same units as before
    assert not any(row_cells(u) for u in page_units(text))


def test_chunking_reads_pages_without_one_line_rows(tmp_path):
    """Chunking reads pages without the option, so the ingested chunk text is as before (no
    pipeline bump): the one-line rows stay prose lines there."""
    text = _page_text(make_one_line_statement_pdf(tmp_path / "s.pdf"))
    assert not any(u.is_table_row for u in chunking.page_units(text))
    chunks = chunk_pages([PageContent(page_number=0, text=text)], "s.pdf", "doc")
    assert ROWS[0] in " ".join(c.text for c in chunks)


@pytest.mark.parametrize("line", [
    "Level 1 Level 2 Level 3",  # column headers
    "Impairment (1) (2)",  # footnote marks
    "Directors (2015) (2016)",  # years
    "Category 1 2 3",  # column numbers
    "Years ended June 30, 2019 2018",  # a period header stays a header line
    "The company sold 1,200 units. Revenue was 3,400 5,600",  # prose
    "revenue of the segment 1,200 3,400",  # a wrapped sentence's continuation
])
def test_lines_that_are_not_one_line_rows(line):
    assert not is_one_line_row(line)


@pytest.mark.parametrize("line", ["Net sales $ 1,234 $ 1,100", "Gross margin 35.2% 36.4%",
                                  "Stores at end of year 12 11 9", "(Loss) income before taxes (12.5) 40.1"])
def test_one_line_rows(line):
    assert is_one_line_row(line)


@pytest.mark.parametrize("question, period, value", [
    ("What was net sales in fiscal 2018?", "Years ended December 31, 2018", "$11,876"),
    ("How much did Contoso spend on research and development in 2017?", "Years ended December 31, 2017", "$801"),
])
def test_figure_question_is_answered_from_a_one_line_table(pdf_home, question, period, value):
    path = make_one_line_statement_pdf(pdf_home / "source" / "contoso_2019_10k.pdf")
    processed = process_and_index_pdf(path)
    result = run_turn(context(), question, selected_doc_ids=[processed.doc_id])
    m = re.search(r"^- (?P<label>.+) \((?P<period>[^()]+)\): (?P<value>\S+)(?: (?:thousand|million|billion)| per share)?(?: — [^\n]+?)? \[\^\d+\]$", result.message, re.MULTILINE)
    assert m, result.message
    assert (m["period"], m["value"]) == (period, value)


def test_preview_highlights_the_cell_of_a_one_line_row(pdf_home):
    path = make_one_line_statement_pdf(pdf_home / "source" / "contoso_2019_10k.pdf")
    processed = process_and_index_pdf(path)
    src = {"source_id": "[^1]", "kind": "document", "text": "…", "doc_id": processed.doc_id,
           "source_file": processed.source_file, "page_number": 0, "chunk_id": 0}
    answer = build_answer("- Net sales (Years ended December 31, 2018): $11,876 [^1]", {"[^1]": src},
                          knowledge=False, mode="extractive")
    (citation,) = answer.citations
    with pymupdf.open(path) as doc:
        page = doc[0]
        rects = find_passage_rects(page, cited_words(citation))
        assert rects == [page.search_for("Net sales")[0], page.search_for("11,876")[0]]
