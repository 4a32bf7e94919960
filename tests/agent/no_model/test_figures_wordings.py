"""Wordings of items and qualifiers (generated PDFs read by layout): printed labels the taxonomy
words did not read ("Total common stockholders' investment", "Purchase of property, plant and
equipment and other intangible assets", "Long-term debt, classified as current", "Total
consolidated debt" under a "Balance" column word), the ways questions ask them ("buying back its
own stock", "property, plant and equipment additions", "excluding the noncontrolling preferred
stock", "according to its annual report"), and a per-share row under a share-count heading."""

from __future__ import annotations

from tests.agent.no_model.pdf_statements import Page, statement_pdf, asked_block, asked_lead  # noqa: F401 (fixture)

YEARS = ("2023", "2022")
BALANCE = Page("CONSOLIDATED BALANCE SHEETS", YEARS, [
    ("Current liabilities:",),
    ("Short-term borrowings", "$ 2,055", "$ 2,184"),
    ("Long-term debt, classified as current", "2,268", "4,481"),
    ("Total current liabilities", "15,788", "17,427"),
    ("Noncurrent liabilities:",),
    ("Long-term debt", "47,742", "38,225"),
    ("Shareholders' equity:",),
    ("Total common stockholders' investment", "17,940", "16,576"),
    ("Noncontrolling interest - preferred stock of subsidiary", "252", "252"),
], span="December 31,")
CASH = Page("CONSOLIDATED STATEMENTS OF CASH FLOWS", YEARS, [
    ("Investing activities:",),
    ("Purchase of property, plant and equipment and other intangible assets", "(332.2)", "(365.0)"),
    ("Financing activities:",),
    ("Payments for repurchases of common stock", "(19,240)", "(36,140)"),
])
DEBT = Page("Liquidity and Capital Resources", YEARS, [
    ("Balance",),
    ("Mortgage notes payable", "3,438,714", "4,309,484"),
    ("Total consolidated debt", "9,036,513", "9,906,984"),
], span="December 31,", caption="(dollars in thousands)")
INCOME = Page("CONDENSED CONSOLIDATED STATEMENTS OF INCOME", ("Six Months Ended June 30, 2023", "Six Months Ended June 30, 2022"), [
    ("Total operating revenues", "$ 11,200", "$ 10,400"),
    ("Net income", "$ 1,040", "$ 890"),
    ("Weighted Average Common Shares Outstanding,",),
    ("Basic", "1,988", "1,987"),
    ("Diluted", "1,996", "1,990"),
    ("Net Income Per Common Share, Basic", "$ 0.49", "$ 0.42"),
], span="", first_column=360, gap=150)




def test_stockholders_investment_is_equity_and_the_minoritys_preferred_stock_is_left_out(statement_pdf):
    sources, text = statement_pdf([BALANCE])
    assert "17,940" in asked_lead("What was Northwind's total stockholders' equity at December 31, 2023?", sources, text)
    assert "17,940" in asked_lead("What was Northwind's shareholders' equity at year-end 2023, excluding the noncontrolling "
                             "preferred stock?", sources, text)


def test_debt_classified_as_current_is_a_component_of_total_debt(statement_pdf):
    sources, text = statement_pdf([BALANCE])
    block = asked_block("What was Northwind's total debt at December 31, 2023?", sources, text)
    assert block and "2,268" in "\n".join(block) and "52,065" in block[1], block


def test_capital_expenditures_printed_with_intangibles_and_asked_as_additions(statement_pdf):
    sources, text = statement_pdf([CASH])
    assert "332.2" in asked_lead("What were Northwind's capital expenditures in fiscal 2023?", sources, text)
    assert "332.2" in asked_lead("How much did Northwind spend on property, plant and equipment additions in 2023?", sources, text)


def test_capital_expenditures_printed_as_additions(statement_pdf):
    sources, text = statement_pdf([Page("CONSOLIDATED STATEMENTS OF CASH FLOWS", YEARS, [
        ("Investing activities:",),
        ("Property, plant and equipment additions", "(1,303)", "(1,834)"),
    ])])
    assert "1,303" in asked_lead("What were Northwind's capital expenditures in 2023?", sources, text)


def test_buying_back_stock_is_the_repurchase_row(statement_pdf):
    sources, text = statement_pdf([CASH])
    assert "19,240" in asked_lead("How much cash did Northwind spend buying back its own stock in fiscal 2023?", sources, text)


def test_total_consolidated_debt_under_a_column_word(statement_pdf):
    sources, text = statement_pdf([DEBT])
    assert "9,036,513" in asked_lead("What was Northwind's total consolidated debt as of December 31, 2023?", sources, text)


def test_asking_words_are_not_item_words(statement_pdf):
    sources, text = statement_pdf([INCOME])
    assert "11,200" in asked_lead("What was Northwind's total revenue in the six months ended June 30, 2023 according to its "
                             "report?", sources, text)


def test_a_per_share_row_under_a_share_count_heading(statement_pdf):
    sources, text = statement_pdf([INCOME])
    assert "0.42" in asked_lead("What was Northwind's basic EPS for the first half of 2022?", sources, text)
