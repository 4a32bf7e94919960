"""A % change the page prints answers "by what percentage did X change" before any computing (issue 27,
10-Qs and releases): the row's "Change" column right after the two compared periods, said with both periods.
A "$ Change" column is no percentage; a row printing no change column is computed as before. Generated PDFs
read by layout."""

from __future__ import annotations

from agent.no_model.figures import INTRO_COMPUTED
from tests.agent.no_model.pdf_statements import Page, asked_block, statement_pdf  # noqa: F401 (fixture)

SALES = Page("NET SALES BY CATEGORY", ("July 1, 2023", "June 25, 2022", "Change"), [
    ("Net sales by category:",),
    ("Laptops", "$ 21,743", "$ 28,669", "(24)%"),
    ("Tablets", "$ 9,223", "$ 9,850", "(6)%"),
    ("Total net sales", "$ 90,360", "$ 96,100", "(6)%"),
], caption="(Dollars in millions)", span="Nine Months Ended", first_column=360, gap=90)
DOLLARS = Page("NET SALES BY CATEGORY", ("July 1, 2023", "June 25, 2022", "$ Change"), [
    ("Net sales by category:",),
    ("Laptops", "$ 21,743", "$ 28,669", "$ (6,926)"),
    ("Tablets", "$ 9,223", "$ 9,850", "$ (627)"),
], caption="(Dollars in millions)", span="Nine Months Ended", first_column=360, gap=90)
FILE = "NORTHWIND_2023Q3_10Q.pdf"
ASKED = "By what percentage did Northwind's laptops net sales change in the nine months ended July 1, 2023 versus a year earlier?"


def test_the_printed_percent_change_answers_before_computing(statement_pdf):
    sources, text = statement_pdf([SALES], file=FILE, fiscal=(2023, 3))
    block = asked_block(ASKED, sources, text)
    assert block and "(computed)" not in "\n".join(block), block
    lead = block[1]
    assert lead.startswith("- Laptops (Change, ") and "(24)%" in lead and "2023" in lead and "2022" in lead, block
    tablets = asked_block(ASKED.replace("laptops", "tablets"), sources, text)
    assert "(6)%" in tablets[1] and tablets[1].startswith("- Tablets ("), tablets


def test_a_dollar_change_column_is_no_percentage(statement_pdf):
    sources, text = statement_pdf([DOLLARS], file=FILE, fiscal=(2023, 3))
    block = asked_block(ASKED, sources, text)
    assert block and block[0] == INTRO_COMPUTED and "(6,926)" not in block[1] and "-24.2%" in block[1], block
