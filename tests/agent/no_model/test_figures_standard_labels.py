"""A statement row printed in the taxonomy's own words is a row of its concept: the cash flow statement's "Payments to
acquire property, plant and equipment" (the US-GAAP standard label's verb form) under "Cash flows - investing
activities" (its section named with a dash, not "from") answers a capex question; both were unread, so a 10-K printing
them answered capex with "no figure is stated". Generated PDF read by layout."""

from __future__ import annotations

from tests.agent.no_model.pdf_statements import Page, asked_lead, statement_pdf  # noqa: F401 (fixture)

FLOWS = Page("CONSOLIDATED STATEMENTS OF CASH FLOWS", ("2021", "2020"), [
    ("Cash flows - investing activities:",),  # the section printed with a dash, not "from"
    ("Payments to acquire property, plant and equipment", "(980)", "(1,303)"),
    ("Proceeds from disposals of property, plant and equipment", "529", "296"),
    ("Net cash provided/(used) by investing activities", "9,324", "(18,366)"),
], caption="(Dollars in millions)")


def test_payments_to_acquire_property_answer_capex(statement_pdf):
    sources, text = statement_pdf([FLOWS])
    assert "(980)" in asked_lead("What was Northwind's capex in FY2021?", sources, text)
    assert "(1,303)" in asked_lead("What were Northwind's capital expenditures in 2020?", sources, text)
