"""A schedule of amounts due by year with several columns under a header of its own (a lease maturity
schedule: "Operating Leases  Finance Leases  Total"; purchase commitments by kind), its years printed in
the stub with no label ("2025", "2026", ... "Thereafter", "Total"). The years were read as a first column of
values, so the year rows had no label and the answer path (`row_cells`) dropped them: "operating lease
payments due in 2026" found no row. The years are the rows' labels; a neighbouring layout whose year column
is titled ("Maturity") or whose year rows follow other rows of the table reads as before."""

from __future__ import annotations

import pymupdf

from storage.documents.table_layout import read_layout
from storage.documents.tables import row_cells
from tests.storage.documents.layout_pages import FONT, LABEL_X, centred, read_facts, right_aligned

RIGHTS = (391, 468, 545)
SCHEDULE = [("2025", "$1,758", "$155", "$1,913"), ("2026", "1,742", "130", "1,872"), ("2027", "1,677", "81", "1,758"),
            ("2028", "1,382", "48", "1,430"), ("Thereafter", "5,080", "906", "5,986"),
            ("Total undiscounted liabilities", "11,639", "1,320", "12,959"), ("Less: Imputed interest", "(1,312)", "(413)", "(1,725)"),
            ("Total lease liabilities", "$10,327", "$907", "$11,234")]


def _page(caption: str, titles: tuple[tuple[str, ...], ...], rows=SCHEDULE, stub_title: str = "", above=()) -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    y = 80
    for label, *values in above:  # rows of a table printed over the schedule, under the same header
        page.insert_text((LABEL_X, y), label, fontsize=FONT)
        for x1, v in zip(RIGHTS, values):
            right_aligned(page, x1, y, v)
        y += 14
    page.insert_text((LABEL_X, y), caption, fontsize=FONT)
    y += 20
    for line in titles:
        if stub_title and line is titles[-1]:
            page.insert_text((LABEL_X, y), stub_title, fontsize=FONT)
        for x1, text in zip(RIGHTS, line):
            centred(page, x1 - 26, y, text)
        y += 12
    y += 4
    for label, *values in rows:
        page.insert_text((LABEL_X, y), label, fontsize=FONT)
        for x1, v in zip(RIGHTS, values):
            if not v:
                continue
            if v.startswith("$"):
                page.insert_text((x1 - 52, y), "$", fontsize=FONT)
                v = v[1:]
            right_aligned(page, x1, y, v)
        y += 14
    page.insert_text((LABEL_X, y + 20), "The Company's leases have remaining terms of up to 20 years.", fontsize=FONT)
    data = doc.tobytes()
    doc.close()
    return data


def _rows(data: bytes) -> dict[str, list[tuple[str, str]]]:
    """Row label -> (column, value) of each cell the answer path reads (`row_cells` of the layout units)."""
    with pymupdf.open(stream=data) as doc:
        units, _ = read_layout(doc[0].get_text("words"))
    return {u.label: [(c.period, c.value) for c in row_cells(u)] for u in units if u.is_table_row and row_cells(u)}


LEASES = (("Operating", "Finance", ""), ("Leases", "Leases", "Total"))
DATED = "Lease liability maturities as of September 28, 2024, are as follows (in millions):"


def test_the_years_of_a_dated_multi_column_schedule_label_its_rows():
    data = _page(DATED, LEASES)
    rows = _rows(data)
    assert rows.get("2026") == [("2024 Operating Leases", "1,742"), ("2024 Finance Leases", "130"), ("2024 Total", "1,872")], rows
    assert rows["2025"][0] == ("2024 Operating Leases", "$1,758")
    assert rows["Thereafter"] == [("2024 Operating Leases", "5,080"), ("2024 Finance Leases", "906"), ("2024 Total", "5,986")]
    facts = read_facts(data)
    due = [f for f in facts if f.label == "2028" and f.value_text == "1,382"]
    assert due and due[0].fiscal_year == 2024 and due[0].scale == 1e6 and due[0].column == 0, due
    assert not [f for f in facts if f.value_text in ("2025", "2026")]  # no year stored as an amount


def test_a_one_line_title_row_under_a_caption_of_another_form():
    rows = _rows(_page("Annual purchase commitments under various contracts as of May 31, 2024 were as follows (in millions):",
                       (("Aircraft", "Other", "Total"),)))
    assert rows.get("2027") == [("2024 Aircraft", "1,677"), ("2024 Other", "81"), ("2024 Total", "1,758")], rows


def test_a_titled_year_column_and_years_under_other_rows_read_as_before():
    # a column of years titled "Maturity" (a debt table's) is a column, not the stub
    titled = _rows(_page(DATED, (("Maturity", "Principal", "Total"),), rows=[
        ("Senior notes", "2025", "1,000", "1,000"), ("Senior notes", "2026", "750", "750"), ("Senior notes", "2027", "500", "500")]))
    assert "2026" not in titled
    # year rows printed under a balance table's rows and header ("2024  2023"), after its caption: not a
    # schedule with a header of its own (its figures stand under the balance table's columns)
    after = _rows(_page("", (("", "2024", "2023"),), rows=[
        ("Operating lease liabilities", "", "$1,539", "$1,352"), ("Maturities of operating lease liabilities are as follows:",),
        ("2025", "", "", "$301"), ("2026", "", "", "253"), ("2027", "", "", "190"), ("Thereafter", "", "", "1,083")]))
    assert "Operating lease liabilities" in after and "2026" not in after, after
