"""Years that date a row are no amounts (issue 27): a debt note's "Maturity" column ("3.25  2026  748  747")
and a schedule of maturities whose rows print a year, then an amount ("2024  5.4"). Before, each such year
was stored as a fact of $2,026 million; now the year labels the row's other facts. Generated pages."""

from __future__ import annotations

import pymupdf

from tests.storage.documents.layout_pages import LABEL_X, centred, fact, read_facts, right_aligned


def _debt_note() -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((LABEL_X, 80), "The components of long-term debt are as follows (in millions):", fontsize=9)
    columns = (300, 370, 440, 510)
    centred(page, 470, 96, "May 31,")
    for x1, head in zip(columns, ("Interest Rate %", "Maturity", "2023", "2022")):
        right_aligned(page, x1, 110, head)
    y = 126
    page.insert_text((LABEL_X, y), "Senior unsecured debt:", fontsize=9)
    for values in (("3.25", "2026", "748", "747"), ("3.40", "2028", "497", "497"), ("4.20", "2029", "1,398", "1,397")):
        y += 13
        for x1, v in zip(columns, values):
            right_aligned(page, x1, y, v)
    y += 13
    page.insert_text((LABEL_X, y), "Total long-term debt", fontsize=9)
    for x1, v in zip(columns[2:], ("$2,643", "$2,641")):
        right_aligned(page, x1, y, v)
    return doc.tobytes()


def _schedule() -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((LABEL_X, 80), "Principal payments of debt by fiscal year (in millions):", fontsize=9)
    right_aligned(page, 440, 96, "June 30, 2019")
    y = 96
    for year, amount in (("2020", "$5.4"), ("2021", "123.5"), ("2022", "1,780.8"), ("Thereafter", "3,404.7")):
        y += 13
        if year == "Thereafter":
            page.insert_text((LABEL_X, y), year, fontsize=9)
        else:
            right_aligned(page, 300, y, year)
        right_aligned(page, 440, y, amount)
    return doc.tobytes()


def test_a_maturity_column_dates_its_rows_and_holds_no_amounts():
    facts = read_facts(_debt_note())
    assert not [f for f in facts if f.value_text in ("2026", "2028", "2029")], "a maturity year stored as an amount"
    notes = fact(facts, "2026", 2)
    assert (notes.value, notes.unit, notes.scale, notes.period_end) == (748, "USD", 1e6, "2023-05-31")
    assert fact(facts, "2029", 3).value == 1397
    assert fact(facts, "2028", 0).unit == "%"  # the rate beside it keeps its column and its row
    assert fact(facts, "Total long-term debt", 2).value == 2643


def test_a_schedule_row_printing_a_year_then_an_amount_is_labelled_by_the_year():
    facts = read_facts(_schedule())
    assert not [f for f in facts if f.value_text in ("2020", "2021", "2022")], "a schedule's year stored as an amount"
    assert {f.label: f.value for f in facts} == {"2020": 5.4, "2021": 123.5, "2022": 1780.8, "Thereafter": 3404.7}
    assert {f.period_end for f in facts} == {"2019-06-30"}
