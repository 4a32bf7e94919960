"""A figure leads only when its qualifiers are the asked ones, on generated statement PDFs read by
layout: "attributable to <company>" is not the noncontrolling interests' row, "net debt" is not
total debt, a label saying "less current portion" is non-current whatever section it stands under,
and each figure is said once with its currency and scale."""

from __future__ import annotations

from agent.no_model.figures import figure_block, no_row_line
from storage.documents.embeddings import get_embedder
from tests.agent.no_model.pdf_statements import Page, statement_pdf, asked_lead  # noqa: F401 (fixture)

YEARS = ("2020", "2019")
INCOME = Page("CONSOLIDATED STATEMENTS OF EARNINGS", YEARS, [
    ("Net sales", "$ 17,626.6", "$ 16,865.2"),
    ("Net earnings, including earnings attributable to redeemable and noncontrolling interests", "2,210.8", "1,786.2"),
    ("Net earnings attributable to redeemable and noncontrolling interests", "29.6", "33.5"),
    ("Net earnings attributable to Northwind", "$ 2,181.2", "$ 1,752.7"),
])
BALANCE = Page("CONSOLIDATED BALANCE SHEETS", ("May 31, 2023", "May 31, 2022"), [
    ("CURRENT LIABILITIES", ),
    ("Current portion of long-term debt", "126", "19"),
    ("Accounts payable", "3,848", "4,030"),
    ("Total current liabilities", "13,559", "14,097"),
    ("LONG-TERM DEBT, LESS CURRENT PORTION", "20,453", "20,182"),
    ("Total debt", "20,579", "20,201"),
    ("Net debt", "13,723", "13,304"),
], span="")



def test_attributable_to_the_company_is_not_the_noncontrolling_row(statement_pdf):
    sources, text = statement_pdf([INCOME])
    lead = asked_lead("What were net earnings attributable to Northwind in fiscal 2020?", sources, text)
    assert lead == "- Net earnings attributable to Northwind (Years Ended December 31, 2020): $2,181.2 million [^1]"
    lead = asked_lead("What were net earnings attributable to noncontrolling interests in 2020?", sources, text)
    assert lead.startswith("- Net earnings attributable to redeemable and noncontrolling interests (Years Ended "
                           "December 31, 2020): $29.6 million")


def test_net_debt_is_the_printed_net_debt_row_not_total_debt(statement_pdf):
    sources, text = statement_pdf([BALANCE])
    assert asked_lead("What was net debt as of May 31, 2023?", sources, text).startswith("- Net debt (May 31, 2023): 13,723")
    assert asked_lead("What was total debt as of May 31, 2023?", sources, text).startswith("- Total debt (May 31, 2023): 20,579")


def test_a_label_saying_less_current_portion_is_not_current_under_current_liabilities(statement_pdf):
    sources, text = statement_pdf([BALANCE])
    lead = asked_lead("What was long-term debt, excluding the current portion, as of May 31, 2023?", sources, text)
    assert lead.startswith("- LONG-TERM DEBT, LESS CURRENT PORTION (May 31, 2023): 20,453 million")
    lead = asked_lead("What was the current portion of long-term debt as of May 31, 2023?", sources, text)
    assert lead.startswith("- Current portion of long-term debt (May 31, 2023): 126 million")


def test_net_debt_not_printed_is_no_figure_not_total_debt(statement_pdf):
    sources, text = statement_pdf([Page(BALANCE.title, BALANCE.columns, BALANCE.rows[:-1], span="")])
    assert figure_block("What was net debt as of May 31, 2023?", sources, text, get_embedder()) is None
    assert "prints Net debt for 2023, so no figure is stated" in no_row_line("What was net debt as of May 31, 2023?")


def test_the_labels_own_words_beat_the_section_it_stands_under():
    from storage.finance.line_items import row_item

    assert row_item("Long-term debt, less current portion", "Current liabilities").concept == "LongTermDebtNoncurrent"
    assert row_item("Long-term debt", "Current liabilities").concept == "LongTermDebtCurrent"


QUARTERLY = Page("CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS (Unaudited)", ("2023", "2022"), [
    ("Total revenues", "$ 2,540", "$ 2,380"),
    ("Net income", "312", "298"),
], span="Three Months Ended June 30,")


def test_a_quarter_the_filing_does_not_cover_gets_no_figure(statement_pdf):
    sources, text = statement_pdf([QUARTERLY], fiscal=(2023, 2))  # a 10-Q of the second quarter
    assert asked_lead("What were total revenues in Q2 2023?", sources, text).startswith(
        "- Total revenues (Three Months Ended June 30, 2023): $2,540 million")
    assert figure_block("What were total revenues in Q3 2023?", sources, text, get_embedder()) is None
    # the filing's quarter unknown: its one quarter's column is not whatever quarter is asked
    sources, text = statement_pdf([QUARTERLY])
    assert figure_block("What were total revenues in Q3 2023?", sources, text, get_embedder()) is None
    assert figure_block("What was net income in the first quarter of 2022?", sources, text, get_embedder()) is None


def test_a_quarter_ended_asked_is_never_the_years_column(statement_pdf):
    sources, text = statement_pdf([Page("CONSOLIDATED STATEMENTS OF OPERATIONS", ("Year Ended May 31, 2019",), [
        ("Net income", "11,083"), ("Diluted earnings per share", "$ 2.97")], span="")])
    assert figure_block("What was diluted EPS for the quarter ended February 28, 2019?", sources, text,
                        get_embedder()) is None
    assert asked_lead("What was diluted EPS in fiscal 2019?", sources, text).endswith("$2.97 per share [^1]")


def test_the_vocabulary_reads_company_names_non_current_notes_and_payments_for_ppe():
    from storage.finance.line_items import asked_items, row_item

    assert row_item("Net income attributable to Boston Properties, Inc. common shareholders").concept == "NetIncomeLoss"
    assert row_item("Notes payable, non-current").concept == "LongTermDebtNoncurrent"
    assert row_item("Notes payable, current") is None
    assert [a.item.concept for a in asked_items("long-term (non-current) notes payable")] == ["LongTermDebtNoncurrent"]
    assert [a.item.concept for a in asked_items("payments for property, plant and equipment")] == [
        "PaymentsToAcquirePropertyPlantAndEquipment"]
    assert [a.item.concept for a in asked_items("How much cash did Oracle's operations generate in 2016?")] == [
        "NetCashProvidedByUsedInOperatingActivities"]
    assert [a.item.concept for a in asked_items("purchases of property, plant and equipment")] == [
        "PaymentsToAcquirePropertyPlantAndEquipment"]


EQUITY = Page("CONSOLIDATED BALANCE SHEETS", ("May 31, 2020", "May 31, 2019"), [
    ("Total assets", "$ 115,438", "$ 108,709"),
    ("Oracle Corporation stockholders' equity:",),
    ("Accumulated deficit", "(12,696)", "(3,496)"),
    ("Total Oracle Corporation stockholders' equity", "12,074", "21,785"),
    ("Noncontrolling interests", "643", "578"),
    ("Total equity", "12,717", "22,363"),
], span="")


def test_the_companys_stockholders_equity_and_a_total_asked_in_plain_words(statement_pdf):
    sources, text = statement_pdf([EQUITY], file="ORACLE_2020_10K.pdf")
    lead = asked_lead("What was the equity attributable to Oracle Corporation's stockholders at May 31, 2020?", sources, text)
    assert lead.startswith("- Total Oracle Corporation stockholders' equity (May 31, 2020): $12,074 million")
    lead = asked_lead("How large was Oracle's balance sheet (total assets) at May 31, 2020?", sources, text)
    assert lead.startswith("- Total assets (May 31, 2020): $115,438 million")


PER_SHARE_SECTIONS = Page("CONSOLIDATED STATEMENTS OF OPERATIONS", ("2015", "2014"), [
    ("Net income attributable to Boston Properties, Inc. common shareholders", "$ 572,606", "$ 433,111"),
    ("Basic earnings per common share attributable to Boston Properties, Inc. common shareholders:",),
    ("Net income", "$ 3.73", "$ 2.83"),
    ("Diluted earnings per common share attributable to Boston Properties, Inc. common shareholders:",),
    ("Net income", "$ 3.72", "$ 2.83"),
], caption="(in thousands, except for per share amounts)")


def test_net_income_under_a_per_share_heading_is_that_per_share_figure(statement_pdf):
    sources, text = statement_pdf([PER_SHARE_SECTIONS], file="BOSTONPROPERTIES_2015_10K.pdf",
                                  issuer="Boston Properties, Inc.")
    assert asked_lead("What were Boston Properties' diluted earnings per share in 2015?", sources, text) == (
        "- Net income (Years Ended December 31, 2015): $3.72 per share [^1]")
    assert asked_lead("What was basic EPS in 2015?", sources, text).endswith("$3.73 per share [^1]")
    assert asked_lead("What was net income attributable to Boston Properties, Inc. common shareholders in 2015?",
                 sources, text).endswith("$572,606 thousand [^1]")
