"""Column titles that name no period ("Change", "% Change", "Increase (Decrease)", "Item") head a column of
their own, or the label column, on both readers (the text parser, storage/documents/tables.py, and the
layout reader, storage/documents/table_layout.py): never a prefix of the periods, never given a year. A
period phrase ("Years Ended December 31,") still prefixes the periods under it."""

from __future__ import annotations

import pymupdf
import pytest

from storage.documents.facts import read_document
from storage.documents.tables import header_from_lines, page_units, row_cells
from storage.finance.columns import is_change_title, is_label_title
from storage.schema import PageContent
from tests.storage.documents.layout_pages import LABEL_X, Statement, fact, facts_of, span

ROWS = [("Revenue", "412.6", "375.8", "+9.8%"), ("Cost of sales", "281.3", "262.1", "+7.3%"),
        ("Net profit", "38.1", "30.4", "+25.3%")]


@pytest.mark.parametrize("lines, columns", [
    (["Item", "2023", "2022", "Change"], ("2023", "2022", "Change")),
    (["2023 2022 % Change"], ("2023", "2022", "% Change")),
    (["Item 2023 2022 Change"], ("2023", "2022", "Change")),
    (["Years Ended December 31,", "2023 2022 Change"],
     ("Years Ended December 31, 2023", "Years Ended December 31, 2022", "Change")),
    (["Years Ended December 31,", "2023", "2022"], ("Years Ended December 31, 2023", "Years Ended December 31, 2022")),
    (["Three Months Ended", "Six Months Ended", "June 30, 2023 June 30, 2022 June 30, 2023 June 30, 2022"],
     ("Three Months Ended June 30, 2023", "Three Months Ended June 30, 2022",
      "Six Months Ended June 30, 2023", "Six Months Ended June 30, 2022")),
])
def test_header_lines_give_change_titles_a_column_of_their_own(lines, columns):
    assert header_from_lines(lines).columns == columns


def test_a_header_of_change_titles_alone_is_no_period_header():
    assert header_from_lines(["Change", "% Change"]) is None


@pytest.mark.parametrize("text", ["Change", "% Change", "$ Change", "Percent Change", "Variance", "Increase (Decrease)",
                                  "Increase/(Decrease)", "Favorable (Unfavorable)", "Inc/(Dec)"])
def test_change_titles_are_one_class(text):
    assert is_change_title(text) and not is_label_title(text)


@pytest.mark.parametrize("text", ["Exchange", "Years ended", "Net change in cash", "Revenue", "2023"])
def test_other_texts_are_no_change_title(text):
    assert not is_change_title(text)


def _one_cell_per_line_pdf() -> bytes:
    """A table whose text layer prints one cell per line (as an HTML table's does): "Item / 2023 / 2022 /
    Change", then each row's label and its three values, every cell on a line of its own."""
    doc = pymupdf.open()
    page = doc.new_page()
    y = 80
    page.insert_text((LABEL_X, y), "The table below summarises the consolidated income statement, in millions of euros.",
                     fontsize=9)
    for text in ["Item", "2023", "2022", "Change"] + [c for row in ROWS for c in row]:
        y += 13
        page.insert_text((LABEL_X, y), text, fontsize=9)
    data = doc.tobytes()
    doc.close()
    return data


def test_text_parser_one_cell_per_line_header_with_a_trailing_change():
    with pymupdf.open(stream=_one_cell_per_line_pdf(), filetype="pdf") as doc:
        text = doc[0].get_text()
    cells = [c for u in page_units(text, one_line_rows=True) for c in row_cells(u)]
    got = {(c.label, c.period): c.value for c in cells}
    assert got[("Net profit", "2023")] == "38.1" and got[("Net profit", "2022")] == "30.4"
    assert got[("Net profit", "Change")] == "+25.3%"
    assert not any("Change 20" in c.period or "Item" in c.period for c in cells)


def test_facts_of_a_change_column_name_no_year(monkeypatch):
    """The text parser's rows (an OCR page's text, no OCR engine installed to box its words) give the facts: the
    change column's fact names no year."""
    from storage.documents import ocr

    monkeypatch.setenv("OCR_ENGINE", "none")
    ocr.get_ocr_engine.cache_clear()
    try:
        with pymupdf.open(stream=_one_cell_per_line_pdf(), filetype="pdf") as doc:
            pages = [PageContent(page_number=0, text=doc[0].get_text(), is_ocr=True)]
            facts = read_document(doc, pages).facts
    finally:
        ocr.get_ocr_engine.cache_clear()
    profit = {f.column: f for f in facts if f.label == "Net profit"}
    assert (profit[0].value, profit[0].fiscal_year, profit[0].period) == (38.1, 2023, "2023")
    assert (profit[1].value, profit[1].fiscal_year) == (30.4, 2022)
    change = profit[2]
    assert change.period == "Change" and change.fiscal_year is None and change.period_end is None
    assert (change.value, change.unit, change.scale) == (25.3, "%", 1.0)


def _facts_by_column(facts, label):
    return {f.column: f for f in facts if f.label == label}


def test_layout_one_line_header_with_a_label_title_and_a_trailing_change():
    st = Statement(["Income statement (in millions of euros)"], [["2023", "2022", "Change"]], ROWS,
                   header_left={0: "Item"})
    profit = _facts_by_column(facts_of(st), "Net profit")
    assert [profit[k].period for k in range(3)] == ["2023", "2022", "Change"]
    assert profit[0].fiscal_year == 2023 and profit[2].fiscal_year is None
    assert profit[0].scale == 1e6 and profit[2].unit == "%"


@pytest.mark.parametrize("header", [
    [["2023", "2022", "% Change"]],
    ["Years Ended December 31,", ["2023", "2022", "% Change"]],  # the phrase centred over every column
    [[("Years Ended December 31,", 0, 1)], ["2023", "2022", "% Change"]],
], ids=["one line", "phrase over all", "phrase over the years"])
def test_layout_percent_change_column_takes_no_year(header):
    rows = [("Revenue", "$ 4,120", "$ 3,880", "6.2%"), ("Net income", "655", "590", "11.0%")]
    st = Statement(["CONSOLIDATED RESULTS", "(In millions)"], header, rows)
    income = _facts_by_column(facts_of(st), "Net income")
    assert (income[0].value, income[0].fiscal_year, income[0].scale) == (655, 2023, 1e6)
    assert income[1].fiscal_year == 2022
    assert income[2].period == "% Change" and income[2].fiscal_year is None and income[2].period_end is None
    assert (income[2].unit, income[2].scale) == ("%", 1.0)
    if "Years" in str(header):  # the period phrase still prefixes the years
        for k, year in ((0, 2023), (1, 2022)):
            assert {f: getattr(income[k], f) for f in ("period_start", "period_end", "duration_months", "as_of")} \
                == span(f"{year}-01-01", f"{year}-12-31", 12)


def test_layout_percent_change_printed_without_percent_signs_is_percent():
    rows = [("Revenue", "$ 4,120", "$ 3,880", "6.2"), ("Net income", "655", "590", "11.0")]
    income = _facts_by_column(facts_of(Statement(["RESULTS", "(In millions)"], [["2023", "2022", "% Change"]], rows)),
                              "Net income")
    assert (income[2].value, income[2].unit, income[2].scale) == (11.0, "%", 1.0)
    assert (income[0].unit, income[0].scale) == ("USD", 1e6)


def test_layout_increase_decrease_columns_under_their_own_title():
    rows = [("Revenue", "$ 4,120", "$ 3,880", "$ 240", "6.2%"), ("Operating income", "902", "811", "91", "11.2%")]
    st = Statement(["SEGMENT RESULTS", "(Dollars in millions)"],
                   [[("Years Ended December 31,", 0, 1), ("Increase (Decrease)", 2, 3)], ["2023", "2022", "$", "%"]],
                   rows)
    facts = facts_of(st)
    op = _facts_by_column(facts, "Operating income")
    assert {f: getattr(op[0], f) for f in ("period_start", "period_end", "duration_months", "as_of")} \
        == span("2023-01-01", "2023-12-31", 12)
    assert op[1].period_end == "2022-12-31"
    assert [op[2].period, op[3].period] == ["Increase (Decrease) $", "Increase (Decrease) %"]
    assert all(op[k].fiscal_year is None and op[k].period_end is None for k in (2, 3))
    assert (op[2].value, op[2].scale) == (91, 1e6)
    assert (op[3].value, op[3].unit) == (11.2, "%")
    assert fact(facts, "Revenue", 0).value == 4120


@pytest.mark.parametrize("lines, columns", [
    # a change title joined before the years it follows on the page ("Change" stacked, read into one line)
    (["Item", "Change 2023 2022"], ("2023", "2022", "Change")),
    # a change title alone on its line above the years: its column comes after them
    (["Change", "2023", "2022"], ("2023", "2022", "Change")),
    # a comparison pair under the title is the change column, as before
    (["Fiscal Year", "% Change", "2023", "2022", "2023 vs. 2022"],
     ("Fiscal Year 2023", "Fiscal Year 2022", "vs. 2023", "vs. 2022")),
    # a change after each year keeps its place
    (["2023 Change 2022 Change 2021"], ("2023", "Change", "2022", "Change", "2021")),
])
def test_a_change_title_heads_the_column_after_the_periods_it_compares(lines, columns):
    assert header_from_lines(lines).columns == columns
