"""A year asked with a year-to-date span ("the first nine months of 2022") is what a third-quarter 10-Q reports
(and the next year's Q3 10-Q prints as comparatives), not the year's annual report (Ranking.year_to_date)."""

from __future__ import annotations

import pytest

from storage.documents import ingest
from storage.retrieval.fusion import Ranking
from storage.retrieval.hybrid import HybridRetriever
from storage.retrieval.question_scope import question_scope, year_to_date_quarter
from tests.fixtures_filings import cover_10k, cover_10q, source_path, write_pages

CAPEX_Q = ("Condensed Consolidated Statements of Cash Flows (in millions)\n"
           "Nine Months Ended September 30, 2023 2022\n"
           "Capital expenditures (7,210) (6,950)\nNet cash used in investing activities (7,400) (7,020)")
CAPEX_K = ("Consolidated Statements of Cash Flows (in millions)\nYear Ended December 31, 2022 2021\n"
           "Capital expenditures (9,580) (8,120)\nNet cash used in investing activities (9,900) (8,400)\n"
           "Capital expenditures in 2022 were driven by wildfire mitigation. Capital expenditures in 2022 "
           "and capital expenditures in 2021 rose; capital expenditures are planned to rise.")


def test_year_to_date_spans_name_their_quarter():
    assert year_to_date_quarter("capex in the first nine months of 2022") == 3
    assert year_to_date_quarter("revenue for the six months ended June 30") == 2
    assert year_to_date_quarter("first half of 2023 sales") == 2
    assert year_to_date_quarter("capex in 2022") is None
    assert question_scope("capex in the first nine months of 2022", year_to_date=True).periods == [(2022, 3)]
    assert question_scope("capex in the first nine months of 2022").periods == [(2022, None)]
    # a quarter named in words wins over the span
    assert question_scope("six months and Q1 2023 sales", year_to_date=True).periods == [(2023, 1)]


@pytest.fixture
def annual_and_quarter():
    k = ingest.process_and_index_pdf(write_pages(source_path("ytd_k22.pdf"), [
        cover_10k("ACME POWER COMPANY", "December 31, 2022"), "Item 8. Financial Statements.\n" + CAPEX_K]))
    q = ingest.process_and_index_pdf(write_pages(source_path("ytd_q23.pdf"), [
        cover_10q("ACME POWER COMPANY", "September 30, 2023"), "Item 1. Financial Statements.\n" + CAPEX_Q]))
    return k, q


def test_a_nine_months_question_finds_the_quarterly_report(annual_and_quarter):
    k, q = annual_and_quarter
    question = "How much did Acme Power spend on capital expenditures in the first nine months of 2022?"
    before = HybridRetriever([k.doc_id, q.doc_id], use_cache=False, ranking=Ranking()).search(question, k=1)
    assert before[0].chunk.doc_id == k.doc_id  # the trap: the 2022 annual report reads as the asked year
    after = HybridRetriever([k.doc_id, q.doc_id], use_cache=False, ranking=Ranking(year_to_date=True)).search(question, k=1)
    assert after[0].chunk.doc_id == q.doc_id
