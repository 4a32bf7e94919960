"""The pages printing a row a question names by its printed label, found by the stored facts of generated pages
(storage/retrieval/label_pages.py): a notes table's row of no known line item, named in full, in a year its
columns print; a label of one word, a label the question says only in part, and a year no column prints get no
page; the longest label said comes first."""

from __future__ import annotations

from storage.retrieval.label_pages import label_rows, pages_of_label
from tests.storage.documents.layout_pages import Statement, facts_of
from tests.storage.retrieval.test_retrieval_part_pages import INCOME, YEARS

BORROWINGS = Statement(title=["Note 12 - Short-term borrowings", "(In millions)"], header=YEARS,
                       rows=[("Bank overdrafts", "67", "45"), ("Commercial paper", "310", "250"),
                             ("Other", "12", "9"), ("Total short-term borrowings", "389", "304")])
EQUIPMENT = Statement(title=["Note 6 - Property and equipment", "(In millions)"], header=YEARS,
                      rows=[("Vehicles and trailers", "717", "690"), ("Buildings", "900", "880"), ("Total", "1,617", "1,570")])
LEASED = Statement(title=["Note 7 - Leases", "(In millions)"], header=YEARS,
                   rows=[("Electric vehicles and trailers leased", "55", "40"), ("Office space leased", "80", "75")])


def _rows(*statements):
    return label_rows([f.model_dump() for f in facts_of(*statements)], frozenset({"acme"}))


def test_a_notes_row_named_by_its_label_gets_its_page_not_the_statements():
    rows = _rows(INCOME, BORROWINGS, EQUIPMENT)
    assert pages_of_label(rows, "What were Acme's bank overdrafts at the end of fiscal 2023?") == [1]
    assert pages_of_label(rows, "How much commercial paper did Acme have outstanding in 2022?") == [1]


def test_the_longest_label_said_comes_first():
    rows = _rows(INCOME, EQUIPMENT, LEASED)
    # the question says both rows' labels: the page of the longer one (what it says in full) first
    assert pages_of_label(rows, "What were Acme's electric vehicles and trailers leased in 2023?") == [2, 1]
    assert pages_of_label(rows, "What were vehicles and trailers in 2023?") == [1]


def test_one_word_labels_labels_said_in_part_and_years_not_printed_get_no_page():
    rows = _rows(INCOME, BORROWINGS)
    assert pages_of_label(rows, "What was Other in 2023?") == []  # "Other", "Total": one word names no row
    assert pages_of_label(rows, "What were Acme's overdrafts in 2023?") == []  # "bank" not said
    assert pages_of_label(rows, "What were the bank overdrafts in 2019?") == []  # no column of 2019
    assert pages_of_label(rows, "What were the bank overdrafts?") == [1]  # no year asked: any
