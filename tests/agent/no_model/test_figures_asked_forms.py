"""Figures asked by the verb that books them and cash-flow lines asked by name (issue 27, releases and
10-Qs): "What proceeds from divestitures did <company> receive", "What did <company> report for <item>",
"How much interest did <company> pay" (the cash paid, not the interest expense), "How much long-term
debt did <company> repay" (the repayment, not the balance), "purchasing treasury shares" (the
repurchase row), "commercial paper outstanding at <date>" (the balance row, which need not print
"outstanding"). A figure question that no row answers leads with "no figure is stated" unless a
quoted sentence states the item's amount: a change ("decreased by $44 million") or a number the
question itself says ("SB 901 bonds") is not its amount. Generated PDFs read by layout."""

from __future__ import annotations

from agent.no_model.extractive import compose_extractive_answer
from agent.no_model.figures import NO_FIGURE, is_figure_question
from bench.figures_gold import lead_line
from tests.agent.no_model.pdf_statements import Page, asked_block, asked_lead, statement_pdf  # noqa: F401 (fixture)

HALF = ("2022", "2021")
INCOME = Page("CONDENSED CONSOLIDATED STATEMENTS OF INCOME", HALF, [
    ("Net sales", "7,400", "6,980"),
    ("Restructuring and other activities, net", "212", "(18)"),
    ("Interest expense, net", "(138)", "(75)"),
    ("Income tax expense", "(91)", "(120)"),
    ("Net income", "695", "432"),
], span="Six Months Ended December 31,")
CASH = Page("CONDENSED CONSOLIDATED STATEMENTS OF CASH FLOWS", HALF, [
    ("Cash flows from investing activities:",),
    ("Purchase of property, plant, and equipment", "(250)", "(255)"),
    ("Proceeds from divestitures", "370", "15"),
    ("Cash flows from financing activities:",),
    ("Purchase of treasury shares", "(221)", "(133)"),
    ("Repayment of long-term debt", "(11)", "(677)"),
    ("Supplemental cash flow information:",),
    ("Interest paid, net of amounts capitalized", "127", "70"),
    ("Income taxes paid", "165", "150"),
], span="Six Months Ended December 31,")
BALANCE = Page("CONDENSED CONSOLIDATED BALANCE SHEETS", ("December 31, 2022", "June 30, 2022"), [
    ("Current liabilities:",),
    ("Commercial paper", "3,993", "9,982"),
    ("Current portion of long-term debt", "14", "13"),
    ("Total current liabilities", "6,020", "6,100"),
    ("Long-term debt, less current portion", "6,840", "6,340"),
], span="", first_column=380, gap=110)
FILE = "NORTHWIND_2023Q2_10Q.pdf"


def test_a_figure_asked_by_its_verb_is_a_figure_question(statement_pdf):
    sources, text = statement_pdf([INCOME, CASH], file=FILE)
    proceeds = asked_lead("What proceeds from divestitures did Northwind receive in the six months ended December 31, "
                          "2022?", sources, text)
    assert proceeds.startswith("- Proceeds from divestitures (") and "370" in proceeds, proceeds
    reported = asked_lead("What did Northwind report for restructuring and other activities, net, in the six months "
                          "ended December 31, 2022?", sources, text)
    assert "212" in reported, reported
    # a question asking which things, not how much, stays a passage question
    assert not is_figure_question("What risks did Northwind report in its 10-Q?")
    assert not is_figure_question("What factors did Northwind report for the year?")


def test_cash_paid_for_interest_and_taxes_is_not_the_expense(statement_pdf):
    sources, text = statement_pdf([INCOME, CASH], file=FILE)
    interest = asked_lead("How much interest did Northwind pay in the six months ended December 31, 2022?", sources, text)
    assert interest.startswith("- Interest paid") and "127" in interest, interest
    taxes = asked_lead("How much income tax did Northwind pay in the six months ended December 31, 2022?", sources, text)
    assert taxes.startswith("- Income taxes paid") and "165" in taxes, taxes
    # the expense asked is still the income statement's row
    expense = asked_lead("What was Northwind's interest expense for the six months ended December 31, 2022?", sources, text)
    assert "138" in expense, expense


def test_debt_repaid_and_treasury_shares_bought_are_their_cash_flow_rows(statement_pdf):
    sources, text = statement_pdf([CASH, BALANCE], file=FILE)
    repaid = asked_lead("How much long-term debt did Northwind repay in the six months ended December 31, 2021?",
                        sources, text)
    assert repaid.startswith("- Repayment of long-term debt") and "677" in repaid, repaid
    treasury = asked_lead("How much did Northwind spend purchasing treasury shares in the six months ended December 31, "
                          "2022?", sources, text)
    assert "221" in treasury, treasury


def test_a_balance_asked_as_outstanding_at_a_date(statement_pdf):
    sources, text = statement_pdf([BALANCE], file=FILE)
    lead = asked_lead("How much commercial paper did Northwind have outstanding at December 31, 2022?", sources, text)
    assert lead.startswith("- Commercial paper (") and "3,993" in lead, lead


def _answer(question, sources, text, passage):
    sources[0].text = passage
    return compose_extractive_answer(question, sources, lambda s: passage + "\n" + text(s))[0]


def test_a_change_or_a_name_number_is_not_the_items_amount(statement_pdf):
    sources, text = statement_pdf([INCOME], file=FILE)
    change = _answer("What was Northwind's wildfire fund expense for the six months ended December 31, 2022?", sources,
                     text, "Northwind's wildfire fund expense decreased by $44 million, or 27%, compared to the same "
                           "period in 2021.")
    assert NO_FIGURE in change.splitlines()[0] and lead_line(change) is None, change
    named = _answer("How much did Northwind raise from SB 901 recovery bonds in the six months ended December 31, 2022?",
                    sources, text, "Northwind Funding LLC issued SB 901 recovery bonds secured by the recovery property.")
    assert NO_FIGURE in named.splitlines()[0] and lead_line(named) is None, named


def test_a_sentence_stating_the_amount_in_another_form_of_the_verb_answers(statement_pdf):
    sources, text = statement_pdf([INCOME], file=FILE)
    answer = _answer("What net gain did Northwind record on disposing of its Russian business in the six months ended "
                     "December 31, 2022?", sources, text,
                     "A pre-tax net gain on disposal of the Russian business of $215 million was recognized in the six "
                     "months ended December 31, 2022.")
    assert NO_FIGURE not in answer and "215" in (lead_line(answer) or ""), answer
    # the level a change ends at is stated
    rose = _answer("What was Northwind's wildfire fund expense for the six months ended December 31, 2022?", sources,
                   text, "Northwind's wildfire fund expense rose by $4 million to $120 million in the six months ended "
                         "December 31, 2022.")
    assert NO_FIGURE not in rose and "120" in (lead_line(rose) or ""), rose


def test_a_noun_before_by_is_no_change_verb(statement_pdf):
    """"manages these risks by" is no "rises by": the figure after it is the amount stated (the change verbs
    are whole words of storage/finance/arithmetic.py, not stems)."""
    sources, text = statement_pdf([INCOME], file=FILE)
    answer = _answer("How many employees did Northwind have at December 31, 2022?", sources, text,
                     "Northwind manages staffing risks by training its 3,500 employees at December 31, 2022.")
    assert NO_FIGURE not in answer and "3,500" in (lead_line(answer) or ""), answer
    fell = _answer("How many employees did Northwind have at December 31, 2022?", sources, text,
                   "Northwind's employees fell by 120 during the year ended December 31, 2022.")
    assert NO_FIGURE in fell.splitlines()[0] and lead_line(fell) is None, fell
