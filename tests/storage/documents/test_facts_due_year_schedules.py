"""A schedule of amounts due by year printed as one column of figures: rows labelled by consecutive years
("2025" or "Fiscal 2025", then "Thereafter" and the totals), a title over the column or none, and no period
over it. The caption sentence that introduces it dates the column when it states one date; a date in the
prose above the caption does not."""

from __future__ import annotations

import pymupdf

from tests.storage.documents.due_year_pages import RIGHT, one_column_schedule
from tests.storage.documents.layout_pages import FONT, LABEL_X, read_facts, right_aligned

def _of(facts, label, value):
    found = [f for f in facts if f.label == label and f.value_text.lstrip("$") == value]
    assert found, sorted({(f.label, f.value_text, f.period) for f in facts})
    return found[0]


def test_a_captioned_one_column_schedule_takes_the_caption_date_and_its_title():
    facts = read_facts(one_column_schedule("Future principal payments of our borrowings at June 30, 2024 were as follows (in millions):",
                             title="Principal Payments"))
    due = _of(facts, "2027", "2,400")
    assert due.fiscal_year == 2024 and "Principal Payments" in due.period and due.scale == 1e6, (due.period, due.scale)
    assert _of(facts, "2025", "1,250").fiscal_year == 2024
    assert _of(facts, "Total long-term debt", "12,450").value == 12450


def test_fiscal_year_labels_and_a_caption_over_two_lines_without_a_title():
    facts = read_facts(one_column_schedule("Future principal payments (adjusted for the effects of the interest rate swaps) for all of our\n"
                             "borrowings at June 30, 2024 were as follows (in millions):", year_label="Fiscal {}"))
    assert _of(facts, "Fiscal 2026", "980").fiscal_year == 2024
    assert _of(facts, "Thereafter", "7,300").period.startswith("June 30, 2024")


def test_a_date_in_the_prose_above_an_undated_caption_dates_nothing():
    facts = read_facts(one_column_schedule("The following table sets forth the scheduled principal payments by fiscal year (in millions):",
                             title="Debt Principal",
                             prose="The notes had estimated fair values of $11.9 billion at June 30, 2023."))
    due = _of(facts, "2026", "980")
    assert due.fiscal_year is None and due.period == "Debt Principal", (due.period, due.fiscal_year)


def test_years_that_do_not_follow_each_other_are_no_schedule():
    caption = "Amounts recognized at June 30, 2024 were as follows (in millions):"
    assert _of(read_facts(one_column_schedule(caption, title="Amount")), "2027", "2,400").fiscal_year == 2024
    for page in (one_column_schedule(caption, title="Amount", years=(2019, 2021, 2024, 2030)),
                 one_column_schedule(caption, title="Amount", year_label="Plan {}")):
        assert not [f for f in read_facts(page) if f.value_text.lstrip("$") == "2,400"]


def test_a_schedule_of_five_years_then_thereafter_and_a_total_keeps_its_last_rows():
    # (five years of seven rows read as rows of years, each its own period: "Thereafter" and the total, no
    # year of their own, were lost)
    rows = [("2023", "$13,488"), ("2024", "4,876"), ("2025", "1,418"), ("2026", "6,780"), ("2027", "312"),
            ("Thereafter", "412"), ("Total", "$27,286")]
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((LABEL_X, 80), "Future payments under unconditional purchase obligations with a remaining term in excess of one",
                     fontsize=FONT)
    page.insert_text((LABEL_X, 92), "year as of September 24, 2022, are as follows (in millions):", fontsize=FONT)
    for k, (label, value) in enumerate(rows):
        y = 116 + 14 * k
        page.insert_text((LABEL_X, y), label, fontsize=FONT)
        if value.startswith("$"):
            page.insert_text((RIGHT - 70, y), "$", fontsize=FONT)
        right_aligned(page, RIGHT, y, value.lstrip("$"))
    page.insert_text((LABEL_X, 240), "The Company is subject to various legal proceedings and claims that have arisen.", fontsize=FONT)
    data = doc.tobytes()
    doc.close()
    facts = read_facts(data)
    total = _of(facts, "Total", "27,286")
    assert total.fiscal_year == 2022 and total.scale == 1e6, (total.period, total.scale)
    assert _of(facts, "Thereafter", "412").period.startswith("September 24, 2022")
    assert _of(facts, "2025", "1,418").fiscal_year == 2022
