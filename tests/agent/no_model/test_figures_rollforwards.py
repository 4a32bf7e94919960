"""Notes' tables asked by their own words, on generated note pages (agent/no_model/figure_rows.py):
- a roll-forward's closing balance ("Balance at end of year" under a lead-in naming the item) is the balance
  asked "at the end of" a year, never one of its movements ("Reductions for tax positions of prior years",
  "Settlements"), which are flows;
- a row whose label prints exactly the question's line-item words ("Total term debt") answers it even when
  the taxonomy reads the question as another item (total debt) and the row as a third (long-term debt),
  never a sibling row printing more words ("Total non-current portion of term debt")."""

from __future__ import annotations

from agent.no_model.figures import INTRO
from tests.agent.no_model.pdf_statements import Page, asked_block, asked_lead, statement_pdf  # noqa: F401 (fixture)

YEARS = ("2022", "2021")
UTB = Page("Note 12 – Income Taxes", YEARS, [
    ("Balance at beginning of year", "$ 498", "$ 437"),
    ("Reductions for tax position taken during a prior year", "(1)", "(23)"),
    ("Additions for tax position taken during the current year", "73", "85"),
    ("Settlements", "—", "(1)"),
    ("Balance at end of year", "$ 570", "$ 498"),
], caption="The following table reconciles the changes in unrecognized tax benefits (in millions):", span="")
TERM_DEBT = Page("Note 9 – Debt", ("2022 Amount", "2021 Amount"), [
    ("Fixed-rate 0.000% – 4.650% notes", "106,324", "116,313"),
    ("Fixed-rate 3.250% – 4.100% notes", "5,500", "—"),
    ("Total term debt", "111,824", "118,063"),
    ("Unamortized premium/(discount) and issuance costs, net", "(374)", "(380)"),
    ("Less: Current portion of term debt", "(11,128)", "(9,613)"),
    ("Total non-current portion of term debt", "$ 98,959", "$ 109,106"),
], caption="The following table provides a summary of the Company's term debt (in millions):", span="")
LONG_TERM = Page("Note 9 – Debt", ("2022", "2021"), [
    ("Senior notes", "9,000", "9,500"),
    ("Total long-term debt", "9,000", "9,500"),
], caption="The following table summarizes the Company's borrowings (in millions):", span="")


def test_the_closing_balance_is_asked_at_the_end_of_a_year_not_a_movement(statement_pdf):
    sources, text = statement_pdf([UTB])
    lead = asked_lead("What was the balance of unrecognized tax benefits at the end of 2022?", sources, text)
    assert "570" in lead and lead.startswith("- Balance at end of year"), lead
    lead = asked_lead("What was the company's balance of unrecognized tax benefits at the end of 2021?", sources, text)
    assert "498" in lead and lead.startswith("- Balance at end of year"), lead


def test_a_movement_asked_by_its_own_words_still_answers(statement_pdf):
    sources, text = statement_pdf([UTB])
    lead = asked_lead("What were the additions for tax positions taken during the current year in 2022?", sources, text)
    assert "73" in lead, lead


def test_the_label_printing_the_question_s_words_is_the_row(statement_pdf):
    sources, text = statement_pdf([TERM_DEBT])
    lead = asked_lead("What was the company's total term debt at the end of 2022?", sources, text)
    assert "111,824" in lead, lead
    lead = asked_lead("What was the company's total term debt at the end of 2021?", sources, text)
    assert "118,063" in lead, lead


def test_a_label_printing_more_words_is_not_named_by_fewer(statement_pdf):
    # "total debt" asked: "Total long-term debt" prints another word, so it is not named by the question's
    sources, text = statement_pdf([LONG_TERM])
    block = asked_block("What was the company's total debt at the end of 2022?", sources, text) or []
    assert not (block and block[0] == INTRO and block[1].startswith("- Total long-term debt")), block
