"""Releases head their columns with a quarter and a two-digit year ("Q4'22", "4Q22", "Q4 FY23", "Q4-22") or a quarter
and a year on one line ("Fourth Quarter 2022"), often beside a full year's ("FY22"): the answer path reads the same
periods as the facts (storage/finance/periods.py printed_years, column_months), so a quarter asked gets the quarter's
column and a year asked the year's, never the other. Generated release pages read by layout."""

from __future__ import annotations

import pytest

from agent.no_model.figure_periods import asked_period, pick_cells
from storage.documents.tables import Cell, TableHeader
from tests.agent.no_model.pdf_statements import Page, asked_lead, statement_pdf  # noqa: F401 (fixture)
from tests.storage.documents.layout_pages import Statement, facts_of

HEADS = [("Q4'22", "Q4'21", "FY'22"), ("4Q22", "4Q21", "FY22"), ("Q4-22", "Q4-21", "FY 2022"), ("Q4 2022", "Q4 2021", "FY 2022")]


def _cells(heads: tuple[str, ...], values: tuple[str, ...]) -> list[Cell]:
    header = TableHeader(" ".join(heads), heads)
    return [Cell("Revenue", p, v, "Revenue", header, i) for i, (p, v) in enumerate(zip(heads, values))]


@pytest.mark.parametrize("heads", HEADS)
def test_a_quarter_and_a_year_asked_of_short_labels(heads):
    cells = _cells(heads, ("14,042", "19,528", "63,054"))
    picked = {q: [c.value for c in pick_cells(cells, asked_period(q))] for q in (
        "What was revenue in the fourth quarter of 2022?", "What was Q4 2021 revenue?", "What was revenue in 2022?",
        "What was revenue in the third quarter of 2022?")}
    assert list(picked.values()) == [["14,042"], ["19,528"], ["63,054"], []], picked


@pytest.mark.parametrize("heads", [("Fourth Quarter 2022", "Fourth Quarter 2021", "Third Quarter 2022"),
                                   ("4th Quarter 2022", "4th Quarter 2021", "3rd Quarter 2022")])
def test_a_quarter_named_with_its_year_on_one_line_stays_a_quarter_in_the_facts(heads):
    rows = [("Revenue", "$ 14,042", "$ 19,528", "$ 15,338"), ("Net income", "(664)", "4,623", "1,019")]
    facts = facts_of(Statement(["ACME CORPORATION", "(In millions)"], [list(heads)], rows))
    got = [(f.period, f.fiscal_year, f.duration_months) for f in facts if f.label == "Revenue"]
    assert got == [(heads[0], 2022, 3), (heads[1], 2021, 3), (heads[2], 2022, 3)]


RELEASE = Page("Summary of results", ("Q4'22", "Q4'21", "FY'22"), [
    ("Revenue", "$ 14,042", "$ 19,528", "$ 63,054"), ("Gross margin", "5,916", "10,970", "26,866"),
    ("Net income", "(664)", "4,623", "8,014")], caption="(In millions)", span="")


def test_a_release_table_headed_by_short_quarter_labels(statement_pdf):
    sources, text = statement_pdf([RELEASE], file="NORTHWIND_2022Q4_EARNINGS.pdf", issuer="Northwind Corporation")
    quarter = asked_lead("What was Northwind's revenue in the fourth quarter of 2022?", sources, text)
    assert "$14,042" in quarter and "$63,054" not in quarter, quarter
    assert "(Q4'22, 2022)" in quarter, quarter  # the year said in full beside the head as printed
    year = asked_lead("What was Northwind's net income in 2022?", sources, text)
    assert "$8,014" in year and "664" not in year, year
