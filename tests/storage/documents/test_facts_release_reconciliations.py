"""Layouts of release reconciliations and 10-Q statements the facts reader misread (issue 27, cells9), on generated
pages: a row label wrapped over two lines heads no section; a stray dash beside a column's dash makes no column;
"35.4 %" whose digits reach into the amounts' span stays in their column; a span phrase printing a full date over
columns of their own years ("Nine Months Ended September 30, 2022" over "2022  2021") dates each column by its own
year; a title stacked on more lines than its neighbour's heads its own columns only; a column titled "Earnings per
Common Share" or "EPS (Diluted US cents)" holds per-share amounts."""

from __future__ import annotations

import pymupdf

from tests.storage.documents.layout_pages import (
    LABEL_X, Statement, centred, check_fact, fact, facts_of, read_facts, right_aligned, span,
)

QUARTER_2023 = span("2023-04-01", "2023-06-30", 3)


def test_a_wrapped_row_label_is_one_label_and_no_section():
    st = Statement(title=["Reconciliation of Non-GAAP Measures", "($ million)"],
                   header=["Three Months Ended June 30,", ["2023", "2022"]],
                   rows=[("Net income attributable to Amcor", "181", "109"),
                         ("Net income attributable to non-",), ("controlling interests", "4", "3"),
                         ("Tax expense", "68", "103"),
                         ("Purchase of property, plant and equipment and",), ("other intangible assets", "(144)", "(154)"),
                         ("Movement in working capital", "572", "493")])
    facts = facts_of(st)
    check_fact(facts, "Net income attributable to non-controlling interests", 0, **QUARTER_2023, section="")
    check_fact(facts, "Tax expense", 0, **QUARTER_2023, section="")
    check_fact(facts, "Purchase of property, plant and equipment and other intangible assets", 1, section="")
    check_fact(facts, "Movement in working capital", 0, **QUARTER_2023, section="")


def _page(draw_on) -> bytes:
    doc = pymupdf.open()
    draw_on(doc.new_page(width=612, height=792))
    return doc.tobytes()


def test_a_stray_dash_beside_a_columns_dash_makes_no_column():
    """"—  -" in one row (a stray mark printed a few points right of the column's own dash) under a spanning phrase."""
    rights = (365, 455, 545)

    def draw_on(page):
        page.insert_text((LABEL_X, 80), "(In millions)", fontsize=9)
        centred(page, 430, 96, "Years Ended December 31, 2023, 2022 and 2021")
        for x1, year in zip(rights, ("2023", "2022", "2021")):
            right_aligned(page, x1, 110, year)
        rows = [("Net sales", "900", "800", "700"), ("Other", "-", "(5)", "(6)"), ("Operating income", "120", "110", "90")]
        for k, (label, *values) in enumerate(rows):
            y = 126 + 13 * k
            page.insert_text((LABEL_X, y), label, fontsize=9)
            for x1, v in zip(rights, values):
                right_aligned(page, x1, y, v)
        right_aligned(page, rights[0] + 16, 126 + 13, "-")  # the stray mark

    facts = read_facts(_page(draw_on))
    assert {f.column for f in facts} == {0, 1, 2}
    check_fact(facts, "Other", 1, **span("2022-01-01", "2022-12-31", 12))
    assert fact(facts, "Other", 1).value == -5
    check_fact(facts, "Operating income", 2, **span("2021-01-01", "2021-12-31", 12))


def test_a_percent_set_apart_whose_digits_reach_into_the_amounts_stays_in_their_column():
    """Gross margin in dollars and in percent under the same heads: "35.4 %" with a wide gap before its "%" ends its
    digits further left than a "%" glued to them, inside the span of the amounts above."""
    rights = (365, 455)

    def draw_on(page):
        page.insert_text((LABEL_X, 80), "(dollars in millions)", fontsize=9)
        centred(page, 380, 96, "Three Months Ended")
        for x1, head in zip(rights, ("July 1, 2023", "June 25, 2022")):
            right_aligned(page, x1, 110, head)
        y = 126
        page.insert_text((LABEL_X, y), "Gross margin:", fontsize=9)
        for k, (label, *values) in enumerate([("Products", "21,448", "21,870"), ("Services", "14,965", "14,015")]):
            page.insert_text((LABEL_X, y + 13 * (k + 1)), label, fontsize=9)
            for x1, v in zip(rights, values):
                right_aligned(page, x1, y + 13 * (k + 1), v)
        y += 13 * 3
        page.insert_text((LABEL_X, y), "Gross margin percentage:", fontsize=9)
        for k, (label, *values) in enumerate([("Products", "35.4", "34.5"), ("Services", "70.5", "71.5")]):
            row_y = y + 13 * (k + 1)
            page.insert_text((LABEL_X, row_y), label, fontsize=9)
            for x1, v in zip(rights, values):
                right_aligned(page, x1 - 16.5, row_y, v)
                page.insert_text((x1 - 14.5, row_y), "%", fontsize=9)

    facts = read_facts(_page(draw_on))
    assert {f.column for f in facts} == {0, 1}
    percents = [f for f in facts if f.label == "Products" and f.unit == "%"]
    assert [(f.column, f.value, f.period_end) for f in percents] == [(0, 35.4, "2023-07-01"), (1, 34.5, "2022-06-25")]


def test_a_span_phrase_dated_over_columns_of_their_own_years_dates_each_by_its_year():
    st = Statement(title=["CONDENSED CONSOLIDATED STATEMENTS OF CASH FLOWS", "(in millions)"],
                   header=["(Unaudited)", "Nine Months Ended September 30, 2022", ["2022", "2021"]],
                   rows=[("Net income (loss)", "1,297", "(564)"), ("Repayments of long-term debt", "(5,980)", "(21)")])
    facts = facts_of(st)
    check_fact(facts, "Repayments of long-term debt", 0, **span("2022-01-01", "2022-09-30", 9))
    check_fact(facts, "Repayments of long-term debt", 1, **span("2021-01-01", "2021-09-30", 9))


def test_a_title_stacked_higher_than_its_neighbours_heads_its_own_columns_only():
    """"Earnings" over one pair of columns, "Earnings per" / "Common" / "Share" over the next pair, narrow pitch: the
    first pair's second column is no "Earnings per ..." column and holds amounts in millions; the per-share columns
    hold dollars per share."""
    values = ("1,406", "1,356", "0.19", "0.17", "2,975", "2,831", "0.46", "0.39")
    st = Statement(title=["Second Quarter, 2023 vs. 2022", "(in millions, except per share amounts)"],
                   header=[[("Three Months Ended", 0, 3), ("Six Months Ended", 4, 7)],
                           [("June 30,", 0, 3), ("June 30,", 4, 7)],
                           [("Earnings per", 2, 3), ("Earnings per", 6, 7)],
                           [("Common", 2, 3), ("Common", 6, 7)],
                           [("Net earnings", 0, 1), ("Share", 2, 3), ("Net earnings", 4, 5), ("Share", 6, 7)],
                           ["2023", "2022", "2023", "2022", "2023", "2022", "2023", "2022"]],
                   rows=[("Earnings on a GAAP basis", *values)])
    facts = facts_of(st)
    second = fact(facts, "Earnings on a GAAP basis", 1)
    assert "per" not in second.period and (second.unit, second.scale) == ("USD", 1e6)
    check_fact(facts, "Earnings on a GAAP basis", 2, **QUARTER_2023, unit="USD/share", scale=1.0)
    check_fact(facts, "Earnings on a GAAP basis", 6, **span("2023-01-01", "2023-06-30", 6), unit="USD/share", scale=1.0)


def test_a_column_titled_in_cents_over_stacked_lines_is_per_share_hundredths():
    st = Statement(title=["Reconciliation of adjusted EBIT, Net income and EPS"],
                   header=["Twelve Months Ended", [("June 30, 2022", 0, 1), ("June 30, 2023", 2, 3)],
                           ["", "EPS", "", "EPS"], ["Net", "(Diluted US", "Net", "(Diluted US"],
                           ["Income", "cents)", "Income", "cents)"]],
                   header_left={4: "($ million)"},
                   rows=[("Net income attributable to Amcor", "805", "52.9", "1,048", "70.5"),
                         ("Adjusted net income and EPS", "1,224", "80.5", "1,089", "73.3")])
    facts = facts_of(st)
    check_fact(facts, "Adjusted net income and EPS", 2, **span("2022-07-01", "2023-06-30", 12), unit="USD", scale=1e6)
    check_fact(facts, "Adjusted net income and EPS", 3, **span("2022-07-01", "2023-06-30", 12), unit="USD/share",
               scale=0.01)


def test_a_release_summary_under_basis_heads_keeps_each_columns_basis_and_its_change_in_words():
    """"GAAP" centred over a quarter, its year-ago quarter and "vs. Q4 2021", "Non-GAAP" over the next three; the change
    printed in words ("down 32%", "down 4.4 pts", "flat"): every row read, each value's period saying its basis, a
    change's value signed."""
    st = Statement(title=["Q4 2022 Financial Results"],
                   header=[[("GAAP", 0, 2), ("Non-GAAP", 3, 5)],
                           ["Q4 2022", "Q4 2021", "vs. Q4 2021", "Q4 2022", "Q4 2021", "vs. Q4 2021"]],
                   rows=[("Revenue ($B)", "$14.0", "$20.5", "down 32%", "$14.0", "$20.5", "down 28%"),
                         ("Gross Margin", "49.2%", "53.6%", "down 4.4 pts", "53.8%", "55.4%", "down 1.6 pts"),
                         ("Tax Rate", "(3.9)%", "13.6%", "flat", "3.2%", "3.9%", "down 0.7 pts")])
    facts = facts_of(st)
    assert {f.label for f in facts} == {"Revenue ($B)", "Gross Margin", "Tax Rate"}
    assert [("Non-GAAP" in f.period, f.value) for f in facts if f.label == "Gross Margin"] == [
        (False, 49.2), (False, 53.6), (False, -4.4), (True, 53.8), (True, 55.4), (True, -1.6)]
    assert fact(facts, "Revenue ($B)", 2).value == -32.0 and fact(facts, "Tax Rate", 2).value is None
