"""The facts feature (storage/retrieval/fact_pages.py, Ranking.facts_weight): a page whose stored facts
carry the asked line item in a column of the asked year outranks a page that talks about the item in
prose; a build without stored facts ranks as before. On generated PDFs: text inserted at positions
with PyMuPDF (a statement's rows and right-aligned value columns), read back by the ingestion."""

from __future__ import annotations

import logging

import numpy as np
import pymupdf

from storage.documents import ingest
from storage.documents.catalog import get_pdf_output_dirs
from storage.retrieval import fact_pages, stored_facts
from storage.retrieval.fact_pages import FactPages, asked_facts, fact_concepts, page_match
from storage.retrieval.fusion import Ranking
from storage.retrieval.hybrid import HybridRetriever, clear_loaded_indexes
from tests.fixtures_filings import source_path

BEFORE = Ranking(facts_weight=0.0)
FACTS = Ranking(facts_weight=1.0)  # a six-page generated filing: wider gaps between its pages than a real one's
QUESTION = "What were Acme Rockets' net sales in fiscal 2022?"
PROSE = ("Item 7. Management's Discussion and Analysis. Acme Rockets' net sales in fiscal 2022 grew on higher launch "
         "volumes and prices. Our engineers completed the new test stand, and the board approved a second plant.")
STATEMENT = [
    ("Consolidated Statements of Operations", None),
    ("(In millions)", None),
    ("Years ended December 31,", ("2022", "2021", "2020")),
    ("Net sales", ("12,400", "11,100", "10,050")),
    ("Cost of sales", ("(8,100)", "(7,600)", "(7,000)")),
    ("Gross profit", ("4,300", "3,500", "3,050")),
    ("Selling, general and administrative", ("(1,900)", "(1,700)", "(1,650)")),
    ("Operating income", ("2,400", "1,800", "1,400")),
    ("Net income", ("1,800", "1,350", "1,020")),
]
OTHER = [f"Item 2. Properties. We own {n} warehouses and offices near the port, leased to tenants." for n in range(4)]


def _write(name: str) -> str:
    """A filing: page 0 talks about net sales in prose, page 1 prints the statement (its rows at the left
    margin, each year's values right-aligned under the year), then pages about something else."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_textbox(pymupdf.Rect(50, 50, 550, 800), PROSE, fontsize=9)
    page = doc.new_page()
    y = 60
    for label, values in STATEMENT:
        page.insert_text((56, y), label, fontsize=9)
        for i, value in enumerate(values or ()):
            right = 400 + 70 * i
            page.insert_text((right - pymupdf.get_text_length(value, fontsize=9), y), value, fontsize=9)
        y += 16
    for text in OTHER:
        doc.new_page().insert_textbox(pymupdf.Rect(50, 50, 550, 800), text, fontsize=9)
    path = source_path(name)
    doc.save(path)
    doc.close()
    return ingest.process_and_index_pdf(path).doc_id


def _first_page(doc_id: str, question: str, ranking: Ranking) -> int:
    return HybridRetriever([doc_id], use_cache=False, ranking=ranking).search(question, k=3)[0].chunk.page_number


def test_the_page_printing_the_asked_row_in_the_asked_year_outranks_the_prose(pdf_home):
    doc_id = _write("acme_facts.pdf")
    pages = fact_pages.load_fact_pages(doc_id)
    assert 1 in pages.pages_of(("Revenues",)) and 2022 in pages.pages_of(("Revenues",))[1]  # read at ingestion
    assert 0 not in pages.pages_of(("Revenues",))
    assert _first_page(doc_id, QUESTION, BEFORE) == 0  # the trap: the prose repeats the asked words
    assert _first_page(doc_id, QUESTION, FACTS) == 1
    # nothing of a line item asked: nothing lifted, the ranking is today's
    other = "Which warehouses near the port does Acme own?"
    before = [(h.chunk.page_number, h.score) for h in HybridRetriever([doc_id], use_cache=False, ranking=BEFORE).search(other, k=4)]
    after = [(h.chunk.page_number, h.score) for h in HybridRetriever([doc_id], use_cache=False, ranking=FACTS).search(other, k=4)]
    assert before == after


def test_a_build_without_facts_ranks_as_before_and_says_so_once(pdf_home, caplog):
    doc_id = _write("acme_no_facts.pdf")
    get_pdf_output_dirs(doc_id).facts_path.unlink()  # a build made before facts were stored
    clear_loaded_indexes()
    stored_facts.clear()
    before = [(h.chunk.page_number, h.score) for h in HybridRetriever([doc_id], use_cache=False, ranking=BEFORE).search(QUESTION, k=4)]
    with caplog.at_level(logging.INFO, logger="storage.retrieval.stored_facts"):
        for _ in range(2):
            after = [(h.chunk.page_number, h.score) for h in
                     HybridRetriever([doc_id], use_cache=False, ranking=FACTS).search(QUESTION, k=4)]
            assert after == before
        clear_loaded_indexes()  # the index read again: still one message for the document
        HybridRetriever([doc_id], use_cache=False, ranking=FACTS).search(QUESTION, k=4)
    said = [r for r in caplog.records if "no stored facts" in r.getMessage()]
    assert len(said) == 1 and doc_id in said[0].getMessage()


def test_match_levels_concept_and_year_concept_only_and_a_ratios_inputs():
    pages = FactPages({"Revenues": {0: frozenset({2022, 2021}), 1: frozenset({2020, 2019})},
                       "OperatingIncomeLoss": {0: frozenset({2022}), 2: frozenset({2022})}})
    sales = asked_facts("What were net sales in FY2022?")
    assert list(page_match(pages, sales, 4)) == [1.0, 0.5, 0.0, 0.0]  # the year; the row only; neither
    assert list(page_match(pages, sales, 4, concept_only=0.0)) == [1.0, 0.0, 0.0, 0.0]
    assert list(page_match(pages, asked_facts("How did net sales change over time?"), 4)) == [1.0, 1.0, 0.0, 0.0]
    both = asked_facts("What were net sales in FY2022 and FY2020?")
    assert list(page_match(pages, both, 4)) == [0.75, 0.75, 0.0, 0.0]  # half the asked years each
    # a ratio: the share of its formula's inputs the page prints (operating margin = operating income / revenues)
    margin = asked_facts("What was the operating margin in FY2022?")
    assert list(page_match(pages, margin, 4)) == [1.0, 0.25, 0.5, 0.0]
    assert asked_facts("Who is the chief executive officer?") is None


def test_a_row_of_no_known_concept_is_read_by_its_label_or_its_section():
    assert fact_concepts("Revenues", "Total net sales", "") == ("Revenues",)
    assert fact_concepts(None, "Consolidated revenue", "") == ("Revenues",)
    assert fact_concepts(None, "Express segment", "Operating margin") == ("OperatingMargin",)
    assert fact_concepts(None, "Fuel", "Maintenance") == ()
    assert np.array_equal(page_match(FactPages({}), asked_facts("net sales in 2022"), 3), np.zeros(3))


TIE = Ranking(facts_tie=1.0)  # the window in the six-page filing's spread (its pages are further apart than a real one's)


def test_the_tie_break_puts_the_asked_row_first_among_near_ties_but_not_for_a_cause_question(pdf_home):
    doc_id = _write("acme_facts_tie.pdf")
    assert _first_page(doc_id, QUESTION, BEFORE) == 0  # the prose repeats the asked words
    assert _first_page(doc_id, QUESTION, TIE) == 1  # the statement prints the row, in the 2022 column
    # why it moved is told in the prose: the tie-break leaves a cause question as ranked
    why = "Why did Acme Rockets' net sales grow in fiscal 2022?"
    before = [(h.chunk.page_number, h.score) for h in HybridRetriever([doc_id], use_cache=False, ranking=BEFORE).search(why, k=4)]
    after = [(h.chunk.page_number, h.score) for h in HybridRetriever([doc_id], use_cache=False, ranking=TIE).search(why, k=4)]
    assert after == before


def test_the_tie_break_lifts_only_pages_within_the_window_of_the_best():
    from storage.retrieval.fusion import facts_tie_break

    scores = np.array([5.0, 4.8, 4.0, -np.inf, 1.0, 3.0])  # spread: best 5 over median 4 = 1
    match = np.array([0.0, 1.0, 1.0, 1.0, 1.0, 0.0])
    one = np.zeros(6, dtype=int)
    out = facts_tie_break(scores, match, 0.5, one)  # the window: half the spread
    assert list(np.argsort(-out, kind="stable")[:3]) == [1, 0, 2]  # the near tie printing the row leads
    assert out[2] == 4.0 and out[4] == 1.0 and out[3] == -np.inf  # further down: as ranked
    assert np.array_equal(facts_tie_break(scores, match, 0.0, one), scores)


def test_the_tie_break_stays_within_the_best_pages_filing_and_its_own_spread():
    from storage.retrieval.fusion import facts_tie_break

    own = [5.0, 4.8, 1.0, 0.0]  # the chosen filing: spread 5 - 2.9
    match = [0.0, 1.0, 0.0, 0.0]
    alone = facts_tie_break(np.array(own), np.array(match), 0.25, np.zeros(4, dtype=int))
    # another filing beside it: a near page printing the row (another year's comparative) and many low pages,
    # which would widen a selection-wide spread
    other = [4.9, 4.7] + [-3.0] * 50
    scores = np.array(own + other)
    out = facts_tie_break(scores, np.array(match + [1.0] * len(other)), 0.25,
                          np.array([0] * len(own) + [1] * len(other)))
    assert np.array_equal(out[:4], alone)  # the window is the filing's own, whatever else is selected
    assert list(np.argsort(-out, kind="stable")[:4]) == [1, 0, 4, 5]
    assert np.array_equal(out[4:], scores[4:])  # not lifted past the filing the ranking chose


def test_a_ratio_s_inputs_count_only_when_asked_to():
    pages = FactPages({"OperatingIncomeLoss": {0: frozenset({2022})}, "Revenues": {0: frozenset({2022})},
                       "OperatingMargin": {1: frozenset({2022})}})
    margin = asked_facts("What was the operating margin in FY2022?")
    assert list(page_match(pages, margin, 2)) == [1.0, 1.0]
    assert list(page_match(pages, margin, 2, inputs=False)) == [0.0, 1.0]  # only the row of the ratio itself
