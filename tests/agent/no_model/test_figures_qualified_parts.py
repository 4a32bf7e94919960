"""Rows of no known line item in a table whose total is the asked item (generated PDFs read by layout): a label
adding a qualifier the question does not say, beside a row of the same words with another qualifier
("Harbor freight services" and "Inland freight services", asked "freight services"), is a part of the asked
item, not the item; a row under a section of that table totalled as another item ("Total expenses") is that
item's part, not the asked total's. A word of whole ("Total ... revenues") stays the asked item's."""

from __future__ import annotations

from agent.no_model.figures import INTRO
from tests.agent.no_model.pdf_statements import Page, asked_block, asked_lead, statement_pdf  # noqa: F401 (fixture)

YEARS = ("2023", "2022")
BY_LINE = Page("Results of the services business", YEARS, [
    ("Revenues by region:",),
    ("Americas", "$ 5,400", "$ 5,000"),
    ("EMEA", "3,100", "2,900"),
    ("Total revenues", "$ 8,500", "$ 7,900"),
    ("Expenses:",),
    ("Freight services", "$ 2,210", "$ 2,050"),
    ("Sales and marketing", "1,730", "1,610"),
    ("Total expenses", "$ 3,940", "$ 3,660"),
    ("Freight Services Revenues by Line:",),
    ("Harbor freight services", "$ 4,800", "$ 4,400"),
    ("Inland freight services", "2,600", "2,500"),
], caption="(Dollars in millions)")
WITH_TOTAL = Page(BY_LINE.title, YEARS, [*BY_LINE.rows, ("Total freight services revenues", "$ 7,400", "$ 6,900")],
                  caption="(Dollars in millions)")


def test_a_qualified_sibling_or_another_totals_section_is_not_the_asked_row(statement_pdf):
    sources, text = statement_pdf([BY_LINE])
    block = asked_block("What were freight services revenues in 2023?", sources, text)
    # no row prints the asked total here: not a region's part of it, not the expense
    assert not block or block[0] != INTRO


def test_the_total_of_the_asked_words_or_a_qualified_row_the_question_says(statement_pdf):
    sources, text = statement_pdf([WITH_TOTAL])
    assert "7,400" in asked_lead("What were freight services revenues in 2023?", sources, text)
    assert "4,800" in asked_lead("What were Harbor freight services revenues in 2023?", sources, text)
