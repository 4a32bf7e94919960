"""Segment tables that print one block per measure, each segment a row under the measure's heading
("Revenues:" / "Earnings from operations:", "Sales including intersegment sales" / "Intersegment
sales" / "Adjusted EBIT"), and the rows around them (generated PDFs read by layout): a segment's
figure is its row under the asked measure's heading; intersegment sales are no segment's sales; a
"(loss)/earnings" label is the earnings row; a formula asked of a segment takes that segment's rows;
an outflow printed in parentheses is subtracted once."""

from __future__ import annotations

from agent.no_model.figures import INTRO_COMPUTED, is_figure_question
from tests.agent.no_model.pdf_statements import Page, statement_pdf, asked_block, asked_lead  # noqa: F401 (fixture)

YEARS = ("2022", "2021")
BY_MEASURE = Page("Note 18 – Segment Information", YEARS, [
    ("Revenues:",),
    ("Aircraft", "$ 65,069", "$ 66,048"),
    ("Space Systems", "29,498", "30,388"),
    ("Unallocated items, eliminations and other", "(294)", "(735)"),
    ("Total revenues", "$ 94,273", "$ 95,701"),
    ("(Loss)/earnings from operations:",),
    ("Aircraft", "$ 3,130", "$ 5,157"),
    ("Space Systems", "3,008", "3,274"),
    ("Segment operating profit", "6,138", "8,431"),
])
INTERSEGMENT = Page("Note 20 – Segments", YEARS, [
    ("Sales including intersegment sales",),
    ("Films", "$ 6,566.7", "$ 6,534.6"),
    ("Bottles", "2,892.7", "2,787.5"),
    ("Total sales including intersegment sales", "9,459.4", "9,322.1"),
    ("Intersegment sales",),
    ("Films", "1.2", "3.0"),
    ("Bottles", "—", "—"),
    ("Total intersegment sales", "1.2", "3.0"),
    ("Net sales", "$ 9,458.2", "$ 9,319.1"),
    ("Adjusted EBIT from continuing operations",),
    ("Films", "817.2", "801.3"),
    ("Bottles", "308.2", "298.3"),
])
INCOME = Page("CONSOLIDATED STATEMENTS OF OPERATIONS", YEARS, [
    ("Total revenues", "$ 58,158", "$ 76,559"),
    ("Total costs and expenses", "(63,843)", "(72,093)"),
    ("(Loss)/earnings from operations", "(12,767)", "(1,975)"),
    ("Net (loss)/earnings", "(11,941)", "(636)"),
    ("Less: net loss attributable to noncontrolling interest", "(68)", "—"),
    ("Net (loss)/earnings attributable to Northwind Shareholders", "$ (11,873)", "$ (636)"),
])
CASH = Page("CONSOLIDATED STATEMENTS OF CASH FLOWS", YEARS, [
    ("Net cash provided by operating activities", "776.1", "1,148.7"),
    ("Purchase of property, plant and equipment and other intangible assets", "(332.2)", "(384.1)"),
])




def test_a_segments_earnings_are_its_row_under_the_earnings_heading_not_its_revenue(statement_pdf):
    sources, text = statement_pdf([BY_MEASURE])
    assert asked_lead("What were the earnings from operations of Northwind's Aircraft segment in 2021?", sources, text) \
        .startswith("- Aircraft (Years Ended December 31, 2021): $5,157 million")
    assert asked_lead("What revenue did the Aircraft segment report in 2022?", sources, text) \
        .startswith("- Aircraft (Years Ended December 31, 2022): $65,069 million")


def test_intersegment_sales_are_no_segments_sales(statement_pdf):
    sources, text = statement_pdf([INTERSEGMENT])
    assert asked_lead("What were the sales of the Films segment in 2022?", sources, text) \
        .startswith("- Films (Years Ended December 31, 2022): $6,566.7 million")
    # asked for, the intersegment row answers
    assert "1.2" in asked_lead("What were the Films segment's intersegment sales in 2022?", sources, text)


def test_a_measure_named_with_any_verb_is_a_figure_question(statement_pdf):
    assert is_figure_question("What adjusted EBIT did the Bottles segment report in 2021?")
    sources, text = statement_pdf([INTERSEGMENT])
    assert asked_lead("What adjusted EBIT did the Bottles segment report in 2021?", sources, text) \
        .startswith("- Bottles (Years Ended December 31, 2021): $298.3 million")


def test_loss_slash_earnings_labels_are_the_earnings_rows(statement_pdf):
    sources, text = statement_pdf([INCOME])
    assert asked_lead("What was Northwind's loss from operations in 2022?", sources, text) \
        .startswith("- (Loss)/earnings from operations (Years Ended December 31, 2022): $(12,767) million")
    assert asked_lead("What net loss attributable to Northwind shareholders did the company report for 2022?", sources, text) \
        .startswith("- Net (loss)/earnings attributable to Northwind Shareholders (Years Ended December 31, 2022): $(11,873)")


def test_a_formula_asked_of_a_segment_takes_the_segments_rows(statement_pdf):
    sources, text = statement_pdf([INCOME, BY_MEASURE])
    block = asked_block("What was the operating margin of the Aircraft segment in 2022 (segment earnings from operations / "
                   "segment revenues)?", sources, text)
    assert block and block[0] == INTRO_COMPUTED, block
    assert "3,130 / " in block[1] and "65,069 = 4.8% (computed)" in block[1], block[1]


def test_an_outflow_printed_in_parentheses_is_subtracted_once(statement_pdf):
    sources, text = statement_pdf([CASH, INCOME])
    block = asked_block("Free cash flow is net cash provided by operating activities minus purchases of property, plant and "
                   "equipment and other intangible assets. What was free cash flow in 2022?", sources, text)
    assert block and block[0] == INTRO_COMPUTED, block
    assert "776.1 − purchase of property, plant and equipment and other intangible assets 332.2 = 443.9" in block[1], block[1]
    block = asked_block("What was the gross margin in 2022, computed as (total revenues minus total costs and expenses) "
                   "divided by total revenues?", sources, text)
    assert block and "= -9.8% (computed)" in block[1], block


BY_PRODUCT = Page("Note 20 – Net sales by product", YEARS, [
    ("Films and other flexible products   Films", "$ 5,347.5", "$ 5,286.6"),
    ("Specialty folding cartons   Films", "1,218.0", "1,245.0"),
    ("Containers and closures   Bottles", "2,892.7", "2,787.5"),
])


def test_a_product_line_listed_with_its_segment_is_not_the_segment(statement_pdf):
    sources, text = statement_pdf([BY_PRODUCT])
    block = asked_block("What were the sales of the Films segment in 2022?", sources, text)
    assert not block or "5,347.5" not in block[1] and "1,218.0" not in block[1], block
    sources, text = statement_pdf([BY_PRODUCT, INTERSEGMENT])
    assert "6,566.7" in asked_lead("What were the sales of the Films segment in 2022?", sources, text)
