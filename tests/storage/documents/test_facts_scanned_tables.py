"""A scanned statement (an image-only page, or a text layer in a private font encoding that is read with OCR) has
its table read by the same layout reader as a text page (issue 27): the OCR engine's word boxes, in page points,
give each figure its period column, the table's caption its scale, and every fact the boxes its citation highlights."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from storage.documents import ocr
from storage.documents.extract import extract_pages
from storage.documents.facts import read_document, read_tables
from tests.storage.documents.layout_pages import Statement, filing

INCOME = Statement(["ACME CORPORATION", "CONSOLIDATED STATEMENTS OF INCOME", "(In millions, except per share data)"],
                   ["Years Ended December 31,", ["2023", "2022"]],
                   [("Net sales", "$ 4,120", "$ 3,880"), ("Cost of sales", "2,390", "2,225"), ("Operating income", "912", "846"),
                    ("Net income", "$ 655", "$ 590"), ("Diluted earnings per share", "$ 1.30", "$ 1.17")])


def _scanned(statement: Statement, dpi: int = 200) -> bytes:
    """The statement's page printed as one image, with no text layer: what a scanner makes of it."""
    with pymupdf.open(stream=filing([statement]), filetype="pdf") as text_pdf:
        png = text_pdf[0].get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY).tobytes("png")
        rect = text_pdf[0].rect
    out = pymupdf.open()
    out.new_page(width=rect.width, height=rect.height).insert_image(rect, stream=png)
    data = out.tobytes()
    out.close()
    return data


def _facts_at_ingestion(pdf: bytes, tmp_path: Path):
    words: dict = {}
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        pages, _, engine, _ = extract_pages(doc, tmp_path, lambda *a: None, words)
    assert pages[0].is_ocr and engine == "tesseract"
    return read_tables(pages, words).facts


def _one(facts, label: str, column: int):
    found = [f for f in facts if f.label == label and f.column == column]
    assert len(found) == 1, sorted({(f.label, f.column) for f in facts})
    return found[0]


def test_a_scanned_statement_is_read_by_layout_at_ingestion(tmp_path):
    if not ocr.TesseractOcr.available():
        pytest.fail("tesseract is not installed: scripts/setup.sh installs tesseract-ocr")
    facts = _facts_at_ingestion(_scanned(INCOME), tmp_path)
    sales = _one(facts, "Net sales", 1)
    assert (sales.value, sales.fiscal_year, sales.period_end, sales.unit, sales.scale) == (3880.0, 2022, "2022-12-31", "USD", 1e6)
    eps = _one(facts, "Diluted earnings per share", 0)
    assert (eps.value, eps.fiscal_year, eps.unit, eps.scale) == (1.30, 2023, "USD/share", 1.0)
    # the boxes are the page's points: the value's box lies at the right of its label's, on the same line
    assert sales.value_box and sales.label_box and sales.value_box[0] > sales.label_box[2]
    assert abs((sales.value_box[1] + sales.value_box[3]) - (sales.label_box[1] + sales.label_box[3])) < 8
    assert 420 < sales.value_box[2] < 560  # the second column's right edge, printed at x=545


def test_facts_added_to_an_older_build_read_its_scanned_pages_again(tmp_path):
    """`python -m storage.documents.facts --backfill` has only the stored OCR text: a page printing numbers is
    read with OCR again for its word boxes."""
    if not ocr.TesseractOcr.available():
        pytest.fail("tesseract is not installed: scripts/setup.sh installs tesseract-ocr")
    words: dict = {}
    with pymupdf.open(stream=_scanned(INCOME), filetype="pdf") as doc:
        pages, *_ = extract_pages(doc, tmp_path, lambda *a: None, None)  # a build made with text only
        assert not words and pages[0].is_ocr
        facts = read_document(doc, pages).facts
    net = _one(facts, "Net income", 0)
    assert (net.value, net.fiscal_year, net.scale) == (655.0, 2023, 1e6) and net.value_box is not None


def test_engines_that_box_runs_of_words_give_each_word_its_share():
    words = ocr.regions_to_words([([(100, 10), (300, 10), (300, 30), (100, 30)], "Net sales 4,120"),
                                  ([(400, 10), (440, 10), (440, 30), (400, 30)], "3,880")])
    assert [w[4] for w in words] == ["Net", "sales", "4,120", "3,880"]
    net, sales, first, second = words
    assert net[0] == 100 and net[2] < sales[0] < sales[2] < first[0] and abs(first[2] - 300) < 1e-9
    assert second[:4] == (400, 10, 440, 30)
