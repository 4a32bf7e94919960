"""The pages printing a segment's (region's, product line's) row, found by the stored facts of generated statement
pages (storage/retrieval/part_pages.py): parts named by a section over their rows, by rows under an item's
section, by rows of a table whose total names the item, and by a column title; a question naming no part, or
another item than the part's rows print, gets no page."""

from __future__ import annotations

from storage.retrieval.part_pages import column_part, name_words, pages_of_part, part_rows
from tests.storage.documents.layout_pages import Statement, facts_of

YEARS = ["Years ended December 31,", ["2023", "2022"]]
INCOME = Statement(title=["CONSOLIDATED STATEMENTS OF OPERATIONS", "(In millions)"], header=YEARS,
                   rows=[("Net sales", "9,100", "8,800"), ("Cost of sales", "(5,000)", "(4,900)"),
                         ("Operating income", "1,400", "1,300"), ("Net income", "1,000", "950")])
BY_SECTION = Statement(title=["Note 9 - Reportable segments", "(In millions)"], header=YEARS,
                       rows=[("Northlands:",), ("Net sales", "5,100", "4,900"), ("Operating income", "800", "760"),
                             ("Southlands:",), ("Net sales", "4,000", "3,900"), ("Operating income", "600", "540")])
UNDER_ITEM = Statement(title=["Summary of business segment data", "(In millions)"], header=YEARS,
                       rows=[("Revenues:",), ("Orbital Launch", "6,200", "6,000"), ("Ground Systems", "2,900", "2,800"),
                             ("Total revenues", "9,100", "8,800")])
PARTS_OF_TOTAL = Statement(title=["Capital expenditures by segment were:", "(In millions)"], header=YEARS,
                           rows=[("Orbital Launch", "310", "290"), ("Ground Systems", "120", "130"),
                                 ("Total capital expenditures", "430", "420")])


def _parts(*statements, issuer="Acme Rockets"):
    facts = [f.model_dump() for f in facts_of(*statements)]
    return part_rows(facts, frozenset(name_words(issuer))), frozenset(name_words(issuer))


def test_a_part_named_by_the_section_over_its_rows_gets_that_page_not_the_statements():
    parts, issuer = _parts(INCOME, BY_SECTION)
    assert pages_of_part(parts, "What operating income did Acme's Southlands segment earn in 2022?", issuer) == [1]
    assert pages_of_part(parts, "What were Northlands net sales in fiscal 2023?", issuer) == [1]


def test_part_rows_under_an_items_section_and_parts_of_a_total_are_that_items_rows():
    parts, issuer = _parts(INCOME, UNDER_ITEM, PARTS_OF_TOTAL)
    assert pages_of_part(parts, "What revenue did the Orbital Launch segment report in 2023?", issuer) == [1]
    assert pages_of_part(parts, "How much did Ground Systems spend on capital expenditures in 2022?", issuer) == [2]


def test_a_company_level_question_or_another_item_of_the_part_gets_no_page():
    parts, issuer = _parts(INCOME, BY_SECTION, UNDER_ITEM)
    assert pages_of_part(parts, "What were Acme Rockets' net sales in 2023?", issuer) == []
    assert pages_of_part(parts, "What was Acme's total operating income in 2023?", issuer) == []
    # the part is printed, but only its revenues: no page for its capital expenditures
    assert pages_of_part(parts, "What were Orbital Launch's capital expenditures in 2023?", issuer) == []


def test_a_columns_title_names_its_part_before_its_period():
    assert column_part("Harbor Segment, Year ended May 31, 2023") == "Harbor Segment"
    assert column_part("Three Months Ended July 1, 2023") == ""
    assert name_words("Harbor Segment") == frozenset({"harbor"})
    assert name_words("Hardware Revenues") == frozenset({"hardware"})
    assert name_words("Acme Harbor Segment", name_words("Acme")) == frozenset({"harbor"})


def test_a_question_naming_no_known_item_needs_a_row_of_the_part_beyond_its_name():
    margins = Statement(title=["Results of our businesses", "(In millions)"], header=YEARS,
                        rows=[("Harbor:",), ("Revenues", "700", "650"), ("Margin", "210", "190"),
                              ("Inland:",), ("Revenues", "500", "450"), ("Margin", "90", "80")])
    mentions = Statement(title=["Revenues by business", "(In millions)"], header=YEARS,
                         rows=[("Harbor", "700", "650"), ("Inland", "500", "450"), ("Total revenues", "1,200", "1,100")])
    parts, issuer = _parts(INCOME, mentions, margins)
    # "margin" is no line item of the vocabulary: the page printing Harbor's "Margin" row, not the one naming Harbor only
    assert pages_of_part(parts, "What margin did the Harbor business earn in 2023?", issuer) == [2]


def test_a_word_of_the_asked_item_names_no_part():
    eps = Statement(title=["Selected quarterly data", "(In millions, except per share amounts)"], header=YEARS,
                    rows=[("Earnings per share:",), ("Basic", "2.10", "1.90"), ("Diluted", "2.05", "1.85")])
    parts, issuer = _parts(INCOME, eps)
    # "Diluted" under "Earnings per share" is the item's qualifier, said by the item asked, not a part of the company
    assert pages_of_part(parts, "What was Acme's diluted EPS in 2023?", issuer) == []


# a segment's MD&A table: its revenue by service line, each line a section of sub-rows naming no item, then the
# segment's "Total revenue" printed after the last section (it totals the table, not that section)
SERVICE_LINES = Statement(title=["Harbor segment revenue by service", "(In millions)"], header=YEARS,
                          rows=[("Parcel:",), ("Domestic", "500", "480"), ("Export", "300", "290"),
                                ("Total parcel revenue", "800", "770"),
                                ("Cargo:",), ("Domestic", "120", "110"), ("Export", "80", "70"),
                                ("Total revenue", "1,000", "950")])
CARGO_SEGMENT = Statement(title=["Note 12 - Segment information", "(In millions)"], header=YEARS,
                          rows=[("Cargo segment:",), ("Revenue", "2,400", "2,300"), ("Operating income", "310", "290"),
                                ("Harbor segment:",), ("Revenue", "1,000", "950"), ("Operating income", "90", "85")])
# a part's sub-rows and the total they sum to, printed under the part's own heading
PART_TOTAL = Statement(title=["Net sales by region", "(In millions)"], header=YEARS,
                       rows=[("Westmark:",), ("Products", "600", "560"), ("Services", "150", "140"),
                             ("Total net sales", "750", "700")])


def test_a_total_after_a_breakdown_section_it_does_not_sum_is_the_tables_not_that_sections():
    parts, issuer = _parts(INCOME, SERVICE_LINES, CARGO_SEGMENT)
    # "Cargo" is a service line of another segment on page 1 (sub-rows, no total of its own): page 2 only
    assert pages_of_part(parts, "What revenue did the Cargo segment generate in fiscal 2023?", issuer) == [2]


def test_a_generic_total_summing_its_sections_rows_stays_that_parts_figure():
    parts, issuer = _parts(INCOME, PART_TOTAL)
    assert pages_of_part(parts, "What were Westmark's net sales in 2023?", issuer) == [1]
