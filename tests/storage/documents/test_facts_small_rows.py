"""Rows printing only two-place values under a scale caption are no amounts in millions (issue 27, item 1):
the per-share adjustments of a non-GAAP reconciliation between its whole-number rows, and a table of dividends
per quarter that takes its scale from a caption printed elsewhere on the page. Their facts keep the value as
printed (scale 1); the whole-number rows keep the caption's scale, and a table whose own caption scales
two-place amounts ("In billions") keeps it."""

from __future__ import annotations

from tests.storage.documents.layout_pages import Statement, facts_of, fact

YEARS = [["Three Months Ended April 30,"], ["2024", "2023"]]


def test_per_share_adjustments_between_whole_number_rows_are_not_millions():
    recon = Statement(["Reconciliation of GAAP to Non-GAAP Results", "(in millions)"], YEARS,
                      [("GAAP income from operations", "1,532", "1,021"),
                       ("Plus:",),
                       ("Amortization of purchased intangibles", "0.48", "0.51"),
                       ("Stock-based expense", "0.87", "0.82"),
                       ("Non-GAAP income from operations", "3,085", "2,584"),
                       ("Stock-based compensation", "702", "711")])
    facts = facts_of(recon)
    assert fact(facts, "GAAP income from operations", 0).scale == 1e6
    assert fact(facts, "Non-GAAP income from operations", 1).scale == 1e6
    for label in ("Amortization of purchased intangibles", "Stock-based expense"):
        for column in (0, 1):
            f = fact(facts, label, column)
            assert f.scale == 1.0, (label, column, f.unit)


def test_a_table_of_two_place_values_keeps_its_own_billions_caption():
    billions = Statement(["Revenue by segment", "(In billions)"], YEARS,
                         [("Cloud", "12.34", "10.91"), ("Devices", "4.56", "4.87"), ("Total revenue", "16.90", "15.78")])
    facts = facts_of(billions)
    assert fact(facts, "Cloud", 0).scale == 1e9
    assert fact(facts, "Total revenue", 1).scale == 1e9


def test_a_lone_two_place_row_of_a_millions_table_keeps_the_scale():
    """One whole-number row is not enough to tell a price row from an amount row: the scale stays."""
    table = Statement(["Other data", "(in millions)"], YEARS,
                      [("Interest expense", "12.25", "11.75"), ("Operating income", "1,532", "1,021")])
    facts = facts_of(table)
    assert fact(facts, "Interest expense", 0).scale == 1e6
