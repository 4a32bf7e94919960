"""A table that prints no scale caption of its own (a 10-K's quarterly data note) is counted in the caption
of its section: the one printed in the heading block of the financial statements' notes ("Notes to the
Consolidated Financial Statements / (Dollars in millions, except per share data)"), pages before it. A form's
next item ("Item 9A. ...") ends the section; a filing with no such heading leaves the table's scale unknown."""

from __future__ import annotations

import pymupdf
import pytest

from storage.finance.scale import section_caption
from tests.storage.documents.layout_pages import LABEL_X, read_facts, rows_at

EDGES = (330, 400, 470, 540)
QUARTERS = [("Total revenues", "$15,304", "$14,139", "$11,807", "$16,908"),
            ("Total costs and expenses", "(20,992)", "(13,105)", "(12,978)", "(16,768)"),
            ("Diluted (loss)/earnings per share", "(14.65)", "(0.79)", "(4.20)", "(1.11)")]


def _quarterly_page(page, title: str) -> None:
    page.insert_text((LABEL_X, 80), title, fontsize=10)
    for x1, q in zip(EDGES, ("4th", "3rd", "2nd", "1st")):
        page.insert_text((x1 - pymupdf.get_text_length(q, fontsize=9), 108), q, fontsize=9)
    page.insert_text((LABEL_X + 300, 96), "2020", fontsize=9)
    rows_at(page, QUARTERS, 124, EDGES)


def _filing(heading: list[str], then: str = "") -> bytes:
    """Page 0: a heading block (`heading`) and prose; page 1: prose; page 2 (after a page headed `then`, when
    given): the quarterly table, no caption of its own."""
    doc = pymupdf.open()
    page = doc.new_page()
    y = 72
    for line in heading + ["Note 1 – Summary of Significant Accounting Policies",
                           "The financial statements include the accounts of the company and its subsidiaries."]:
        page.insert_text((LABEL_X, y), line, fontsize=10)
        y += 14
    doc.new_page().insert_text((LABEL_X, 90), "We lease buildings and equipment under operating leases.", fontsize=10)
    if then:
        doc.new_page().insert_text((LABEL_X, 80), then, fontsize=10)
    _quarterly_page(doc.new_page(), "Note 23 – Quarterly Financial Data (Unaudited)")
    data = doc.tobytes()
    doc.close()
    return data


NOTES = ["The Example Company and Subsidiaries", "Notes to the Consolidated Financial Statements",
         "Years ended December 31, 2020, 2019 and 2018", "(Dollars in millions, except per share data)"]


def _row(facts, label):
    return {f.column: f for f in facts if f.label == label}


def test_a_table_without_a_caption_takes_its_sections_caption():
    facts = read_facts(_filing(NOTES))
    revenues = _row(facts, "Total revenues")
    assert (revenues[0].value, revenues[0].unit, revenues[0].scale) == (15304, "USD", 1e6)
    assert "millions" in revenues[0].scale_caption
    assert _row(facts, "Total costs and expenses")[2].scale == 1e6
    eps = _row(facts, "Diluted (loss)/earnings per share")[0]
    assert (eps.value, eps.unit, eps.scale) == (-14.65, "USD/share", 1.0)


@pytest.mark.parametrize("heading, then", [
    (["The Example Company and Subsidiaries", "Summary of the year", "(Dollars in millions)"], ""),  # no statements title
    (NOTES, "Item 9A. Controls and Procedures"),  # the notes' section is over
], ids=["no statements title", "next item"])
def test_no_section_caption_leaves_the_scale_unknown(heading, then):
    revenues = _row(read_facts(_filing(heading, then)), "Total revenues")
    assert revenues[0].value == 15304 and revenues[0].scale == 1.0 and revenues[0].scale_caption == ""


def test_a_tables_own_caption_beats_its_sections():
    doc = pymupdf.open(stream=_filing(NOTES), filetype="pdf")
    doc[-1].insert_text((LABEL_X, 94), "(In thousands)", fontsize=9)
    facts = read_facts(doc.tobytes())
    assert _row(facts, "Total revenues")[0].scale == 1e3


@pytest.mark.parametrize("lines, caption", [
    (NOTES, "Dollars in millions, except per share data"),
    (["Notes to Condensed Consolidated Financial Statements", "(In millions, unless otherwise stated)"],
     "In millions, unless otherwise stated"),
    (["Consolidated Statements of Operations", "(Millions)"], "Millions"),
    (["Notes to the Consolidated Financial Statements", "Amounts in the table below are in millions of dollars and "
      "were measured at fair value on a recurring basis"], None),  # a sentence, no caption line
    (["Management's Discussion and Analysis", "(Dollars in millions)"], None),
])
def test_section_caption_of_a_heading_block(lines, caption):
    assert section_caption(lines) == caption
