"""A growth asked is the change the row prints before it is any computation, whatever words ask it ("how fast did net
sales grow", not only "growth" or "change"). A growth asked on a basis ("in constant currency", "organic") is never
computed from the reported amounts: those give the reported growth."""

from __future__ import annotations

from agent.no_model.figures import INTRO
from tests.agent.no_model.pdf_statements import Page, asked_block, statement_pdf  # noqa: F401 (fixture)

YEARS = ("2023", "2022")
INCOME = Page("CONSOLIDATED STATEMENTS OF INCOME", YEARS, [
    ("Net sales", "$ 12,600", "$ 12,000"),
    ("Cost of sales", "7,560", "7,320"),
    ("Net income", "1,130", "1,050"),
])
HIGHLIGHTS = Page("Financial highlights", ("2023", "2022", "% Change"), [
    ("Net sales", "$ 12,600", "$ 12,000", "5%"),
    ("Net income", "1,130", "1,050", "8%"),
], span="")


def test_the_change_the_row_prints_answers_a_growth_asked_in_any_words(statement_pdf):
    sources, text = statement_pdf([HIGHLIGHTS])
    for question in ("By what percentage did net sales change in 2023?", "How fast did net sales grow in 2023?"):
        block = asked_block(question, sources, text)
        assert block and block[0] == INTRO and "5%" in block[1] and "(computed)" not in block[1], (question, block)


def test_a_growth_asked_in_constant_currency_is_not_computed_from_reported_amounts(statement_pdf):
    sources, text = statement_pdf([INCOME])
    block = asked_block("By what percentage did net sales grow in constant currency in 2023?", sources, text)
    assert block is not None and not any("(computed)" in line for line in block), block
    assert any("not computed" in line and "constant currency" in line for line in block), block
    reported = asked_block("By what percentage did net sales grow in 2023?", sources, text)
    assert reported is not None and any("5.0%" in line and "(computed)" in line for line in reported), reported
