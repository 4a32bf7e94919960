"""Numbers as cells print them (storage/finance/numbers.py): signs in parentheses, a change said in words, an
estimate's "~", and a range, which is two numbers and so no one number (its high end read alone would be a wrong
figure)."""

from __future__ import annotations

import pytest

from storage.finance.numbers import RANGE, parse_number, split_scale


@pytest.mark.parametrize("printed, number", [
    ("(1,577)", -1577.0), ("$7,637", 7637.0), ("43.3%", 43.3), ("-5%", -5.0), ("~10%", 10.0),
    ("down 32%", -32.0), ("up 13%", 13.0), ("DOWN 4.4pts", -4.4), ("flat", None), ("n/m", None),
])
def test_one_number(printed, number):
    assert parse_number(printed) == number


@pytest.mark.parametrize("printed, low, high", [
    ("$8.51 to $8.53", "$8.51", "$8.53"), ("$10.5-11.5", "$10.5", "11.5"), ("~20% to ~21%", "~20%", "~21%"),
    ("34% - 35%", "34%", "35%"), ("1.5–2.0%", "1.5", "2.0%"),
])
def test_a_range_is_two_ends_and_no_number(printed, low, high):
    ends = RANGE.match(printed)
    assert ends and (ends.group("low"), ends.group("high")) == (low, high)
    assert parse_number(printed) is None


def test_a_negative_or_a_year_is_no_range():
    assert not RANGE.match("(1,577)") and not RANGE.match("-5%") and not RANGE.match("2023")


@pytest.mark.parametrize("printed, figure, word, number", [
    ("$4.0 billion", "$4.0", "billion", 4.0), ("$10.5-11.5 billion", "$10.5-11.5", "billion", None),
    ("(1.2) Millions", "(1.2)", "million", -1.2), ("$34,229", "$34,229", "", 34229.0),
    ("Revenue in billions", "Revenue in billions", "", None),
])
def test_a_scale_word_after_a_figure_is_the_cell_s_own(printed, figure, word, number):
    assert split_scale(printed) == (figure, word)
    assert parse_number(printed) == number
