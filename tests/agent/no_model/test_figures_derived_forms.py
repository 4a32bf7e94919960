"""Derived figures in the forms analysts write, on a generated filing read by layout: the ratios they
name (effective tax rate, interest coverage, payout ratio, days sales outstanding and inventory turnover
over average balances), a margin's change in percentage points, "as a % of",
a formula asked as it is in words, written grouping (", divided by"), a row label with "less" in it,
nested parentheses; a printed ratio row answers before any computing; no figure when a row is missing or
the period asked is not covered."""

from __future__ import annotations

import re

import pytest

from agent.no_model.figures import INTRO, INTRO_COMPUTED, INTRO_NOT_COMPUTED
from tests.agent.no_model.pdf_statements import Page, asked_block, statement_pdf  # noqa: F401 - fixture

YEARS = ("2022", "2021")
INCOME = Page("CONSOLIDATED STATEMENTS OF OPERATIONS", YEARS, [
    ("Net sales", "$ 52,417", "$ 48,300"),
    ("Cost of sales", "30,100", "27,000"),
    ("Gross profit", "22,317", "21,300"),
    ("Operating income", "6,912", "6,010"),
    ("Interest expense", "(640)", "(600)"),
    ("Income before income taxes", "6,272", "5,410"),
    ("Provision for income taxes", "1,251", "1,010"),
    ("Net income", "$ 5,021", "$ 4,400"),
])
BALANCE = Page("CONSOLIDATED BALANCE SHEETS", YEARS, [
    ("Current assets:",),
    ("Cash and cash equivalents", "$ 4,950", "$ 4,138"),
    ("Accounts receivable, net", "6,100", "5,700"),
    ("Inventories", "3,200", "2,800"),
    ("Total current assets", "14,200", "13,100"),
    ("Total assets", "$ 61,000", "$ 58,500"),
    ("Current liabilities:",),
    ("Total current liabilities", "9,880", "9,400"),
    ("Long-term debt, less current portion", "30,512", "31,040"),
    ("Total shareholders' equity", "18,000", "16,500"),
], span="December 31,")
CASH_FLOW = Page("CONSOLIDATED STATEMENTS OF CASH FLOWS", YEARS, [
    ("Net income", "5,021", "4,400"),
    ("Depreciation and amortization", "1,210", "1,150"),
    ("Net cash provided by operating activities", "7,245", "6,480"),
    ("Purchases of property and equipment", "(2,130)", "(1,877)"),
    ("Dividends paid", "(1,506)", "(1,320)"),
])


@pytest.fixture
def filing(statement_pdf):
    return statement_pdf([INCOME, BALANCE, CASH_FLOW])


def lead(question: str, filing) -> str:
    block = asked_block(question, *filing)
    assert block and block[0] == INTRO_COMPUTED, block
    return block[1]


def test_ratios_analysts_name_are_computed_from_their_rows(filing):
    assert lead("What was the effective tax rate in 2022?", filing) == (
        "- Effective tax rate, fiscal 2022 = provision for income taxes 1,251 / income before income taxes 6,272 = "
        "19.9% (computed) [^1]")
    # interest expense printed in parentheses is the amount paid: the coverage is positive
    assert re.search(r"operating income 6,912 / interest expense 640 = 10\.80 \(computed\)",
                     lead("What was the interest coverage ratio in 2022?", filing))
    # dividends of the cash flow statement over net income; "share of net income paid out" names the payout
    for question in ("What was the dividend payout ratio in 2022?",
                     "What share of its net income did the company pay out as dividends in 2022?"):
        assert re.search(r"dividends paid 1,506 / net income 5,021 = 30\.0% \(computed\)", lead(question, filing))


def test_days_and_turnover_over_average_balances(filing):
    dso = lead("What were days sales outstanding in 2022?", filing)
    assert re.search(r"average accounts receivable, net 5,900\.0 \[\(6,100 \+ 5,700\) / 2\] / net sales 52,417 × 365 "
                     r"= 41\.08 \(computed\)", dso), dso
    turnover = lead("What was the inventory turnover in 2022?", filing)
    assert re.search(r"cost of sales 30,100 / average inventories 3,000\.0 \[\(3,200 \+ 2,800\) / 2\] = 10\.03", turnover)
    # the year before's balance is not printed: no average, no value
    block = asked_block("What was the inventory turnover in 2021?", *filing)
    assert block[0] == INTRO_NOT_COMPUTED and "average inventory" in block[1]


def test_a_margins_change_in_percentage_points(filing):
    text = lead("By how many percentage points did the gross margin change from 2021 to 2022?", filing)
    assert text.startswith("- Gross margin change, fiscal 2021 to fiscal 2022 = 42.6% − 44.1% = -1.5 percentage points "
                           "(computed)"), text
    # named in the other order, the change is still the later year's less the earlier's
    text = lead("What was the percentage-point change in operating margin in 2022 versus 2021?", filing)
    assert "= 13.2% − 12.4% = +0.7 percentage points (computed)" in text, text


def test_a_share_asked_with_a_percent_sign(filing):
    assert re.search(r"cost of sales 30,100 / net sales 52,417 = 57\.4% \(computed\)",
                     lead("What was cost of sales as a % of net sales in 2022?", filing))


def test_a_formula_asked_in_words_and_its_written_grouping(filing):
    # the wording: a quotient of amounts, said as a ratio and as a percentage, never 1,499,700.0%
    text = lead("For 2022, what was (net sales minus cost of sales) divided by net sales?", filing)
    assert text.endswith("= (net sales 52,417 − cost of sales 30,100) / net sales 52,417 = 0.43 (42.6%) (computed) [^1]"), text
    text = lead("For 2022, what was net sales minus cost of sales, divided by net sales?", filing)
    assert "= 0.43 (42.6%) (computed)" in text, text
    # the definition as the question's last clause, after the figure it defines
    text = lead("What was free cash flow in 2022, net cash provided by operating activities minus purchases of property "
                "and equipment?", filing)
    assert text.startswith("- Free cash flow, fiscal 2022 = net cash provided by operating activities 7,245 − purchases "
                           "of property and equipment 2,130 = 5,115 million (computed)"), text


def test_a_label_with_less_in_it_and_nested_parentheses(filing):
    text = lead("What was the debt-to-equity ratio at December 31, 2022 ((long-term debt, less current portion) / "
                "total shareholders' equity)?", filing)
    assert "long-term debt, less current portion 30,512 / total shareholders' equity 18,000 = 1.70 (computed)" in text, text
    text = lead("What was the EBITDA margin in 2022 ((operating income + depreciation and amortization) / net sales)?",
                filing)
    assert re.search(r"\(operating income 6,912 \+ depreciation and amortization 1,210\) / net sales 52,417 = 15\.5%", text)


def test_a_printed_ratio_row_answers_before_computing(statement_pdf):
    printed = Page(INCOME.title, YEARS, [*INCOME.rows, ("Effective tax rate", "21.5%", "19.0%")])
    block = asked_block("What was the effective tax rate in 2022?", *statement_pdf([printed]))
    assert block[0] == INTRO and block[1].startswith("- Effective tax rate"), block
    assert "21.5%" in block[1] and "(computed)" not in "\n".join(block)


def test_no_figure_when_a_row_is_missing_or_the_period_is_not_covered(filing, statement_pdf):
    block = asked_block("What was goodwill as a percentage of total assets at December 31, 2022?", *filing)
    assert block[0] == INTRO_NOT_COMPUTED and "(computed)" not in "\n".join(block), block
    quarter = Page("CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS", ("2023", "2022"), INCOME.rows[:4],
                   span="Three Months Ended June 30,")
    sources, text = statement_pdf([quarter], file="NORTHWIND_2023Q2_10Q.pdf")
    for question in ("What was the gross margin for the full year 2023?",
                     "By how many percentage points did the gross margin change in fiscal 2023?"):
        block = asked_block(question, sources, text) or []
        assert not any("(computed)" in line for line in block), block


PARTS = Page("CONSOLIDATED STATEMENTS OF INCOME", YEARS, [
    ("Operating revenues",),
    ("Electric", "$ 15,060", "$ 15,131"),
    ("Natural gas", "6,620", "5,511"),
    ("Total operating revenues", "21,680", "20,642"),
    ("Net sales:",),
    ("Products", "$ 40,000", "$ 38,000"),
    ("Services", "12,417", "10,300"),
    ("Total net sales", "52,417", "48,300"),
    ("Cost of sales:",),
    ("Products", "25,000", "23,000"),
    ("Services", "5,100", "4,000"),
    ("Total cost of sales", "30,100", "27,000"),
])


def test_a_parts_figures_are_its_own_rows_told_apart_by_their_section(statement_pdf):
    filing = statement_pdf([PARTS])
    # the growth of the part named before the item, not of the total
    assert lead("By what percentage did the company's natural gas operating revenues grow in 2022?", filing).startswith(
        "- Natural gas operating revenues growth, 2021–2022 = (6,620 − 5,511) / 5,511 = 20.1% (computed)")
    # "Services" under "Net sales:" and under "Cost of sales:": each operand its section's row
    text = lead("For 2022, what was (services net sales minus services cost of sales) divided by services net sales?", filing)
    assert "(services 12,417 − services 5,100) / services 12,417 = 0.59 (58.9%) (computed)" in text, text


def test_two_items_read_off_one_row_give_no_figure(statement_pdf):
    # the sections unread: which "Services" is the cost is unknown, and one row is never both operands
    flat = Page(PARTS.title, YEARS, [r for r in PARTS.rows[4:] if len(r) > 1])
    block = asked_block("For 2022, what was (services net sales minus services cost of sales) divided by services net "
                        "sales?", *statement_pdf([flat])) or []
    assert not any("(computed)" in line for line in block), block


def test_an_average_balance_is_never_a_years_change(filing, statement_pdf):
    # the ratio's own inputs said beside it name no part: still the ratio
    text = lead("What were days sales outstanding in 2022, using average accounts receivable / net sales x 365?", filing)
    assert "= 41.08 (computed)" in text, text
    # only the cash flow statement's "Inventories" (the year's change) is printed: no average balance from it
    changes = Page(CASH_FLOW.title, YEARS, [*CASH_FLOW.rows, ("Inventories", "248", "(626)")])
    block = asked_block("What was the inventory turnover in 2022?", *statement_pdf([INCOME, changes])) or []
    assert not any("(computed)" in line for line in block), block
