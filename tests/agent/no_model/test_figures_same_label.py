"""One label printed twice with other values: the registrant the question names, or the section
naming the asked item, tells the rows apart; no figure only when nothing does (generated PDFs
read by layout)."""

from __future__ import annotations

from agent.no_model.figures import INTRO
from tests.agent.no_model.pdf_statements import Page, statement_pdf, asked_block  # noqa: F401 (fixture)

YEARS = ("2022", "2021")


def _income(name: str, electric: str) -> Page:
    return Page("CONSOLIDATED STATEMENTS OF INCOME", YEARS, [
        ("Operating Revenues",),
        ("Electric", f"$ {electric}", "$ 12,100"),
        ("Natural gas", "4,100", "3,900"),
        ("Total operating revenues", "17,700", "16,000"),
        ("Operating Expenses",),
        ("Cost of electricity", "4,700", "5,000"),
        ("Operating income", "2,100", "1,900"),
    ], above=[name])


SEGMENTS = Page("SEGMENT INFORMATION", YEARS, [
    ("Revenues",),
    ("Electric", "$ 13,600", "$ 12,100"),
    ("Gas", "4,100", "3,900"),
    ("Operating expenses",),
    ("Electric", "11,900", "10,800"),
    ("Gas", "3,300", "3,100"),
])


def test_the_named_registrants_row_of_a_label_both_statements_print(statement_pdf):
    sources, text = statement_pdf([_income("NORTHWIND CORPORATION", "13,600"), _income("NORTHWIND POWER COMPANY", "13,604")])
    block = asked_block("How much of Northwind Corporation's 2022 revenue came from electric operations?", sources, text)
    assert block and block[0] == INTRO and "13,600" in block[1] and "[^1]" in block[1], block


def test_the_section_naming_the_asked_item_tells_same_labels_apart(statement_pdf):
    sources, text = statement_pdf([SEGMENTS])
    block = asked_block("What were electric revenues in 2022?", sources, text)
    assert block and block[0] == INTRO and "13,600" in block[1], block
    block = asked_block("What were the electric segment's operating expenses in 2022?", sources, text)
    assert block and block[0] == INTRO and "11,900" in block[1], block
