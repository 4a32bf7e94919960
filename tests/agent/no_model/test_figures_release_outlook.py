"""A release's outlook table answers a forecast asked, and only a forecast asked (issue 27, releases' guidance):
"What non-GAAP gross margin does the company expect for Q1 2023?" of a Q4 2022 release reads its outlook table,
"… expect for Q4 2022?" reads no results column as a forecast. The layouts are the two ways releases print an
outlook's period: at the left of the basis titles ("Q1 2023   GAAP   Non-GAAP*", marks glued to the figures), and
as a span that looks ahead ("Three Months Ending September 30, 2023" in the release of the quarter to June), its
ranges printed with a dash ("$0.59 - $0.64"), an end named ("the high end of …") being that end, a scale word printed
in the cell ("$10.5-11.5 billion", "$4.0 billion") the figure's. Generated PDFs read by layout."""

from __future__ import annotations

from tests.agent.no_model.pdf_statements import Page, asked_block, asked_lead, statement_pdf  # noqa: F401 (fixture)

# the outlook's quarter printed in the stub of the titles' line; non-GAAP figures marked "*"
STUB_QUARTER = Page("Business Outlook", ("GAAP", "Non-GAAP*"), [
    ("Gross margin percentage", "34.0%", "39.0%*"),
    ("Tax rate", "118%", "13%*"),
    ("Earnings (loss) per share - diluted", "$(0.80)", "$(0.15)*")],
    caption="", span="", stub="Q1 2023", first_column=400, gap=110)
# the quarter after the release's, a span "Ending" on its last day; ranges with a dash a space from each end
ENDING = Page("Business Outlook", ("GAAP", "Non-GAAP (a)"), [
    ("Net revenues", "$2.44 - $2.49", "$2.44 - $2.49"),
    ("Diluted EPS from continuing operations", "$0.59 - $0.64", "$1.00 - $1.05")],
    caption="(In billions, except per share amounts)", span="Three Months Ending September 30, 2023",
    first_column=400, gap=110)
# results of the release's own quarter
RESULTS = Page("CONSOLIDATED CONDENSED STATEMENTS OF INCOME", ("Dec 31, 2022", "Dec 25, 2021"), [
    ("Net revenue", "$ 14,042", "$ 20,528"),
    ("Gross margin", "5,501", "11,010")],
    caption="(In Millions; Unaudited)", heads=[[("Three Months Ended", 0, 1)]])


def test_an_outlook_quarter_printed_in_the_stub_heads_both_bases(statement_pdf):
    sources, text = statement_pdf([STUB_QUARTER], file="NORTHWIND_2022Q4_EARNINGS.pdf", fiscal=(2022, 4))
    lead = asked_lead("What non-GAAP gross margin does the company expect for the first quarter of 2023?", sources, text)
    assert lead.startswith("- Gross margin percentage (Q1 2023 Non-GAAP"), lead
    assert "39.0%" in lead, lead
    eps = asked_lead("What is the GAAP diluted EPS guidance for Q1 2023?", sources, text)
    assert "$(0.80) per share" in eps and "(Q1 2023 GAAP)" in eps, eps
    tax = asked_lead("What is the Q1 2023 non-GAAP tax rate outlook?", sources, text)
    assert tax.endswith("13% [^1]"), tax


def test_a_span_ending_after_the_release_is_its_next_quarter(statement_pdf):
    sources, text = statement_pdf([ENDING], file="NORTHWIND_2023Q2_EARNINGS.pdf", fiscal=(2023, 2))
    eps = asked_lead("What non-GAAP diluted EPS does the company expect for the third quarter of 2023?", sources, text)
    assert "$1.00 to $1.05 per share" in eps and "Non-GAAP" in eps, eps
    gaap = asked_lead("What is the Q3 2023 GAAP diluted EPS guidance?", sources, text)
    assert "$0.59 to $0.64 per share" in gaap, gaap
    revenue = asked_lead("What net revenues does the company guide for Q3 2023?", sources, text)
    assert "$2.44 to $2.49 billion" in revenue, revenue


def test_an_outlook_heading_over_prose_makes_its_table_a_forecast_whatever_the_filing_s_year(statement_pdf):
    # the release's own fiscal year unread (its cover states the quarter only): the heading says what the table is
    page = Page("Business Outlook", STUB_QUARTER.columns, STUB_QUARTER.rows, span="", stub="Q1 2023",
                caption="Northwind's guidance for the first quarter of 2023 includes both GAAP and non-GAAP estimates.",
                first_column=400, gap=110)
    sources, text = statement_pdf([page], file="NORTHWIND_Q4_EARNINGS.pdf", fiscal=(None, 4))
    lead = asked_lead("What GAAP gross margin does the company expect for Q1 2023?", sources, text)
    assert "34.0%" in lead, lead


def test_an_end_of_a_range_printed_in_one_cell_is_that_end(statement_pdf):
    sources, text = statement_pdf([ENDING], file="NORTHWIND_2023Q2_EARNINGS.pdf", fiscal=(2023, 2))
    high = asked_lead("What is the high end of the non-GAAP diluted EPS guidance for Q3 2023?", sources, text)
    assert high.endswith(": $1.05 per share [^1]"), high
    low = asked_lead("What is the low end of the company's Q3 2023 net revenues outlook?", sources, text)
    assert low.endswith(": $2.44 billion [^1]"), low


# a range and amounts printed with their scale word, under no caption
WORDED_SCALE = Page("Business Outlook", ("GAAP", "Non-GAAP"), [
    ("Revenue", "$10.5-11.5 billion", "$10.5-11.5 billion"),
    ("Gross margin percentage", "34.0%", "39.0%")],
    caption="", span="", stub="Q1 2023", first_column=400, gap=110)
HIGHLIGHTS = Page("Q4 2022 FINANCIAL HIGHLIGHTS", ("Q4 2022", "Q4 2021"), [
    ("Revenue", "$4.0 billion", "$3.9 billion"), ("Diluted earnings per share", "$1.04", "$0.95")],
    caption="", span="", first_column=400, gap=110)


def test_a_scale_word_printed_in_the_cell_is_said_with_its_figure(statement_pdf):
    sources, text = statement_pdf([WORDED_SCALE], file="NORTHWIND_2022Q4_EARNINGS.pdf", fiscal=(2022, 4))
    lead = asked_lead("What revenue does the company expect for Q1 2023?", sources, text)
    assert lead.endswith(": $10.5 to $11.5 billion [^1]"), lead
    high = asked_lead("What is the high end of the Q1 2023 revenue outlook?", sources, text)
    assert high.endswith(": $11.5 billion [^1]"), high
    sources, text = statement_pdf([HIGHLIGHTS], file="NORTHWIND_2022Q4_EARNINGS.pdf", fiscal=(2022, 4))
    assert asked_lead("What was revenue in Q4 2022?", sources, text).endswith(": $4.0 billion [^1]")
    assert "$1.04 per share" in asked_lead("What was diluted EPS in Q4 2022?", sources, text)


def test_results_are_never_said_as_a_forecast(statement_pdf):
    sources, text = statement_pdf([RESULTS], file="NORTHWIND_2022Q4_EARNINGS.pdf", fiscal=(2022, 4))
    assert "$14,042 million" in asked_lead("What was net revenue in Q4 2022?", sources, text)
    block = asked_block("What net revenue does the company expect for Q4 2022?", sources, text)
    assert not block or not any("14,042" in line for line in block), block


PENSION = Page("Pension Benefits", ("2022", "2021"), [
    ("Projected benefit obligation at end of year", "$ 5,210", "$ 6,874"),
    ("Actual return on plan assets", "(1,042)", "466"),
    ("Expected return on plan assets", "(318)", "(301)")],
    caption="(In millions)", span="Years Ended December 31,")


def test_a_line_item_named_expected_or_projected_is_no_forecast_asked(statement_pdf):
    sources, text = statement_pdf([PENSION], file="NORTHWIND_2022_10K.pdf", fiscal=(2022, None))
    expected = asked_lead("What was the expected return on plan assets in 2022?", sources, text)
    assert expected.startswith("- Expected return on plan assets (") and "(318)" in expected, expected
    projected = asked_lead("What was the projected benefit obligation at the end of 2022?", sources, text)
    assert "5,210" in projected, projected
