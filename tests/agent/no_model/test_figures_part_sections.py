"""What a section over rows of no known line item says (generated PDFs read by layout): a section
naming the asked item after a part's name ("Hardware Revenues") makes its rows that part's; one
naming the item in other words ("Net Sales by Product" for revenue) or breaking it down ("Total
Revenues by Geography") does not; words saying what the named thing is ("business", "operations")
and a verb's participle ("declare" / "declared") need no other spelling on the row."""

from __future__ import annotations

from tests.agent.no_model.pdf_statements import Page, statement_pdf, asked_lead  # noqa: F401 (fixture)

YEARS = ("2023", "2022")
BY_BUSINESS = Page("Management's Discussion and Analysis", YEARS, [
    ("Hardware Revenues:",),
    ("Americas", "$ 1,702", "$ 1,558"),
    ("EMEA", "1,013", "1,100"),
    ("Total Revenues by Geography:",),
    ("Americas", "$ 31,226", "$ 23,679"),
    ("EMEA", "11,826", "12,015"),
], caption="(Dollars in millions)")
BY_PRODUCT = Page("Net Sales by Product", YEARS, [
    ("Net Sales by Product:",),
    ("Phones", "$ 155,041", "$ 101,991"),
    ("Tablets", "23,227", "30,283"),
    ("Total net sales", "$ 178,268", "$ 132,274"),
])
BUSINESSES = Page("Note 15 – Segment Information", YEARS, [
    ("Cloud and license:",),
    ("Revenues", "$ 35,307", "$ 30,174"),
    ("Margin", "$ 21,561", "$ 21,587"),
    ("Services:",),
    ("Revenues", "$ 3,703", "$ 1,527"),
    ("Margin", "$ 450", "$ 537"),
])
DIVIDENDS = Page("Selected Financial Data", YEARS, [
    ("Net income", "$ 53,394", "$ 39,510"),
    ("Cash dividends declared per share", "$ 1.98", "$ 1.82"),
])



def test_a_parts_section_is_not_the_companys_figure(statement_pdf):
    sources, text = statement_pdf([BY_BUSINESS])
    assert "31,226" in asked_lead("What were Northwind's revenues in the Americas in fiscal 2023?", sources, text)
    assert "1,702" in asked_lead("What were Northwind's hardware revenues in the Americas in fiscal 2023?", sources, text)


def test_a_section_naming_the_item_in_other_words_holds_its_parts(statement_pdf):
    sources, text = statement_pdf([BY_PRODUCT])
    assert "155,041" in asked_lead("How much revenue did Phones bring Northwind in fiscal 2023?", sources, text)


def test_a_business_is_named_without_the_word_business(statement_pdf):
    sources, text = statement_pdf([BUSINESSES])
    assert "21,561" in asked_lead("What margin did Northwind's cloud and license business earn in fiscal 2023?", sources, text)
    assert "537" in asked_lead("What was the margin of Northwind's services business in fiscal 2022?", sources, text)


def test_a_verb_asked_meets_the_participle_printed(statement_pdf):
    sources, text = statement_pdf([DIVIDENDS])
    assert "1.98" in asked_lead("What dividend per share did Northwind declare in fiscal 2023?", sources, text)
