"""Two tables on one page, the second introduced by a sentence that states its date and unit ("Maturities
as of June 30, 2024, are as follows (in millions):") and headed by column titles with no date: the sentence
ends the first table, and its date heads every titled column of the second (a maturity schedule's rows are
due years, not the columns' periods)."""

from __future__ import annotations

import pymupdf

from tests.storage.documents.layout_pages import LABEL_X, centred, read_facts, rows_at

EDGES = (380, 460, 540)
CAPTION = "Debt maturities as of June 30, 2024, are as follows (in millions):"


def _page(caption: str = CAPTION) -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((LABEL_X, 80), "The following table shows the balances as of June 30, 2024 and 2023 (in millions):", fontsize=9)
    centred(page, 440, 100, "2024", 9)
    centred(page, 515, 100, "2023", 9)
    rows_at(page, [("Current portion of debt", "", "1,210", "980"), ("Long-term debt", "", "8,455", "8,120"),
                   ("Total debt", "", "9,665", "9,100")], 116, EDGES)
    page.insert_text((LABEL_X, 170), caption, fontsize=9)
    for x, top, bottom in ((355, "Senior", "Notes"), (435, "Term", "Loans"), (515, "", "Total")):
        if top:
            centred(page, x, 188, top, 9)
        centred(page, x, 198, bottom, 9)
    rows_at(page, [("2025", "1,100", "110", "1,210"), ("2026", "2,400", "90", "2,490"), ("Thereafter", "5,800", "165", "5,965"),
                   ("Total maturities", "9,300", "365", "9,665")], 214, EDGES)
    data = doc.tobytes()
    doc.close()
    return data


def _of(facts, label, value):
    found = [f for f in facts if f.label == label and f.value_text.lstrip("$") == value]
    assert found, sorted({(f.label, f.value_text) for f in facts})
    return found[0]


def test_a_captioned_schedule_below_a_table_takes_its_caption_date_and_its_own_titles():
    facts = read_facts(_page())
    due = _of(facts, "2026", "90")
    assert due.fiscal_year == 2024 and "Term Loans" in due.period, due.period
    total = _of(facts, "Total maturities", "9,665")
    assert total.fiscal_year == 2024 and "Total" in total.period, total.period
    # the first table keeps its own two year columns
    assert _of(facts, "Total debt", "9,100").fiscal_year == 2023
    assert _of(facts, "Total debt", "9,665").fiscal_year == 2024


def test_no_figure_of_the_schedule_is_dated_by_the_table_above_it():
    facts = read_facts(_page())
    schedule = [f for f in facts if f.label in ("2025", "2026", "Thereafter", "Total maturities")]
    assert schedule and all(f.fiscal_year == 2024 for f in schedule), [(f.label, f.period) for f in schedule]
