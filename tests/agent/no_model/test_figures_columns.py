"""Columns told apart by their headers' own words (generated PDFs read by layout): of several
columns of the asked year, a segment's column answers the question naming that segment, a range's
"Low" column the question asking its low end, the "Total" column a question naming none; when
nothing tells which one is asked, no figure. Percentages answer only a percentage asked."""

from __future__ import annotations

from tests.agent.no_model.pdf_statements import Page, statement_pdf, asked_block, asked_lead  # noqa: F401 (fixture)

SEGMENTS = Page("Note 14 – Business Segments", ("Express", "Ground", "Freight"), [
    ("Revenue", "$ 42,743", "$ 33,507", "$ 9,632"),
    ("Operating income", "1,064", "3,140", "1,925"),
    ("Segment assets", "47,754", "36,815", "10,197"),
], span="Year ended May 31, 2023", first_column=330)
MEASURES = Page("Revenues and Costs", ("Recovered", "Deferred", "Total"), [
    ("Electric operating revenues", "$ 10,357", "$ 4,703", "$ 15,060"),
], span="2022")
NOT_TOLD = Page("Revenues and Costs", ("Recovered", "Deferred"), [
    ("Electric operating revenues", "$ 10,357", "$ 4,703"),
], span="2022")
GUIDANCE = Page("2023 Earnings Guidance", ("Low", "High"), [
    ("Estimated EPS on a non-GAAP Core Earnings basis", "$ 1.19", "$ 1.23"),
], span="2023", caption="")
SHARES = Page("Revenues by Geography", ("2023", "2022"), [
    ("% Revenues by Geography:",),
    ("Americas", "63%", "56%"),
    ("EMEA", "23%", "27%"),
], caption="(Dollars in millions)", span="Year Ended May 31,")




def test_a_segments_column_answers_the_question_naming_the_segment(statement_pdf):
    sources, text = statement_pdf([SEGMENTS])
    assert "9,632" in asked_lead("What revenue did the Freight segment generate in fiscal 2023?", sources, text)
    assert "42,743" in asked_lead("What revenue did the Express segment report in fiscal 2023?", sources, text)
    assert "36,815" in asked_lead("What were the Ground segment's assets as of May 31, 2023?", sources, text)


def test_a_question_naming_no_column_takes_the_total_column_or_none(statement_pdf):
    sources, text = statement_pdf([MEASURES])
    assert "15,060" in asked_lead("How much electric operating revenue did Northwind report in 2022?", sources, text)
    sources, text = statement_pdf([NOT_TOLD])
    block = asked_block("How much electric operating revenue did Northwind report in 2022?", sources, text)
    assert block is None or not any("10,357" in line or "4,703" in line for line in block[1:2]), block


def test_a_ranges_low_column_answers_its_low_end(statement_pdf):
    sources, text = statement_pdf([GUIDANCE])
    assert "1.19" in asked_lead("What is the low end of the 2023 non-GAAP core EPS guidance?", sources, text)
    assert "1.23" in asked_lead("What is the high end of the 2023 non-GAAP core EPS guidance?", sources, text)


def test_a_percentage_row_is_no_amount_asked(statement_pdf):
    sources, text = statement_pdf([SHARES])
    block = asked_block("What were Northwind's revenues in the Americas in fiscal 2023?", sources, text)
    assert block is None or "63%" not in "\n".join(block), block
