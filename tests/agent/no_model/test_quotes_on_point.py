"""Quotes under an answer say something about the asked item or its period (issue 29.2): never a
company's defined terms, its state of incorporation, a bare column header, a section title or a
row of another item; at most three; none rather than filler. A curated knowledge item quoted
under a question naming a line item is about that item."""

from __future__ import annotations

import re

import pytest

from agent.knowledge_base import about_asked_items, get_knowledge_base
from storage.schema import Source
from agent.no_model.extractive import (MAX_SUPPORTING, compose_extractive_answer, is_header, is_title, on_point,
                                      question_focus)
from tests.fixtures_figures import Table, page_text, units_of

INCOME = Table(("Fiscal Year 2020", "Fiscal Year 2019"), [
    ("Net sales", "$ 17,626.6", "$ 16,865.2"),
    ("Cost of sales", "11,496.7", "11,108.4"),
    ("Selling, general and administrative expenses", "3,151.6", "2,935.8"),
    ("Restructuring, impairment, and other exit costs", "24.4", "275.1"),
    ("Operating profit", "2,953.9", "2,515.9"),
], unit="In Millions")
FILLER = [
    "Northwind Foods, Inc. was incorporated in Delaware in 1928.",
    "The terms “Northwind,” “Company,” “we,” “us,” and “our” mean Northwind Foods, Inc. and its subsidiaries.",
    "In Millions 2020 2019",
    "Fiscal Year 2020 2019 2018",
    "Results of Consolidated Operations and Segment Review",
    "Other, net 123.5 (45.1) 67.8",
]
ON_POINT = [
    "Net sales for fiscal 2020 increased 5 percent to $17.6 billion, driven by higher pound volume.",
    "Fiscal 2020 included a 53rd week, which added $274 million to net sales.",
]


@pytest.fixture
def filing(monkeypatch):
    """Two pages: the income statement, and a page mixing boilerplate, headers and the results prose."""
    monkeypatch.setattr("agent.no_model.cited_rows.table_units", lambda doc_id, page, text: units_of([INCOME]) if page == 0 else [])
    texts = {0: page_text([INCOME]), 1: "\n\n".join(FILLER[:2] + [FILLER[4], FILLER[2], FILLER[5], ON_POINT[0], FILLER[3], ON_POINT[1]])}
    sources = [Source(source_id=f"[^{i}]", kind="document", doc_id="northwind-10k", page_number=p,
                      source_file="NORTHWIND_2020_10K.pdf", text=texts[p]) for i, p in ((1, 0), (2, 1))]
    return sources, lambda src: texts[src.page_number]


def _quotes(text: str) -> list[str]:
    return re.findall(r"^- “(.+)” \[\^\d+\]$", text, re.M)


def test_supporting_passages_name_the_item_or_its_period(filing):
    sources, lookup = filing
    text, usable = compose_extractive_answer("What were net sales in fiscal 2020?", sources, lookup)
    assert usable and "17,626.6" in text.split("Supporting passages")[0]  # the figure leads
    quotes = _quotes(text)
    assert quotes and len(quotes) <= MAX_SUPPORTING, text
    assert not set(quotes) & set(FILLER), text
    assert all(q in ON_POINT or q.startswith("Net sales") for q in quotes), text


def test_no_quote_rather_than_filler(filing):
    sources, lookup = filing
    # the income statement alone answers; the other page holds nothing about interest expense
    text, _ = compose_extractive_answer("What was interest expense in fiscal 2020?", sources[1:], lookup)
    assert not set(_quotes(text)) & set(FILLER), text


def test_on_point_reads_rows_by_their_item_and_prose_by_item_or_period():
    net_sales = question_focus("What were net sales in fiscal 2020?")
    assert on_point("Net sales 17,626.6 16,865.2", net_sales)
    assert not on_point("Cost of sales 11,496.7 11,108.4", net_sales)  # another item's row, though it says "sales"
    assert on_point("Fiscal 2020 included a 53rd week.", net_sales)
    assert not on_point("Fiscal Year 2020 2019 2018", net_sales)  # a header states years, nothing about them
    assert not on_point("Northwind Foods, Inc. was incorporated in Delaware in 1928.", net_sales)
    gross = question_focus("Does the company have an improving gross margin profile as of FY2023?")
    assert on_point("Gross profit 22,317 21,300", gross) and on_point("Net sales 52,417 48,300", gross)  # its inputs
    assert not on_point("Operating income 6,912 6,010", gross)
    assert is_header("In Millions, Except Per Share Data 2019 2018") and not is_header("Net sales 17,626.6")
    assert not question_focus("Is the business subject to cyclicality?")  # no line item: no focus


def test_no_answer_quotes_a_section_title(filing):
    sources, lookup = filing
    text, _ = compose_extractive_answer("What did results of consolidated operations look like?", sources[1:], lookup)
    assert "Results of Consolidated Operations and Segment Review" not in _quotes(text), text
    assert is_title("Note 5 - Acquisitions and Divestitures") and is_title("Northwind Foods and Subsidiaries")
    assert not is_title("Net sales increased 5 percent.") and not is_title("Sales of products $55,893 $51,386")


def test_knowledge_items_are_about_the_asked_item():
    kb = get_knowledge_base()
    operating = kb.get("Q304")  # "How do I compute the operating margin?"
    assert not about_asked_items(operating, "What was the gross margin in fiscal 2022?")
    assert about_asked_items(operating, "How did the operating margin change in 2022?")
    assert about_asked_items(operating, "How is profitability measured?")  # no line item named: similarity decides
    assert "Q304" not in [i.id for i in kb.search("How is the gross margin computed?")]
    assert "Q304" in [i.id for i in kb.search("How is the operating margin computed?")]
