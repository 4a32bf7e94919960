"""Column periods as printed, parsed by storage/finance/periods.py."""

from __future__ import annotations

from datetime import date

import pytest

from storage.finance.periods import column_months, parse_period, span_months


@pytest.mark.parametrize("text, start, end, months, as_of", [
    ("Years ended December 31, 2022", date(2022, 1, 1), date(2022, 12, 31), 12, None),
    ("Three Months Ended June 30, 2023", date(2023, 4, 1), date(2023, 6, 30), 3, None),
    ("Nine Months Ended September 30, 2022", date(2022, 1, 1), date(2022, 9, 30), 9, None),
    ("Six Months Ended July 29, 2023", date(2023, 1, 30), date(2023, 7, 29), 6, None),
    # a span of weeks is its days: 364 to January 28, 2023 (the fiscal year that began January 30, 2022)
    ("52 weeks ended January 28, 2023", date(2022, 1, 30), date(2023, 1, 28), 12, None),
    ("Fifty-three weeks ended February 3, 2024", date(2023, 1, 29), date(2024, 2, 3), 12, None),
    ("13 Weeks Ended April 29, 2023", date(2023, 1, 29), date(2023, 4, 29), 3, None),
    ("Quarter Ended July 1, 2023", date(2023, 4, 2), date(2023, 7, 1), 3, None),
    ("December 31, 2022", None, date(2022, 12, 31), None, date(2022, 12, 31)),
    ("Balance at December 31, 2022", None, date(2022, 12, 31), None, date(2022, 12, 31)),
])
def test_a_printed_period_is_its_span_or_its_date(text, start, end, months, as_of):
    p = parse_period(text)
    assert (p.start, p.end, p.months, p.as_of) == (start, end, months, as_of)


def test_a_year_alone_names_the_year_only():
    p = parse_period("2022")
    assert (p.year, p.end, p.months) == (2022, None, None)
    assert parse_period("Fiscal 2022").months == 12


@pytest.mark.parametrize("text, year, months", [
    ("FY2023", 2023, 12), ("FY 23", 2023, 12), ("FY'22", 2022, 12), ("Q1 FY23", 2023, 3), ("Q4'22", 2022, 3),
    ("Q1-24", 2024, 3), ("Q2 2023", 2023, 3), ("Fiscal 2021", 2021, 12),
])
def test_fiscal_year_and_quarter_labels_name_their_year_and_span(text, year, months):
    p = parse_period(text)
    assert (p.year, p.months, p.end) == (year, months, None)


def test_two_digits_alone_are_no_year():
    assert parse_period("23").year is None and parse_period("Note 23").year is None


@pytest.mark.parametrize("text", ["2023 vs. 2022", "2023 vs 2022 % Change", "% Change 2023 over 2022", "Q1'23 versus Q1'22",
                                  "Fiscal 2023 compared to Fiscal 2022"])
def test_a_column_comparing_two_periods_has_no_period(text):
    p = parse_period(text)
    assert (p.year, p.end, p.months) == (None, None, None)


@pytest.mark.parametrize("text, column, claim", [
    ("Three Months Ended June 30, 2023", 3, 3),
    ("13 weeks ended April 29, 2023", 3, 3),
    ("Six Months Ended July 29, 2023", 6, 6),
    ("26 weeks ended July 29, 2023", 6, 6),
    ("Nine Months Ended September 30, 2022", 9, 9),
    ("52 weeks ended January 28, 2023", 12, 12),
    ("Year Ended December 31, 2022", 12, 12),
    ("Fiscal 2016", 12, None),  # a claim's "fiscal 2016" says no span; a column's says a year
    ("2016 4th", 3, None),  # a quarterly table's column by its ordinal
    ("first half 2023", None, 6),  # a claim's half year; no column prints it so
    ("December 31, 2022", None, None),
])
def test_the_span_readers_of_columns_and_claims(text, column, claim):
    """The two narrower span readers beside parse_period, each named for its reader (column_months: the answer
    path's column; span_months: the claim check's sentence and column), kept apart where their words differ."""
    assert (column_months(text), span_months(text)) == (column, claim)
