"""A line printing a share count or an amount of its own ("Authorized (9,000 million shares)") that the
reader takes for the section of the rows under it names no part of them (figure_rows row_fits'
section test); a heading naming a part ("Finance leases:") still does. Generated balance sheet read by layout."""

from __future__ import annotations

import pytest

from agent.no_model.figures import INTRO, figure_block
from storage.documents.embeddings import get_embedder
from tests.agent.no_model.pdf_statements import Page, statement_pdf  # noqa: F401 (fixture)

EQUITY = Page("CONDENSED CONSOLIDATED BALANCE SHEETS", ("December 31, 2022", "June 30, 2022"), [
    ("Shareholders' equity:",),
    ("Ordinary shares ($0.01 par value):",),
    ("Authorized (9,000 million shares)",),
    ("Issued (1,482 and 1,489 million shares, respectively)", "15", "15"),
    ("Additional paid-in capital", "4,205", "4,431"),
    ("Retained earnings", "866", "534"),
    ("Finance leases:",),
    ("Long-term debt, less current portion", "120", "130"),
], span="", first_column=400, gap=100)


@pytest.mark.parametrize("question, value", [
    ("What were retained earnings at June 30, 2022?", "534"),
    ("What was additional paid-in capital as of December 31, 2022?", "4,205"),
])
def test_a_line_printing_a_share_count_is_no_section_naming_a_part(statement_pdf, question, value):
    sources, text = statement_pdf([EQUITY])
    block = figure_block(question, sources, text, get_embedder())
    assert block and block[0] == INTRO and f": {value}" in block[1], block


def test_a_heading_naming_a_part_still_makes_its_rows_that_parts(statement_pdf):
    sources, text = statement_pdf([EQUITY])
    assert figure_block("What was long-term debt as of June 30, 2022?", sources, text, get_embedder()) is None
