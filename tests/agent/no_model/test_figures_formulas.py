"""Ratios on generated statement PDFs read by layout: a printed percentage row answers a ratio
question before any computing; a formula in words becomes an expression over printed rows; a
result that cannot be the asked figure (a margin outside ±100%, inputs of different scales) is
no figure; an operand naming a ratio's words is the amount row printed under them."""

from __future__ import annotations

from agent.no_model.figures import INTRO, INTRO_COMPUTED, INTRO_NOT_COMPUTED
from tests.agent.no_model.pdf_statements import Page, statement_pdf, asked_block  # noqa: F401 (fixture)

YEARS = ("2022", "2021")
INCOME = Page("CONSOLIDATED STATEMENTS OF OPERATIONS", YEARS, [
    ("Net sales", "$ 34,229", "$ 32,184"),
    ("Cost of sales", "19,232", "17,846"),
    ("Gross margin", "14,997", "14,338"),
    ("Operating income", "4,532", "4,410"),
])
PERCENTS = Page("RESULTS OF OPERATIONS", YEARS, [
    ("As a percentage of net sales:",),
    ("Net sales", "100.0 %", "100.0 %"),
    ("Gross profit", "43.8 %", "44.6 %"),
    ("Operating income", "13.2 %", "13.7 %"),
], caption="")



def test_a_printed_percentage_row_answers_the_margin_before_computing(statement_pdf):
    sources, text = statement_pdf([INCOME, PERCENTS])
    block = asked_block("What was the operating margin in 2022?", sources, text)
    assert block[0] == INTRO and block[1].startswith("- Operating income (Years Ended December 31, 2022): 13.2%"), block
    block = asked_block("What was the gross margin in 2021?", sources, text)
    assert block[0] == INTRO and block[1].startswith("- Gross profit (Years Ended December 31, 2021): 44.6%"), block


def test_a_formula_in_words_is_an_expression_over_rows(statement_pdf):
    sources, text = statement_pdf([INCOME])
    block = asked_block("What was the gross margin in 2022, calculated as (net sales minus cost of sales) divided by "
                   "net sales?", sources, text)
    assert block[0] == INTRO_COMPUTED, block
    assert block[1] == ("- Gross margin, fiscal 2022 = (net sales 34,229 − cost of sales 19,232) / net sales 34,229 = "
                        "43.8% (computed) [^1]")


def test_a_parenthesised_part_of_a_formula_is_not_the_whole_formula(statement_pdf):
    sources, text = statement_pdf([INCOME])
    block = asked_block("What was the gross margin (net sales minus cost of sales) divided by net sales in 2022?",
                   sources, text)
    assert not any("1,499,700" in line or "(computed)" in line and "/ net sales" not in line for line in block or [])


def test_a_margin_outside_a_hundred_percent_is_no_figure(statement_pdf):
    sources, text = statement_pdf([INCOME])
    block = asked_block("The margin is defined as net sales minus cost of sales. What was the margin in 2022?", sources, text)
    assert block[0] == INTRO_NOT_COMPUTED and "(computed)" not in "\n".join(block), block
    assert "outside ±100%" in block[1]


def test_an_operand_naming_a_ratios_words_is_the_printed_amount_row(statement_pdf):
    sources, text = statement_pdf([INCOME])
    block = asked_block("What was the gross margin percentage in fiscal 2022 (gross margin divided by net sales)?",
                   sources, text)
    assert block[0] == INTRO_COMPUTED, block
    assert "= gross margin 14,997 / net sales 34,229 = 43.8% (computed) [^1]" in block[1]


def test_a_share_asked_is_a_percentage(statement_pdf):
    sources, text = statement_pdf([INCOME])
    block = asked_block("What share of its 2022 net sales did the company keep as operating income "
                   "(operating income / net sales)?", sources, text)
    assert block[0] == INTRO_COMPUTED and "= operating income 4,532 / net sales 34,229 = 13.2% (computed)" in block[1]


def test_a_ratio_of_a_part_is_not_computed_from_the_companys_rows(statement_pdf):
    sources, text = statement_pdf([INCOME])
    block = asked_block("What was the Services gross margin percentage in fiscal 2022?", sources, text)
    assert not any("(computed)" in line for line in block or []), block
    block = asked_block("What was the gross margin percentage in fiscal 2022?", sources, text)
    assert "= gross margin 14,997 / net sales 34,229 = 43.8% (computed)" in block[1]
