"""The right row or none: a figure line leads only when its row (the asked line item, by the
US-GAAP taxonomy's names), its section (segment, GAAP or adjusted, current or non-current) and
its column (quarter, full year, as-of date) mean what the question asks; figures said with their
unit and period; a total no row prints is said to be missing, with its printed components."""

from __future__ import annotations

import re

import pytest

from agent.no_model.figures import INTRO, figure_block
from storage.finance.line_items import asked_items, row_item
from agent.citations.quotes import quotes_by_marker
from storage.documents.embeddings import get_embedder
from tests.fixtures_figures import BALANCE, BALANCE_SHEET, CASH_FLOW, INCOME, YEARS, Table

LINE = re.compile(r"^- (?P<label>.+) \((?P<period>[^()]+)\): (?P<currency>[$€£])?(?P<value>\S+)(?: (?P<unit>million|billion|thousand|per share))?"
                  r"(?: — (?P<said>.+?))? (?P<marker>\[\^\d+\])$")


def _block(question, sources, page_text):
    return figure_block(question, sources, page_text, get_embedder())


def _lead(block) -> re.Match:
    assert block and block[0] == INTRO, block
    m = LINE.match(block[1])
    assert m, block
    return m


@pytest.mark.parametrize("question, label, value", [
    ("What was net revenue in fiscal 2022?", "Net sales", "52,417"),
    ("What were total revenues in 2021?", "Net sales", "48,300"),
    ("What were capital expenditures in fiscal 2022?", "Purchases of property and equipment", "(2,130)"),
    ("How much was capital spending in 2021?", "Purchases of property and equipment", "(1,877)"),
    ("What was cash from operations in FY2022?", "Net cash provided by operating activities", "7,245"),
    ("What was diluted EPS in 2022?", "Diluted", "6.11"),
])
def test_synonyms_of_the_taxonomy_find_the_printed_row(pages, question, label, value):
    sources, text = pages({3: [INCOME], 5: [CASH_FLOW]})
    lead = _lead(_block(question, sources, text))
    assert (lead["label"], lead["value"]) == (label, value)


def test_line_items_read_as_concepts():
    assert row_item("Total net sales (4)").concept == "Revenues"
    assert row_item("Net revenues").concept == row_item("Total revenues").concept == "Revenues"
    assert row_item("Additions to property, plant and equipment").concept == "PaymentsToAcquirePropertyPlantAndEquipment"
    assert row_item("Diluted", "Earnings per share:").concept == "EarningsPerShareDiluted"
    assert row_item("Diluted", "Shares used in computing earnings per share:") is None  # a share count
    assert row_item("Diluted") is None  # alone it could be either
    assert row_item("Americas") is None and row_item("Americas net sales") is None  # a segment's, not the item
    # the same line item, adjusted: told apart by the adjusted rule, not the concept
    assert row_item("Non-GAAP operating income").concept == row_item("GAAP operating income").concept
    assert [a.item.concept for a in asked_items("current portion of long-term debt and cost of sales")] == [
        "LongTermDebtCurrent", "CostOfRevenue"]  # the longest phrase, not "long-term debt" nor "sales"


def test_said_with_unit_and_period(pages):
    sources, text = pages({3: [INCOME], 7: [BALANCE_SHEET]})
    lead = _lead(_block("What was net revenue in fiscal 2022?", sources, text))
    assert lead.group(0) == "- Net sales (Years Ended December 31, 2022): $52,417 million [^1]"  # each figure said once
    lead = _lead(_block("What was diluted EPS in 2022?", sources, text))
    assert (lead["value"], lead["unit"]) == ("6.11", "per share")
    lead = _lead(_block("What were total assets at December 31, 2021?", sources, text))
    assert (lead["period"], lead["value"], lead["unit"]) == ("December 31, 2021", "58,500", "million")
    # the preview still highlights the printed label and value, not the figure as said
    line = _block("What was net revenue in fiscal 2022?", sources, text)[1]
    assert quotes_by_marker(line) == {"[^1]": ["Net sales … $52,417"]}


SEGMENTS = Table(YEARS, [("Net sales", "$ 20,100", "$ 18,000"), ("Operating income", "2,950", "2,400")],
                 caption="Americas Segment")


def test_a_segment_row_is_not_the_company_total(pages):
    sources, text = pages({2: [SEGMENTS], 3: [INCOME]})  # the segment's page ranks first
    lead = _lead(_block("What was net revenue in fiscal 2022?", sources, text))
    assert (lead["value"], lead["marker"]) == ("52,417", "[^2]")
    lead = _lead(_block("What were Americas segment net sales in fiscal 2022?", sources, text))
    assert (lead["value"], lead["marker"]) == ("20,100", "[^1]")
    # only the segment's table on the cited pages: no figure for the company total
    sources, text = pages({2: [SEGMENTS]})
    assert _block("What was operating income in fiscal 2022?", sources, text) is None


ADJUSTED = Table(YEARS, [("Adjusted operating income", "7,400", "6,300"), ("Non-GAAP net income", "5,600", "4,900")],
                 caption="Reconciliation of GAAP to non-GAAP measures")


def test_adjusted_rows_are_not_gaap_answers(pages):
    sources, text = pages({1: [ADJUSTED], 3: [INCOME]})
    assert _lead(_block("What was operating income in 2022?", sources, text))["value"] == "6,912"
    assert _lead(_block("What was adjusted operating income in 2022?", sources, text))["value"] == "7,400"
    assert _lead(_block("What was non-GAAP net income in 2021?", sources, text))["value"] == "4,900"
    sources, text = pages({1: [ADJUSTED]})
    assert _block("What was net income in 2022?", sources, text) is None


def test_current_portion_is_not_long_term_debt(pages):
    sources, text = pages({7: [BALANCE_SHEET]})
    lead = _lead(_block("What was long-term debt at December 31, 2022?", sources, text))
    assert (lead["label"], lead["value"]) == ("Long-term debt, net of current portion", "30,512")
    assert _lead(_block("What was the current portion of long-term debt in 2022?", sources, text))["value"] == "3,096"
    # a "Long-term debt" row printed in the current liabilities section is the current portion
    current_only = Table(BALANCE, [("Accounts payable", "2,000", "1,900"), ("Long-term debt", "3,096", "2,750")],
                         sections={0: "Current liabilities"})
    sources, text = pages({7: [current_only]})
    assert _block("What was long-term debt at December 31, 2022?", sources, text) is None


def test_the_years_change_is_not_the_balance(pages):
    sources, text = pages({5: [CASH_FLOW]})
    assert _lead(_block("What was cash and cash equivalents in 2022?", sources, text))["value"] == "4,950"
    assert _lead(_block("What was the net increase in cash in 2022?", sources, text))["value"] == "812"


QUARTERS = ("Three Months Ended December 31, 2022", "Three Months Ended December 31, 2021")
FULL = ("Twelve Months Ended December 31, 2022", "Twelve Months Ended December 31, 2021")
RELEASE = Table((*QUARTERS, *FULL), [("Net revenues", "$ 14,100", "$ 12,900", "$ 52,417", "$ 48,300")])


def test_quarter_and_full_year_columns(pages):
    sources, text = pages({0: [RELEASE]})
    lead = _lead(_block("What were net revenues in fiscal 2022?", sources, text))
    assert (lead["value"], lead["unit"]) == ("52,417", "million")
    lead = _lead(_block("What were net revenues in the fourth quarter of 2022?", sources, text))
    assert (lead["value"], lead["unit"], lead["period"][:18]) == ("14,100", "million", "Three Months Ended")
    quarter_only = Table(QUARTERS, [("Net revenues", "$ 14,100", "$ 12,900")])
    sources, text = pages({0: [quarter_only]})
    assert _block("What were net revenues in fiscal 2022?", sources, text) is None


def test_total_debt_not_printed_lists_its_components(pages):
    sources, text = pages({7: [BALANCE_SHEET]})
    block = _block("What was total debt at December 31, 2022?", sources, text)
    assert block[0] != INTRO and "Total debt is not printed as one row" in block[0]
    # the sum first (one component is never the lead), then every component with its citation
    assert block[1] == ("- Total debt, as of December 31, 2022 = 1,000 + 3,096 + 30,512 = 34,608 million (computed, the sum of the "
                        "printed components) [^1]")
    parts = [LINE.match(line) for line in block[2:5]]
    assert [(p["label"], p["value"]) for p in parts] == [
        ("Short-term borrowings", "1,000"), ("Current portion of long-term debt", "3,096"),
        ("Long-term debt, net of current portion", "30,512")]
    # printed as one row: that row is the answer
    with_total = Table(BALANCE, [*BALANCE_SHEET.rows, ("Total debt", "34,608", "34,690")])
    sources, text = pages({7: [with_total]})
    assert _lead(_block("What was total debt at December 31, 2022?", sources, text))["value"] == "34,608"


def test_no_row_of_the_asked_item_no_figure(pages):
    sources, text = pages({5: [CASH_FLOW]})
    assert _block("What was research and development expense in 2022?", sources, text) is None
    assert _block("What was net revenue in fiscal 2019?", sources, text) is None  # no such column


def test_a_section_naming_another_part_qualifies_its_rows(pages):
    leases = Table(BALANCE, [("Operating lease liabilities", "15,363", "14,487"), ("Current portion of long-term debt", "75", "32"),
                             ("Long-term debt, less current portion", "725", "436")], sections={1: "Finance leases:"})
    sources, text = pages({9: [leases]})
    assert _block("What was long-term debt at December 31, 2022?", sources, text) is None
    assert _lead(_block("What was the long-term debt of finance leases in 2022?", sources, text))["value"] == "725"


def test_the_same_label_twice_without_sections_is_not_guessed(pages):
    # "Term debt" under current and under non-current liabilities, the sections unread
    unsectioned = Table(BALANCE, [("Commercial paper", "9,982", "6,000"), ("Term debt", "11,128", "9,613"),
                                  ("Total current liabilities", "153,982", "125,481"), ("Term debt", "98,959", "109,106")])
    sources, text = pages({4: [unsectioned]})
    assert _block("What was long-term debt in 2022?", sources, text) is None
    # the sections read: the non-current one is long-term debt
    sectioned = Table(unsectioned.columns, unsectioned.rows, sections={0: "Current liabilities:", 3: "Non-current liabilities:"})
    sources, text = pages({4: [sectioned]})
    assert _lead(_block("What was long-term debt in 2022?", sources, text))["value"] == "98,959"
    block = _block("What was total debt in 2022?", sources, text)
    assert [LINE.match(line)["value"] for line in block[2:5]] == ["9,982", "11,128", "98,959"]
    assert "9,982 + 11,128 + 98,959 = 120,069 million (computed" in block[1]


def test_columns_their_headers_do_not_tell_apart_are_not_guessed(pages):
    # a quarter's and a half year's columns whose span words were not read: both "June 30, 2023"
    release = Table(("June 30, 2023", "June 30, 2022", "June 30, 2023", "June 30, 2022"),
                    [("Net revenues", "$ 2,540", "$ 2,420", "$ 5,050", "$ 4,903")])
    sources, text = pages({1: [release]})
    assert _block("What were net revenues for the six months ended June 30, 2023?", sources, text) is None


def test_a_percentage_row_is_a_ratio_and_a_dash_no_figure(pages):
    table = Table(YEARS, [("Net sales", "$ 52,417", "$ 48,300"), ("Gross margin", "42.6%", "44.1%"),
                          ("Goodwill impairment", "—", "—")])
    sources, text = pages({3: [table]})
    assert row_item("Gross margin", percent=True).concept == "GrossMargin"
    assert row_item("Gross margin").concept == "GrossProfit"  # an amount ("Gross margin $170,782")
    lead = _lead(_block("What was the gross margin in 2021?", sources, text))
    assert (lead["value"], lead["said"]) == ("44.1%", None)
    assert _block("What was gross profit in 2021?", sources, text) is None  # the % row is not the amount
    assert _block("What was the goodwill impairment in 2022?", sources, text) is None


def test_the_questions_other_words_pick_the_sub_item(pages):
    balance = Table(BALANCE, [("Prepaid expenses", "500", "450"), ("Other current assets", "796", "700"),
                              ("Total current assets", "14,200", "13,100"), ("Goodwill", "2,900", "2,800")])
    sources, text = pages({7: [balance]})
    assert _lead(_block("What were other current assets in 2022?", sources, text))["value"] == "796"
    assert _lead(_block("What were current assets in 2022?", sources, text))["value"] == "14,200"
    # a row that is a known line item does not answer a question about something else
    assert _block("What was goodwill impairment in 2022?", sources, text) is None


def test_the_same_label_on_two_pages_with_other_values_is_not_guessed(pages):
    business = Table(YEARS, [("Revenues", "$ 41,086", "$ 36,052"), ("Margin", "26,126", "24,083")])
    totals = Table(YEARS, [("Revenues", "$ 49,954", "$ 42,440"), ("Margin", "29,162", "26,627")])
    sources, text = pages({1: [business], 2: [totals]})
    assert _block("What were revenues in fiscal 2022?", sources, text) is None
    # the sections read ("Cloud and license:", "Totals:"): the total is the answer
    business.sections, totals.sections = {0: "Cloud and license:"}, {0: "Totals:"}
    assert _lead(_block("What were revenues in fiscal 2022?", sources, text))["value"] == "49,954"


def test_a_printed_measure_answers_a_question_naming_a_computation(pages):
    table = Table(YEARS, [("Average invested capital", "38,964.9", "38,705.9"), ("Return on invested capital", "22.6%", "21.5%")])
    sources, text = pages({4: [table]})
    assert _lead(_block("What was return on invested capital in 2021?", sources, text))["value"] == "21.5%"
    # a ratio no row prints and no formula defines: no printed row stands in for it
    assert _block("What was the return on equity in 2021?", sources, text) is None


@pytest.mark.parametrize("section", ["Current liabilities:", "LIABILITIES AND SHAREHOLDERS’ EQUITY", "Costs and expenses:",
                                     "Other income (expense):", "Nonoperating income (expense)", "Operating activities:",
                                     "Totals:", "Revenues:"])
def test_statement_sections_say_where_not_whose(pages, section):
    table = Table(YEARS, [("Interest expense", "(310)", "(280)"), ("Net sales", "$ 52,417", "$ 48,300")], sections={0: section})
    sources, text = pages({3: [table]})
    assert _lead(_block("What was interest expense in 2022?", sources, text))["value"] == "(310)"


def test_the_asked_quarter_among_quarter_columns(pages):
    quarterly = Table(("First Quarter 2022", "Second Quarter 2022", "Third Quarter 2022", "Fourth Quarter 2022"),
                      [("Net sales", "$ 12,000", "$ 12,900", "$ 13,417", "$ 14,100")])
    sources, text = pages({9: [quarterly]})
    assert _lead(_block("What were net sales in Q2 2022?", sources, text))["value"] == "12,900"
    unnamed = Table(("Three Months Ended March 31, 2022", "Three Months Ended June 30, 2022"),
                    [("Net sales", "$ 12,000", "$ 12,900")])
    sources, text = pages({9: [unnamed]})
    assert _block("What were net sales in the second quarter of 2022?", sources, text) is None  # fiscal year unknown


def test_a_sentence_about_segments_names_no_segment(pages):
    by_segment = Table(YEARS, [("Operating income", "2,950", "2,400")],
                       caption="The following table shows information by reportable segment")
    totals = Table(YEARS, [("Total operating income", "6,912", "6,010")], caption="The following table shows totals")
    sources, text = pages({2: [by_segment], 3: [totals]})
    assert _lead(_block("What was operating income in fiscal 2022?", sources, text))["value"] == "6,912"


def test_net_income_is_the_companys_share_where_the_table_splits_it(pages):
    # the taxonomy's NetIncomeLoss is the parent's share; the consolidated total is ProfitLoss
    table = Table(YEARS, [("Net income attributable to noncontrolling interests", "121", "98"),
                          ("Net income", "5,142", "4,498"), ("Net income attributable to Acme", "5,021", "4,400")])
    sources, text = pages({3: [table]})
    assert _lead(_block("What was net income in 2022?", sources, text))["value"] == "5,021"
    assert _lead(_block("What was consolidated net income in 2022?", sources, text))["value"] == "5,142"
    assert _lead(_block("What was net income including noncontrolling interests in 2021?", sources, text))["value"] == "4,498"
    assert _lead(_block("What was net income attributable to noncontrolling interests in 2022?", sources, text))["value"] == "121"
