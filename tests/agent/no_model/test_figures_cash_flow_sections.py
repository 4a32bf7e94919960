"""A cash flow statement's three sections are headed in many words ("Cash used in investing activities", "Cash
provided by (used in) financing activities", "Investing activities of continuing operations"): each says where
its rows stand on the statement, not whose part they are, so the rows under it answer their line item. The
supplemental "Non-cash investing and financing activities" is no such section: its rows are no cash flow."""

from __future__ import annotations

import pytest

from tests.agent.no_model.pdf_statements import Page, asked_block, asked_lead, statement_pdf  # noqa: F401

YEARS = ("2022", "2021")


def _cash_flows(operating: str, investing: str, financing: str) -> Page:
    return Page("CONSOLIDATED STATEMENTS OF CASH FLOWS", YEARS, [
        (operating,),
        ("Net income", "1,210", "1,100"),
        ("Depreciation and amortization", "640", "610"),
        ("Net cash provided by operating activities", "2,050", "1,930"),
        (investing,),
        ("Capital expenditures", "(912)", "(804)"),
        ("Acquisitions, net of cash acquired", "(150)", "(75)"),
        ("Net cash used in investing activities", "(1,062)", "(879)"),
        (financing,),
        ("Dividends paid", "(415)", "(398)"),
        ("Repurchases of common stock", "(600)", "(450)"),
        ("Net cash used in financing activities", "(1,015)", "(848)"),
    ], span="Years Ended December 31,")


@pytest.mark.parametrize("operating, investing, financing", [
    ("Cash provided by operating activities:", "Cash used in investing activities:", "Cash used in financing activities:"),
    ("Cash from operating activities", "Cash used for investing activities", "Cash provided by (used in) financing activities"),
    ("Operating activities of continuing operations", "Investing activities of continuing operations",
     "Financing activities of continuing operations"),
    ("Cash flows related to operating activities", "Cash flows related to investing activities",
     "Cash flows related to financing activities"),
    ("Cash generated from operating activities", "Cash (used in) provided by investing activities",
     "Net cash used for financing activities"),
])
def test_rows_under_a_cash_flow_section_answer_their_item(statement_pdf, operating, investing, financing):
    sources, text = statement_pdf([_cash_flows(operating, investing, financing)])
    assert "(912)" in asked_lead("What were capital expenditures in 2022?", sources, text)
    assert "(398)" in asked_lead("How much did the company pay in dividends in 2021?", sources, text)


def test_a_non_cash_section_is_no_cash_flow(statement_pdf):
    page = Page("CONSOLIDATED STATEMENTS OF CASH FLOWS", YEARS, [
        ("Cash used in investing activities:",),
        ("Acquisitions, net of cash acquired", "(150)", "(75)"),
        ("Net cash used in investing activities", "(150)", "(75)"),
        ("Non-cash investing and financing activities:",),
        ("Capital expenditures", "85", "62"),
    ], span="Years Ended December 31,")
    sources, text = statement_pdf([page])
    assert asked_block("What were capital expenditures in 2022?", sources, text) is None
