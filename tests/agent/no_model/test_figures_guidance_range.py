"""A range table's figure asked with neither end named ("What is the 2023 GAAP EPS guidance?", "… guidance range")
is the printed range, low to high, with its period; an end named is that end's column (issue 27, releases'
guidance tables). Generated PDFs read by layout."""

from __future__ import annotations

from tests.agent.no_model.pdf_statements import Page, asked_block, asked_lead, statement_pdf  # noqa: F401 (fixture)

GUIDANCE = Page("2023 Earnings Guidance", ("Low", "High"), [
    ("Estimated EPS on a GAAP basis", "$ 1.04", "$ 1.13"),
    ("Estimated EPS on a non-GAAP Core Earnings basis", "$ 1.19", "$ 1.23"),
], span="2023", caption="")
ONE_YEAR = Page("Earnings per share", ("2023", "2022"), [
    ("Diluted earnings per share", "$ 1.04", "$ 0.95"),
], span="Year Ended December 31,", caption="")


def test_a_range_asked_is_the_printed_range_with_its_period(statement_pdf):
    sources, text = statement_pdf([GUIDANCE], file="NORTHWIND_2023_EARNINGS.pdf")
    for question in ("What is the 2023 GAAP EPS guidance?", "What is the 2023 GAAP EPS guidance range?"):
        lead = asked_lead(question, sources, text)
        assert lead.startswith("- Estimated EPS on a GAAP basis (2023 Low to 2023 High): $1.04 to $1.13"), lead
    core = asked_lead("What is the 2023 non-GAAP core EPS guidance?", sources, text)
    assert "$1.19 to $1.23" in core, core
    # an end named is that column alone
    high = asked_lead("What is the high end of the 2023 GAAP EPS guidance?", sources, text)
    assert "1.13" in high and "1.04" not in high, high


def test_columns_of_two_years_are_no_range(statement_pdf):
    sources, text = statement_pdf([ONE_YEAR], file="NORTHWIND_2023_10K.pdf")
    lead = asked_lead("What was Northwind's diluted EPS in 2023?", sources, text)
    assert " to " not in lead and "1.04" in lead, lead
