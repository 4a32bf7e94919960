"""The coupon of notes named by their due year is the rate printed in the notes' name, in prose ("issued 3.625%
Guaranteed Senior Notes due 2026 and 4.500% … due 2028") or a debt table's row label ("4.50% Notes due March 15,
2029"): the named year's rate, never the other notes' (issue 27, 8-Ks and debt notes). Generated PDFs read by layout."""

from __future__ import annotations

from tests.agent.no_model.pdf_statements import Page, asked_block, asked_lead, statement_pdf  # noqa: F401 (fixture)

DEBT = Page("Note 8 - Debt", ("2023", "2022"), [
    ("4.50% Notes due March 15, 2029", "1,000", "1,000"),
    ("5.25% Senior Notes due 2033", "750", "—"),
    ("Total long-term debt", "1,750", "1,000"),
], span="December 31,", above=["On June 30, 2022, Northwind issued 3.625% Guaranteed Senior Notes due 2026 and 4.500%",
                               "Guaranteed Senior Notes due 2028 in exchange for its outstanding notes."])


def test_the_rate_printed_in_the_named_notes_name_answers(statement_pdf):
    sources, text = statement_pdf([DEBT], file="NORTHWIND_2023_10K.pdf")
    lead = asked_lead("What coupon do the Northwind Guaranteed Senior Notes due 2026 carry?", sources, text)
    assert lead.startswith("- Guaranteed Senior Notes due 2026 (") and "3.625%" in lead and "4.500" not in lead, lead
    wrapped = asked_lead("What interest rate do the Guaranteed Senior Notes due 2028 bear?", sources, text)
    assert "4.500%" in wrapped, wrapped
    label = asked_lead("What is the interest rate on Northwind's notes due 2029?", sources, text)
    assert "4.50%" in label and "1,000" not in label, label


def test_notes_of_a_year_not_printed_get_no_rate(statement_pdf):
    sources, text = statement_pdf([DEBT], file="NORTHWIND_2023_10K.pdf")
    block = asked_block("What coupon do the Northwind Senior Notes due 2031 carry?", sources, text) or []
    assert not any("%" in line for line in block), block
