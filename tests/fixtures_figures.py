"""Generated statement pages for the figure answers: each page a list of tables (caption, section
and unit caption, column headers, rows), served to agent/no_model/cited_rows.py as the `Unit`s
storage/documents/page_tables.py gives (rows with their period header, section and unit), so the tests
exercise row, section and column choice whatever parser reads a real page."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from storage.documents.tables import TableHeader, Unit
from storage.schema import Source


@dataclass
class Table:
    columns: tuple[str, ...]
    rows: list[tuple[str, ...]]  # (label, value, value, ...)
    caption: str = ""  # the short line above the header ("Americas Segment")
    unit: str = "in millions, except per share data"
    sections: dict[int, str] = field(default_factory=dict)  # row index -> section starting there


def units_of(tables: list[Table]) -> list[Unit]:
    units: list[Unit] = []
    for table in tables:
        if table.caption:
            units.append(Unit(table.caption, False))
        header = TableHeader(" ".join(table.columns), table.columns)
        units.append(Unit(" ".join(table.columns), True, header, is_header=True))
        section = ""
        for i, (label, *values) in enumerate(table.rows):
            if i in table.sections:
                section = table.sections[i]
                units.append(Unit(section, False))
            units.append(Unit(f"{label} {' '.join(values)}", True, header, section=section, unit=table.unit))
        units.append(Unit("The accompanying notes are an integral part of these consolidated financial statements.", False))
    return units


def page_text(tables: list[Table]) -> str:
    return "\n".join(u.text for u in units_of(tables))


@pytest.fixture
def pages(monkeypatch):
    """`pages({page_number: [Table, ...]}, docs={page_number: doc_id})` -> (sources in page order,
    page_text lookup); the figure code reads each page's units from the tables."""
    def make(by_page: dict[int, list[Table]], docs: dict[int, str] | None = None):
        monkeypatch.setattr("agent.no_model.cited_rows.table_units",
                            lambda doc_id, page, text: units_of(by_page[page]))
        docs = docs or {}
        sources = [Source(source_id=f"[^{i}]", kind="document", doc_id=docs.get(p, "acme-10k"), page_number=p,
                          source_file="ACME_2022_10K.pdf", text=page_text(tables))
                   for i, (p, tables) in enumerate(by_page.items(), 1)]
        return sources, lambda src: page_text(by_page[src.page_number])
    return make


YEARS = ("Years Ended December 31, 2022", "Years Ended December 31, 2021")
BALANCE = ("December 31, 2022", "December 31, 2021")
INCOME = Table(YEARS, [
    ("Net sales", "$ 52,417", "$ 48,300"),
    ("Cost of sales", "30,100", "27,000"),
    ("Gross profit", "22,317", "21,300"),
    ("Operating income", "6,912", "6,010"),
    ("Net income", "5,021", "4,400"),
    ("Diluted", "$ 6.11", "$ 5.30"),
], sections={5: "Earnings per share:"})
CASH_FLOW = Table(YEARS, [
    ("Net income", "5,021", "4,400"),
    ("Depreciation and amortization", "1,210", "1,150"),
    ("Net cash provided by operating activities", "7,245", "6,480"),
    ("Purchases of property and equipment", "(2,130)", "(1,877)"),
    ("Net cash used in investing activities", "(2,400)", "(2,001)"),
    ("Net increase in cash and cash equivalents", "812", "455"),
    ("Cash and cash equivalents at end of year", "$ 4,950", "$ 4,138"),
])
BALANCE_SHEET = Table(BALANCE, [
    ("Cash and cash equivalents", "$ 4,950", "$ 4,138"),
    ("Total current assets", "14,200", "13,100"),
    ("Total assets", "$ 61,000", "$ 58,500"),
    ("Short-term borrowings", "1,000", "900"),
    ("Current portion of long-term debt", "3,096", "2,750"),
    ("Total current liabilities", "9,880", "9,400"),
    ("Long-term debt, net of current portion", "30,512", "31,040"),
], sections={0: "Current assets", 3: "Current liabilities", 6: "Long-term liabilities"})
