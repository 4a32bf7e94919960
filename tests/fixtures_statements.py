"""A financial statement PDF laid out like a 10-K page (written by PyMuPDF): a title, a period
header over two value columns, one row label at the left and its values at the right, so that
PyMuPDF's text layer comes out one cell per line as in real filings."""

from __future__ import annotations

from pathlib import Path

import pymupdf

HEADER = ("Years ended December 31,", "2019", "2018")
CASH_FLOW_ROWS = [
    ("Net earnings", "$8,197", "$10,460"),
    ("Depreciation and amortization", "2,271", "2,114"),
    ("Share-based plans expense", "202", "202"),
    ("Accounts receivable", "(795)", "(1,577)"),  # 2018 prints the same figure as the capex row below
    ("Inventories", "(12,391)", "(568)"),
    ("Net cash provided by operating activities", "(2,446)", "15,322"),
    ("Purchases of property, plant and equipment", "(1,834)", "(1,577)"),
    ("Proceeds from disposals of property, plant and equipment", "188", "182"),
    ("Acquisitions, net of cash acquired", "(72)", "(3,230)"),
    ("Net cash used by investing activities", "(1,530)", "(4,621)"),
    ("New borrowings", "13,524", "8,548"),
    ("Debt repayments", "(5,973)", "(7,183)"),
    ("Net cash used by financing activities", "5,739", "(11,722)"),
]
PROSE = (
    "Capital expenditures were lower in 2018 as the company completed its main expansion programme. "
    "Management expects capital spending to rise again as production rates increase."
)


def make_statement_pdf(path: Path, rows=CASH_FLOW_ROWS, header=HEADER, title="Consolidated Statements of Cash Flows",
                       prose: str = PROSE) -> Path:
    doc = pymupdf.open()
    page = doc.new_page()
    y = 60
    page.insert_text((56, y), "Northwind Aerospace", fontsize=11)
    page.insert_text((56, y + 16), title, fontsize=11)
    page.insert_text((56, y + 32), "(Dollars in millions)", fontsize=9)
    y += 56
    page.insert_text((300, y), header[0], fontsize=9)
    for i, period in enumerate(header[1:]):
        page.insert_text((420 + 70 * i, y + 12), period, fontsize=9)
    y += 30
    for label, *values in rows:
        page.insert_text((56, y), label, fontsize=9)
        for i, value in enumerate(values):
            page.insert_text((420 + 70 * i, y), value, fontsize=9)
        y += 14
    page.insert_textbox(pymupdf.Rect(56, y + 20, 540, y + 120), prose, fontsize=10)
    doc.new_page().insert_textbox(pymupdf.Rect(56, 56, 540, 400), "Notes to the financial statements. "
                                  "The company builds aircraft and provides services to airlines.", fontsize=11)
    doc.save(path)
    doc.close()
    return path
