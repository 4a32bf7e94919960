"""Running headers, footers and page numbers belong to no table: a statement page answers the same
with and without them (generated filings, words placed at positions)."""

from __future__ import annotations

import re

import pymupdf
import pytest

from agent.run import run_turn
from storage.documents.ingest import process_and_index_pdf
from storage.documents.page_furniture import (
    EdgeLine, drop_furniture, drop_furniture_text, furniture_keys, mask, page_lines, text_edges,
)
from tests.fixtures_agent import context
from tests.storage.documents.statement_pdfs import RUNNING_HEADER, statement_filing

QUESTIONS = ["What were net sales in 2022?", "What was diluted earnings per share in 2021?",
             "What were total assets at the end of 2022?"]


def _answers(pdf_home, name, header):
    processed = process_and_index_pdf(statement_filing(pdf_home / "source" / name, running_header=header))
    out = []
    for question in QUESTIONS:
        message = run_turn(context(), question, selected_doc_ids=[processed.doc_id]).message
        out.append(next((line for line in message.splitlines() if line.startswith("- ") and " — " in line), message))
    return out


def test_a_running_header_changes_no_answer(pdf_home):
    plain = _answers(pdf_home, "northwind_plain.pdf", None)
    with_header = _answers(pdf_home, "northwind_header.pdf", RUNNING_HEADER)
    assert "$34,229 million" in plain[0] and "$2.08 per share" in plain[1] and "$61,450 million" in plain[2], plain
    strip = [re.sub(r"\[\^\d+\]", "", line) for line in with_header]
    assert strip == [re.sub(r"\[\^\d+\]", "", line) for line in plain]


def _doc_lines(path):
    with pymupdf.open(path) as doc:
        return [(p.get_text("words"), p.rect.height) for p in doc]


def test_furniture_is_the_repeated_band_lines_and_page_numbers(tmp_path):
    pages = _doc_lines(statement_filing(tmp_path / "f.pdf", running_header=RUNNING_HEADER, prose_pages=3))
    keys = furniture_keys([page_lines(w, h) for w, h in pages])
    assert keys == {"northwind beverages, inc. annual report on form #-k fiscal year #", "#"}
    words, height = pages[3]  # the income statement
    kept = {str(w[4]) for w in drop_furniture(words, height, keys)}
    assert "ANNUAL" not in kept and "44" not in kept and {"Northwind", "CONSOLIDATED", "34,229"} <= kept


def test_the_registrant_above_a_statement_title_is_kept(tmp_path):
    # the registrant's name stands above the title of every statement page: not furniture
    doc = pymupdf.open()
    for n in range(4):
        page = doc.new_page()
        page.insert_text((56, 40), "PACIFIC GAS AND ELECTRIC COMPANY", fontsize=10)
        page.insert_text((56, 56), "CONSOLIDATED BALANCE SHEETS" if n % 2 else "CONSOLIDATED STATEMENTS OF INCOME", fontsize=10)
        page.insert_text((56, 200), "Total assets 1,000 900", fontsize=9)
    doc.save(tmp_path / "pge.pdf")
    pages = _doc_lines(tmp_path / "pge.pdf")
    assert furniture_keys([page_lines(w, h) for w, h in pages]) == frozenset()


@pytest.mark.parametrize("line", ["43", "Page 43", "- 43 -", "F-12", "43 | Northwind Beverages", "Table of Contents"])
def test_page_numbers_and_contents_links_leave_an_ocr_page(line):
    text = f"{line}\nCONSOLIDATED BALANCE SHEETS\nTotal assets\n61,450\n58,920"
    assert drop_furniture_text(text, frozenset()) == "CONSOLIDATED BALANCE SHEETS\nTotal assets\n61,450\n58,920"


def test_a_single_value_line_inside_a_page_stays():
    text = "CONSOLIDATED BALANCE SHEETS\nTotal assets\n61,450\n58,920\nOther\n43\nTotal\n1,000\n2,000"
    assert drop_furniture_text(text, frozenset()) == text


def test_a_value_among_the_last_lines_of_an_ocr_page_stays():
    text = "CONSOLIDATED BALANCE SHEETS\nTotal assets\n61,450\n58,920\nOther\n43\n12"
    assert drop_furniture_text(text, frozenset()) == "CONSOLIDATED BALANCE SHEETS\nTotal assets\n61,450\n58,920\nOther\n43"


def test_a_page_texts_edge_lines_are_its_first_and_last_three_non_empty_lines_once():
    text = "ACME  CORP   10-K\n\nTitle\nTotal assets\n61,450\n58,920\nOther\n\n43"
    assert text_edges(text) == [(0, "ACME CORP 10-K"), (2, "Title"), (3, "Total assets"), (5, "58,920"), (6, "Other"), (8, "43")]
    assert text_edges("One\n\nTwo\nThree\nFour") == [(0, "One"), (2, "Two"), (3, "Three"), (4, "Four")]
    assert text_edges("\n \n") == []


def test_the_furniture_of_an_ocr_page_text_is_told_from_the_same_edge_lines():
    pages = [f"ACME CORP  2023 FORM 10-K\nPart {c}\nText {c}.\nMiddle.\nMiddle.\nEnd {c}.\nClose {c}\n{40 + n}"
             for n, c in enumerate("ABCDEF")]
    keys = furniture_keys([[EdgeLine(mask(s), s, False) for _, s in text_edges(t)] for t in pages])
    assert keys == frozenset({"acme corp # form #-k", "#"})
    assert drop_furniture_text(pages[2], keys) == "Part C\nText C.\nMiddle.\nMiddle.\nEnd C.\nClose C"
