"""A results table printing each year's amount beside its percent of sales, the year over the pair and no title over the
percent column ("2021" centred over "12,861  100.0 %"): the percent column has no period of its own. Its figures
print a "%" in some rows only ("100.0 %" beside net sales, "(78.8)" beside cost of sales), so the column is told
by its figures: right of its twin under the same year, a "%" in some row, no "$", none over 1,000 and each below the
twin's amount, the twin printing no "%". Read as the year's, every row would print two figures of that year and
neither could be stated."""

from __future__ import annotations

from tests.storage.documents.layout_pages import Statement, check_fact, facts_of, span

YEAR_2021 = span("2021-01-01", "2021-12-31", 12)
NO_PERIOD = {"period_end": None, "fiscal_year": None, "as_of": None}
ROWS = [("Net sales", "12,861", "100.0 %", "12,468", "100.0 %"),
        ("Cost of sales", "(10,129)", "(78.8)", "(9,932)", "(79.7)"),
        ("Gross profit", "2,732", "21.2", "2,536", "20.3"),
        ("Other income, net", "75", "—", "55", "0.4"),
        ("Net income", "951", "7.4 %", "616", "4.9 %")]


def _review(rows=ROWS) -> Statement:
    return Statement(title=["Two Year Review of Results", "(in millions)"],
                     header=["Years ended December 31,", [("2021", 0, 1), ("2020", 2, 3)]], rows=rows)


def test_an_untitled_percent_column_has_no_period():
    facts = facts_of(_review())
    check_fact(facts, "Net sales", 0, **YEAR_2021, unit="USD")
    check_fact(facts, "Cost of sales", 0, **YEAR_2021, unit="USD")
    check_fact(facts, "Cost of sales", 1, **NO_PERIOD, unit="%")
    check_fact(facts, "Gross profit", 3, **NO_PERIOD, unit="%")


def test_twin_columns_of_amounts_keep_their_year():
    # two amounts under one year ("Carrying value" and "Fair value" left unread): no "%", so no column is a percent
    rows = [("Senior notes", "1,200", "1,180", "1,200", "1,230"), ("Term loan", "500", "500", "650", "650")]
    facts = facts_of(_review(rows))
    check_fact(facts, "Senior notes", 1, **YEAR_2021, unit="USD")


def test_a_valuation_table_of_rates_and_prices_keeps_its_years():
    # two awards under each year, their titles left unread: the right one prints a rate with "%" and a price with "$",
    # the left one neither: a column printing a price is no percent column
    rows = [("Expected term (years)", "5.2", "4.0", "5.1", "4.1"), ("Expected volatility", "28", "31%", "27", "30%"),
            ("Estimated value", "$48.06", "$7.94", "$50.11", "$8.20")]
    facts = facts_of(_review(rows))
    check_fact(facts, "Estimated value", 1, **YEAR_2021)
    check_fact(facts, "Expected volatility", 1, **YEAR_2021)
