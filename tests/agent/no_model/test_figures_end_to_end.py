"""A derived figure end to end: a generated two-statement filing, a question that defines its
formula over rows of both pages, answered without a model with the arithmetic and a citation to
each page that prints an input (the preview highlights each input's label and value)."""

from __future__ import annotations

import re

import pymupdf

from agent.run import run_turn
from storage.documents.ingest import process_and_index_pdf
from tests.fixtures_agent import context

STATEMENTS = [
    ("Consolidated Statements of Cash Flows", [("Net income", "5,021", "4,400"),
                                               ("Depreciation and amortization", "1,210", "1,150"),
                                               ("Net cash provided by operating activities", "7,245", "6,480"),
                                               ("Purchases of property and equipment", "(2,130)", "(1,877)")]),
    ("Consolidated Balance Sheets", [("Total current assets", "14,200", "13,100"),
                                     ("Accounts payable", "4,100", "3,900"),
                                     ("Total current liabilities", "9,880", "9,400"),
                                     ("Long-term debt", "30,512", "31,040")]),
]


def _filing(path):
    doc = pymupdf.open()
    for title, rows in STATEMENTS:
        page = doc.new_page()
        page.insert_text((56, 60), "Fabrikam Tools", fontsize=11)
        page.insert_text((56, 76), title, fontsize=11)
        page.insert_text((56, 92), "(Dollars in millions)", fontsize=9)
        page.insert_text((300, 116), "Years ended December 31," if "Flows" in title else "December 31,", fontsize=9)
        for i, year in enumerate(("2022", "2021")):
            page.insert_text((420 + 70 * i, 128), year, fontsize=9)
        y = 150
        for label, *values in rows:
            page.insert_text((56, y), label, fontsize=9)
            for i, value in enumerate(values):
                page.insert_text((420 + 70 * i, y), value, fontsize=9)
            y += 14
    doc.save(path)
    doc.close()
    return path


def test_a_question_defined_ratio_over_two_statements(pdf_home):
    processed = process_and_index_pdf(_filing(pdf_home / "source" / "fabrikam_2022_10k.pdf"))
    question = ("The operating cash flow ratio is defined as net cash provided by operating activities divided by "
                "total current liabilities. What was it in 2022?")
    result = run_turn(context(), question, selected_doc_ids=[processed.doc_id])
    line = next(x for x in result.message.splitlines() if "(computed)" in x)
    m = re.fullmatch(r"- Operating cash flow ratio, fiscal 2022 = net cash provided by operating activities 7,245 / "
                     r"total current liabilities 9,880 = 0\.73 \(computed\) (\[\^\d+\])(\[\^\d+\])", line)
    assert m, result.message
    pages = {c.marker: c.metadata.page for c in result.citations}
    assert {pages[m.group(1)], pages[m.group(2)]} == {1, 2}  # the cash flow page and the balance sheet page
    quotes = {q for c in result.citations for q in (c.metadata.quotes or [])}
    assert {"Net cash provided by operating activities … 7,245", "Total current liabilities … 9,880"} <= quotes
