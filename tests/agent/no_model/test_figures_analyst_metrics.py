"""Metrics in the words FinanceBench's analysts ask them, on a generated filing (income statement, balance sheet, cash
flow statement, three years) read by layout: the instructions around the question ("Give a response ... by relying on
the details shown in the cash flow statement", "Answer the following question ...: what is"), an average of a ratio
over a range of years (the mean of each year's ratio, never one year's), "X % margin" (X over revenue), a definition
of a name the figure asked uses ("EBITDA less capex ... Define unadjusted EBITDA as ..."), working capital, "PPNE", a
compound annual growth rate. A margin asked is never answered with an amount."""

from __future__ import annotations

import pytest

from tests.agent.no_model.pdf_statements import Page, asked_block, statement_pdf  # noqa: F401 (fixture)

YEARS = ("2022", "2021", "2020")
INCOME = Page("CONSOLIDATED STATEMENTS OF INCOME", YEARS, [
    ("Net sales", "$ 34,229", "$ 31,352", "$ 26,492"), ("Cost of sales", "19,232", "17,400", "15,100"),
    ("Gross profit", "14,997", "13,952", "11,392"), ("Operating income", "7,997", "7,452", "5,492"),
    ("Interest expense", "400", "420", "450"), ("Income before income taxes", "7,597", "7,032", "5,042"),
    ("Provision for income taxes", "1,597", "1,432", "1,042"), ("Net income", "6,000", "5,600", "4,000")],
    caption="(Millions)", first_column=330)
BALANCE = Page("CONSOLIDATED BALANCE SHEETS", ("2022", "2021"), [
    ("Current assets",), ("Cash and cash equivalents", "$ 3,000", "$ 2,800"), ("Inventories", "5,000", "4,600"),
    ("Total current assets", "12,000", "11,100"), ("Property, plant and equipment, net", "9,000", "8,500"),
    ("Total assets", "40,000", "37,000"), ("Current liabilities",), ("Accounts payable", "3,500", "3,300"),
    ("Total current liabilities", "8,000", "7,600")], caption="(Millions)", span="December 31,")
CASH_FLOW = Page("CONSOLIDATED STATEMENTS OF CASH FLOWS", YEARS, [
    ("Operating activities",), ("Net income", "6,000", "5,600", "4,000"),
    ("Depreciation and amortization", "1,200", "1,100", "1,000"),
    ("Net cash provided by operating activities", "7,500", "7,000", "5,800"), ("Investing activities",),
    ("Purchases of property, plant and equipment", "(1,800)", "(1,600)", "(1,500)"), ("Financing activities",),
    ("Dividends paid", "(2,400)", "(2,200)", "(2,000)")], caption="(Millions)", first_column=330)


def asked_lead(question: str, sources, text) -> str:
    """The figure line the answer leads with, printed or computed."""
    block = asked_block(question, sources, text)
    assert block and len(block) > 1, block
    return block[1]


@pytest.fixture
def filing(statement_pdf):
    return statement_pdf([INCOME, BALANCE, CASH_FLOW], fiscal=(2022, None), issuer="Northwind")


@pytest.mark.parametrize("question, lead", [
    ("What is the FY2022 capital expenditure amount (in USD millions) for Northwind? Give a response to the question "
     "by relying on the details shown in the cash flow statement.", "(1,800) million"),
    ("Assume that you are a public equities analyst. Answer the following question by primarily using information that "
     "is shown in the balance sheet: what is the year end FY2022 net PPNE for Northwind? Answer in USD billions.",
     "$9,000 million"),
    ("How much (in USD billions) did Northwind pay in cash dividends for FY2021? Compute or extract the answer by "
     "primarily using the details outlined in the statement of cash flows.", "(2,200) million"),
])
def test_instructions_around_the_question_leave_the_figure_asked(filing, question, lead):
    sources, text = filing
    assert lead in asked_lead(question, sources, text)


@pytest.mark.parametrize("question", [
    "In agreement with the information outlined in the income statement, what is the FY2020 - FY2022 3 year average "
    "net profit margin (as a %) for Northwind? Answer in units of percents and round to one decimal place.",
    "What is Northwind's three-year average net profit margin from FY2020 to FY2022?",
])
def test_an_average_of_a_ratio_is_the_mean_of_each_years_ratio(filing, question):
    sources, text = filing
    block = asked_block(question, sources, text)
    # 4,000 / 26,492 = 15.1%, 5,600 / 31,352 = 17.9%, 6,000 / 34,229 = 17.5%: mean 16.8%
    assert "(15.1% + 17.9% + 17.5%) / 3 = 16.8% (computed)" in block[1], block
    assert sum("(computed)" in line for line in block) == 4, block  # the mean, then each year's ratio


def test_an_average_over_years_not_all_printed_states_no_figure(filing):
    sources, text = filing
    block = asked_block("What is the FY2019 - FY2022 average net profit margin for Northwind?", sources, text)
    assert block and not any("(computed)" in line for line in block), block  # 3 of 4 years is not the average asked
    assert any("fiscal 2019: not computed" in line for line in block), block


def test_an_input_averaged_by_the_definition_is_not_an_average_of_the_ratio(filing):
    sources, text = filing
    lead = asked_lead("What is the FY2022 return on assets (ROA) for Northwind? ROA is defined as: FY2022 net income / "
                      "(average total assets between FY2021 and FY2022). Round your answer to two decimal places.",
                      sources, text)
    assert "net income 6,000 / average total assets 38,500.0" in lead and "= 0.16 (computed)" in lead, lead


@pytest.mark.parametrize("question, lead", [
    ("According to the details clearly outlined within the P&L statement and the statement of cash flows, what is the "
     "FY2021 depreciation and amortization (D&A from cash flow statement) % margin for Northwind?",
     "depreciation and amortization 1,100 / net sales 31,352 = 3.5% (computed)"),
    ("What is Northwind's FY2022 COGS % margin?", "cost of sales 19,232 / net sales 34,229 = 56.2% (computed)"),
    ("What is the FY2022 unadjusted EBITDA % margin for Northwind?",
     "(operating income 7,997 + depreciation and amortization 1,200) / net sales 34,229 = 26.9% (computed)"),
    ("What is the FY2020 - FY2022 3 year average of capex as a % of revenue for Northwind?",
     "(5.7% + 5.1% + 5.3%) / 3 = 5.3% (computed)"),
])
def test_a_percent_margin_of_an_amount_is_its_share_of_revenue(filing, question, lead):
    sources, text = filing
    assert lead in asked_lead(question, sources, text)


def test_a_name_defined_after_the_question_is_put_in_the_figure_asked(filing):
    sources, text = filing
    lead = asked_lead("What is the FY2022 unadjusted EBITDA less capex for Northwind? Define unadjusted EBITDA as "
                      "unadjusted operating income + depreciation and amortization [from cash flow statement]. Answer "
                      "in USD millions.", sources, text)
    assert "Unadjusted EBITDA less capex" in lead and "= 7,397 million (computed)" in lead, lead  # not EBITDA's 9,197
    lead = asked_lead("What is the FY2020 - FY2022 3 year average unadjusted EBITDA % margin for Northwind? Define "
                      "unadjusted EBITDA as unadjusted operating income + depreciation and amortization from the cash "
                      "flow statement.", sources, text)
    assert "(24.5% + 27.3% + 26.9%) / 3 = 26.2% (computed)" in lead, lead


def test_working_capital_is_current_assets_less_current_liabilities(filing):
    sources, text = filing
    for question in ("What is Northwind's FY2022 net working capital?",
                     "Based on the information provided primarily in the statement of financial position and the "
                     "statement of income, what is Northwind's FY2022 net working capital? Define net working capital "
                     "as total current assets less total current liabilities."):
        lead = asked_lead(question, sources, text)
        assert "total current assets 12,000 − total current liabilities 8,000 = 4,000 million (computed)" in lead, lead


def test_operating_income_margin_is_the_operating_margin(filing):
    sources, text = filing
    lead = asked_lead("What is Northwind's FY2022 unadjusted operating income margin (as a percent of total revenue)?",
                      sources, text)
    assert "operating income 7,997 / net sales 34,229 = 23.4% (computed)" in lead, lead


@pytest.mark.parametrize("question", [
    "What is the FY2020 - FY2022 total revenue 2 year CAGR for Northwind? Answer in units of percents and round to one "
    "decimal place.",
    "What was Northwind's compound annual growth rate of net sales from 2020 to 2022?",
    "What is Northwind's 3 year revenue CAGR as of FY2022?",  # three years of figures: two years of growth
])
def test_a_compound_annual_growth_rate_is_the_root_of_the_two_ends_ratio(filing, question):
    sources, text = filing
    lead = asked_lead(question, sources, text)
    # (34,229 / 26,492) ^ (1 / 2) - 1 = 13.67%
    assert "(34,229 / 26,492) ^ (1 / 2) − 1 = 13.7% (computed)" in lead, lead
