"""Scale captions read by storage/finance/scale.py in the forms filings print them."""

from __future__ import annotations

import pytest

from storage.finance.scale import factor, find_caption, read_scale, scale_word, unit_of


@pytest.mark.parametrize("caption, word, currency", [
    ("(Millions)", "million", ""),
    ("(In millions)", "million", ""),
    ("($ in millions)", "million", "$"),
    ("(Dollars in thousands)", "thousand", "$"),
    ("in millions of dollars", "million", "$"),
    ("(In Millions, Except Per Share Data)", "million", ""),
    ("(in $ billions)", "billion", "$"),
    ("Amounts in thousands", "thousand", ""),
    ("(€ in millions)", "million", "€"),
    ("$M", "million", "$"),
    ("(000s)", "thousand", ""),
    ("CONSOLIDATED STATEMENTS OF INCOME (Millions)", "million", ""),
])
def test_each_printed_form_names_its_scale(caption, word, currency):
    scale = read_scale(caption)
    assert scale is not None and scale.word == word and scale.currency == currency
    assert scale_word(caption) == word


def test_a_share_count_caption_scales_shares_not_amounts():
    shares = read_scale("(shares in millions)")
    assert shares.word == "" and shares.factor == 1.0 and shares.share_factor == 1e6
    mixed = read_scale("(In millions, except shares in thousands and per share amounts)")
    assert (mixed.factor, mixed.share_factor) == (1e6, 1e3)


@pytest.mark.parametrize("text", ["3M Company", "Net sales $ 34,229 $ 31,102", "Years ended December 31, 2022",
                                  "Millions of customers visited our stores in 2022."])
def test_no_caption_no_scale(text):
    assert read_scale(text) is None and find_caption(text) is None and scale_word(text) == ""


def test_per_share_and_percent_values_are_never_scaled():
    scale = read_scale("(In millions, except per share data)")
    assert factor(unit_of("Diluted earnings per share", "$2.31", scale.text), scale) == 1.0
    assert factor(unit_of("Gross margin", "43.3%", scale.text), scale) == 1.0
    assert factor(unit_of("Net sales", "34,229", scale.text), scale) == 1e6
    assert unit_of("Weighted-average shares outstanding - diluted", "1,204", scale.text) == "shares"
    assert unit_of("Net sales", "34,229", "(€ in millions)") == "EUR"


def test_rows_under_a_wrapped_per_share_section_are_per_share():
    assert unit_of("Net income", "$3.72", "in thousands, except per share", "Diluted earnings per common") == "USD/share"
    assert unit_of("Net income", "572,606", "in thousands, except per share", "Diluted earnings per common") == "USD"


def test_a_caption_that_excepts_shares_leaves_share_counts_as_printed():
    assert read_scale("(In millions, except share and per share data)").share_factor == 1.0
    assert read_scale("(In millions, except per share data)").share_factor == 1e6
    reflected = read_scale("In millions, except number of shares, which are reflected in thousands, and per share amounts")
    assert (reflected.factor, reflected.share_factor) == (1e6, 1e3)


@pytest.mark.parametrize("label, printed, section, unit", [
    ("Diluted earnings per ordinary share", "$0.602", "", "USD/share"),  # three places
    ("Dividends declared ($0.58 per share)", "(728)", "", "USD"),  # the parentheses state a rate, the row an amount
    ("Net income available to ordinary shareholders - basic", "$1,041", "Numerator", "USD"),
    ("Non-GAAP Core Earnings/EPS", "$1,109", "", "USD"),
    ("Cash dividends declared per share", "$1.98", "Shares used in computing earnings per share", "USD/share"),
    ("Diluted", "5,793,069", "Shares used in computing earnings per share", "shares"),
    ("Weighted-average fair value per share", "$8.49", "", "USD/share"),
    ("Common stock, $5 par value, authorized 800,000,000 shares", "1,322", "Shareholders' Equity", "USD"),
    ("Purchase of treasury stock (8.9 million shares)", "(82)", "", "USD"),
    ("10/1/2015 thru 10/31/2015", "145.83", "Total Number of", "USD/share"),  # a caption "except per share"
    ("Interest rate swaps", "69", "Liabilities", "USD"),
    ("Foreign tax rate differential", "18", "", "USD"),
    ("Gross margin", "14,997", "", "USD"),
    ("Effective tax rate", "21.0", "", "ratio"),
    ("Issuance of restricted securities to employees and directors", "$43,355", "", "USD"),
    ("Number of employees", "12,000", "", "people"),
    ("FedEx Freight segment", "260bp", "Operating margin", "bp"),
])
def test_the_unit_of_a_row_from_its_label_value_and_section(label, printed, section, unit):
    assert unit_of(label, printed, "(In millions, except per share data)", section) == unit
