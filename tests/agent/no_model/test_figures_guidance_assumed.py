"""An item a guidance range assumes, asked by that verb ("What legal costs does the low end of the 2023 guidance
assume?"): "assume" is the asking, like "record" or "incur", not a word the row must print; the low or high
column the question names answers (issue 27, releases). Generated PDFs read by layout."""

from __future__ import annotations

from tests.agent.no_model.pdf_statements import Page, asked_lead, statement_pdf  # noqa: F401 (fixture)

ASSUMED = Page("Non-core items in the 2023 guidance", ("Low", "High"), [
    ("Legal and other costs", "$ 65", "$ 40"),
    ("Exit financing", "35", "25"),
    ("Restructuring costs (pre-tax)", "$ 100", "$ 65"),
    ("Tax impacts", "(28)", "(18)"),
    ("Restructuring costs (post-tax)", "$ 72", "$ 47"),
], caption="2023 guidance (in millions, pre-tax)", span="2023")


def test_an_item_the_guidance_assumes_is_read_from_the_named_end(statement_pdf):
    sources, text = statement_pdf([ASSUMED], file="NORTHWIND_2023_EARNINGS.pdf")
    low = asked_lead("What pre-tax restructuring costs does the low end of the 2023 guidance assume?", sources, text)
    assert low.startswith("- Restructuring costs (pre-tax) (") and "100" in low, low
    high = asked_lead("What post-tax restructuring costs does the high end of the 2023 guidance assume?",
                      sources, text)
    assert high.startswith("- Restructuring costs (post-tax) (") and "47" in high, high
