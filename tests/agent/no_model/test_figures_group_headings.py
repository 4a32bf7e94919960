"""A heading that groups a statement's rows without naming a line item ("Company-operated restaurant expenses" over "Food
and paper", "Payroll and employee benefits") does not make its rows another item's parts: a row whose label prints every
line-item word of the question, and no word the question does not, answers it. A heading naming a segment still does (the question must name the segment),
and one label printed under two headings is not guessed. Generated statement pages read by layout."""

from __future__ import annotations

from tests.agent.no_model.pdf_statements import Page, asked_block, asked_lead, statement_pdf  # noqa: F401 (fixture)

GROUPED = Page("CONSOLIDATED STATEMENT OF INCOME", ("2022", "2021"), [
    ("Total revenues", "23,182.6", "23,222.9"),
    ("Restaurant operating costs",),
    ("Food and paper", "2,737.3", "3,096.8"), ("Payroll and employee benefits", "2,617.4", "2,677.2"),
    ("Franchise operating costs",),
    ("Occupancy rent", "2,349.7", "2,335.0"),
    ("Operating income", "9,371.0", "10,356.0")], caption="In millions")


def test_a_row_under_a_grouping_heading_answers_the_label_it_prints(statement_pdf):
    sources, text = statement_pdf([GROUPED], issuer="Northwind")
    lead = asked_lead("What did Northwind spend on food and paper in 2022?", sources, text)
    assert lead.startswith("- Food and paper (") and "2,737.3 million" in lead, lead
    lead = asked_lead("What were Northwind's payroll and employee benefits in 2021?", sources, text)
    assert lead.startswith("- Payroll and employee benefits (") and "2,677.2 million" in lead, lead


def test_one_label_under_two_headings_is_not_guessed(statement_pdf):
    twice = Page("LEASES", ("2022", "2021"), [
        ("Operating leases",), ("Right-of-use assets", "1,204", "1,150"), ("Lease liabilities", "1,310", "1,260"),
        ("Finance leases",), ("Right-of-use assets", "310", "295"), ("Lease liabilities", "330", "318")],
        caption="In millions")
    sources, text = statement_pdf([twice], issuer="Northwind")
    assert asked_block("What were Northwind's right-of-use assets in 2022?", sources, text) is None
    lead = asked_lead("What were Northwind's finance lease right-of-use assets in 2022?", sources, text)
    assert lead.startswith("- Right-of-use assets (") and ": 310 million" in lead, lead


def test_a_label_saying_more_than_the_question_is_not_named_by_it(statement_pdf):
    supplemental = Page("CONSOLIDATED STATEMENTS OF CASH FLOWS", ("2022", "2021"), [
        ("Net cash provided by operating activities", "1,204", "1,150"),
        ("Non-cash investing and financing activities",),
        ("Mortgage note payable legally defeased", "640,500", "212,300")], caption="In thousands")
    sources, text = statement_pdf([supplemental], issuer="Northwind")
    assert asked_block("What were Northwind's mortgage notes payable at December 31, 2022?", sources, text) is None


def test_a_row_under_a_segment_heading_needs_the_segment_named(statement_pdf):
    segment = Page("SEGMENT RESULTS", ("2022", "2021"), [
        ("Total revenues", "23,182.6", "23,222.9"),
        ("International segment",),
        ("Food and paper", "1,120.4", "1,208.9"), ("Payroll and employee benefits", "902.7", "930.1")],
        caption="In millions")
    sources, text = statement_pdf([segment], issuer="Northwind")
    assert asked_block("What did Northwind spend on food and paper in 2022?", sources, text) is None
    lead = asked_lead("What did Northwind's International segment spend on food and paper in 2022?", sources, text)
    assert lead.startswith("- Food and paper (") and "1,120.4 million" in lead, lead
