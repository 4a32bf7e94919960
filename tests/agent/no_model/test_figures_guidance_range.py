"""A range table's figure asked with neither end named ("What is the 2023 GAAP EPS guidance?", "… guidance range")
is the printed range, low to high, with its period; an end named is that end's column (issue 27, releases'
guidance tables). A range printed in one cell ("$8.51 to $8.53", "$10.5-11.5", "~20% to ~21%") is one value, both
ends said, never its high end alone; "Full Year FY24" over its column is that year's head. Generated PDFs read by
layout."""

from __future__ import annotations

from tests.agent.no_model.pdf_statements import Page, asked_block, asked_lead, statement_pdf  # noqa: F401 (fixture)

GUIDANCE = Page("2023 Earnings Guidance", ("Low", "High"), [
    ("Estimated EPS on a GAAP basis", "$ 1.04", "$ 1.13"),
    ("Estimated EPS on a non-GAAP Core Earnings basis", "$ 1.19", "$ 1.23"),
], span="2023", caption="")
IN_CELLS = Page("Guidance", ("Q2 FY24", "Full Year FY24"), [
    ("Revenue (in billions)", "$8.51 to $8.53", "$34.5 to $34.7"), ("Y/Y Growth", "~10%", "~11%"),
    ("GAAP EPS", "$1.00 to $1.02", "$4.09 to $4.11"), ("Non-GAAP EPS", "$1.89-$1.90", "$7.39-$7.41"),
    ("Operating Cash Flow Growth (Y/Y)", "", "~20% to ~21%")],
    caption="", span="", first_column=380, gap=110)
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


def test_a_range_printed_in_one_cell_is_said_whole(statement_pdf):
    sources, text = statement_pdf([IN_CELLS], file="NORTHWIND_2024Q1_EARNINGS.pdf", fiscal=(2024, 1))
    lead = asked_lead("What is the revenue guidance for Q2 FY24?", sources, text)
    assert "$8.51 to $8.53 billion" in lead, lead
    lead = asked_lead("What is the non-GAAP EPS guidance for full year FY24?", sources, text)
    assert "$7.39 to $7.41 per share" in lead and "Full Year FY24" in lead, lead
    lead = asked_lead("What is the GAAP EPS guidance for Q2 FY24?", sources, text)
    assert "$1.00 to $1.02 per share" in lead, lead
