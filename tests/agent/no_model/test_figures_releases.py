"""Earnings-release layouts (generated PDFs read by layout, as at answer time): period heads over
sub-columns that are parts ("Flexibles | Rigid Packaging | Total") or measures ("EBITDA | EBIT |
EPS"), a "($ million ...)" caption, per-share rows "attributable to" the company, and a balance
asked at one of two dates of the same year (a 10-Q's quarter end and its fiscal year end)."""

from __future__ import annotations

import pymupdf
import pytest

from storage.documents.table_layout import layout_units
from storage.schema import Source
from tests.agent.no_model.pdf_statements import Page, statement_pdf, asked_lead  # noqa: F401 (fixture)

SIZE, LEFT = 8, 40


def _right(page, x, y, text):
    page.insert_text((x - pymupdf.get_text_length(text, fontsize=SIZE), y), text, fontsize=SIZE)


def _grouped_pdf(path, title, caption, groups, heads, rows, gap=52):
    """One page: `groups` (period heads) each spanning the `heads` sub-columns `gap` apart, then the rows."""
    doc = pymupdf.open()
    page = doc.new_page(width=760)
    page.insert_text((LEFT, 40), title, fontsize=SIZE + 2)
    first, group_gap = 330, 30
    rights = []
    x = first
    for _ in groups:
        rights.append([x + gap * i for i in range(len(heads))])
        x = rights[-1][-1] + gap + group_gap
    for g, group in enumerate(groups):
        _right(page, rights[g][-1], 66, group)
    page.insert_text((LEFT, 80), caption, fontsize=SIZE)
    for g in range(len(groups)):
        for xr, head in zip(rights[g], heads):
            _right(page, xr, 80, head)
    y = 98
    for label, *values in rows:
        page.insert_text((LEFT, y), label, fontsize=SIZE)
        flat = [xr for g in rights for xr in g]
        for xr, v in zip(flat, values):
            if v:
                _right(page, xr, y, v)
        y += 14
    doc.save(path)
    doc.close()


@pytest.fixture
def grouped(tmp_path, monkeypatch):
    def make(*args, file="NORTHWIND_2023Q4_EARNINGS.pdf", gap=52):
        path = tmp_path / file
        _grouped_pdf(path, *args, gap=gap)
        doc = pymupdf.open(path)
        texts = [p.get_text() for p in doc]
        words = [p.get_text("words") for p in doc]
        monkeypatch.setattr("agent.no_model.cited_rows.table_units", lambda doc_id, page, text: layout_units(words[page]))
        monkeypatch.setattr("agent.no_model.cited_rows.fiscal_period", lambda doc_id: (None, None))
        sources = [Source(source_id="[^1]", kind="document", doc_id="northwind-q4", page_number=0, source_file=file,
                          text=texts[0], extra={"issuer": "Northwind"})]
        return sources, lambda src: texts[src.page_number]
    return make


GROUPS = ("Three Months Ended June 30, 2022", "Three Months Ended June 30, 2023")
SEGMENTS = ("Films", "Bottles", "Other", "Total")
SEGMENT_ROWS = [
    ("Net income attributable to Northwind", "", "", "", "109", "", "", "", "181"),
    ("Adjusted EBIT", "449", "96", "(39)", "505", "387", "73", "(24)", "436"),
]
MEASURES = ("EBITDA", "EBIT", "Net income")
MEASURE_ROWS = [
    ("EBITDA, EBIT and Net income", "395", "250", "109", "467", "323", "181"),
    ("Adjusted EBITDA, EBIT and Net income", "609", "505", "368", "540", "436", "282"),
]



def test_a_part_column_answers_its_part_and_the_total_column_the_company(grouped):
    sources, text = grouped("Reconciliation of adjusted EBIT by reporting segment", "($ million)", GROUPS, SEGMENTS,
                            SEGMENT_ROWS)
    assert ": $387" in asked_lead("What was the Films segment's adjusted EBIT in the three months ended June 30, 2023?",
                            sources, text)
    assert ": $73" in asked_lead("What adjusted EBIT did Bottles earn in the three months ended June 30, 2023?", sources, text)
    # no part named: the total column, never the first part's
    assert ": $436" in asked_lead("What was Northwind's adjusted EBIT for the three months ended June 30, 2023?", sources, text)


def test_a_measure_column_answers_the_measure_with_the_rows_qualifier(grouped):
    sources, text = grouped("Reconciliation of Non-GAAP Measures", "($ million)", GROUPS, MEASURES, MEASURE_ROWS)
    assert ": $505" in asked_lead("What was Northwind's adjusted EBIT for the three months ended June 30, 2022?", sources, text)
    assert ": $540" in asked_lead("What was Northwind's adjusted EBITDA for the three months ended June 30, 2023?",
                            sources, text)
    # the unadjusted row's measure is not the adjusted one
    assert ": $323" in asked_lead("What was Northwind's EBIT for the three months ended June 30, 2023?", sources, text)


def test_two_sub_columns_naming_one_measure_are_not_read():
    from agent.no_model.release_columns import _elements, _names

    assert _elements("Adjusted EBITDA, EBIT, Net income, and EPS(1)") == ["Adjusted EBITDA", "EBIT", "Net income", "EPS"]
    assert not _names("EBIT", "EBITDA") and _names("EBIT", "EBIT")
    assert _names("EPS", "Earnings per Common Share") and not _names("Core Earnings", "Earnings per Common Share")


INCOME = Page("U.S. GAAP Condensed Consolidated Statements of Income (Unaudited)", ("2022", "2023"), [
    ("Net sales", "14,544", "14,694"),
    ("Net income attributable to Northwind plc", "805", "1,048"),
    ("Basic earnings per share attributable to Northwind", "0.532", "0.709"),
    ("Diluted earnings per share attributable to Northwind", "0.529", "0.705"),
], caption="($ million, except per share amounts)", span="Twelve Months Ended June 30,")


def test_a_dollar_million_caption_scales_the_amounts_and_eps_attributable_is_eps(statement_pdf):
    sources, text = statement_pdf([INCOME], file="NORTHWIND_2023Q4_EARNINGS.pdf")
    assert "14,694 million" in asked_lead("What were Northwind's net sales for fiscal 2023?", sources, text)
    lead = asked_lead("What were Northwind's diluted earnings per share for the twelve months ended June 30, 2023?",
                 sources, text)
    assert "0.705" in lead and "million" not in lead


BALANCE = Page("Condensed Consolidated Balance Sheets", ("December 31, 2022", "June 30, 2022"), [
    ("Goodwill", "5,281", "5,285"),
    ("Total assets", "17,475", "17,426"),
], span="")


def test_a_balance_asked_at_a_date_reads_that_dates_column(statement_pdf):
    sources, text = statement_pdf([BALANCE], file="NORTHWIND_2023Q2_10Q.pdf")
    assert "5,285" in asked_lead("How much goodwill did Northwind carry at June 30, 2022?", sources, text)
    assert "17,475" in asked_lead("What were Northwind's total assets at December 31, 2022?", sources, text)


CONDENSED_BALANCE = Page("U.S. GAAP Condensed Consolidated Balance Sheets (Unaudited)", ("June 30, 2022", "June 30, 2023"), [
    ("Total assets", "17,426", "17,003"),
    ("Long-term debt, less current portion", "6,340", "6,653"),
    ("Shareholders' equity", "4,141", "4,090"),
    ("Total liabilities and shareholders' equity", "17,426", "17,003"),
], caption="($ million)", span="")


def test_the_liabilities_and_equity_total_is_not_shareholders_equity(statement_pdf):
    sources, text = statement_pdf([CONDENSED_BALANCE], file="NORTHWIND_2023Q4_EARNINGS.pdf")
    lead = asked_lead("What was Northwind's shareholders' equity at June 30, 2022?", sources, text)
    assert "4,141" in lead and "17,426" not in lead





def test_a_column_counted_in_cents_says_cents_never_dollars():
    """A column titled "EPS (Diluted US cents)" (stacked over the period) holds cents: the figure line
    says "12.3 cents per share", never "$12.3 per share"; a dollar per-share column keeps its "$"."""
    from agent.no_model.figure_words import figure_line
    from storage.documents.tables import Cell, TableHeader

    header = TableHeader("", ("2022", "2023"))
    cents = Cell("EPS", "Three Months Ended June 30, 2023 EPS (Diluted US cents)", "12.3", "EPS 7.3 12.3", header, 1)
    dollars = Cell("Diluted EPS", "Three Months Ended June 30, 2023", "0.123", "Diluted EPS 0.073 0.123", header, 1)
    line = figure_line(cents, "[^1]", "($ million)", table_has_dollar=True)
    assert "12.3 cents per share" in line and "$12.3" not in line and "million" not in line
    assert "$0.123 per share" in figure_line(dollars, "[^1]", "($ million)", table_has_dollar=True)
