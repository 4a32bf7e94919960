"""Facts of columns that print a year and no date, dated by the fiscal calendar the document states (issue 27,
item 1): a 10-K's quarterly table ("2019" over "4th 3rd 2nd 1st"), bare year columns in a 10-K, year columns a
table's introduction says are years ("... for the years ended May 31:"); and the rows whose unit or line item
the label's words decide ("... share sales" is an amount, "Operating profit (EBIT)" is operating income).
Each a generated PDF: a cover page, then the table page (tests/storage/documents/layout_pages.py)."""

from __future__ import annotations

import pymupdf
import pytest

from tests.storage.documents.layout_pages import LABEL_X, Statement, draw, fact, read_facts

QUARTERLY = [("Total revenues", "$17,911", "$19,980", "$15,751", "$22,917", "$28,341", "$25,146", "$24,258", "$23,382"),
             ("Net earnings", "(1,010)", "1,167", "(2,942)", "2,149", "3,424", "2,363", "2,196", "2,477"),
             ("Diluted earnings per share", "(1.79)", "2.05", "(5.21)", "3.75", "5.93", "4.07", "3.73", "4.15")]


def _filing(cover: list[str], st: Statement, intro: str = "") -> bytes:
    doc = pymupdf.open()
    page = doc.new_page()
    for k, line in enumerate(cover):
        page.insert_text((LABEL_X, 100 + 16 * k), line, fontsize=10)
    page = doc.new_page()
    if intro:
        page.insert_text((LABEL_X, 70), intro, fontsize=9)
    draw(page, st)
    data = doc.tobytes()
    doc.close()
    return data


def _cover(year_end: str) -> list[str]:
    return ["UNITED STATES SECURITIES AND EXCHANGE COMMISSION", "FORM 10-K",
            f"ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) For the fiscal year ended {year_end}", "ACME AIRCRAFT COMPANY"]


def _quarterly(labels: list[str]) -> Statement:
    return Statement(["Note 24 - Quarterly Financial Data (Unaudited)", "(Dollars in millions, except per share data)"],
                     [[("2019", 0, 3), ("2018", 4, 7)], labels * 2], QUARTERLY)


def _ends(facts, label: str) -> list[tuple]:
    return [(f.period_start, f.period_end, f.duration_months, f.fiscal_year)
            for f in sorted((f for f in facts if f.label == label), key=lambda f: f.column)]


@pytest.mark.parametrize("labels", [["4th", "3rd", "2nd", "1st"], ["Q4", "Q3", "Q2", "Q1"]])
def test_a_quarterly_tables_quarters_under_a_year_end_on_the_calendar_year_quarters(labels):
    facts = read_facts(_filing(_cover("December 31, 2019"), _quarterly(labels)))
    assert _ends(facts, "Total revenues") == [
        ("2019-10-01", "2019-12-31", 3, 2019), ("2019-07-01", "2019-09-30", 3, 2019), ("2019-04-01", "2019-06-30", 3, 2019),
        ("2019-01-01", "2019-03-31", 3, 2019), ("2018-10-01", "2018-12-31", 3, 2018), ("2018-07-01", "2018-09-30", 3, 2018),
        ("2018-04-01", "2018-06-30", 3, 2018), ("2018-01-01", "2018-03-31", 3, 2018)]
    eps = fact(facts, "Diluted earnings per share", 3)
    assert (eps.value, eps.unit, eps.period_end) == (3.75, "USD/share", "2019-03-31")


def test_a_june_fiscal_years_second_quarter_ends_in_the_december_before():
    facts = read_facts(_filing(_cover("June 30, 2019"), _quarterly(["4th", "3rd", "2nd", "1st"])))
    assert [e[1] for e in _ends(facts, "Net earnings")[:4]] == ["2019-06-30", "2019-03-31", "2018-12-31", "2018-09-30"]


def test_a_fiscal_years_named_quarters_and_full_year_column():
    rows = [("Net revenues", "$ 1,740", "$ 1,803", "$ 1,715", "$ 1,782", "$ 7,040"), ("Net income", "195", "210", "190", "200", "795")]
    st = Statement(["Quarterly Financial Data (unaudited)", "(In millions)"],
                   [[("Fiscal 2023", 0, 4)], ["First Quarter", "Second Quarter", "Third Quarter", "Fourth Quarter", "Full Year"]], rows)
    facts = read_facts(_filing(_cover("June 30, 2023"), st))
    assert _ends(facts, "Net income") == [
        ("2022-07-01", "2022-09-30", 3, 2023), ("2022-10-01", "2022-12-31", 3, 2023), ("2023-01-01", "2023-03-31", 3, 2023),
        ("2023-04-01", "2023-06-30", 3, 2023), ("2022-07-01", "2023-06-30", 12, 2023)]


def test_a_52_53_week_calendar_dates_no_quarter():
    """A fiscal year ending on the last Saturday of September ends on another day each year: no end is better than a wrong one."""
    facts = read_facts(_filing(_cover("September 28, 2019"), _quarterly(["4th", "3rd", "2nd", "1st"])))
    assert {e[1] for e in _ends(facts, "Total revenues")} == {None}
    assert {e[3] for e in _ends(facts, "Total revenues")} == {2019, 2018}


def test_without_a_cover_the_quarters_keep_their_year_only():
    facts = read_facts(_filing(["QUARTERLY SUPPLEMENT"], _quarterly(["4th", "3rd", "2nd", "1st"])))
    assert {e[1] for e in _ends(facts, "Total revenues")} == {None}


RESULTS = [("Consolidated revenue", "$ 90,155", "$ 93,512"), ("Consolidated operating income", "4,912", "6,245"),
           ("Diluted earnings per share", "$ 15.48", "$ 14.33")]


def test_year_columns_a_tables_introduction_says_are_years_ended_a_day():
    intro = "The following table compares summary operating results (dollars in millions) for the years ended May 31:"
    st = Statement([], [["2023", "2022"]], RESULTS)
    facts = read_facts(_filing(["ACME EXPRESS CORPORATION", "ANNUAL REPORT"], st, intro))
    assert _ends(facts, "Consolidated revenue") == [("2022-06-01", "2023-05-31", 12, 2023), ("2021-06-01", "2022-05-31", 12, 2022)]
    assert (fact(facts, "Consolidated revenue", 0).scale, fact(facts, "Diluted earnings per share", 1).unit) == (1e6, "USD/share")


def test_bare_year_columns_of_a_10k_end_on_its_fiscal_year_end_their_span_unsaid():
    st = Statement(["Consolidated Results of Operations", "($ in millions, except per share data)"], [["2023", "2022"]], RESULTS)
    facts = read_facts(_filing(_cover("May 31, 2023"), st))
    assert _ends(facts, "Consolidated revenue") == [(None, "2023-05-31", None, 2023), (None, "2022-05-31", None, 2022)]
    named = Statement(["Consolidated Results of Operations", "($ in millions)"], [["Fiscal 2023", "Fiscal 2022"]], RESULTS)
    facts = read_facts(_filing(_cover("May 31, 2023"), named))
    assert _ends(facts, "Consolidated revenue")[1] == ("2021-06-01", "2022-05-31", 12, 2022)


def test_a_year_column_of_a_retailer_calendar_stays_undated():
    """Retailers ending in January name their fiscal years either way: "2022" may end in January 2023."""
    st = Statement(["Consolidated Results", "($ in millions)"], [["2022", "2021"]], RESULTS)
    facts = read_facts(_filing(_cover("January 31, 2023"), st))
    assert {e[1] for e in _ends(facts, "Consolidated revenue")} == {None}


def test_amounts_about_shares_are_money_and_ebit_rows_are_operating_income():
    rows = [("Operating profit (EBIT)", "1,517", "1,427"), ("EBIT", "1,239", "1,321"),
            ("Earnings before interest and taxes", "1,250", "1,330"),
            ("Tax benefits from trust share sales", "(270)", "(527)"), ("Share-based compensation", "120", "110"),
            ("Weighted-average diluted shares", "1,480", "1,550")]
    st = Statement(["Segment Results", "(in millions)"], [["Three Months Ended", "Six Months Ended"], ["June 30, 2023", "June 30, 2023"]], rows)
    facts = read_facts(_filing(["EARNINGS RELEASE"], st))
    for label in ("Operating profit (EBIT)", "EBIT", "Earnings before interest and taxes"):
        assert fact(facts, label, 0).concept == "OperatingIncomeLoss", label
    assert [(fact(facts, label, 1).unit, fact(facts, label, 1).scale) for label in
            ("Tax benefits from trust share sales", "Share-based compensation", "Weighted-average diluted shares")] == \
        [("USD", 1e6), ("USD", 1e6), ("shares", 1e6)]
    assert fact(facts, "Tax benefits from trust share sales", 1).value == -527.0


def test_change_columns_only_the_total_row_fills_leave_its_amounts_under_their_years():
    """"2015  Change  2014  Change  2013": the total row's amounts stand under their years; its percentages, under
    a "Change" title, are percents of no year."""
    rows = [("Interest and dividend income", "$ 2,921", "", "$ 1,795", "", "$ 1,616"), ("Interest expense", "(733)", "", "(384)", "", "(136)"),
            ("Total other income/(expense), net", "$ 1,285", "31%", "$ 980", "(15)%", "$ 1,156")]
    st = Statement([], [["2015", "Change", "2014", "Change", "2013"]], rows, columns=5)
    facts = read_facts(_filing(["ACME INC. ANNUAL REPORT"], st, "Other income/(expense), net for 2015, 2014 and 2013 are as follows "
                                                                "(dollars in millions):"))
    total = sorted((f for f in facts if f.label.startswith("Total other") and f.unit != "%"), key=lambda f: f.column)
    assert [(f.value, f.fiscal_year, f.scale) for f in total] == [(1285.0, 2015, 1e6), (980.0, 2014, 1e6), (1156.0, 2013, 1e6)]
    changes = [f for f in facts if f.label.startswith("Total other") and f.unit == "%"]
    assert [(f.value, f.fiscal_year, f.scale) for f in changes] in ([], [(31.0, None, 1.0), (-15.0, None, 1.0)])
    assert [f.value for f in facts if f.label == "Interest expense"] == [-733.0, -384.0, -136.0]
