"""A change asked as an amount ("By how much did net sales decrease", "the dollar change in") is the difference of the
two periods' figures in their caption's scale: the amount the row prints under its change column when it prints one,
else computed from the two columns; a change asked in percent, or as growth, stays a rate. Generated statement pages
read by layout."""

from __future__ import annotations

import pytest

from agent.no_model.derived_figures import asks_change_amount
from tests.agent.no_model.pdf_statements import Page, asked_block, statement_pdf  # noqa: F401 (fixture)

INCOME = Page("CONSOLIDATED STATEMENTS OF OPERATIONS", ("2022", "2021", "2020"), [
    ("Net sales", "$ 34,229", "$ 31,877", "$ 33,150"), ("Cost of sales", "19,232", "18,105", "19,004"),
    ("Operating income", "4,870", "5,120", "4,400"), ("Diluted earnings per share", "$ 3.12", "$ 2.95", "$ 2.40")],
    caption="(In millions, except per share amounts)", span="Years Ended December 31,")

RESULTS = Page("SEGMENT RESULTS", ("2022", "2021", "Inc/(Dec)", "%"), [
    ("Total revenues", "4,210.5", "4,302.1", "(91.6)", "(2)"), ("Operating income", "1,544.7", "1,431.0", "113.7", "8")],
    caption="Dollars in millions", span="Quarters Ended December 31,", first_column=330, gap=70)


@pytest.mark.parametrize("question, amount", [
    ("By how much did net sales decrease from 2020 to 2021?", True),
    ("How much did operating income change between 2021 and 2022?", True),
    ("What was the dollar change in net sales from 2021 to 2022?", True),
    ("In dollars, how much did cost of sales increase in 2022?", True),
    ("By what percentage did net sales change from 2021 to 2022?", False),
    ("How much did net sales grow in 2022?", False),
    ("How much did the gross margin rate change in 2022?", False),
    ("What was the change in net sales from 2021 to 2022?", False),  # no amount said: a growth rate, as before
])
def test_an_amount_is_asked_only_in_words_that_say_so(question, amount):
    assert asks_change_amount(question) is amount


def test_a_change_asked_as_an_amount_is_the_difference_in_the_caption_scale(statement_pdf):
    sources, text = statement_pdf([INCOME], issuer="Northwind")
    block = asked_block("By how much did Northwind's net sales increase from 2021 to 2022?", sources, text)
    assert block and "34,229 − 31,877 = +2,352 million (computed)" in block[1], block
    block = asked_block("How much did Northwind's operating income decrease from 2021 to 2022?", sources, text)
    assert block and "= -250 million (computed)" in block[1], block  # the sign says which way it went
    block = asked_block("By how much did Northwind's diluted earnings per share increase from 2021 to 2022?", sources, text)
    assert block and "3.12 − 2.95 = +0.17 (computed)" in block[1], block  # per share: no caption scale
    block = asked_block("By what percentage did Northwind's net sales increase from 2021 to 2022?", sources, text)
    assert block and "= 7.4% (computed)" in block[1], block


def test_a_change_asked_as_an_amount_is_the_printed_change_amount(statement_pdf):
    sources, text = statement_pdf([RESULTS], file="NORTHWIND_2022Q4_EARNINGS.pdf", issuer="Northwind")
    block = asked_block("By how much did Northwind's operating income increase in the fourth quarter of 2022?", sources, text)
    assert block and "(computed)" not in block[1] and "113.7" in block[1] and "%" not in block[1], block
    block = asked_block("By what percentage did Northwind's operating income increase in the fourth quarter of 2022?",
                        sources, text)
    assert block and "(computed)" not in block[1] and "8%" in block[1], block


def test_a_balance_asked_as_an_amount_changed_between_two_dates(statement_pdf):
    balance = Page("CONSOLIDATED BALANCE SHEETS", ("2022", "2021"), [
        ("Cash and cash equivalents", "$ 4,512", "$ 5,230"), ("Total current assets", "12,406", "11,987")],
        caption="(In millions)", span="December 31,")
    sources, text = statement_pdf([balance], issuer="Northwind")
    block = asked_block("By how much did Northwind's cash and cash equivalents decrease from December 31, 2021 to "
                        "December 31, 2022?", sources, text)
    assert block and "4,512 − 5,230 = -718 million (computed)" in block[1], block
