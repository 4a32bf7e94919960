"""Generated statement filings for the facts tests: words placed at positions like a 10-K's pages."""

from __future__ import annotations

import pymupdf

INCOME_ROWS = [("Net sales", "$ 34,229", "$ 31,102"), ("Cost of sales", "19,232", "17,380"),
               ("Gross profit", "14,997", "13,722"), ("Operating income", "5,102", "4,811"),
               ("Net income", "3,877", "3,501"), ("Diluted earnings per share", "$ 2.31", "$ 2.08")]
BALANCE_ROWS = [("Cash and cash equivalents", "$ 4,120", "$ 3,880"), ("Total current assets", "14,200", "13,100"),
                ("Total assets", "61,450", "58,920"), ("Total current liabilities", "9,880", "9,400")]
RUNNING_HEADER = "NORTHWIND BEVERAGES, INC. ANNUAL REPORT ON FORM 10-K FISCAL YEAR 2022"


def statement_filing(path, caption="(Millions)", running_header: str | None = None, prose_pages: int = 2):
    """A filing: `prose_pages` pages of prose, an income statement, a balance sheet; each page with
    `running_header` at its top and its page number at its foot when given."""
    doc = pymupdf.open()
    statements = [("CONSOLIDATED STATEMENTS OF INCOME", "Years ended December 31,", INCOME_ROWS),
                  ("CONSOLIDATED BALANCE SHEETS", "December 31,", BALANCE_ROWS)]

    def new_page():
        page = doc.new_page()
        if running_header:  # printed first, as filings' page templates do
            page.insert_text((56, 40), running_header, fontsize=8)
            page.insert_text((300, 760), f"{doc.page_count + 40}", fontsize=8)
        return page

    for n in range(prose_pages):
        page = new_page()
        page.insert_text((56, 110), f"Item {n + 7}. Management's discussion of results for the year.", fontsize=10)
        page.insert_text((56, 126), "Our business sells beverages through distributors in many markets.", fontsize=10)
    for title, period, rows in statements:
        page = new_page()
        page.insert_text((56, 100), "Northwind Beverages, Inc.", fontsize=11)
        page.insert_text((56, 116), title, fontsize=11)
        page.insert_text((56, 132), caption, fontsize=9)
        page.insert_text((380, 150), period, fontsize=9)
        for i, year in enumerate(("2022", "2021")):
            page.insert_text((420 + 70 * i, 162), year, fontsize=9)
        y = 184
        for label, *values in rows:
            page.insert_text((56, y), label, fontsize=9)
            for i, value in enumerate(values):
                width = pymupdf.get_text_length(value, fontsize=9)
                page.insert_text((460 + 70 * i - width, y), value, fontsize=9)  # right-aligned
            y += 14
    doc.save(path)
    doc.close()
    return path
