"""Row cells of printed rows that carry more than their values: a footnote mark among the values,
a negative value printed with a space before its closing parenthesis (both seen in real 10-Ks)."""

from __future__ import annotations

from storage.documents.tables import page_units, row_cells, split_row


def _cells(text: str) -> dict[str, dict[str, str]]:
    return {c[0].label: {x.period: x.value for x in c} for u in page_units(text) if (c := row_cells(u))}


def test_a_footnote_mark_among_the_values_is_not_a_value():
    text = "June 30,\n2022\n2021\nLong-lived assets\n$ 3,646\n$ 3,761\n(1)\nGoodwill (2)\n5,285\n5,346\n"
    cells = _cells(text)
    assert cells["Long-lived assets"] == {"June 30, 2022": "$3,646", "June 30, 2021": "$3,761"}
    assert cells["Goodwill"] == {"June 30, 2022": "5,285", "June 30, 2021": "5,346"}


def test_a_negative_value_with_a_space_before_its_parenthesis():
    assert split_row("Legal entity reorganization (353 ) — —") == ("Legal entity reorganization", ["(353)", "—", "—"])
    assert split_row("Net loss $ (1,234 ) $ (12.5 )") == ("Net loss", ["(1,234)", "(12.5)"])
    assert split_row("(see Note 5 )") == ("(see Note 5 )", [])  # prose keeps its parenthesis
    text = "2015\n2014\n2013\nLegal entity reorganization\n(353 )\n—\n—\n"
    assert _cells(text)["Legal entity reorganization"] == {"2015": "(353)", "2014": "—", "2013": "—"}


def test_a_value_in_parentheses_that_fits_the_columns_is_kept():
    """"(1)" is a footnote mark only when the row has one value too many."""
    text = "2019\n2018\nOther, net\n(1)\n4\n"
    assert _cells(text)["Other, net"] == {"2019": "(1)", "2018": "4"}
