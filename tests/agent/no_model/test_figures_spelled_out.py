"""Items analysts ask in words the statements do not print (generated PDFs read by layout): EBIT spelled out
("earnings before interest and tax"), earnings per *diluted share*, operating cash as an *outflow*, the
common shareholders' earnings with "net" left unsaid, printed as "Income (Loss) Attributable to Common
Shareholders", the shorthands "R and D" and "op margin", a basis in parentheses ("EPS (basic)"), "interest cost",
and capital expenditures printed with "and other intangible assets"; "H1" is the first half."""

from __future__ import annotations

from agent.no_model.figure_periods import asked_period
from agent.no_model.figure_rows import make_ask
from tests.agent.no_model.pdf_statements import Page, statement_pdf, asked_block, asked_lead  # noqa: F401 (fixture)

YEARS = ("2023", "2022")
INCOME = Page("CONSOLIDATED STATEMENTS OF INCOME", YEARS, [
    ("Net sales", "$ 14,694", "$ 14,544"),
    ("Earnings before interest and taxes", "1,608", "1,541"),
    ("Interest expense", "(290)", "(155)"),
    ("Net Income (Loss)", "1,060", "833"),
    ("Preferred stock dividend requirements", "(14)", "(14)"),
    ("Income (Loss) Attributable to Common Shareholders", "1,046", "819"),
    ("Net Income (Loss) Per Common Share, Basic", "$ 0.72", "$ 0.55"),
    ("Net Income (Loss) Per Common Share, Diluted", "$ 0.71", "$ 0.54"),
], caption="(in millions, except per share amounts)")
ADJUSTED = Page("Supplemental Information", YEARS, [
    ("Net income", "$ 1,060", "$ 833"),
    ("Income tax expense", "258", "553"),
    ("Interest expense, net", "290", "155"),
    ("EBIT", "1,608", "1,541"),
    ("Restructuring, net", "94", "175"),
    ("Adjusted EBIT", "1,702", "1,716"),
], caption="(in millions)")
OPERATIONS = Page("CONSOLIDATED STATEMENTS OF OPERATIONS", YEARS, [
    ("Total revenues", "$ 49,954", "$ 42,440"),
    ("Research and development", "8,623", "7,219"),
    ("Operating income", "$ 13,093", "$ 10,926"),
    ("Operating margin", "26%", "26%"),
], caption="(in millions)")
CASH = Page("CONSOLIDATED STATEMENTS OF CASH FLOWS", YEARS, [
    ("Net income", "$ 1,060", "$ 833"),
    ("Depreciation and amortization", "575", "558"),
    ("Net cash (used)/provided by operating activities", "(3,416)", "(2,446)"),
    ("Purchase of property, plant, and equipment, and other intangible assets", "(1,176)", "(1,012)"),
    ("Net cash used in investing activities", "(1,127)", "(1,530)"),
], caption="(in millions)")


def test_ebit_spelled_out_is_operating_income(statement_pdf):
    sources, text = statement_pdf([INCOME, ADJUSTED])
    assert "1,608" in asked_lead("What were Northwind's earnings before interest and tax in 2023?", sources, text)
    lead = asked_lead("What were Northwind's adjusted earnings before interest and tax in 2023?", sources, text)
    assert "1,702" in lead and "1,608" not in lead, lead


def test_earnings_per_diluted_share_is_diluted_eps(statement_pdf):
    sources, text = statement_pdf([INCOME])
    lead = asked_lead("What were Northwind's 2023 earnings per diluted share?", sources, text)
    assert "0.71" in lead and "0.72" not in lead, lead


def test_earnings_attributable_to_common_shareholders_is_the_common_shareholders_row(statement_pdf):
    sources, text = statement_pdf([INCOME])
    lead = asked_lead("What were Northwind's earnings attributable to common shareholders in 2022?", sources, text)
    assert "819" in lead and "833" not in lead, lead


def test_net_income_before_preferred_dividends_is_no_common_shareholders_earnings(statement_pdf):
    summary = Page("SUMMARY OF RESULTS", YEARS, [("Total operating revenues", "$ 5,214", "$ 5,104"),
                                               ("Net Income", "410", "362")], caption="(in millions)")
    sources, text = statement_pdf([summary])
    block = asked_block("What were Northwind's earnings attributable to common shareholders in 2023?", sources, text)
    assert not block or "410" not in "\n".join(block), block


def test_an_operating_cash_outflow_is_cash_from_operations(statement_pdf):
    sources, text = statement_pdf([CASH])
    assert "3,416" in asked_lead("What was Northwind's operating cash outflow for 2023?", sources, text)


def test_r_and_d_and_op_margin_are_the_items_they_shorten(statement_pdf):
    sources, text = statement_pdf([OPERATIONS])
    assert "8,623" in asked_lead("What was Northwind's R and D spending in 2023?", sources, text)
    lead = asked_lead("What was Northwind's op margin in 2022?", sources, text)
    assert lead.startswith("- Operating margin") and "26%" in lead, lead


def test_eps_with_its_basis_in_parentheses_and_interest_cost(statement_pdf):
    sources, text = statement_pdf([INCOME])
    lead = asked_lead("What was Northwind's EPS (basic) in 2023?", sources, text)
    assert "0.72" in lead and "0.71" not in lead, lead
    assert "290" in asked_lead("What was Northwind's interest cost in 2023?", sources, text)


def test_capex_printed_with_other_intangible_assets(statement_pdf):
    sources, text = statement_pdf([CASH])
    assert "1,176" in asked_lead("What was Northwind's capex in 2023?", sources, text)


def test_cash_and_equivalents_asked_and_printed_without_the_second_cash(statement_pdf):
    balance = Page("CONSOLIDATED BALANCE SHEET", YEARS, [("Cash and equivalents", "$ 2,584", "$ 4,709"),
                                                          ("Accounts and notes receivable", "2,115", "1,872"),
                                                          ("Total current assets", "5,423", "7,148")],
                   span="December 31,", caption="(In millions)")
    sources, text = statement_pdf([balance])
    assert "4,709" in asked_lead("What were Northwind's cash & equivalents at December 31, 2022?", sources, text)
    assert "2,584" in asked_lead("What were Northwind's cash and equivalents at December 31, 2023?", sources, text)


def test_the_first_half_as_h1_is_a_span_no_word_a_row_prints(statement_pdf):
    sources, text = statement_pdf([INCOME])
    # "H1" is a span (six months: tests/agent/no_model/test_figures_span_words.py), no word a row must print
    question = "What were Northwind's H1 2023 operating revenues?"
    ask = make_ask(question, asked_period(question), sources)
    assert (ask.residue, ask.period.months) == (frozenset(), 6)
    # "H2" is no span the answer reads: no year's figure answers it
    block = asked_block("What were Northwind's H2 2023 net sales?", sources, text)
    assert not block or "14,694" not in "\n".join(block), block
