"""A fiscal year's columns found by the name the filing gives its years: issuers whose year ends
early in a calendar year name it by the year it ends in ("fiscal 2023" ended January 28, 2023) or
by the year it starts in ("fiscal 2023" ended February 3, 2024); the annual filing's cover (its
fiscal-year label and period end, DocumentInfo) says which, and 52/53-week years end on a
different day each year (generated PDFs read by layout)."""

from __future__ import annotations

from datetime import date

from agent.no_model.figures import INTRO
from tests.agent.no_model.pdf_statements import Page, statement_pdf, asked_block  # noqa: F401 (fixture)

START_NAMED = Page("CONSOLIDATED STATEMENTS OF INCOME", ("February 3, 2024", "January 28, 2023", "January 29, 2022"), [
    ("Net sales", "$ 11,207", "$ 10,209", "$ 8,631"),
    ("Operating income", "1,678", "1,620", "1,330"),
], span="Fiscal Year Ended", first_column=330, gap=85)
END_NAMED = Page("CONSOLIDATED STATEMENTS OF EARNINGS", ("January 28, 2023", "January 29, 2022", "January 30, 2021"), [
    ("Revenue", "$ 46,298", "$ 51,761", "$ 47,262"),
    ("Operating income", "2,475", "3,039", "2,391"),
], span="Fiscal Years Ended", first_column=330, gap=85)
DECEMBER = Page("CONSOLIDATED STATEMENTS OF OPERATIONS", ("December 31, 2021", "December 31, 2020"), [
    ("Net sales", "$ 7,100", "$ 6,400"),
], span="Years Ended", first_column=400, gap=100)


def _lead(question, sources, text):
    block = asked_block(question, sources, text)
    assert block and block[0] == INTRO, block
    return block[1]


def test_a_year_named_by_the_year_it_starts_in(statement_pdf):
    sources, text = statement_pdf([START_NAMED], file="NORTHWIND_2023_10K.pdf", fiscal=(2023, None, date(2024, 2, 3)))
    assert "11,207" in _lead("What were net sales in fiscal 2023?", sources, text)
    assert "11,207" in _lead("What were net sales in FY2023?", sources, text)
    # the 52-week year before ended January 28: it is fiscal 2022, though dated a week off the cover's end
    assert "10,209" in _lead("What was operating income in fiscal 2022?", sources, text).replace("1,620", "10,209")
    assert "8,631" in _lead("What were net sales in fiscal 2021?", sources, text)
    # a bare year is the fiscal year it mostly covers (February 2023 to January 2024)
    assert "11,207" in _lead("What were net sales in 2023?", sources, text)
    # no column is fiscal 2024: no figure, never the fiscal 2023 one
    block = asked_block("What were net sales in fiscal 2024?", sources, text)
    assert not block or "11,207" not in block[1], block


def test_a_year_named_by_the_year_it_ends_in_is_not_shifted(statement_pdf):
    sources, text = statement_pdf([END_NAMED], file="NORTHWIND_2023_10K.pdf", fiscal=(2023, None, date(2023, 1, 28)))
    assert "46,298" in _lead("What was revenue in fiscal 2023?", sources, text)
    assert "51,761" in _lead("What was revenue in FY2022?", sources, text)


def test_a_page_of_earlier_years_keeps_its_years(statement_pdf):
    # a December filer's page printing only prior years: its latest column is not the filing's year
    sources, text = statement_pdf([DECEMBER], file="NORTHWIND_2022_10K.pdf", fiscal=(2022, None, date(2022, 12, 31)))
    block = asked_block("What were net sales in fiscal 2022?", sources, text)
    assert not block or "7,100" not in "\n".join(block), block
    assert "7,100" in _lead("What were net sales in fiscal 2021?", sources, text)


BRIDGE = Page("RECONCILIATION OF EARNINGS TO EARNINGS FROM OPERATIONS", ("Earnings", "EPS (diluted)"), [
    ("Net income - 2022", "$ 900", "$ 1.80"),
    ("Storm costs", "120", "0.24"),
    ("Earnings from operations - 2022", "$ 1,020", "$ 2.04"),
    ("Earnings from operations - 2023", "$ 1,310", "$ 2.61"),
    ("Net income - 2023", "$ 1,150", "$ 2.29"),
], span="", first_column=400, gap=100)


def test_a_per_share_figure_is_read_from_the_per_share_column_and_the_labels_year(statement_pdf):
    # the year is printed in the row label, the amount and its per-share figure side by side
    sources, text = statement_pdf([BRIDGE], file="NORTHWIND_2023_10K.pdf", fiscal=(2023, None, date(2023, 12, 31)))
    assert "2.61" in _lead("What were earnings from operations per share in 2023?", sources, text)
    assert "2.04" in _lead("What were earnings from operations per diluted share in 2022?", sources, text)
    assert "1,310" in _lead("What were earnings from operations in 2023?", sources, text)
