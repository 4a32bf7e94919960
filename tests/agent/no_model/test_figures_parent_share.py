"""The company's own share asked ("excluding non-controlling interest"): the row naming the company
or "attributable to" it, not the total that includes the minority's (generated PDF read by layout)."""

from __future__ import annotations

from tests.agent.no_model.pdf_statements import Page, statement_pdf, asked_lead  # noqa: F401 (fixture)

BALANCE = Page("CONSOLIDATED BALANCE SHEETS", ("2022", "2021"), [
    ("Total liabilities", "11,490.3", "11,200.1"),
    ("Shareholders' Equity:",),
    ("Ordinary shares", "16.3", "16.3"),
    ("Retained earnings", "5,592.7", "5,401.2"),
    ("Total Northwind plc shareholders' equity", "5,609.0", "5,417.5"),
    ("Non-controlling interest", "65.7", "60.2"),
    ("Total shareholders' equity", "5,674.7", "5,477.7"),
    ("Total liabilities and shareholders' equity", "$ 17,165.0", "$ 16,677.8"),
], span="As of December 31,")



def test_excluding_the_minority_asks_the_row_of_the_companys_own_share(statement_pdf):
    sources, text = statement_pdf([BALANCE], file="NORTHWIND_2022_10K.pdf")
    assert asked_lead("What was total Northwind shareholders' equity at the end of 2022, excluding non-controlling interest?",
                 sources, text).startswith("- Total Northwind plc shareholders' equity (As of December 31, 2022): $5,609.0")
    assert asked_lead("How much Northwind shareholders' equity was there at December 31, 2021, without minority interests?",
                 sources, text).startswith("- Total Northwind plc shareholders' equity (As of December 31, 2021): $5,417.5")
