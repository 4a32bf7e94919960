"""A question that prints a row's label word for word names that row, however many other words it says of it
("total deferred tax assets before the valuation allowance" over "Total deferred tax assets"): the row leads though
the question's qualifier is printed nowhere near it and its label scores low against so long a question. A label
the question says only in part still must print every word the question asks. Generated note page read by layout."""

from __future__ import annotations

from tests.agent.no_model.pdf_statements import Page, asked_block, asked_lead, statement_pdf  # noqa: F401 (fixture)

DEFERRED = Page("Income Taxes (continued)", ("2023", "2022"), [
    ("Deferred tax assets:",), ("Accrued liabilities and other reserves", "$ 6,515", "$ 5,894"),
    ("Tax credit carryforwards", "6,962", "4,262"), ("Total deferred tax assets", "27,624", "25,403"),
    ("Less: Valuation allowance", "(7,530)", "(6,230)"), ("Total deferred tax assets, net", "20,094", "19,173"),
    ("Deferred tax liabilities:",), ("Right-of-use assets", "2,163", "2,085"), ("Total deferred tax liabilities", "5,557", "7,200"),
    ("Net deferred tax assets", "$ 14,537", "$ 11,973")], caption="(In millions)", span="December 31,")
RETURNS = Page("Selected measures", ("2023", "2022"), [("Return on invested capital", "18.2%", "16.9%"),
                                                      ("Operating margin", "12.1%", "11.4%")], caption="", span="Years Ended December 31,")


def test_a_label_the_question_prints_word_for_word_is_the_row_asked(statement_pdf):
    sources, text = statement_pdf([DEFERRED], file="NORTHWIND_2023_10K.pdf", issuer="Northwind Corporation")
    lead = asked_lead("What were Northwind's total deferred tax assets before the valuation allowance as of December 31, 2023?",
                      sources, text)
    assert "$27,624" in lead, lead
    lead = asked_lead("How much were Northwind's tax credit carryforwards among its deferred tax assets at the end of 2022?",
                      sources, text)
    assert "$4,262" in lead, lead


def test_a_label_the_question_says_in_part_is_not_named_by_it(statement_pdf):
    sources, text = statement_pdf([RETURNS], file="NORTHWIND_2023_10K.pdf", issuer="Northwind Corporation")
    block = asked_block("What was Northwind's return on equity in 2023?", sources, text)
    assert not block or "18.2" not in "\n".join(block), block
