"""A release summary's rows as facts (the answer path reads rows the same way, agent/no_model/cited_rows.py): the
unit a row's label prints ("Revenue ($B)") is its scale, and its label still names its line item; a row of margins
beside a change in points is in percent; "Earnings per share" printed with no basis is diluted EPS unless its table
prints a basic row. A note's mark "(b)" is no unit."""

from __future__ import annotations

from tests.storage.documents.layout_pages import Statement, fact, facts_of

SUMMARY = Statement(["Fourth-Quarter Results"], [["Q4 2023", "Q4 2022", "Change"]],
                    [("GAAP",), ("Revenue ($B)", "$15.4", "$14.0", "10%"),
                     ("Gross margin", "45.7%", "39.2%", "6.5 pts"),
                     ("Non-GAAP",), ("Earnings per share", "$0.54", "$0.10", "440%"), ("Other (b)", "12", "10", "20%")],
                    header_left={0: "(In millions)"})
WITH_BASIC = Statement(["Summary"], [["Q4 2023", "Q4 2022"]],
                       [("Basic earnings per share", "$0.66", "$0.12"), ("Earnings per share", "$0.63", "$0.10")])


def test_a_unit_in_the_label_is_the_rows_scale_and_the_label_its_item():
    facts = facts_of(SUMMARY)
    revenue = fact(facts, "Revenue ($B)", 0)
    assert (revenue.value, revenue.scale, revenue.concept) == (15.4, 1e9, "Revenues")
    assert fact(facts, "Other (b)", 0).scale == 1e6  # a note's mark: the table's caption holds


def test_margins_beside_a_change_in_points_are_percent():
    margin = fact(facts_of(SUMMARY), "Gross margin", 1)
    assert (margin.value, margin.unit, margin.concept) == (39.2, "%", "GrossMargin")


def test_earnings_per_share_with_no_basis_is_diluted_unless_a_basic_row_is_beside_it():
    assert fact(facts_of(SUMMARY), "Earnings per share", 0).concept == "EarningsPerShareDiluted"
    assert fact(facts_of(WITH_BASIC), "Earnings per share", 0).concept is None
