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


INCOME = Page("CONSOLIDATED STATEMENTS OF INCOME", ("2022", "2021"), [
    ("Net sales", "12,861.0", "12,468.0"),
    ("Net income", "951.0", "616.0"),
    ("Net income attributable to non-controlling interests", "(12.0)", "(4.0)"),
    ("Net income attributable to Northwind plc", "939.0", "612.0"),
    ("Preferred dividends", "(20.0)", "(20.0)"),
    ("Net income attributable to common shareholders", "919.0", "592.0"),
])


def test_holders_after_the_company_name_say_whose_share(statement_pdf):
    # "shareholders" after the issuer's name is the owners' share, the row "attributable to Northwind plc"; holders
    # named otherwise ("common shareholders") are words of the row
    sources, text = statement_pdf([INCOME], file="NORTHWIND_2022_10K.pdf", issuer="Northwind plc")
    lead = asked_lead("What was net income attributable to Northwind plc shareholders in 2022?", sources, text)
    assert lead.startswith("- Net income attributable to Northwind plc (") and "939.0 million" in lead, lead
    lead = asked_lead("What was net income attributable to common shareholders in 2021?", sources, text)
    assert lead.startswith("- Net income attributable to common shareholders (") and "592.0 million" in lead, lead


def test_holders_of_equity_are_words_of_its_row(statement_pdf):
    sources, text = statement_pdf([BALANCE], file="NORTHWIND_2022_10K.pdf", issuer="Northwind plc")
    lead = asked_lead("What was the equity attributable to Northwind plc's shareholders at December 31, 2022?", sources, text)
    assert lead.startswith("- Total Northwind plc shareholders' equity (") and "5,609.0" in lead, lead
