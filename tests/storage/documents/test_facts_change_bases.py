"""Change columns on two bases beside the periods ("Inc/(Dec) | Constant currency", "Reported ∆% | Constant
currency ∆%", "% Change | Excluding currency translation"), issue 27: a delta sign and a basis printed alone are
change titles; titles printed close together on one header line head one column each, never both; neither
is dated nor read as a period's amount."""

from __future__ import annotations

import pytest

from storage.finance.columns import is_change_title, names_change
from tests.storage.documents.layout_pages import Statement, facts_of

ROWS = [("Net sales", "$ 9,120", "$ 8,410", "8%", "10%"), ("Gross profit", "3,010", "2,650", "14%", "15%")]


@pytest.mark.parametrize("text", ["Reported ∆%", "Constant currency ∆%", "∆%", "% Δ", "Constant currency",
                                  "Excluding currency translation", "% Change in constant currency"])
def test_delta_and_basis_titles_are_change_titles(text):
    assert is_change_title(text)


@pytest.mark.parametrize("text", ["Reported", "As reported", "Adjusted", "Currency", "Constant", "2023"])
def test_an_amount_columns_title_is_no_change_title(text):
    assert not names_change(text)


@pytest.mark.parametrize("titles", [("Inc/(Dec)", "Constant currency"), ("% Change", "Constant currency"),
                                    ("$ Change", "% Change")])
def test_two_change_titles_on_one_line_head_one_column_each(titles):
    st = Statement(["SELECTED RESULTS", "(Dollars in millions)"], ["Years Ended December 31,",
                                                                   ["2023", "2022", *titles]], ROWS, align="right")
    facts = [f for f in facts_of(st) if f.label == "Gross profit"]
    by_column = {f.column: f for f in facts}
    assert (by_column[0].value, by_column[0].fiscal_year) == (3010, 2023)
    assert (by_column[1].value, by_column[1].fiscal_year) == (2650, 2022)
    assert by_column[2].period == titles[0] and by_column[3].period == titles[1], [f.period for f in facts]
    assert by_column[2].fiscal_year is None and by_column[3].fiscal_year is None
