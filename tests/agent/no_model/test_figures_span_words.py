"""A column's span in the words filings print it with beyond "Three Months Ended": "Quarters Ended", "Three-Month
Periods Ended", "Thirteen Weeks Ended", "Twenty-Six Weeks Ended", "Fifty-Two Weeks Ended". The answer path reads them
as the facts do (storage/finance/periods.py column_months, parse_period), so a year asked never takes a quarter's
column, and a quarter's page beside the year's page does not make a year's figure ambiguous."""

from __future__ import annotations

import pytest

from agent.no_model.figure_periods import asked_period, pick_cells
from storage.documents.tables import Cell, TableHeader
from tests.agent.no_model.pdf_statements import Page, asked_lead, statement_pdf  # noqa: F401 (fixture)


def _cells(heads: tuple[str, ...], values: tuple[str, ...]) -> list[Cell]:
    header = TableHeader(" ".join(heads), heads)
    return [Cell("Revenue", p, v, "Revenue", header, i) for i, (p, v) in enumerate(zip(heads, values))]


@pytest.mark.parametrize("short, long, asked_long", [
    ("Quarters Ended December 31, {}", "Years Ended December 31, {}", "What was revenue in 2022?"),
    ("Thirteen Weeks Ended January 28, {}", "Fifty-Two Weeks Ended January 28, {}", "What was revenue in the fifty-two weeks "
                                                                                     "ended January 28, 2023?"),
    ("Three-Month Periods Ended June 30, {}", "Six-Month Periods Ended June 30, {}", "What was revenue in the first half "
                                                                                     "of 2023?"),
    ("Thirteen Weeks Ended July 29, {}", "Twenty-Six Weeks Ended July 29, {}", "What was revenue in the six months ended "
                                                                               "July 29, 2023?"),
    ("Three Months Ended June 30, {}", "Six Months Ended June 30, {}", "What was revenue in H1 2023?"),
])
def test_the_longer_span_asked_takes_its_own_column(short, long, asked_long):
    year = 2023 if "2023" in asked_long else 2022
    heads = (short.format(year), short.format(year - 1), long.format(year), long.format(year - 1))
    cells = _cells(heads, ("4,010", "3,870", "16,250", "15,120"))
    assert [c.value for c in pick_cells(cells, asked_period(asked_long))] == ["16,250"]


QUARTER = Page("CONDENSED CONSOLIDATED STATEMENTS OF INCOME", ("2022", "2021"), [
    ("Net sales", "4,010", "3,870"), ("Net income", "512", "470")], span="Quarters Ended December 31,")
YEAR = Page("CONDENSED CONSOLIDATED STATEMENTS OF INCOME", ("2022", "2021"), [
    ("Net sales", "16,250", "15,120"), ("Net income", "2,075", "1,930")], span="Years Ended December 31,")


def test_a_quarters_page_beside_the_years_page_leaves_the_year_its_figure(statement_pdf):
    sources, text = statement_pdf([QUARTER, YEAR], file="NORTHWIND_2022Q4_EARNINGS.pdf", issuer="Northwind Corporation")
    lead = asked_lead("What was Northwind's net income in 2022?", sources, text)
    assert "2,075" in lead and "512" not in lead, lead
