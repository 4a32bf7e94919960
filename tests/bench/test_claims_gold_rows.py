"""The hostile claims' gold row (bench/claims.py gold_rows): the row a person reads for a gold figure, and its prior-year
value, read from a generated page's words (PyMuPDF text at positions)."""

from __future__ import annotations

import re

import pymupdf
import pytest

from bench.claims import gold_rows, pdf_lines


def _page(lines: list[tuple[float, float, str]]):
    """A page of (x, y, text); a negative x right-aligns the text at -x."""
    doc = pymupdf.open()
    page = doc.new_page()
    for x, y, text in lines:
        page.insert_text((-x - pymupdf.get_text_length(text, fontsize=9) if x < 0 else x, y), text, fontsize=9)
    return doc


def _gold(item: str, period: str, value: str, unit: str = "USD millions") -> dict:
    return {"line_item": item, "period": period, "value": value, "unit": unit}


def test_an_ampersand_is_a_word_of_the_label():
    doc = _page([(56, 60, "(Dollars in millions)"), (-400, 80, "2019"), (-470, 80, "2018"),
                 (56, 100, "Defense, Space & Security"), (-400, 100, "2,615"), (-470, 100, "1,692")])
    assert pdf_lines(doc[0])[-1]["label"] == "Defense, Space & Security"
    assert gold_rows(_gold("Defense, Space & Security", "Year ended December 31, 2019", "2,615"), doc[0])["label"] == \
        "Defense, Space & Security"


def test_of_two_rows_printing_the_value_the_one_under_the_named_heading():
    """"Net income" prints 0.382 under "Basic earnings per share:" and under "Diluted earnings per share:": the diluted
    gold is the second row, its prior year the diluted 0.363 (not the basic 0.364)."""
    doc = _page([(56, 60, "(in millions, except per share data)"), (-400, 80, "2020"), (-470, 80, "2019"),
                 (56, 100, "Basic earnings per share:"), (66, 114, "Net income"), (-400, 114, "$0.382"), (-470, 114, "$0.364"),
                 (56, 128, "Diluted earnings per share:"), (66, 142, "Net income"), (-400, 142, "$0.382"), (-470, 142, "$0.363")])
    row = gold_rows(_gold("Diluted earnings per share: Net income", "Year ended June 30, 2020", "0.382", "USD per share"), doc[0])
    assert row["prior"] == {"value": 0.363, "printed": "0.363", "year": 2019}


QUARTERS = [(56, 60, "Quarterly Financial Data (Unaudited)"), (330, 74, "2016"), (520, 74, "2015")]
QUARTERS += [(-(300 + 45 * k), 88, q) for k, q in enumerate(("4th", "3rd", "2nd", "1st"))]
QUARTERS += [(-(300 + 45 * k), 88, q) for k, q in enumerate(("4th", "3rd", "2nd", "1st"), start=4)]
QUARTERS += [(56, 104, "Total revenues")] + [(-(300 + 45 * k), 104, v) for k, v in enumerate(
    ("$23,286", "$23,898", "$24,755", "$22,632", "$23,573", "$25,849", "$24,543", "$22,149"))]


def test_a_quarters_prior_year_is_the_same_quarter_a_year_before():
    """"2016" over four quarters and "2015" over four: the second quarter of 2016 changes from the second of 2015."""
    row = gold_rows(_gold("Total revenues", "2016: Second Quarter", "24,755"), _page(QUARTERS)[0])
    assert row["prior"] == {"value": 24543.0, "printed": "24,543", "year": 2015}


def test_the_prior_year_is_in_the_gold_columns_own_group():
    """A release printing the year before first, three months then twelve ("2022 2023 2022 2023"): the three months'
    prior year is the three months' 2022 to the left, not the twelve months' 2022 to the right."""
    doc = _page([(200, 60, "Three Months Ended June 30,"), (360, 60, "Twelve Months Ended June 30,"),
                 (56, 74, "($ million)")] + [(-(250 + 70 * k), 74, y) for k, y in enumerate(("2022", "2023", "2022", "2023"))]
                + [(56, 90, "Net sales")] + [(-(250 + 70 * k), 90, v) for k, v in enumerate(("3,909", "3,673", "14,544", "14,694"))])
    row = gold_rows(_gold("Net sales", "Three Months Ended June 30, 2023", "3,673"), doc[0])
    assert row["prior"] == {"value": 3909.0, "printed": "3,909", "year": 2022}


@pytest.mark.parametrize("changes", [("32%", "32%"), ("-3%", "0%")])
def test_a_percent_change_column_between_the_years_is_no_prior_year_value(changes):
    """"2023 Actual Constant 2022": the change columns beside the amounts are percentages, not 2022's amount."""
    doc = _page([(56, 60, "(Dollars in millions)"), (-300, 74, "2023"), (-360, 74, "Actual"), (-440, 74, "Constant"),
                 (-480, 74, "2022"), (56, 90, "Americas"), (-300, 90, "$ 31,226"), (-360, 90, changes[0]),
                 (-440, 90, changes[1]), (-480, 90, "$ 23,679")])
    row = gold_rows(_gold("Americas", "Year Ended May 31, 2023", "31,226"), doc[0])
    assert row["prior"] == {"value": 23679.0, "printed": "23,679", "year": 2022}


def test_an_items_remark_before_a_slash_leaves_no_stray_slash():
    from bench.claims import _clean_item

    assert _clean_item("(Loss)/earnings from operations") == "earnings from operations"
    assert _clean_item("Income/(loss) from operating investments, net") == "Income from operating investments, net"
    assert _clean_item("Earnings/EPS on a GAAP basis") == "Earnings/EPS on a GAAP basis"


def test_a_table_row_before_a_sentence_printing_the_same_number():
    """"… loss from operations was $6,657 million in 2019 compared with …" above the table: the gold's row is the
    table's, never the sentence's words before the number; a number printed only in a sentence gives no row."""
    doc = _page([(56, 60, "BCA loss from operations was $6,657 million in 2019 compared with earnings"),
                 (56, 76, "(Dollars in millions)"), (-400, 92, "2019"), (-470, 92, "2018"),
                 (56, 108, "(Loss)/earnings from operations"), (-400, 108, "($6,657)"), (-470, 108, "$7,830")])
    row = gold_rows(_gold("(Loss)/earnings from operations", "Year ended December 31, 2019", "($6,657)"), doc[0])
    assert row["label"] == "(Loss)/earnings from operations" and row["prior"]["printed"] == "7,830"
    prose_only = _page([(56, 60, "GAAP Net Income of $1,048 million; GAAP diluted earnings per share of 70.5 cps and more")])
    assert gold_rows(_gold("Net income", "2023", "1,048"), prose_only[0]) is None


def test_a_negative_percentage_keeps_its_sign_and_gets_no_dollar_sign():
    """A change printed "(5)" under "Reported ∆%": every true form says -5% or (5), never 5% or $(5)."""
    import random

    from bench.claims import wider_forms
    from bench.claims_everyday import everyday_forms

    row = {"value": 5.0, "printed": "(5)", "negative": True, "prior": None, "year": None, "as_printed": "EBITDA",
           "value_word": "(5)", "two_lines": "", "per_share": [], "others": []}
    gold = {"period": "change"}
    for seed in range(20):
        forms = wider_forms("EBITDA", "EBITDA", row, gold, "", 1.0, False, True, random.Random(seed))
        forms += everyday_forms("EBITDA", "EBITDA", row, gold, "", 1.0, False, True, random.Random(seed))
        for sentence, _, planted in forms:
            assert planted or ("$" not in sentence and re.search(r"[-−(]5\b", sentence)), sentence


def test_a_bullet_saying_the_figure_with_its_scale_word_is_no_row():
    """"May. Adjusted EBIT of $1,608 million;" (a bullet's wrapped line) and the key figures' row "EBIT 1,701 1,608":
    the gold's row is the table's."""
    doc = _page([(56, 60, "• Adjusted EPS of 73.3 cps and Free Cash Flow of $848 million, in line with guidance provided in"),
                 (66, 72, "May. Adjusted EBIT of $1,608 million;"), (56, 90, "($ million)"), (-400, 104, "2022"),
                 (-470, 104, "2023"), (56, 118, "EBIT"), (-400, 118, "1,701"), (-470, 118, "1,608")])
    row = gold_rows(_gold("Adjusted non-GAAP results: EBIT", "Twelve Months Ended June 30, 2023", "1,608"), doc[0])
    assert row["label"] == "EBIT" and row["prior"]["printed"] == "1,701"


def test_a_value_written_with_its_dollar_sign_before_the_parenthesis_is_negative():
    """The gold's "$(1,304)" (a cash flow statement's net loss): negative, printed "(1,304)", so its true forms carry
    the sign and no "net income of $1.30 billion" is written as true."""
    doc = _page([(56, 60, "(in millions)"), (-400, 80, "2021"), (-470, 80, "2020"),
                 (56, 100, "Net income (loss)"), (-400, 100, "$88"), (-470, 100, "$(1,304)")])
    row = gold_rows(_gold("Net income (loss)", "2020", "$(1,304)"), doc[0])
    assert row["negative"] and row["printed"] == "(1,304)"
