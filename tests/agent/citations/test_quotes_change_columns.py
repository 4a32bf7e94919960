"""A quoted table row's preview names each column's period (issue 29.4): a change column printed
"Change / 2023 vs 2022" is one column, "Change 2023 vs 2022", never read as period 2023 ("Change
2023") nor split into two; a period column is its year. Tables on generated PDFs, read by layout and
by the text parser (OCR pages, pages without a layout table)."""

from __future__ import annotations

import pymupdf
import pytest

from agent.citations import quotes
from agent.citations.quotes import ROW_GAP, row_columns, shown_columns
from storage.documents.facts import read_document
from storage.documents.tables import page_units
from storage.schema import PageContent

ROWS = [("Net sales", "1,200", "1,000", "20%"), ("Cost of sales", "700", "650", "8%"),
        ("Gross profit", "500", "350", "43%"), ("Operating income", "210", "150", "40%")]
# (header lines: (x, y, text)) as 10-Ks print a change column over or beside the years
HEADERS = {
    "change over the pair": [(300, 100, "Year Ended December 31,"), (480, 100, "Change"),
                             (300, 112, "2023"), (380, 112, "2022"), (470, 112, "2023 vs 2022")],
    "one line": [(300, 112, "2023"), (380, 112, "2022"), (470, 112, "Change 2023 vs 2022")],
    "percent change": [(300, 100, "Fiscal Year"), (470, 100, "% Change"),
                       (300, 112, "2023"), (380, 112, "2022"), (460, 112, "2023 vs. 2022")],
}


def _page(header):
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((56, 60), "Results of Operations", fontsize=11)
    page.insert_text((56, 76), "(In millions)", fontsize=9)
    for x, y, text in header:
        page.insert_text((x, y), text, fontsize=9)
    y = 130
    for label, *values in ROWS:
        page.insert_text((56, y), label, fontsize=9)
        for x, v in zip((300, 380, 480), values):
            page.insert_text((x, y), v, fontsize=9)
        y += 14
    return doc, page.get_text()


def _units(name, reader):
    doc, text = _page(HEADERS[name])
    if reader == "layout":
        return read_document(doc, [PageContent(page_number=0, text=text)]).layout[0], text
    return page_units(text, one_line_rows=True), text


@pytest.mark.parametrize("reader", ["layout", "text"])
@pytest.mark.parametrize("name", list(HEADERS))
def test_a_change_column_is_one_column_named_by_both_periods(monkeypatch, name, reader):
    units, text = _units(name, reader)
    monkeypatch.setattr(quotes.catalog, "load_page_texts", lambda doc_id: [text])
    monkeypatch.setattr(quotes.page_tables, "table_units", lambda doc_id, page, t: units)
    columns = row_columns("results", 0, [f"Net sales{ROW_GAP}1,200"])
    assert len(columns) == 3, columns  # one label per printed value
    assert columns[0].endswith("2023") and columns[1].endswith("2022")
    assert "change" not in (columns[0] + columns[1]).lower()  # a period column is never the change
    assert columns[2].endswith("Change 2023 vs 2022"), columns


def test_labels_that_do_not_match_the_row_are_not_shown():
    """A header read into more labels than the row has values (a pair split in two) shows none
    rather than labels of other columns."""
    from storage.documents.tables import TableHeader

    header = TableHeader("Change 2023 2022 Year", ("Change 2023", "Change 2022", "Year 2021", "2020"))
    assert shown_columns(header, 3) == []
    plain = TableHeader("December 31, 2023 2022", ("December 31, 2023", "December 31, 2022"))
    assert shown_columns(plain, 2) == ["December 31, 2023", "December 31, 2022"]
    assert shown_columns(plain) == ["December 31, 2023", "December 31, 2022"]
