"""Derived figures: margins, growth, averages, ratios and formulas the question defines, computed
from printed rows with the arithmetic shown and every input row cited (inputs from different
pages of the filing); a missing input is named and no value is given."""

from __future__ import annotations

import re

import pytest
from markdown_it import MarkdownIt

from agent.no_model.derived_figures import FormulaError, parse_formula
from agent.no_model.figures import INTRO_COMPUTED, INTRO_NOT_COMPUTED
from agent.citations.quotes import quotes_by_marker
from tests.agent.no_model.pdf_statements import asked_block
from tests.fixtures_figures import BALANCE, BALANCE_SHEET, CASH_FLOW, INCOME, YEARS, Table



def test_a_margin_no_row_prints_is_computed_with_its_arithmetic(pages):
    sources, text = pages({3: [INCOME]})
    block = asked_block("What was the gross margin in fiscal 2022?", sources, text)
    assert block[0] == INTRO_COMPUTED
    assert block[1] == "- Gross margin, fiscal 2022 = gross profit 22,317 / net sales 52,417 = 42.6% (computed) [^1]"
    assert block[2:4] == ["", "Inputs, as printed:"]
    assert block[4] == "- Gross profit (Years Ended December 31, 2022): $22,317 million [^1]"
    assert block[5] == "- Net sales (Years Ended December 31, 2022): $52,417 million [^1]"
    # rendered, the computed line is its own list item: the inputs' label does not run into it
    html = MarkdownIt().render("\n".join(block[1:]))
    assert "<li>Gross margin, fiscal 2022 = gross profit 22,317 / net sales 52,417 = 42.6% (computed) [^1]</li>" in html
    assert "<p>Inputs, as printed:</p>" in html
    assert quotes_by_marker("\n".join(block)) == {"[^1]": ["Gross profit … $22,317", "Net sales … $52,417"]}


def test_a_printed_margin_row_is_stated_not_recomputed(pages):
    printed = Table(YEARS, [*INCOME.rows, ("Operating margin", "13.2%", "12.4%")])
    sources, text = pages({3: [printed]})
    block = asked_block("What was the operating margin in 2022?", sources, text)
    assert block[1].startswith("- Operating margin (Years Ended December 31, 2022): 13.2%")


def test_a_formula_the_question_defines_across_two_pages(pages):
    sources, text = pages({5: [CASH_FLOW], 7: [BALANCE_SHEET]})
    question = ("The operating cash flow ratio is defined as cash from operations / total current liabilities. "
                "What was it in fiscal 2022?")
    block = asked_block(question, sources, text)
    assert block[1] == ("- Operating cash flow ratio, fiscal 2022 = net cash provided by operating activities 7,245 / "
                        "total current liabilities 9,880 = 0.73 (computed) [^1][^2]")
    cited = quotes_by_marker("\n".join(block))
    assert cited == {"[^1]": ["Net cash provided by operating activities … $7,245"],
                     "[^2]": ["Total current liabilities … $9,880"]}


def test_ebitda_defined_in_the_question_and_precision_asked(pages):
    sources, text = pages({3: [INCOME], 5: [CASH_FLOW]})
    block = asked_block("EBITDA = operating income + D&A. What was EBITDA in 2021?", sources, text)
    assert block[1] == ("- EBITDA, fiscal 2021 = operating income 6,010 + depreciation and amortization 1,150 = 7,160 million "
                        "(computed) [^1][^2]")
    block = asked_block("What was the current ratio at December 31, 2022? Round to three decimal places.",
                   *pages({7: [BALANCE_SHEET]}))
    assert block[1] == ("- Current ratio, as of December 31, 2022 = total current assets 14,200 / total current "
                        "liabilities 9,880 = 1.437 (computed) [^1]")


def test_ratios_and_percentages_of_two_named_rows(pages):
    sources, text = pages({3: [INCOME], 7: [BALANCE_SHEET]})
    block = asked_block("What was the ratio of Acme's total current assets to total current liabilities at the end of fiscal "
                   "2022?", sources, text)
    assert block[1] == ("- Total current assets to total current liabilities, as of December 31, 2022 = total current "
                        "assets 14,200 / total current liabilities 9,880 = 1.44 (computed) [^2]")
    block = asked_block("What was cost of sales as a percentage of net sales in 2021?", sources, text)
    assert block[1] == ("- Cost of sales as a percentage of net sales, fiscal 2021 = cost of sales 27,000 / net sales "
                        "48,300 = 55.9% (computed) [^1]")


def test_free_cash_flow_subtracts_the_capex_spent(pages):
    sources, text = pages({5: [CASH_FLOW]})
    block = asked_block("What was free cash flow in 2022?", sources, text)
    assert block[1] == ("- Free cash flow, fiscal 2022 = net cash provided by operating activities 7,245 − purchases of "
                        "property and equipment 2,130 = 5,115 million (computed) [^1]")


def test_growth_and_average_over_printed_columns(pages):
    sources, text = pages({3: [INCOME]})
    block = asked_block("By how much did net sales grow from 2021 to 2022?", sources, text)
    assert block[1] == "- Net sales growth, 2021–2022 = (52,417 − 48,300) / 48,300 = 8.5% (computed) [^1]"
    block = asked_block("What was the average diluted EPS over FY2021-FY2022?", sources, text)
    # rounded to the inputs' precision, half up: 5.705 -> 5.71
    assert block[1] == "- Diluted EPS average, 2021–2022 = (5.30 + 6.11) / 2 = 5.71 (computed) [^1]"


def test_a_missing_input_is_named_and_no_value_given(pages):
    sources, text = pages({5: [CASH_FLOW]})  # no balance sheet among the cited pages
    question = "The operating cash flow ratio is defined as cash from operations / total current liabilities. What was it in 2022?"
    block = asked_block(question, sources, text)
    assert block[0] == INTRO_NOT_COMPUTED
    assert block[1:] == ["- Operating cash flow ratio, fiscal 2022: not computed — total current liabilities: no row "
                         "for that period found on the cited pages."]
    assert not any(re.search(r"= [\d,.]+%? \(computed\)", line) for line in block)
    block = asked_block("What was the gross margin in fiscal 2020?", *pages({3: [INCOME]}))  # no 2020 column
    assert "(computed)" not in "\n".join(block) and "not computed" in block[1]


def test_the_grammar_reads_words_and_symbols_without_eval():
    tree = parse_formula("(net sales minus cost of sales) divided by net sales")
    assert (tree.op, tree.left.op, tree.left.left.text, tree.left.right.text, tree.right.text) == (
        "/", "-", "net sales", "cost of sales", "net sales")
    assert parse_formula("long-term debt plus current portion of long-term debt").left.text == "long-term debt"
    assert parse_formula("a - b * 2").right.op == "*"  # precedence
    for bad in ("net sales /", "(gross profit / net sales", "__import__('os') )"):
        with pytest.raises(FormulaError):
            parse_formula(bad)


def test_a_printed_row_naming_the_change_is_not_recomputed(pages):
    cash_flow = Table(YEARS, [*CASH_FLOW.rows, ("Increase in deferred revenues", "781", "1,009")])
    sources, text = pages({3: [INCOME], 5: [cash_flow]})
    block = asked_block("What was the increase in deferred revenues in fiscal 2022?", sources, text)
    assert block[1].startswith("- Increase in deferred revenues (Years Ended December 31, 2022): $781 million ")
    assert "(computed)" not in "\n".join(block)  # not the growth of revenues


def test_a_formula_in_parentheses_with_an_average_balance(pages):
    balance = Table(BALANCE, [("Inventories", "4,946", "6,580"), *BALANCE_SHEET.rows])
    sources, text = pages({3: [INCOME], 7: [balance]})
    block = asked_block("What was the inventory turnover (cost of sales / average inventories) in fiscal 2022?", sources, text)
    assert block[1] == ("- Inventory turnover, fiscal 2022 = cost of sales 30,100 / average inventories 5,763.0 "
                        "[(4,946 + 6,580) / 2] = 5.22 (computed) [^1][^2]")
    assert [line.split(" (")[0] for line in block[4:]] == ["- Cost of sales", "- Inventories", "- Inventories"]
    # the year before's balance is not printed: no average, no value
    block = asked_block("What was the inventory turnover (cost of sales / average inventories) in fiscal 2021?", sources, text)
    assert "not computed — average inventories" in block[1]


def test_averages_and_growth_over_the_latest_printed_years(pages):
    sources, text = pages({3: [INCOME]})
    block = asked_block("What was the two-year average of net sales?", sources, text)
    assert block[1] == "- Net sales average, 2021–2022 = (48,300 + 52,417) / 2 = 50,359 (computed) [^1]"
    block = asked_block("What was the year-over-year growth of operating income?", sources, text)
    assert block[1] == "- Operating income growth, 2021–2022 = (6,912 − 6,010) / 6,010 = 15.0% (computed) [^1]"
    block = asked_block("What was the 3-year average of net sales?", sources, text)  # two years printed
    assert block[1:] == ["- Net sales average, 2020–2022: not computed — net sales: no row for 2020 found on the cited pages."]


def test_inputs_come_from_one_filing(pages):
    gross_only = Table(YEARS, [("Gross profit", "22,317", "21,300")])
    sales_only = Table(YEARS, [("Net sales", "$ 50,000", "$ 48,300")])
    sources, text = pages({1: [gross_only], 2: [sales_only]}, docs={1: "acme-10k", 2: "acme-2023-q1"})
    block = asked_block("What was the gross margin in fiscal 2022?", sources, text)
    assert "(computed)" not in "\n".join(block) and "not computed — revenues" in block[1]
    sources, text = pages({1: [gross_only], 2: [sales_only], 3: [INCOME]}, docs={1: "acme-10k", 2: "acme-2023-q1"})
    block = asked_block("What was the gross margin in fiscal 2022?", sources, text)
    assert block[1] == "- Gross margin, fiscal 2022 = gross profit 22,317 / net sales 52,417 = 42.6% (computed) [^1][^3]"
