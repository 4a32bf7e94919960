"""A table whose years head its first part only, its parts headed by a period phrase printed in the stub
with no year ("For the Year", then "At Year-End"; a selected-financial-data table, several companies'
blocks under one year row). The phrase of the second part was read as the header of a new table with no
period, so every row under it was lost. A stub phrase between parts of a table with the same columns takes
the years printed over the columns with its own phrase; a stub phrase over columns of its own, or a
table under other columns, reads as before."""

from __future__ import annotations

import pymupdf

from tests.storage.documents.layout_pages import FONT, LABEL_X, read_facts, right_aligned

RIGHTS = (391, 468, 545)


def _page(parts, rights=RIGHTS, second_rights=None) -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    y = 80
    page.insert_text((LABEL_X, y), "(in millions, except per share amounts)", fontsize=FONT)
    for x1, year in zip(rights, ("2016", "2015", "2014")):
        right_aligned(page, x1, y, year)
    y += 14
    for k, (phrase, rows) in enumerate(parts):
        page.insert_text((LABEL_X, y), phrase, fontsize=FONT)
        y += 14
        edges = second_rights if k and second_rights else rights
        for label, *values in rows:
            page.insert_text((LABEL_X, y), label, fontsize=FONT)
            for x1, v in zip(edges, values):
                right_aligned(page, x1, y, v)
            y += 14
    page.insert_text((LABEL_X, y + 20), "Amounts are restated for the adoption of a new accounting standard.", fontsize=FONT)
    data = doc.tobytes()
    doc.close()
    return data


YEAR = ("For the Year", [("Operating revenues", "$17,666", "$16,833", "$17,090"), ("Operating income", "2,177", "1,508", "2,450"),
                         ("Net income", "1,407", "888", "1,450")])
YEAR_END = ("At Year-End", [("Total assets", "68,598", "63,234", "60,228"),
                            ("Long-term debt (excluding current portion)", "16,220", "15,925", "15,151")])


def _of(facts, label, value):
    found = [f for f in facts if f.label == label and f.value_text.lstrip("$") == value]
    assert found, sorted({(f.label, f.value_text, f.period) for f in facts})
    return found[0]


def test_a_year_end_part_under_a_stub_phrase_takes_the_years_over_the_columns():
    facts = read_facts(_page([YEAR, YEAR_END]))
    assert _of(facts, "Net income", "888").fiscal_year == 2015
    assets = _of(facts, "Total assets", "63,234")
    assert assets.fiscal_year == 2015 and "Year-End" in assets.period and assets.scale == 1e6, (assets.period, assets.scale)
    assert _of(facts, "Long-term debt (excluding current portion)", "15,151").fiscal_year == 2014


def test_a_second_company_block_under_the_same_phrases():
    other = ("For the Year", [("Income available for common stock", "1,388", "848", "1,419")])
    facts = read_facts(_page([YEAR, YEAR_END, other]))
    assert _of(facts, "Income available for common stock", "1,419").fiscal_year == 2014
    assert _of(facts, "Total assets", "68,598").fiscal_year == 2016


def test_a_stub_phrase_over_other_columns_takes_no_years():
    facts = read_facts(_page([YEAR, ("At Year-End", [("Total assets", "68,598", "63,234")])], second_rights=(250, 330)))
    assert not [f for f in facts if f.label == "Total assets" and f.fiscal_year]


def test_a_unit_caption_in_the_stub_goes_on_with_the_years_and_a_roll_forward_keeps_its_balances():
    # ("(in millions)" over the second part of a table, its rows under the first part's years)
    facts = read_facts(_page([YEAR, ("(in millions)", [("Write-offs", "11", "1", "4")])]))
    assert _of(facts, "Write-offs", "1").fiscal_year == 2015
    # a roll-forward under it: its balance rows date its columns, as before
    rolled = read_facts(_page([YEAR, ("(in millions)", [("Balances as of June 30, 2015 and 2014, respectively", "($35)", "($34)", "($30)"),
                                                       ("Write-offs", "11", "1", "4"),
                                                       ("Balances as of June 30, 2016 and 2015, respectively", "($24)", "($35)", "($34)")])]))
    assert "Year ended June 30, 2016" in _of(rolled, "Write-offs", "11").period, [(f.label, f.period) for f in rolled]
