"""The primary statement is the record of a company-level line item: a note or an investee's table
printing the same label with other values does not make the figure ambiguous, nor answer."""

from __future__ import annotations

import pymupdf
import pytest

from storage.documents.page_tables import is_primary_statement
from agent.run import run_turn
from storage.documents.ingest import process_and_index_pdf
from tests.fixtures_agent import context

PAGES = [
    ("Note 7 - Equity method investment: summarised income of the investee",
     "The Company's investee, Adatum, reported the following summarised results:",
     [("Revenue", "1,742", "1,450"), ("Gross profit", "571", "147"), ("Net income", "65", "3")]),
    ("CONSOLIDATED STATEMENTS OF INCOME", "(In millions, except per share amounts)",
     [("Net revenues", "9,795", "10,420"), ("Cost of net revenues", "2,680", "2,650"), ("Gross profit", "7,115", "7,770"),
      ("Operating income", "2,350", "2,962"), ("Net income", "(1,269)", "13,608")]),
]


def _filing(path):
    doc = pymupdf.open()
    for title, caption, rows in PAGES:
        page = doc.new_page()
        page.insert_text((56, 60), "Fabrikam Marketplaces, Inc.", fontsize=11)
        page.insert_text((56, 76), title, fontsize=11)
        page.insert_text((56, 92), caption, fontsize=9)
        page.insert_text((400, 116), "Year Ended December 31,", fontsize=9)
        for i, year in enumerate(("2022", "2021")):
            page.insert_text((420 + 70 * i, 128), year, fontsize=9)
        for k, (label, *values) in enumerate(rows):
            page.insert_text((56, 150 + 14 * k), label, fontsize=9)
            for i, value in enumerate(values):
                page.insert_text((420 + 70 * i, 150 + 14 * k), value, fontsize=9)
    doc.save(path)
    doc.close()
    return path


@pytest.mark.parametrize("text,primary", [
    ("Fabrikam Inc.\nCONSOLIDATED STATEMENTS OF OPERATIONS\n(In millions)\nNet sales 1 2", True),
    ("Condensed Consolidated Balance Sheets (Unaudited)\nAssets", True),
    ("Note 4\nThe following reconciles segment income to the Consolidated Statements of Operations for 2022", False),
])
def test_a_primary_statement_page_is_told_by_its_title(text, primary):
    assert is_primary_statement(text) is primary


def test_the_income_statement_row_answers_not_the_investee_note(pdf_home):
    processed = process_and_index_pdf(_filing(pdf_home / "source" / "fabrikam_2022_10k.pdf"))
    result = run_turn(context(), "What was gross profit in 2021?", selected_doc_ids=[processed.doc_id])
    lead = next(line for line in result.message.splitlines() if line.startswith("- "))
    assert "7,770" in lead and "147" not in lead, result.message


def test_the_statement_pages_tool_returns_the_page_of_record(pdf_home):
    """The tool a figure question falls back on when its cited pages print no row: the primary
    statement pages that print the asked line item, as citable page sources; none for a note."""
    from agent.tools import statement_sources

    processed = process_and_index_pdf(_filing(pdf_home / "source" / "fabrikam_2022_10k.pdf"))
    state = {"selected_doc_ids": [processed.doc_id]}
    sources, _, ok = statement_sources(state, "What was gross profit in 2021?")
    assert ok and [(s.kind, s.page_number) for s in sources] == [("page", 1)]  # the income statement, not the note
    assert statement_sources(state, "What was the dividend per share?")[2] is False  # printed by no statement page
