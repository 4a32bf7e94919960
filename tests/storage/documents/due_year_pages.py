"""Schedules of amounts due by year, generated with PyMuPDF: one column of figures under a caption sentence
(`one_column_schedule`), and several columns under a header of their own with the years printed in the stub
(`stub_schedule`: a lease maturity schedule). Shared by the layout, facts, periods and answer tests."""

from __future__ import annotations

import pymupdf

from storage.documents.table_layout import read_layout
from storage.documents.tables import row_cells
from tests.storage.documents.layout_pages import FONT, LABEL_X, centred, right_aligned

RIGHT = 545
ROWS = [("{y}", "1,250"), ("{y1}", "980"), ("{y2}", "2,400"), ("{y3}", "615"), ("Thereafter", "7,300"),
        ("Total principal payments", "12,545"), ("Unamortized discount", "(95)"), ("Total long-term debt", "12,450")]


def one_column_schedule(caption: str, title: str = "", year_label: str = "{}", prose: str = "",
          years: tuple[int, ...] = (2025, 2026, 2027, 2028)) -> bytes:
    """A schedule of amounts due by year printed as one column, the caption sentence over it."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    y = 80
    if prose:
        page.insert_text((LABEL_X, y), prose, fontsize=FONT)
        y += 24
    for k, part in enumerate(caption.split("\n")):
        page.insert_text((LABEL_X, y + 12 * k), part, fontsize=FONT)
    y += 12 * caption.count("\n") + 20
    if title:
        centred(page, RIGHT - 30, y, title)
        y += 16
    for k, (label, value) in enumerate(ROWS):
        label = label.format(**{k: year_label.format(v) for k, v in zip(("y", "y1", "y2", "y3"), years)})
        page.insert_text((LABEL_X, y + 14 * k), label, fontsize=FONT)
        if k in (0, 7):
            page.insert_text((RIGHT - 70, y + 14 * k), "$", fontsize=FONT)  # "$" printed apart at the column's left
        right_aligned(page, RIGHT, y + 14 * k, value)
    page.insert_text((LABEL_X, y + 14 * len(ROWS) + 20),
                     "Interest on the notes is payable semi-annually and the notes rank equally with other debt.", fontsize=FONT)
    data = doc.tobytes()
    doc.close()
    return data


RIGHTS = (391, 468, 545)
SCHEDULE = [("2025", "$1,758", "$155", "$1,913"), ("2026", "1,742", "130", "1,872"), ("2027", "1,677", "81", "1,758"),
            ("2028", "1,382", "48", "1,430"), ("Thereafter", "5,080", "906", "5,986"),
            ("Total undiscounted liabilities", "11,639", "1,320", "12,959"), ("Less: Imputed interest", "(1,312)", "(413)", "(1,725)"),
            ("Total lease liabilities", "$10,327", "$907", "$11,234")]


def stub_schedule(caption: str, titles: tuple[tuple[str, ...], ...], rows=SCHEDULE, stub_title: str = "", above=()) -> bytes:
    """A schedule of several columns under a header of its own, its years printed in the stub with no label."""
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


def schedule_rows(data: bytes) -> dict[str, list[tuple[str, str]]]:
    """Row label -> (column, value) of each cell the answer path reads (`row_cells` of the layout units)."""
    with pymupdf.open(stream=data) as doc:
        units, _ = read_layout(doc[0].get_text("words"))
    return {u.label: [(c.period, c.value) for c in row_cells(u)] for u in units if u.is_table_row and row_cells(u)}


LEASES = (("Operating", "Finance", ""), ("Leases", "Leases", "Total"))
DATED = "Lease liability maturities as of September 28, 2024, are as follows (in millions):"
