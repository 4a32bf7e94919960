"""A quarter's figure read from a 10-K's quarterly (unaudited) table whose columns name only the
month each quarter ends, under a fiscal year ("Fiscal 2016 Quarter Ended: August 31 ... May 31")
or a calendar year printed in reverse ("2016 Quarter ended: December 31 ... March 31"): the
columns' printed order says which quarter each is; a table labelled by its fiscal year is never
shifted a year by the filing's fiscal calendar (generated PDFs read by layout)."""

from __future__ import annotations

from agent.no_model.figures import INTRO
from tests.agent.no_model.pdf_statements import Page, statement_pdf, asked_block  # noqa: F401 (fixture)

FISCAL_2016 = Page("QUARTERLY FINANCIAL DATA", ("August 31", "November 30", "February 29", "May 31"), [
    ("Revenues", "$ 8,448", "$ 8,993", "$ 9,012", "$ 10,594"),
    ("Net income", "$ 1,747", "$ 2,197", "$ 2,142", "$ 2,814"),
], caption="(in millions)", span="Fiscal 2016 Quarter Ended (Unaudited)", first_column=300, gap=75)
FISCAL_2015 = Page("QUARTERLY FINANCIAL DATA", ("August 31", "November 30", "February 28", "May 31"), [
    ("Revenues", "$ 8,596", "$ 9,598", "$ 9,327", "$ 10,706"),
    ("Earnings per share - diluted", "$ 0.48", "$ 0.56", "$ 0.56", "$ 0.62"),
], caption="(in millions, except per share amounts)", span="Fiscal 2015 Quarter Ended (Unaudited)", first_column=300, gap=75)
CALENDAR = Page("QUARTERLY CONSOLIDATED FINANCIAL DATA (UNAUDITED)",
                ("December 31", "September 30", "June 30", "March 31"), [
    ("Operating revenues", "$ 4,713", "$ 4,810", "$ 4,169", "$ 3,974"),
    ("Net income", "696", "391", "210", "110"),
], caption="(in millions)", span="2016 Quarter ended", first_column=300, gap=75)



def test_a_fiscal_years_quarters_are_read_by_their_printed_order(statement_pdf):
    sources, text = statement_pdf([FISCAL_2016, FISCAL_2015], file="NORTHWIND_2016_10K.pdf", fiscal=(2016, None))
    block = asked_block("What were revenues in the fourth quarter of fiscal 2016?", sources, text)
    assert block and block[0] == INTRO and "10,594" in block[1] and "[^1]" in block[1], block
    # the fiscal 2015 table is fiscal 2015's, not shifted into fiscal 2016 by the filing's calendar
    block = asked_block("What were revenues in the second quarter of fiscal 2016?", sources, text)
    assert block and "8,993" in block[1] and "9,598" not in "\n".join(block), block
    block = asked_block("What was diluted EPS in the second quarter of fiscal 2015?", sources, text)
    assert block and "0.56" in block[1] and "[^2]" in block[1], block


def test_a_quarter_dated_by_the_question_is_the_column_ending_that_month(statement_pdf):
    sources, text = statement_pdf([FISCAL_2016], file="NORTHWIND_2016_10K.pdf", fiscal=(2016, None))
    block = asked_block("What were revenues for the quarter ended February 29, 2016?", sources, text)
    assert block and "9,012" in block[1], block


def test_calendar_quarters_printed_latest_first(statement_pdf):
    sources, text = statement_pdf([CALENDAR], file="NORTHWIND_2016_10K.pdf", fiscal=(2016, None))
    block = asked_block("What was net income in the first quarter of 2016?", sources, text)
    assert block and block[0] == INTRO and block[1].startswith("- Net income") and "110" in block[1], block
    block = asked_block("What were operating revenues in the third quarter of 2016?", sources, text)
    assert block and "4,810" in block[1], block
