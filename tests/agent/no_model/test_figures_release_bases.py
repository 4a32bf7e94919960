"""Release tables whose basis or change is printed over or in the columns, as earnings releases print them:

- a summary whose change column says the change in words ("down 32%", "up 13%", "down 14.4 ppts", "flat"): every row
  is read, the change is a signed figure;
- "GAAP" centred over three columns and "Non-GAAP" over the next three (each a quarter, its year-ago quarter and
  the change): the basis asked picks the columns, a question naming none takes GAAP's;
- rows labelled only "GAAP" and "Non-GAAP" under "Net Income" and "Earnings per share - diluted", each head over its
  years and change: one row per measure and basis;
- a margin's row named by its numerator over sales ("Adjusted EBIT / sales %", "Gross profit / net sales %") is that
  margin; "EBIT margin" asked is the operating margin and "EBITDA margin" its own, never an amount;
- an outlook's period head printed with its word ("Q1 2023 Outlook", "Full Year 2023 Guidance") over GAAP and
  Non-GAAP columns: the period of both.

Generated PDFs read by layout."""

from __future__ import annotations

from storage.finance.numbers import parse_number
from tests.agent.no_model.pdf_statements import Page, asked_block, statement_pdf  # noqa: F401 (fixture)

QUARTERS = ("Q4 2022", "Q4 2021", "vs. Q4 2021")
SUMMARY = Page("Q4 2022 FINANCIAL RESULTS", QUARTERS * 2, [
    ("Revenue ($B)", "$14.0", "$20.5", "down 32%", "$14.0", "$20.5", "down 28%"),
    ("Gross Margin", "39.2%", "53.6%", "down 14.4 ppts", "43.8%", "55.4%", "down 11.6 ppts"),
    ("Operating Income ($B)", "$5.7", "$5.0", "up 13%", "$5.6", "$4.6", "up 22%"),
    ("Effective Tax Rate", "(3.9)%", "13.6%", "flat", "3.2%", "14.9%", "down 11.7 ppts"),
    ("Earnings Per Share", "$(0.16)", "$1.09", "down 115%", "$0.10", "$1.09", "down 91%")],
    caption="", heads=[[("GAAP", 0, 2), ("Non-GAAP", 3, 5)]], first_column=180, gap=72)
# its GAAP half alone, no head over the columns
NO_HEADS = Page(SUMMARY.title, QUARTERS, [r[:4] for r in SUMMARY.rows], caption="", span="", first_column=300,
                gap=90)
RECONCILIATION = Page("RECONCILIATION OF NET INCOME AND DILUTED EPS", ("2023", "2022", "Inc/ (Dec)") * 2, [
    ("GAAP", "$ 2,310.4", "$ 1,188.0", "94 %", "$ 3.15", "$ 1.60", "97 %"),
    ("Restructuring charges", "(8.5)", "(11.5)", "", "(0.01)", "(0.02)", ""),
    ("Non-GAAP", "$ 2,149.3", "$ 2,035.4", "6 %", "$ 2.94", "$ 2.76", "7 %")],
    caption="Dollars in millions, except per share data",
    heads=[[("Quarters Ended June 30,", 0, 5)], [("Net Income", 0, 2), ("Earnings per share - diluted", 3, 5)]],
    first_column=250, gap=58)

OUTLOOK = Page("Business Outlook", ("GAAP", "Non-GAAP"), [
    ("Gross margin percentage", "34.0%", "39.0%"), ("Diluted earnings (loss) per share", "$(0.80)", "$(0.15)")],
    caption="", span="Q1 2023 Outlook", first_column=360, gap=110)


def lead(question: str, page: Page, statement_pdf, fiscal=(2022, 4)) -> str:
    sources, text = statement_pdf([page], file=f"NORTHWIND_{fiscal[0]}Q{fiscal[1]}_EARNINGS.pdf", fiscal=fiscal)
    block = asked_block(question, sources, text)
    return block[1] if block and len(block) > 1 else ""


def test_a_change_in_words_is_a_signed_figure():
    assert parse_number("down 32%") == -32.0 and parse_number("up 13%") == 13.0
    assert parse_number("down 14.4ppts") == -14.4 and parse_number("flat") is None


def test_rows_printing_their_change_in_words_are_read(statement_pdf):
    for page in (SUMMARY, NO_HEADS):
        line = lead("What was GAAP earnings per share in the fourth quarter of 2022?", page, statement_pdf)
        assert "$(0.16) per share" in line, line
        assert "$5.7 billion" in lead("What was operating income in Q4 2022?", page, statement_pdf)
        assert "(3.9)%" in lead("What was the effective tax rate in Q4 2022?", page, statement_pdf)
    line = lead("By what percentage did revenue change in Q4 2022?", SUMMARY, statement_pdf)
    assert "down 32%" in line and "computed" not in line, line


def test_the_basis_asked_picks_its_heads_columns(statement_pdf):
    line = lead("What was non-GAAP gross margin in Q4 2022?", SUMMARY, statement_pdf)
    assert "43.8%" in line and "Non-GAAP" in line, line
    assert "39.2%" in lead("What was the gross margin in Q4 2022?", SUMMARY, statement_pdf)
    assert "$0.10 per share" in lead("What was adjusted EPS in Q4 2022?", SUMMARY, statement_pdf)
    assert "$(0.16) per share" in lead("What was earnings per share in Q4 2022?", SUMMARY, statement_pdf)


def test_basis_rows_under_measure_heads_are_one_row_per_measure(statement_pdf):
    ask = lambda q: lead(q, RECONCILIATION, statement_pdf, fiscal=(2023, 2))  # noqa: E731
    assert "$2.94 per share" in ask("What was non-GAAP diluted EPS in Q2 2023?")
    assert "$3.15 per share" in ask("What was GAAP diluted EPS in the second quarter of 2023?")
    assert "$2,149.3 million" in ask("What was non-GAAP net income in the quarter ended June 30, 2023?")
    assert "$2,310.4 million" in ask("What was net income in Q2 2023?")
    line = ask("By what percentage did non-GAAP diluted EPS grow in Q2 2023?")
    assert "7%" in line and "94%" not in line, line


def test_an_outlooks_head_is_its_columns_period(statement_pdf):
    line = lead("What is the non-GAAP gross margin outlook for Q1 2023?", OUTLOOK, statement_pdf)
    assert "39.0%" in line and "Q1" in line, line
    assert "$(0.80) per share" in lead("What is the GAAP diluted EPS outlook for the first quarter of 2023?",
                                       OUTLOOK, statement_pdf)
    guidance = Page("Business Outlook", ("GAAP", "Non-GAAP"), OUTLOOK.rows, caption="", span="Full Year 2023 Guidance",
                    first_column=360, gap=110)
    assert "34.0%" in lead("What is the GAAP gross margin guidance for full year 2023?", guidance, statement_pdf)


MARGINS = Page("Reconciliation of adjusted EBIT", ("2023", "2022"), [
    ("Net sales", "3,670", "3,849"), ("Adjusted EBIT", "436", "505"), ("Adjusted EBIT / sales %", "11.9 %", "13.1 %"),
    ("Gross profit", "752", "790"), ("Gross profit / net sales %", "20.5 %", "20.5 %"),
    ("Adjusted EBITDA", "636", "705"), ("Adjusted EBITDA margin", "17.3 %", "18.3 %")],
    caption="($ million)", span="Three Months Ended June 30,")


def test_a_margin_row_named_over_sales_answers_the_margin(statement_pdf):
    ask = lambda q: lead(q, MARGINS, statement_pdf, fiscal=(2023, 4))  # noqa: E731
    line = ask("What was the adjusted EBIT margin in the three months ended June 30, 2023?")
    assert "11.9%" in line and "436" not in line, line
    line = ask("What was the adjusted EBIT margin in the three months ended June 30, 2022?")
    assert "13.1%" in line and "505" not in line, line
    # the GAAP margin asked: the adjusted row is not it
    assert "13.1%" not in ask("What was the EBIT margin in the three months ended June 30, 2022?")
    assert "20.5%" in ask("What was the gross margin for the three months ended June 30, 2023?")
    line = ask("What was adjusted EBIT / sales in the three months ended June 30, 2023?")
    assert "11.9%" in line and "436" not in line, line
    line = ask("What was the adjusted EBITDA margin in the three months ended June 30, 2022?")
    assert "18.3%" in line and "705" not in line, line
