"""An amount and its percent of sales under one year, no title over the percent column: a question asking the amount
is answered from the amount column (before, both columns were the year's and no figure was stated). Generated pages
read by layout, as at answer time."""

from __future__ import annotations

from tests.agent.no_model.pdf_statements import Page, asked_block, asked_lead, statement_pdf  # noqa: F401 (fixture)

REVIEW = Page("Two Year Review of Results", ("2021", "2021", "2020", "2020"), [
    ("Net sales", "12,861", "100.0 %", "12,468", "100.0 %"),
    ("Cost of sales", "(10,129)", "(78.8)", "(9,932)", "(79.7)"),
    ("Gross profit", "2,732", "21.2", "2,536", "20.3"),
    ("Net income", "951", "7.4 %", "616", "4.9 %")], caption="(in millions)", span="", first_column=330, gap=70)


def test_the_amount_beside_a_percent_of_sales_is_stated(statement_pdf):
    sources, text = statement_pdf([REVIEW], issuer="Northwind")
    lead = asked_lead("What were Northwind's net sales in 2021?", sources, text)
    assert lead.startswith("- Net sales (2021)") and "12,861 million" in lead, lead
    lead = asked_lead("What was Northwind's gross profit in 2020?", sources, text)
    assert lead.startswith("- Gross profit (2020)") and "2,536 million" in lead, lead
    block = asked_block("What was Northwind's gross margin in 2021?", sources, text)
    assert block and "gross profit 2,732 / net sales 12,861 = 21.2% (computed)" in block[1], block
