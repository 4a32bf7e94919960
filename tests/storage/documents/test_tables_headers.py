"""Tables that read alone: rows rebuilt with their period headers; a chunk holding rows without
their header starts with it."""

from __future__ import annotations

import pymupdf

from storage.documents.chunking import chunk_pages, embedding_text
from storage.schema import PageContent
from storage.documents.tables import page_units, row_cells
from tests.fixtures_statements import CASH_FLOW_ROWS, make_statement_pdf


def _cells(text: str) -> dict[str, dict[str, str]]:
    """row label -> {column period: value} for every row whose values map onto its header."""
    return {cells[0].label: {c.period: c.value for c in cells} for u in page_units(text) if (cells := row_cells(u))}


def test_rows_of_a_statement_get_their_period_columns(tmp_path):
    pdf = make_statement_pdf(tmp_path / "s.pdf")
    text = pymupdf.open(pdf)[0].get_text()
    cells = _cells(text)
    capex = cells["Purchases of property, plant and equipment"]
    assert capex == {"Years ended December 31, 2019": "(1,834)", "Years ended December 31, 2018": "(1,577)"}
    assert len(cells) == len(CASH_FLOW_ROWS)


def test_headers_of_real_filing_layouts():
    # Boeing: "December 31," then the years, one cell per line
    boeing = "Consolidated Statements of Financial Position\nDecember 31,\n2018\n2017\nAssets\nInventories\n62,567\n61,388\n"
    assert _cells(boeing)["Inventories"] == {"December 31, 2018": "62,567", "December 31, 2017": "61,388"}
    # Best Buy 10-Q: two spans over four dates, "$" and values on shared lines
    bby = ("Three Months Ended\n \nSix Months Ended\nJuly 29, 2023\n \nJuly 30, 2022\n \nJuly 29, 2023\n \nJuly 30, 2022\n"
           "Revenue\n$\n 9,583   $\n 10,329   $\n 19,050   $\n 20,976  \nCost of sales\n \n 7,363 \n 8,042 \n 14,680 \n 16,336 \n")
    cells = _cells(bby)
    assert cells["Revenue"]["Six Months Ended July 29, 2023"] == "$19,050"
    assert cells["Cost of sales"] == {"Three Months Ended July 29, 2023": "7,363", "Three Months Ended July 30, 2022": "8,042",
                                      "Six Months Ended July 29, 2023": "14,680", "Six Months Ended July 30, 2022": "16,336"}
    # Best Buy 10-K: dates on their own lines, section labels between header and first row
    bby_k = "February 2, 2019\nFebruary 3, 2018\nAssets\nCurrent assets\nMerchandise inventories\n5,409\n5,209\n"
    assert _cells(bby_k)["Merchandise inventories"] == {"February 2, 2019": "5,409", "February 3, 2018": "5,209"}


def test_a_paragraph_ends_the_table():
    text = ("December 31,\n2018\n2017\nInventories\n62,567\n61,388\n"
            "The company reviews its inventories every quarter and writes down obsolete parts as needed by the programs.\n"
            "Backlog\n490\n474\n")
    units = page_units(text)
    backlog = next(u for u in units if u.text.startswith("Backlog"))
    assert backlog.header is None and row_cells(backlog) == []


def test_every_table_chunk_carries_its_headers(tmp_path):
    pdf = make_statement_pdf(tmp_path / "s.pdf")
    text = pymupdf.open(pdf)[0].get_text()
    chunks = chunk_pages([PageContent(page_number=0, text=text)], "s.pdf", "s-1", max_chars=260, overlap_chars=40)
    with_rows = [c for c in chunks if any(label in c.text for label, *_ in CASH_FLOW_ROWS)]
    assert len(with_rows) >= 3  # the table is split over several chunks
    for chunk in with_rows:
        lines = chunk.text.splitlines()
        has_header = "Years ended December 31, 2019 2018" in lines or (
            "Columns: Years ended December 31, 2019 | Years ended December 31, 2018" in lines)
        assert has_header, chunk.text
        body = [line for line in lines if not line.startswith("Columns: ")]
        assert len("\n".join(body)) <= 260  # the header line comes on top of the chunk size
        assert embedding_text(chunk) == "\n".join(body)
    capex = next(c for c in chunks if "Purchases of property, plant and equipment (1,834) (1,577)" in c.text)
    assert capex.text.splitlines()[0].startswith("Columns: Years ended December 31, 2019")
