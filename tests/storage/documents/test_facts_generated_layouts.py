"""The facts read at ingestion across the classes of statement layouts filings print (generated pages,
tests/storage/documents/layout_pages.py): each value's column period (start, end and span, or a
balance's date), its unit and scale and its row label, whatever the header grammar, the caption's
place and form, and the running header and footer around the statement."""

from __future__ import annotations

import pytest

import pymupdf

from tests.storage.documents.layout_pages import (Statement, as_of as _as_of, check_fact as _check, draw, fact, facts_of,
                                                  read_facts, span as _span)

INCOME = [("Revenue", "$ 4,120", "$ 3,880"), ("Cost of revenue", "1,730", "1,655"), ("Operating income", "902", "811"),
          ("Net income", "$ 655", "$ 590"), ("Earnings per share:", ), ("Basic", "$ 1.32", "$ 1.18"),
          ("Diluted", "$ 1.30", "$ 1.17"), ("Weighted-average shares outstanding:", ), ("Diluted shares", "504", "506")]
BALANCE = [("Cash and cash equivalents", "$ 2,210", "$ 1,985"), ("Inventories", "845", "790"),
           ("Total current assets", "5,402", "4,910"), ("Total assets", "$ 18,230", "$ 17,440")]
MONEY = {"unit": "USD", "scale": 1e6}


# ---------------------------------------------------------------- column headers: spans and dates

SPANS = {
    "three months, month-day, years on three lines": (
        ["Three Months Ended", "March 31,", ["2023", "2022"]],
        _span("2023-01-01", "2023-03-31", 3), _span("2022-01-01", "2022-03-31", 3)),
    "three months with month-day on one line": (
        ["Three Months Ended March 31,", ["2023", "2022"]],
        _span("2023-01-01", "2023-03-31", 3), _span("2022-01-01", "2022-03-31", 3)),
    "three months over dates split over two lines": (
        ["Three Months Ended", ["April 1,", "April 2,"], ["2023", "2022"]],
        _span("2023-01-02", "2023-04-01", 3), _span("2022-01-03", "2022-04-02", 3)),
    "thirteen weeks over full dates": (
        ["13 Weeks Ended", ["April 29, 2023", "April 30, 2022"]],
        _span("2023-01-29", "2023-04-29", 3), _span("2022-01-30", "2022-04-30", 3)),
    "fifty-two weeks over a January year end": (
        ["52 Weeks Ended", ["January 28, 2023", "January 29, 2022"]],
        _span("2022-01-30", "2023-01-28", 12), _span("2021-01-31", "2022-01-29", 12)),
    "year ended, years on the next line": (
        ["Year Ended December 31,", ["2023", "2022"]],
        _span("2023-01-01", "2023-12-31", 12), _span("2022-01-01", "2022-12-31", 12)),
    "for the years ended over three lines": (
        ["For the Years Ended", "December 31,", ["2023", "2022"]],
        _span("2023-01-01", "2023-12-31", 12), _span("2022-01-01", "2022-12-31", 12)),
    "fiscal year ending in May": (
        ["Year Ended May 31,", ["2023", "2022"]],
        _span("2022-06-01", "2023-05-31", 12), _span("2021-06-01", "2022-05-31", 12)),
    "fiscal years ending in September, dates per column": (
        ["Fiscal Years Ended", ["September 30, 2023", "September 24, 2022"]],
        _span("2022-10-01", "2023-09-30", 12), _span("2021-09-25", "2022-09-24", 12)),
    "twelve months ended": (
        ["Twelve Months Ended", "January 31,", ["2023", "2022"]],
        _span("2022-02-01", "2023-01-31", 12), _span("2021-02-01", "2022-01-31", 12)),
    "years ended with the month and year in each column": (
        ["Years Ended", ["Jan. 31, 2023", "Jan. 31, 2022"]],
        _span("2022-02-01", "2023-01-31", 12), _span("2021-02-01", "2022-01-31", 12)),
    "nine months ended, two lines": (
        ["Nine Months Ended September 30,", ["2023", "2022"]],
        _span("2023-01-01", "2023-09-30", 9), _span("2022-01-01", "2022-09-30", 9)),
}


@pytest.mark.parametrize("name", list(SPANS))
def test_a_span_header_gives_each_column_its_span(name):
    header, first, second = SPANS[name]
    facts = facts_of(Statement(["ACME CORPORATION", "CONSOLIDATED STATEMENTS OF OPERATIONS",
                                "(In millions, except per share data)"], header, INCOME))
    _check(facts, "Revenue", 0, value=4120.0, **first, **MONEY)
    _check(facts, "Net income", 1, value=590.0, **second, **MONEY)
    _check(facts, "Diluted", 0, value=1.30, unit="USD/share", scale=1.0, **first)


def test_three_and_six_months_side_by_side():
    rows = [("Revenue", "$ 4,120", "$ 3,880", "$ 8,010", "$ 7,560"), ("Net income", "655", "590", "1,270", "1,105"),
            ("Diluted earnings per share", "$ 1.30", "$ 1.17", "$ 2.52", "$ 2.19")]
    for header in ([[("Three Months Ended", 0, 1), ("Six Months Ended", 2, 3)], [("June 30,", 0, 1), ("June 30,", 2, 3)],
                    ["2023", "2022", "2023", "2022"]],
                   [[("Three Months Ended June 30,", 0, 1), ("Six Months Ended June 30,", 2, 3)],
                    ["2023", "2022", "2023", "2022"]],
                   [[("Quarter Ended", 0, 1), ("Six Months Ended", 2, 3)],
                    ["July 1, 2023", "July 2, 2022", "July 1, 2023", "July 2, 2022"]]):
        facts = facts_of(Statement(["CONDENSED CONSOLIDATED STATEMENTS OF INCOME", "(In millions, except per share amounts)",
                                    "(Unaudited)"], header, rows))
        q, h = fact(facts, "Revenue", 1), fact(facts, "Net income", 2)
        assert (q.duration_months, q.period_end[:4], q.scale) == (3, "2022", 1e6), header
        assert (h.duration_months, h.period_end[:4], h.value, h.scale) == (6, "2023", 1270.0, 1e6), header
        assert fact(facts, "Diluted earnings per share", 3).unit == "USD/share"


@pytest.mark.parametrize("header, months, year", [
    ([["Fiscal 2023", "Fiscal 2022", "Fiscal 2021"]], 12, (2023, 2022, 2021)),
    (["Fiscal Year", ["2023", "2022", "2021"]], 12, (2023, 2022, 2021)),
    ([["FY2023", "FY2022", "FY2021"]], 12, (2023, 2022, 2021)),
    ([["Q1 2023", "Q4 2022", "Q1 2022"]], 3, (2023, 2022, 2022)),
    ([["Q1 FY23", "Q4 FY22", "Q1 FY22"]], 3, (2023, 2022, 2022)),
])
def test_fiscal_year_and_quarter_labels_name_the_year_and_span(header, months, year):
    rows = [("Revenue", "$ 4,120", "$ 3,880", "$ 3,610"), ("Net income", "655", "590", "540")]
    facts = facts_of(Statement(["ACME CORPORATION", "Summary of results", "(in millions)"], header, rows))
    for col in range(3):
        f = fact(facts, "Revenue", col)
        assert (f.fiscal_year, f.duration_months, f.scale) == (year[col], months, 1e6), f.period


BALANCES = {
    "month-day over years": (["December 31,", ["2023", "2022"]], "2023-12-31", "2022-12-31"),
    "as of over full dates": (["As of", ["January 31, 2023", "January 31, 2022"]], "2023-01-31", "2022-01-31"),
    "as of month-day, years below": (["As of January 31,", ["2023", "2022"]], "2023-01-31", "2022-01-31"),
    "quarter end and year end, dates split": ([["September 30,", "December 31,"], ["2023", "2022"]], "2023-09-30", "2022-12-31"),
    "quarter end unaudited over one column": ([["(Unaudited)", ""], ["September 30,", "December 31,"], ["2023", "2022"]],
                                              "2023-09-30", "2022-12-31"),
    "one date over two lines beside a date on the year line": ([["(Unaudited)", ""], ["September 30,", ""],
                                                                ["2023", "December 31, 2022"]], "2023-09-30", "2022-12-31"),
    "full dates in each column": ([["April 29, 2023", "January 28, 2023"]], "2023-04-29", "2023-01-28"),
    "abbreviated months": ([["Sept. 30, 2023", "Dec. 31, 2022"]], "2023-09-30", "2022-12-31"),
}


@pytest.mark.parametrize("name", list(BALANCES))
def test_a_balance_sheet_column_is_as_of_its_date(name):
    header, first, second = BALANCES[name]
    facts = facts_of(Statement(["ACME CORPORATION", "CONSOLIDATED BALANCE SHEETS", "(In millions)"], header, BALANCE))
    _check(facts, "Total assets", 0, value=18230.0, **_as_of(first), **MONEY)
    _check(facts, "Inventories", 1, value=790.0, **_as_of(second), **MONEY)


# ---------------------------------------------------------------- scale captions, wherever they stand

CAPTIONS = {
    "in millions, except per share data": (["(in millions, except per share data)"], {}, 1e6),
    "dollars in thousands": (["(Dollars in thousands, except per share amounts)"], {}, 1e3),
    "$ in millions": (["($ in millions, except per share amounts)"], {}, 1e6),
    "in billions": (["(in billions, except per share amounts)"], {}, 1e9),
    "millions alone": (["(Millions, except per share amounts)"], {}, 1e6),
    "unaudited under the caption": (["(In millions, except per share data)", "(Unaudited)"], {}, 1e6),
    "unaudited above the caption": (["(Unaudited)", "(In thousands, except per share data)"], {}, 1e3),
    "at the header's first line": ([], {0: "(In millions, except per share data)"}, 1e6),
    "at the header's year line": ([], {1: "(In millions, except per share data)"}, 1e6),
    "in the title line": (["CONSOLIDATED STATEMENTS OF INCOME (in millions, except per share data)"], {}, 1e6),
}


@pytest.mark.parametrize("name", list(CAPTIONS))
def test_the_caption_scales_amounts_and_not_per_share_rows(name):
    title, left, scale = CAPTIONS[name]
    title = title if any("STATEMENTS" in t for t in title) else ["ACME CORPORATION", "CONSOLIDATED STATEMENTS OF INCOME", *title]
    facts = facts_of(Statement(title, ["Year Ended December 31,", ["2023", "2022"]], INCOME, header_left=left))
    _check(facts, "Revenue", 0, value=4120.0, unit="USD", scale=scale, **_span("2023-01-01", "2023-12-31", 12))
    _check(facts, "Basic", 1, value=1.18, unit="USD/share", scale=1.0, **_span("2022-01-01", "2022-12-31", 12))
    _check(facts, "Diluted shares", 0, value=504.0, unit="shares")


def test_percent_rows_are_unscaled_and_keep_their_column():
    rows = [("Net sales", "$ 4,120", "$ 3,880"), ("Gross margin", "42.1%", "40.3%"), ("Operating margin", "21.9 %", "20.9 %"),
            ("Effective tax rate", "18.5%", "19.2%")]
    facts = facts_of(Statement(["Results of operations", "(Dollars in millions)"], ["Year Ended September 30,", ["2023", "2022"]], rows))
    _check(facts, "Gross margin", 0, value=42.1, unit="%", scale=1.0, **_span("2022-10-01", "2023-09-30", 12))
    _check(facts, "Operating margin", 1, value=20.9, unit="%", scale=1.0, **_span("2021-10-01", "2022-09-30", 12))
    _check(facts, "Net sales", 1, value=3880.0, **MONEY)


def test_a_change_column_takes_no_period():
    rows = [("Net sales", "$ 4,120", "$ 3,880", "6 %"), ("Operating income", "902", "811", "11 %")]
    facts = facts_of(Statement(["Results of operations", "(in millions)"],
                               ["Year Ended December 31,", ["2023", "2022", "Change"]], rows))
    _check(facts, "Net sales", 0, value=4120.0, **_span("2023-01-01", "2023-12-31", 12), **MONEY)
    _check(facts, "Operating income", 1, value=811.0, **_span("2022-01-01", "2022-12-31", 12), **MONEY)
    change = fact(facts, "Net sales", 2)
    assert change.period_end is None and change.fiscal_year is None and change.unit == "%"


# ---------------------------------------------------------------- page furniture around the statement

FURNITURE = {
    "company, form and year above": ("ACME CORPORATION ANNUAL REPORT ON FORM 10-K FISCAL YEAR 2023", False),
    "form and page footer": ("Acme Corporation | 2023 Form 10-K", True),
    "a dated running header": ("ACME CORP - FORM 10-Q - QUARTER ENDED MARCH 31, 2023", True),
}


@pytest.mark.parametrize("name", list(FURNITURE))
def test_a_running_header_and_footer_change_no_fact(name):
    running, footer = FURNITURE[name]
    st = Statement(["ACME CORPORATION", "CONSOLIDATED STATEMENTS OF INCOME", "(In millions, except per share data)"],
                   ["Year Ended December 31,", ["2023", "2022"]], INCOME)
    plain = facts_of(st, prose_pages=3)
    framed = facts_of(st, prose_pages=3, running_header=running, footer=footer)
    key = [(f.page, f.label, f.section, f.path, f.period, f.period_end, f.value, f.unit, f.scale) for f in plain]
    assert key and key == [(f.page, f.label, f.section, f.path, f.period, f.period_end, f.value, f.unit, f.scale)
                           for f in framed]
    _check(framed, "Revenue", 0, value=4120.0, **_span("2023-01-01", "2023-12-31", 12), **MONEY)


def test_a_running_header_on_one_page_before_its_statement_is_no_header_of_the_table():
    st = Statement(["CONSOLIDATED BALANCE SHEETS", "(In millions)"], ["December 31,", ["2023", "2022"]], BALANCE)
    facts = facts_of(st, prose_pages=3, running_header="ACME CORPORATION 2023 ANNUAL REPORT 10-K", footer=True)
    _check(facts, "Total assets", 0, value=18230.0, **_as_of("2023-12-31"), **MONEY)
    assert all("ANNUAL" not in f.period and "ANNUAL" not in " ".join(f.path) for f in facts)


# ---------------------------------------------------------------- header grammar printed around the columns

def test_caption_and_period_phrase_at_the_left_of_the_year_line():
    left = [(56, "In millions, except per share data"), (250, "Years ended December 31,")]
    facts = facts_of(Statement(["CONSOLIDATED STATEMENT OF INCOME"], [["2023", "2022", "2021"]],
                               [("Revenues", "$ 25,494", "$ 23,183", "$ 23,223"), ("Net income", "8,469", "6,177", "7,545"),
                                ("Earnings per common share-diluted", "$ 11.56", "$ 8.33", "$ 10.04")], header_left={0: left}))
    _check(facts, "Revenues", 1, value=23183.0, **_span("2022-01-01", "2022-12-31", 12), **MONEY)
    _check(facts, "Earnings per common share-diluted", 2, value=10.04, unit="USD/share", scale=1.0,
           **_span("2021-01-01", "2021-12-31", 12))


def test_header_years_right_aligned_with_the_figures():
    facts = facts_of(Statement(["CONSOLIDATED STATEMENTS OF INCOME", "(In thousands, except per share data)"],
                               [[("Fiscal Year Ended", 0, 2)], ["January 28,", "January 29,", "January 30,"], ["2023", "2022", "2021"]],
                               [("Net sales", "$ 10,208,580", "$ 8,630,889", "$ 6,152,036"), ("Net income", "1,242,408", "985,837", "175,835"),
                                ("Diluted", "$ 24.01", "$ 17.98", "$ 3.11")], align="right"))
    _check(facts, "Net sales", 0, value=10208580.0, unit="USD", scale=1e3, **_span("2022-01-29", "2023-01-28", 12))
    _check(facts, "Diluted", 2, value=3.11, unit="USD/share", scale=1.0, **_span("2020-01-31", "2021-01-30", 12))


def test_each_column_printing_its_own_span_and_date():
    facts = facts_of(Statement(["CONDENSED CONSOLIDATED STATEMENTS OF EARNINGS", "(Unaudited; in millions)"],
                               [["Three Months Ended", "Three Months Ended"], ["March 31, 2023", "March 31, 2022"]],
                               [("Net revenues", "$ 7,040", "$ 6,483"), ("Net income", "795", "509")]))
    _check(facts, "Net revenues", 1, value=6483.0, **_span("2022-01-01", "2022-03-31", 3), **MONEY)


def test_a_scale_caption_over_the_columns_is_no_period():
    facts = facts_of(Statement(["Segment results"], ["(in millions)", "Year Ended December 31,", ["2023", "2022"]],
                               [("Net revenues", "$ 7,040", "$ 6,483"), ("Operating income", "795", "509")]))
    _check(facts, "Operating income", 0, value=795.0, **_span("2023-01-01", "2023-12-31", 12), **MONEY)


def test_change_columns_titled_with_years_take_no_period():
    rows = [("Net revenues", "$ 7,040", "$ 6,483", "$ 557", "9 %"), ("Operating income", "795", "509", "286", "56 %")]
    for header in (["Year Ended December 31,", ["2023", "2022", "$ Change", "% Change"]],
                   [[("Year Ended December 31,", 0, 1), ("2023 vs. 2022", 2, 3)], ["2023", "2022", "$", "%"]],
                   [["2023", "2022", "2023 vs 2022", "% Change"]]):
        facts = facts_of(Statement(["Results of Operations", "(Dollars in millions)"], header, rows))
        f = fact(facts, "Operating income", 1)
        assert (f.value, f.fiscal_year, f.scale, f.unit) == (509.0, 2022, 1e6, "USD"), header
        assert fact(facts, "Net revenues", 0).fiscal_year == 2023, header
        change = fact(facts, "Net revenues", 3)
        assert (change.unit, change.fiscal_year, change.period_end) == ("%", None, None), header
        assert fact(facts, "Net revenues", 2).fiscal_year is None, header


def test_amount_and_percent_of_revenue_columns_under_each_year():
    rows = [("Net revenues", "$ 7,040", "100.0 %", "$ 6,483", "100.0 %"), ("Cost of revenues", "2,015", "28.6 %", "1,910", "29.5 %")]
    facts = facts_of(Statement(["Results of Operations", "(Dollars in millions)"],
                               [[("2023", 0, 1), ("2022", 2, 3)], ["Amount", "% of Revenue", "Amount", "% of Revenue"]], rows))
    _check(facts, "Cost of revenues", 2, value=1910.0, fiscal_year=2022, **MONEY)
    _check(facts, "Cost of revenues", 1, value=28.6, fiscal_year=2023, unit="%", scale=1.0)


def test_a_ten_k_quarterly_table_names_each_quarter_of_its_fiscal_year():
    rows = [("Net revenues", "$ 1,740", "$ 1,803", "$ 1,715", "$ 1,782"), ("Net income", "195", "210", "190", "200")]
    for header in ([[("Fiscal 2023", 0, 3)], ["First Quarter", "Second Quarter", "Third Quarter", "Fourth Quarter"]],
                   [["Q1 2023", "Q2 2023", "Q3 2023", "Q4 2023"]]):
        facts = facts_of(Statement(["Quarterly Results (unaudited)", "(in millions)"], header, rows))
        f = fact(facts, "Net revenues", 2)
        assert (f.value, f.fiscal_year, f.duration_months, f.scale) == (1715.0, 2023, 3, 1e6), header


def test_a_year_header_with_footnote_marks():
    facts = facts_of(Statement(["Selected data", "(in millions)"], ["Year Ended December 31,", ["2023 (1)", "2022 (2)"]],
                               [("Net revenues", "$ 7,040", "$ 6,483"), ("Operating income", "795", "509")]))
    _check(facts, "Operating income", 1, value=509.0, **_span("2022-01-01", "2022-12-31", 12), **MONEY)


@pytest.mark.parametrize("caption, scale", [("(Amounts in millions, except per share amounts)", 1e6),
                                            ("(in thousands of U.S. dollars, except per share amounts)", 1e3),
                                            ("(In Millions, Except Per Share Amounts; Unaudited)", 1e6),
                                            ("(In millions, except number of shares, which are reflected in thousands, "
                                             "and per share amounts)", 1e6)])
def test_caption_forms(caption, scale):
    facts = facts_of(Statement(["CONSOLIDATED STATEMENTS OF INCOME", caption], ["Year Ended December 31,", ["2023", "2022"]], INCOME))
    _check(facts, "Revenue", 0, value=4120.0, unit="USD", scale=scale)
    _check(facts, "Diluted", 0, value=1.30, unit="USD/share", scale=1.0)


def test_unaudited_under_one_date_and_as_of_per_column():
    for header in ([["September 30, 2023", "December 31, 2022"], ["(Unaudited)", ""]],
                   [["As of", "As of"], ["September 30, 2023", "December 31, 2022"]]):
        facts = facts_of(Statement(["CONDENSED CONSOLIDATED BALANCE SHEETS", "(In millions, except par value)"], header, BALANCE))
        _check(facts, "Total assets", 0, value=18230.0, **_as_of("2023-09-30"), **MONEY)
        _check(facts, "Inventories", 1, value=790.0, **_as_of("2022-12-31"), **MONEY)


def test_two_tables_on_one_page_keep_their_own_header_and_caption():
    income = Statement(["CONSOLIDATED STATEMENTS OF INCOME", "(In millions)"], ["Three Months Ended March 31,", ["2023", "2022"]],
                       [("Revenue", "$ 4,120", "$ 3,880"), ("Net income", "655", "590")])
    doc = pymupdf.open()
    page = doc.new_page()
    y = draw(page, income)
    draw(page, Statement(["SUPPLEMENTAL DATA", "(In thousands)"], ["Six Months Ended June 30,", ["2023", "2022"]],
                         [("Interest paid", "$ 12,210", "$ 11,050"), ("Taxes paid", "80,400", "71,300")]), top=y + 24)
    facts = read_facts(doc.tobytes())
    _check(facts, "Net income", 1, value=590.0, **_span("2022-01-01", "2022-03-31", 3), **MONEY)
    _check(facts, "Taxes paid", 0, value=80400.0, unit="USD", scale=1e3, **_span("2023-01-01", "2023-06-30", 6))


def test_row_labels_as_printed_wrapped_footnoted_negative_and_dashed():
    rows = [("Net income", "$ 655", "$ 590"), ("Less: net income attributable to noncontrolling", ),
            ("interests", "(12)", "(10)"), ("Restructuring charges (1)", "-", "45"), ("Other income (expense), net", "$ (1,577)", "$ 212"),
            ("Net income attributable to Acme", "$ 643", "$ 580")]
    facts = facts_of(Statement(["CONSOLIDATED STATEMENTS OF INCOME", "(In millions)"], ["Year Ended December 31,", ["2023", "2022"]], rows))
    _check(facts, "Less: net income attributable to noncontrolling interests", 0, value=-12.0, **MONEY)
    _check(facts, "Restructuring charges", 1, value=45.0, **MONEY)
    assert fact(facts, "Restructuring charges", 0).value is None
    _check(facts, "Other income (expense), net", 0, value=-1577.0, **MONEY)
    _check(facts, "Net income attributable to Acme", 1, value=580.0, **_span("2022-01-01", "2022-12-31", 12), **MONEY)


def test_segment_sections_give_each_row_its_path():
    rows = [("Americas", ), ("Net sales", "$ 2,100", "$ 1,950"), ("Operating income", "410", "380"),
            ("Europe", ), ("Net sales", "$ 1,300", "$ 1,210"), ("Operating income", "220", "205")]
    facts = facts_of(Statement(["Segment Information", "(In millions)"], ["Year Ended December 31,", ["2023", "2022"]], rows))
    europe = [f for f in facts if f.label == "Net sales" and f.column == 0 and f.section == "Europe"]
    assert [(f.value, f.scale, f.period_end) for f in europe] == [(1300.0, 1e6, "2023-12-31")]


def test_fiscal_years_of_52_and_53_weeks():
    facts = facts_of(Statement(["CONSOLIDATED STATEMENTS OF EARNINGS", "($ in millions, except per share amounts)"],
                               [["Fiscal 2023", "Fiscal 2022"], ["(53 weeks)", "(52 weeks)"]],
                               [("Revenue", "$ 43,452", "$ 46,298"), ("Diluted earnings per share", "$ 6.71", "$ 8.93")]))
    _check(facts, "Revenue", 0, value=43452.0, fiscal_year=2023, duration_months=12, **MONEY)
    _check(facts, "Diluted earnings per share", 1, value=8.93, fiscal_year=2022, unit="USD/share", scale=1.0)


def test_column_titles_between_the_period_and_its_years():
    rows = [("Earnings on a GAAP basis", "$ 406", "$ 356", "$ 0.19", "$ 0.17"), ("Non-core items", "88", "180", "0.04", "0.08"),
            ("Non-GAAP core earnings", "$ 494", "$ 536", "$ 0.23", "$ 0.25")]
    facts = facts_of(Statement(["Reconciliation of GAAP earnings to non-GAAP core earnings", "(in millions, except per share amounts)"],
                               ["Three Months Ended", "June 30,", [("Earnings", 0, 1), ("Earnings per", 2, 3)],
                                [("", 0, 1), ("Common Share", 2, 3)], ["2023", "2022", "2023", "2022"]], rows))
    _check(facts, "Non-GAAP core earnings", 1, value=536.0, **_span("2022-04-01", "2022-06-30", 3), **MONEY)
    _check(facts, "Non-GAAP core earnings", 2, value=0.23, unit="USD/share", scale=1.0, **_span("2023-04-01", "2023-06-30", 3))
    _check(facts, "Non-core items", 3, value=0.08, unit="USD/share", scale=1.0, **_span("2022-04-01", "2022-06-30", 3))


def test_a_caption_under_the_header_and_long_per_share_sections():
    rows = [("Net income attributable to Acme Corporation", "$ 572,606", "$ 433,111"),
            ("Basic earnings per common share attributable to Acme Corporation common shareholders:", ),
            ("Income from continuing operations", "$ 3.73", "$ 2.83"), ("Net income", "$ 3.73", "$ 2.83"),
            ("Weighted average number of common shares outstanding", "153,471", "153,089"),
            ("Diluted earnings per common share attributable to Acme Corporation common shareholders:", ),
            ("Income from continuing operations", "$ 3.72", "$ 2.82"), ("Net income", "$ 3.72", "$ 2.82")]
    facts = facts_of(Statement(["ACME CORPORATION", "CONSOLIDATED STATEMENTS OF OPERATIONS"],
                               ["For the year ended December 31,", ["2015", "2014"]], rows,
                               under_header=["(in thousands, except for per share amounts)"]))
    _check(facts, "Net income attributable to Acme Corporation", 0, value=572606.0, unit="USD", scale=1e3,
           **_span("2015-01-01", "2015-12-31", 12))
    diluted = [f for f in facts if f.label == "Net income" and f.value == 3.72]
    assert [(f.section, f.unit, f.scale, f.period_end) for f in diluted] == [
        ("Diluted earnings per common share attributable to Acme Corporation common shareholders", "USD/share", 1.0, "2015-12-31")]
    _check(facts, "Weighted average number of common shares outstanding", 1, value=153089.0, unit="shares", scale=1e3)


# ---------------------------------------------------------------- earnings releases

def test_release_caption_and_years_with_increase_columns_on_one_line():
    rows = [("Revenues:", ), ("Sales by Company-owned restaurants", "$ 2,600.5", "$ 2,346.2", "$ 254.3", "11 %"),
            ("Total revenues", "6,497.9", "5,718.4", "779.5", "14 %"), ("Operating income", "3,083.5", "2,521.6", "561.9", "22 %"),
            ("Earnings per common share-diluted", "$ 3.15", "$ 1.60", "$ 1.55", "97 %")]
    facts = facts_of(Statement(["CONSOLIDATED STATEMENT OF INCOME"],
                               [[("Quarters Ended June 30,", 0, 1)], ["", "", "Inc/", "% Inc/"], ["2023", "2022", "(Dec)", "(Dec)"]],
                               rows, header_left={2: "Dollars and shares in millions, except per share data"}))
    _check(facts, "Total revenues", 1, value=5718.4, **_span("2022-04-01", "2022-06-30", 3), **MONEY)
    _check(facts, "Earnings per common share-diluted", 0, value=3.15, unit="USD/share", scale=1.0,
           **_span("2023-04-01", "2023-06-30", 3))
    inc = fact(facts, "Operating income", 2)
    assert (inc.value, inc.period_end, inc.fiscal_year) == (561.9, None, None)


def test_release_caption_at_the_left_of_the_date_line():
    rows = [("NET REVENUE", "$ 11,715", "$ 18,353"), ("Gross margin", "4,032", "9,665"), ("NET INCOME (LOSS)", "$ (2,758)", "$ 8,113"),
            ("DILUTED EARNINGS (LOSS) PER SHARE", "$ (0.66)", "$ 1.98")]
    facts = facts_of(Statement(["INTEL CORPORATION", "CONSOLIDATED CONDENSED STATEMENTS OF INCOME"],
                               ["Three Months Ended", ["Apr 1, 2023", "Apr 2, 2022"]], rows,
                               header_left={1: "(In Millions, Except Per Share Amounts; Unaudited)"}))
    _check(facts, "NET INCOME (LOSS)", 0, value=-2758.0, **_span("2023-01-02", "2023-04-01", 3), **MONEY)
    _check(facts, "DILUTED EARNINGS (LOSS) PER SHARE", 1, value=1.98, unit="USD/share", scale=1.0,
           **_span("2022-01-03", "2022-04-02", 3))


def test_release_change_titles_under_the_years():
    rows = [("Net revenues", "$ 2,540", "$ 2,422", "$ 118", "5 %"), ("GAAP net income", "$ 1,036", "$ (75)", "$ 1,111", "**")]
    facts = facts_of(Statement(["eBay Inc.", "Unaudited Condensed Consolidated Statement of Income", "(In millions, except per share amounts)"],
                               ["Three Months Ended June 30,", ["2023", "2022", ("Change", 2, 3)], ["", "", "$", "%"]], rows))
    _check(facts, "Net revenues", 1, value=2422.0, **_span("2022-04-01", "2022-06-30", 3), **MONEY)
    _check(facts, "GAAP net income", 1, value=-75.0, **_span("2022-04-01", "2022-06-30", 3), **MONEY)
    assert fact(facts, "Net revenues", 2).period_end is None


def test_release_quarter_labels_with_two_digit_years():
    rows = [("Gross merchandise volume", "$ 18,360", "$ 18,570", "$ 18,390"), ("Active buyers", "134", "133", "132")]
    for labels in (["Q2-23", "Q1-23", "Q2-22"], ["Q2'23", "Q1'23", "Q2'22"], ["Q2 FY23", "Q1 FY23", "Q2 FY22"]):
        facts = facts_of(Statement(["Supplemental Operating Data", "(In millions)"], [labels], rows))
        f = fact(facts, "Gross merchandise volume", 2)
        assert (f.value, f.fiscal_year, f.duration_months, f.scale) == (18390.0, 2022, 3, 1e6), labels


def test_years_as_rows_under_item_sections_with_footnote_marks_glued_to_years():
    rows = [("Revenue", ), ("2023", "$ 42,743", "$ 33,507", "$ 76,250"), ("2022", "45,814", "33,232", "79,046"),
            ("Operating income (loss)", ), ("2023(1)", "$ 1,064", "$ 3,140", "$ 4,204"), ("2022(2)", "2,922", "(642)", "2,280")]
    facts = facts_of(Statement(["The following table reconciles segment results (in millions) for the years ended May 31:"],
                               [["Express", "Ground", "Consolidated"], ["Segment", "Segment", "Total"]], rows))
    ground = [f for f in facts if f.value == -642.0]
    assert [(f.label, f.fiscal_year, f.period_end, f.scale) for f in ground] == [("Operating income (loss)", 2022, "2022-05-31", 1e6)]
    express = [f for f in facts if f.value == 45814.0]
    assert [(f.label, f.period_end, f.duration_months) for f in express] == [("Revenue", "2022-05-31", 12)]


def test_guidance_ranges_marked_as_estimates_under_one_year():
    rows = [("Estimated EPS on a GAAP basis", "~ $ 1.04", "~ $ 1.13"), ("Amortization of fund contribution", "~ 0.16", "~ 0.16"),
            ("Estimated EPS on a non-GAAP basis", "~ $ 1.19", "~ $ 1.23")]
    facts = facts_of(Statement(["2023 Earnings Guidance"], [[("2023", 0, 1)], ["Low", "High"]], rows))
    low = fact(facts, "Estimated EPS on a non-GAAP basis", 0)
    assert (low.value, low.fiscal_year, low.unit, low.scale) == (1.19, 2023, "USD/share", 1.0)
    assert fact(facts, "Estimated EPS on a GAAP basis", 1).value == 1.13


def test_rows_with_not_applicable_cells_stay_rows():
    rows = [("$1,000, 3.63%, due July 2023", "1,000", "3.73 %", "1,000", "3.73 %"), ("$750, 4.50%, due May 2028", "750", "4.60 %", "-", "N.A."),
            ("$1,250, 6.15%, due November 2029", "1,250", "6.21 %", "-", "n/a"), ("Total borrowings", "$ 3,000", "", "$ 1,000", "")]
    facts = facts_of(Statement(["Notes payable and other borrowings consisted of the following:"],
                               ["May 31,", [("2023", 0, 1), ("2022", 2, 3)], ["Amount", "Rate", "Amount", "Rate"]], rows,
                               header_left={2: "(Amounts in millions)"}))
    _check(facts, "$750, 4.50%, due May 2028", 0, value=750.0, **_as_of("2023-05-31"), **MONEY)
    _check(facts, "Total borrowings", 2, value=1000.0, **_as_of("2022-05-31"), **MONEY)


def test_a_span_phrase_ending_in_a_month_day_over_columns_with_their_own_dates():
    facts = facts_of(Statement(["CONSOLIDATED STATEMENTS OF INCOME", "(In millions)"],
                               ["Three Months Ended June 30,", ["July 1, 2023", "July 2, 2022"]], INCOME))
    _check(facts, "Revenue", 1, value=3880.0, **_span("2022-04-03", "2022-07-02", 3), **MONEY)


@pytest.mark.parametrize("header, left", [
    ([["2023", "2022"]], {0: "Six Months Ended June 30,"}),
    ([["2023", "2022"]], {0: "In millions, except per share data   Six Months Ended June 30,"}),
    (["", ["2023", "2022"]], {0: "Six Months Ended June 30,"}),
])
def test_a_period_phrase_printed_at_the_left_heads_the_years(header, left):
    facts = facts_of(Statement(["CONSOLIDATED STATEMENT OF INCOME", "(In millions, except per share data)"], header, INCOME,
                               header_left=left))
    _check(facts, "Revenue", 1, value=3880.0, **_span("2022-01-01", "2022-06-30", 6), **MONEY)
    _check(facts, "Diluted", 0, value=1.30, unit="USD/share", scale=1.0, **_span("2023-01-01", "2023-06-30", 6))
