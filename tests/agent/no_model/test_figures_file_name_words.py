"""A file's name says whose the filing is and, often, what it holds ("NORTHWIND_2023_EARNINGS.pdf"): the company's words
are no line-item words of a question, but "earnings" in the name must not swallow the "earnings" a question asks.
Generated release page read by layout."""

from __future__ import annotations

import pytest

from tests.agent.no_model.pdf_statements import Page, asked_lead, statement_pdf  # noqa: F401 (fixture)

CORE = Page("Reconciliation of GAAP Earnings to Non-GAAP Core Earnings", ("2023", "2022"), [
    ("Northwind Corporation's Earnings on a GAAP basis", "$ 406", "$ 356"),
    ("Non-core items:",),
    ("Restructuring and legal costs", "17", "151"),
    ("Northwind Corporation's Non-GAAP Core Earnings", "$ 507", "$ 568"),
], caption="(in millions)", span="Three Months Ended June 30,")


@pytest.mark.parametrize("file", ["NORTHWIND_2023_EARNINGS.pdf", "northwind-q2-2023-earnings-release.pdf", "NORTHWIND_2023Q2.pdf"])
def test_earnings_in_the_file_name_is_still_the_earnings_asked(statement_pdf, file):
    sources, text = statement_pdf([CORE], file=file, issuer="Northwind Corporation")
    lead = asked_lead("What were Northwind Corporation's GAAP earnings in the second quarter of 2023, before non-core items?",
                      sources, text)
    assert "$406" in lead, lead
    # the company's own name, said in the file's name and by the issuer, is still no line-item word
    assert "$568" in asked_lead("What were Northwind's non-GAAP core earnings in the quarter ended June 30, 2022?", sources, text)
