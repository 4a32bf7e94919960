"""Generated statement filings for the facts tests: a 10-K's statement pages printed by layout_pages."""

from __future__ import annotations

from pathlib import Path

from tests.storage.documents.layout_pages import Statement, filing

INCOME_ROWS = [("Net sales", "$ 34,229", "$ 31,102"), ("Cost of sales", "19,232", "17,380"),
               ("Gross profit", "14,997", "13,722"), ("Operating income", "5,102", "4,811"),
               ("Net income", "3,877", "3,501"), ("Diluted earnings per share", "$ 2.31", "$ 2.08")]
BALANCE_ROWS = [("Cash and cash equivalents", "$ 4,120", "$ 3,880"), ("Total current assets", "14,200", "13,100"),
                ("Total assets", "61,450", "58,920"), ("Total current liabilities", "9,880", "9,400")]
RUNNING_HEADER = "NORTHWIND BEVERAGES, INC. ANNUAL REPORT ON FORM 10-K FISCAL YEAR 2022"


def statement_filing(path, caption="(Millions)", running_header: str | None = None, prose_pages: int = 2):
    """A filing: `prose_pages` pages of prose, an income statement, a balance sheet; each page with
    `running_header` at its top and its page number at its foot when given (tests/storage/documents/layout_pages.py)."""
    statements = [Statement(["Northwind Beverages, Inc.", title, caption], [period, ["2022", "2021"]], rows, row_pitch=14)
                  for title, period, rows in (("CONSOLIDATED STATEMENTS OF INCOME", "Years ended December 31,", INCOME_ROWS),
                                              ("CONSOLIDATED BALANCE SHEETS", "December 31,", BALANCE_ROWS))]
    Path(path).write_bytes(filing(statements, running_header or "", footer=bool(running_header), prose_pages=prose_pages))
    return path
