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
