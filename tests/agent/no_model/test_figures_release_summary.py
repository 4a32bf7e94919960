"""An earnings release's summary table, as releases print it: a unit in the row's own label ("Revenue ($B)"), margins
in percent beside a change in points ("45.7%  39.2%  6.5 pts"), and "Earnings per share" with no basis under GAAP and
non-GAAP headings. The label's unit is the row's scale and no word of its item; a row of percentages is the margin
whatever its change column prints; a bare EPS row is the diluted figure unless its table prints a basic one, and
never answers a basic EPS asked. Generated PDFs read by layout."""

from __future__ import annotations

from tests.agent.no_model.pdf_statements import Page, asked_block, statement_pdf  # noqa: F401 (fixture)

FILE = "NORTHWIND_2023Q4_EARNINGS.pdf"
SUMMARY = Page("FOURTH-QUARTER AND FULL-YEAR 2023 RESULTS", ("Q4 2023", "Q4 2022", "Change", "FY 2023", "FY 2022"), [
    ("GAAP",), ("Revenue ($B)", "$ 15.4", "$ 14.0", "10%", "$ 54.2", "$ 63.1"),
    ("Gross margin", "45.7%", "39.2%", "6.5 pts", "40.0%", "42.6%"),
    ("Diluted earnings (loss) per share", "$ 0.63", "$ (0.16)", "n/m", "$ 0.40", "$ 1.94"),
    ("Non-GAAP",), ("Gross margin", "47.2%", "43.8%", "3.4 pts", "43.6%", "47.3%"),
    ("Earnings per share", "$ 0.54", "$ 0.10", "440%", "$ 1.05", "$ 1.84")],
    caption="", span="", first_column=250, gap=62)
# the same summary with basic EPS printed too: a row printing no basis may be either
WITH_BASIC = Page("SUMMARY", ("Q4 2023", "Q4 2022"), [
    ("Basic earnings per share", "$ 0.66", "$ (0.16)"), ("Earnings per share", "$ 0.63", "$ (0.16)")],
    caption="", span="", first_column=380, gap=80)


def lead(question: str, pages: list[Page], statement_pdf) -> str | None:
    sources, text = statement_pdf(pages, file=FILE, fiscal=(2023, 4))
    block = asked_block(question, sources, text)
    return block[1] if block and len(block) > 1 else None


def test_a_unit_in_the_label_is_the_rows_scale(statement_pdf):
    assert "$15.4 billion" in (lead("What was revenue in Q4 2023?", [SUMMARY], statement_pdf) or "")
    assert "$54.2 billion" in (lead("What was Northwind's full-year 2023 revenue?", [SUMMARY], statement_pdf) or "")


def test_a_row_of_percentages_is_the_margin_beside_a_change_in_points(statement_pdf):
    line = lead("What was the non-GAAP gross margin in Q4 2022?", [SUMMARY], statement_pdf) or ""
    assert "43.8%" in line and "computed" not in line, line
    line = lead("What was GAAP gross margin for FY 2023?", [SUMMARY], statement_pdf) or ""
    assert "40.0%" in line and "computed" not in line, line


def test_earnings_per_share_printed_with_no_basis_is_the_diluted_figure(statement_pdf):
    assert "$0.54 per share" in (lead("What was non-GAAP EPS in Q4 2023?", [SUMMARY], statement_pdf) or "")
    assert "$1.05 per share" in (lead("What was adjusted EPS for fiscal 2023?", [SUMMARY], statement_pdf) or "")
    assert "$0.63 per share" in (lead("What was diluted EPS in Q4 2023?", [SUMMARY], statement_pdf) or "")
    assert lead("What was basic EPS in Q4 2023?", [SUMMARY], statement_pdf) is None  # no basic row: no figure


def test_beside_a_basic_row_a_row_with_no_basis_answers_no_diluted_eps(statement_pdf):
    line = lead("What was diluted EPS in Q4 2023?", [WITH_BASIC], statement_pdf)
    assert line is None or "0.63" not in line, line


# an MD&A's consolidated margins before a segment's page printing its own margin, both beside changes in basis points
CONSOLIDATED = Page("CONSOLIDATED RESULTS", ("2023", "2022", "Change"), [
    ("Operating margin:",), ("Consolidated operating margin", "5.4%", "6.7%", "(130) bp")],
    caption="", span="", first_column=380, gap=70)
SEGMENT = Page("FREIGHT SEGMENT", ("2023", "2022", "Change"), [
    ("Revenue", "$ 9,200", "$ 9,900", "(7)"), ("Operating margin", "20.0%", "17.4%", "260 bp")],
    caption="(Dollars in millions)", span="", first_column=380, gap=70)


def test_the_consolidated_margin_answers_before_a_segments(statement_pdf):
    for question in ("What was the consolidated operating margin in 2023?", "What was operating margin in 2023?"):
        line = lead(question, [CONSOLIDATED, SEGMENT], statement_pdf) or ""
        assert "5.4%" in line and "20.0%" not in line, (question, line)
