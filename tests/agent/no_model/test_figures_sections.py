"""Which row and column a figure question means, beyond the line item: fiscal years named by the
calendar year they end in, statement totals under a stale section, a sub-item under another item's
section, statements of several registrants in one filing, glosses in parentheses, asking verbs;
and the answer when no row passes ("no figure is stated", never a quoted number in the lead)."""

from __future__ import annotations

import re

import pytest

from agent.no_model.extractive import compose_extractive_answer
from agent.no_model.figure_periods import FiscalShift, asked_period, cell_years, fiscal_shift, pick_cells
from agent.no_model.figures import INTRO, NO_FIGURE, figure_block, no_row_line
from bench.figures_gold import lead_line, score_figure
from storage.documents.embeddings import get_embedder
from storage.documents.page_tables import statement_entity
from storage.documents.tables import Cell, TableHeader
from tests.fixtures_figures import BALANCE, YEARS, Table

QUARTERS = ("Three Months Ended July 31, 2023", "Three Months Ended July 31, 2022",
            "Six Months Ended July 31, 2023", "Six Months Ended July 31, 2022")
RELEASE = Table(QUARTERS, [
    ("Subscription and support", "$ 8,026", "$ 7,190", "$ 15,746", "$ 14,070"),
    ("Total revenues", "8,603", "7,720", "16,850", "15,131"),
    ("Net income", "$ 1,267", "$ 68", "$ 1,466", "$ 96"),
], sections={0: "Revenues"})


def _lead(question, sources, text) -> str:
    block = figure_block(question, sources, text, get_embedder())
    assert block and block[0] == INTRO, block
    return block[1].replace(": $", ": ")  # the value as printed, whether or not the line adds its currency


@pytest.fixture
def fiscal_year(monkeypatch):
    """The selected filing's fiscal year as its DocumentInfo says (a release of Q2 FY2024)."""
    def set_year(year, quarter=2):
        monkeypatch.setattr("agent.no_model.cited_rows.fiscal_period", lambda doc_id: (year, quarter))
    return set_year


@pytest.mark.parametrize("question, value", [
    ("What was revenue in Q2 FY2024?", "8,603"),
    ("What were total revenues for the first half of fiscal 2024?", "16,850"),
    ("What was net income in the second quarter of fiscal 2023?", "68"),
])
def test_fiscal_year_ending_in_the_next_calendar_year(pages, fiscal_year, question, value):
    fiscal_year(2024)
    sources, text = pages({5: [RELEASE]})
    assert f": {value} " in _lead(question, sources, text)


def test_calendar_dates_are_not_shifted_and_unknown_fiscal_years_are_not_guessed(pages, fiscal_year):
    fiscal_year(2024)
    sources, text = pages({5: [RELEASE]})
    assert ": 8,603 " in _lead("What were total revenues in the three months ended July 31, 2023?", sources, text)
    fiscal_year(None)  # no cover read: FY2024 is not the calendar 2023 columns
    assert figure_block("What was revenue in Q2 FY2024?", sources, text, get_embedder()) is None


def test_quarter_columns_are_counted_back_from_the_filings_own_quarter(pages, fiscal_year):
    quarters = Table(("Three Months Ended June 30, 2023", "Three Months Ended March 31, 2023"),
                     [("Total net revenues", "2,540", "2,510")])
    sources, text = pages({8: [quarters]})
    fiscal_year(2023, 2)
    assert ": 2,510 " in _lead("What were total net revenues in Q1 2023?", sources, text)
    assert ": 2,540 " in _lead("What were total net revenues in the second quarter of 2023?", sources, text)
    fiscal_year(2023, None)  # the filing's quarter unknown: which column is Q1 is not guessed
    assert figure_block("What were total net revenues in Q1 2023?", sources, text, get_embedder()) is None


def test_fiscal_shift_reads_only_columns_of_the_latest_month():
    header = TableHeader(" ".join(QUARTERS[:1]), QUARTERS[:1])
    cells = [Cell("Revenue", QUARTERS[0], "8,603", "Revenue 8,603", header, 0),
             Cell("Revenue", "January 31, 2023", "31,352", "Revenue 31,352", header, 1)]
    shift = fiscal_shift(cells, 2024)
    assert shift == FiscalShift(1, 7)
    fiscal = asked_period("revenue in fiscal 2024")
    assert cell_years(cells[0], fiscal, shift) == [2024]
    assert cell_years(cells[1], fiscal, shift) == [2023]  # a fiscal year-end balance keeps its year
    assert cell_years(cells[0], asked_period("revenue in 2023"), shift) == [2023]  # a calendar year asked
    assert fiscal_shift(cells, 2023) is None and fiscal_shift(cells, None) is None
    assert pick_cells(cells[:1], asked_period("Q2 FY2024 revenue"), shift) == cells[:1]


def test_statement_totals_are_not_parts_of_the_section_printed_above(pages):
    sheet = Table(BALANCE, [
        ("Gas stored", "1,100", "900"),
        ("Total current assets", "12,815", "11,077"),
        ("Accounts payable", "3,200", "3,000"),
        ("Total current liabilities", "15,788", "17,427"),
    ], sections={0: "Inventories", 2: "Accounts payable and accrued expenses"})
    flows = Table(YEARS, [
        ("Accounts receivable", "(120)", "(80)"),
        ("Net cash provided by operating activities", "8,848", "9,832"),
    ], sections={0: "Changes in assets and liabilities"})
    sources, text = pages({3: [sheet], 5: [flows]})
    assert ": 12,815 " in _lead("What were total current assets at December 31, 2022?", sources, text)
    assert ": 15,788 " in _lead("What were total current liabilities at the end of 2022?", sources, text)
    assert ": 8,848 " in _lead("How much cash did ACME generate from operating activities in 2022?", sources, text)


def test_a_sub_item_under_another_items_section_is_not_the_asked_item(pages):
    income = Table(YEARS, [
        ("Subscription and support", "$ 29,021", "$ 24,657"),
        ("Total revenues", "31,352", "26,492"),
        ("Subscription and support", "5,821", "5,059"),
        ("Total cost of revenues", "8,360", "7,026"),
    ], sections={0: "Revenues", 2: "Cost of revenues"})
    sources, text = pages({3: [income]})
    assert ": 29,021 " in _lead("What were subscription and support revenues in fiscal 2022?", sources, text)


def test_the_registrant_the_question_names_answers(pages, monkeypatch):
    def sheet(entity, value):
        return Table(BALANCE, [("Total current assets", value, "11,077")], caption=f"{entity}\nCONSOLIDATED BALANCE SHEETS")
    sources, text = pages({99: [sheet("PG&E CORPORATION", "12,815")],
                           106: [sheet("PACIFIC GAS AND ELECTRIC COMPANY", "12,700")]})
    assert ": 12,815 " in _lead("What were PG&E Corporation's total current assets in 2022?", sources, text)
    assert ": 12,700 " in _lead("What were Pacific Gas and Electric Company's total current assets in 2022?",
                                sources, text)
    assert statement_entity("ITEM 8. FINANCIAL STATEMENTS\nPG&E CORPORATION\nCONSOLIDATED BALANCE SHEETS") \
        == "PG&E CORPORATION"
    assert statement_entity("CONSOLIDATED BALANCE SHEETS\n(in millions)") == ""


def test_glosses_in_parentheses_and_asking_verbs_are_not_row_words(pages):
    sheet = Table(BALANCE, [("Unearned revenue", "17,376", "15,628")], sections={0: "Current liabilities"})
    flows = Table(YEARS, [("Payments of dividends to stockholders", "(3,668)", "(3,457)")],
                  sections={0: "Cash flows from financing activities"})
    sources, text = pages({3: [sheet], 5: [flows]})
    assert ": 17,376 " in _lead("What was the unearned (deferred) revenue balance at December 31, 2022?", sources, text)
    assert ": (3,668) " in _lead("How much did ACME pay in dividends in fiscal 2022?", sources, text)


def test_no_row_says_no_figure_before_any_quoted_number(pages):
    sources, text = pages({3: [Table(YEARS, [("Net sales", "$ 52,417", "$ 48,300")])]})
    sources[0].text = "At December 31, 2022, our total debt was approximately $9.0 billion across 14 notes."
    page = sources[0].text
    answer, usable = compose_extractive_answer("What was total debt as of December 31, 2022?", sources, lambda s: page)
    first = answer.splitlines()[0]
    assert usable and NO_FIGURE in first and "Total debt for 2022" in first
    assert "$9.0 billion" in answer  # still quoted, as context after the statement
    assert lead_line(answer) is None and lead_line(answer, honour_no_figure=False)
    gold = {"value": "9,036", "period": "December 31, 2022", "question": "What was total debt?"}
    assert score_figure(gold, answer) == "missing" and score_figure(gold, answer, honour_no_figure=False) == "wrong"
    # a question naming no line item keeps the plain passages intro when a passage states its item
    assert no_row_line("What was the number of employees in 2022?", ["At year end 2022 we had 164,000 employees."]) is None
    assert NO_FIGURE in no_row_line("What was the number of employees in 2022?", ["Revenue grew 8% in 2022."])
    assert re.search(r"no table row", no_row_line("What was the gross margin in 2022?"), re.I)


def test_an_item_the_question_qualifies_is_named_so_and_answered_by_the_sentence_stating_it(pages):
    """"net debt" is no row of the debt concept: the sentence that states it answers, and without one
    the no-row line names what was asked, not the concept ("Total debt")."""
    sources, text = pages({3: [Table(YEARS, [("Net sales", "$ 52,417", "$ 48,300")])]})
    sources[0].text = "Net debt fell to 62.5 million euros, which is 0.8 times EBITDA."
    page = sources[0].text
    answer, usable = compose_extractive_answer("What was the net debt at year end?", sources, lambda s: page)
    assert usable and NO_FIGURE not in answer and "62.5 million euros" in answer.split("\n\n")[1]
    line = no_row_line("What was the net debt at year end?", ["Total assets were 506.9 million euros."])
    assert "Net debt" in line and "Total debt" not in line and NO_FIGURE in line


def test_parent_only_schedules_are_not_the_statements_of_record():
    from storage.documents.page_tables import is_primary_statement

    assert is_primary_statement("PG&E CORPORATION\nCONSOLIDATED BALANCE SHEETS\n(in millions)")
    assert not is_primary_statement("PG&E CORPORATION\nSCHEDULE I — CONDENSED FINANCIAL INFORMATION OF PG&E CORPORATION "
                                    "(“PARENT”)\nCONDENSED BALANCE SHEETS")


def test_of_two_registrants_named_alike_the_one_adding_no_words(pages):
    def income(entity, value):
        return Table(YEARS, [("Net income", value, "1")], caption=f"{entity}\nCONSOLIDATED STATEMENTS OF OPERATIONS")
    sources, text = pages({111: [income("BOSTON PROPERTIES LIMITED PARTNERSHIP", "541,213")],
                           120: [income("BOSTON PROPERTIES, INC.", "526,057")]})
    for src in sources:  # the filing's cover names both registrants
        src.extra = {"issuer": "Boston Properties, Inc. Boston Properties Limited Partnership"}
    assert ": 526,057 " in _lead("What was Boston Properties' net income in 2022?", sources, text)
    assert ": 541,213 " in _lead("What was Boston Properties Limited Partnership's net income in 2022?", sources, text)


def test_a_balance_asked_is_never_a_flows_row_and_a_row_of_100s_is_a_percentage(pages):
    flows = Table(YEARS, [("Repayments of mortgage notes payable", "(54,801)", "(40,000)")])
    common_size = Table(YEARS, [("Total revenues", "100", "100")], unit="")
    sources, text = pages({115: [flows], 6: [common_size]})
    assert figure_block("What were mortgage notes payable at year-end 2022?", sources, text, get_embedder()) is None
    assert figure_block("What were total revenues in 2022?", sources, text, get_embedder()) is None


def test_current_and_non_current_asked_together_is_their_sum(pages):
    sheet = Table(BALANCE, [("Marketable securities", "24,658", "27,699"), ("Total current assets", "135,405", "134,836"),
                            ("Marketable securities", "120,805", "127,877")],
                  sections={0: "Current assets:", 2: "Non-current assets:"})
    sources, text = pages({33: [sheet]})
    block = figure_block("What were total marketable securities, current and non-current, as of December 31, 2022?",
                         sources, text, get_embedder())
    assert "not printed as one row" in block[0]
    assert block[1].startswith("- Marketable securities, current and non-current, at December 31, 2022 = 24,658 + 120,805 = 145,463 million (computed")
    assert [line.split(": ")[1].split()[0] for line in block[2:4]] == ["24,658", "120,805"]
    assert ": 120,805 " in _lead("What were non-current marketable securities as of December 31, 2022?", sources, text)


def test_a_row_of_a_table_totalling_the_asked_item_is_its_part(pages):
    cloud = Table(YEARS, [("Cloud services", "$ 15,881", "$ 10,809"), ("License support", "19,426", "19,365"),
                          ("Total cloud services and license support revenues", "$ 35,307", "$ 30,174")])
    regions = Table(YEARS, [("Americas", "$ 31,226", "$ 23,679"), ("EMEA", "12,109", "12,011"),
                            ("Total revenues", "$ 49,954", "$ 42,440")])
    reconciliation = Table(YEARS, [("Total revenues", "$ 49,954", "$ 42,440")])
    sources, text = pages({104: [reconciliation, regions, cloud]})
    assert ": 15,881 " in _lead("What were cloud services revenues in fiscal 2022?", sources, text)
    # the regions' "Total revenues" prints as the reconciliation's does: still its own table's total
    assert ": 31,226 " in _lead("What were revenues in the Americas in fiscal 2022?", sources, text)
    # the same region in another total's table, nothing telling them apart: not guessed
    hardware = Table(YEARS, [("Americas", "$ 1,702", "$ 1,800"), ("Total hardware revenues", "$ 3,274", "$ 3,183")])
    sources, text = pages({104: [regions], 105: [hardware]})
    assert figure_block("What were revenues in the Americas in fiscal 2022?", sources, text, get_embedder()) is None


def test_company_level_rows_outside_the_statements_bring_the_statement_pages(pages):
    from agent.no_model.figures import wants_statements

    business = Table(YEARS, [("Total revenues", "$ 3,274", "$ 3,183")], caption="Hardware Business")
    statement = Table(YEARS, [("Total revenues", "$ 49,954", "$ 42,440"), ("Operating income", "13,093", "10,926")],
                      caption="CONSOLIDATED STATEMENTS OF OPERATIONS")
    emb = get_embedder()
    sources, text = pages({40: [business]})
    assert wants_statements("What was total revenue in fiscal 2022?", sources, text, emb)  # a note's row
    assert wants_statements("What was the operating margin in fiscal 2022?", sources, text, emb)  # a computation
    assert not wants_statements("What were hardware business revenues in fiscal 2022?", sources, text, emb)
    sources, text = pages({66: [statement]})
    assert not wants_statements("What was total revenue in fiscal 2022?", sources, text, emb)
    assert not wants_statements("What was the operating margin in fiscal 2022?", sources, text, emb)


def test_one_component_of_a_total_is_never_the_lead_and_off_home_rows_bring_the_statements(pages):
    from agent.no_model.figures import wants_statements

    sheet = Table(BALANCE, [("Short-term borrowings", "2,055", "1,900")], sections={0: "Current liabilities"},
                  caption="CONSOLIDATED BALANCE SHEETS")
    sources, text = pages({100: [sheet]})
    block = figure_block("What was total debt at December 31, 2022?", sources, text, get_embedder())
    assert NO_FIGURE in block[0] and "only one of its components" in block[0]
    assert lead_line("\n".join(block)) is None
    assert wants_statements("What was total debt at December 31, 2022?", sources, text, get_embedder())
    income = Table(YEARS, [("Depreciation and amortization", "370.4", "369.0")], sections={0: "Costs and expenses"},
                   caption="CONSOLIDATED STATEMENT OF INCOME")
    sources, text = pages({35: [income]})
    assert wants_statements("What was total depreciation and amortization in 2022?", sources, text, get_embedder())


def test_remarks_in_labels_rows_of_years_and_a_registrant_named_in_part(pages):
    from agent.no_model.figures import wants_statements
    from storage.finance.line_items import row_item

    assert row_item("Long-term debt (includes $10.31 billion related to VIEs at respective dates)",
                    "Noncurrent Liabilities").concept == "LongTermDebtNoncurrent"
    assert row_item("Cash and cash equivalents (Note 3)").concept == "CashAndCashEquivalentsAtCarryingValue"
    header_as_row = Table(YEARS, [("As a % of total revenues", "2022", "2021"), ("Total revenues", "$ 31,352", "$ 26,492")])
    sources, text = pages({60: [header_as_row]})
    assert ": 31,352 " in _lead("What were total revenues in fiscal 2022?", sources, text)
    assert figure_block("What was the share of total revenues in fiscal 2022?", sources, text, get_embedder()) is None
    partnership = Table(YEARS, [("Net income", "541,213", "1")],
                        caption="BOSTON PROPERTIES LIMITED PARTNERSHIP\nCONSOLIDATED STATEMENTS OF OPERATIONS")
    sources, text = pages({120: [partnership]})
    for src in sources:
        src.extra = {"issuer": "Boston Properties, Inc. Boston Properties Limited Partnership"}
    assert wants_statements("What was Boston Properties' net income in 2022?", sources, text, get_embedder())
    assert not wants_statements("What was Boston Properties Limited Partnership's net income in 2022?", sources, text,
                                get_embedder())


def test_a_row_under_another_items_heading_still_answers_its_own_item(pages):
    from agent.no_model.figures import wants_statements

    release = Table(("Twelve Months Ended June 30, 2023", "Twelve Months Ended June 30, 2022"), [
        ("Net income attributable to non-controlling interests", "(7)", "(10)"),
        ("Adjusted EBITDA", "2,018", "2,117"),
    ], sections={0: "Net income attributable to non-controlling interests"})
    sources, text = pages({11: [release]})
    question = "What was the adjusted non-GAAP EBITDA for FY 2023?"
    assert ": 2,018 " in _lead(question, sources, text)
    assert not wants_statements(question, sources, text, get_embedder())  # the printed ratio row answers


def test_a_balance_is_read_on_the_balance_sheet_not_as_its_change_on_the_cash_flow_statement(pages):
    sheet = Table(BALANCE, [("Merchandise inventories", "5,409", "5,209"), ("Total current assets", "9,422", "9,000")],
                  sections={0: "Current assets"}, caption="Consolidated Balance Sheets")
    flows = Table(YEARS, [("Merchandise inventories", "(194)", "(335)")], sections={0: "Operating activities"},
                  caption="Consolidated Statements of Cash Flows")
    sources, text = pages({54: [flows], 51: [sheet]})  # the cash flow page ranked first
    assert ": 5,409 " in _lead("What is the year end 2022 total amount of inventories?", sources, text)
    changes = Table(YEARS, [("Merchandise inventories", "(194)", "(335)")],
                    sections={0: "Changes in operating assets and liabilities"})
    sources, text = pages({54: [changes]})
    assert figure_block("What were inventories at the end of 2022?", sources, text, get_embedder()) is None
