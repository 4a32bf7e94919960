"""Span columns printed without a year ("Three Months Ended June 30" / "Twelve Months Ended June 30" over
segment titles) under a title naming one fiscal year ("Components of Fiscal 2023 Sales growth"): each column is
dated in that year, a row whose label names another year ("Sales fiscal year 2022") in its own year, and
percent rows ("Volume %") are percents of their column's span. Without a title year, or with spans ending on
different days (a quarter that may fall in the calendar year before), no column is dated."""

from __future__ import annotations

import pytest

from tests.storage.documents.layout_pages import Statement, check_fact, facts_of, span

HEADER = [[("Three Months Ended June 30", 0, 2), ("Twelve Months Ended June 30", 3, 5)],
          ["Alpha", "Beta", "Total", "Alpha", "Beta", "Total"]]
ROWS = [("Sales fiscal year 2023", "2,777", "897", "3,673", "11,154", "3,540", "14,694"),
        ("Sales fiscal year 2022", "2,967", "942", "3,909", "11,151", "3,393", "14,544"),
        ("Volume %", "(7)", "(6)", "(7)", "(3)", "(4)", "(3)"),
        ("Price/Mix %", "2", "2", "2", "4", "1", "3")]


def test_spans_without_a_year_take_the_title_fiscal_year():
    facts = facts_of(Statement(["Components of Fiscal 2023 Sales growth", "($ million)"], HEADER, ROWS))
    check_fact(facts, "Volume %", 1, **span("2023-04-01", "2023-06-30", 3), unit="%", value=-6.0)
    check_fact(facts, "Price/Mix %", 5, **span("2022-07-01", "2023-06-30", 12), unit="%", value=3.0)
    check_fact(facts, "Sales fiscal year 2023", 2, **span("2023-04-01", "2023-06-30", 3), value=3673.0, scale=1e6)
    # the row naming the year before is that year's: the June 2022 quarter, fiscal 2022
    check_fact(facts, "Sales fiscal year 2022", 0, **span("2022-04-01", "2022-06-30", 3), value=2967.0)
    check_fact(facts, "Sales fiscal year 2022", 3, **span("2021-07-01", "2022-06-30", 12), value=11151.0)
    beta = next(f for f in facts if f.label == "Volume %" and f.column == 1)
    assert "Beta" in beta.period


@pytest.mark.parametrize("title, header", [
    (["Components of Sales growth", "($ million)"], HEADER),  # no year named
    (["Components of 2023 Sales growth", "($ million)"], HEADER),  # a year, no fiscal year named
    (["Components of Fiscal 2023 Sales growth", "($ million)"],  # a quarter ending on another day than the year
     [[("Three Months Ended December 31", 0, 2), ("Twelve Months Ended June 30", 3, 5)], HEADER[1]]),
    (["Fiscal 2023 and 2022 Sales growth", "($ million)"], HEADER),  # two years named
], ids=["no title year", "no fiscal year", "another month and day", "two title years"])
def test_spans_without_a_year_stay_undated(title, header):
    facts = facts_of(Statement(title, header, ROWS))
    assert not [f for f in facts if f.label == "Volume %" and f.period_end is not None]
