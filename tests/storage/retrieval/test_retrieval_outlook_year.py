"""A year an expectation is for ("how much does Acme expect to spend in FY2023") is printed as the outlook of the
filing of the year before; the year's own 10-K reports what happened (Ranking.outlook_year, on)."""

from __future__ import annotations

import pytest

from storage.documents import ingest
from storage.retrieval.fusion import Ranking
from storage.retrieval.hybrid import HybridRetriever
from storage.retrieval.question_scope import question_scope
from tests.fixtures_filings import cover_10k, source_path, write_pages


def test_the_year_an_expectation_is_for_reads_as_the_year_before():
    assert question_scope("How much restructuring cost does Acme expect in FY2023?", outlook=True).periods == [(2022, None)]
    assert question_scope("What is Boeing forecasting for fiscal 2024?", outlook=True).periods == [(2023, None)]
    # a year naming the plan, not what the expectation is for; no expectation; off
    assert question_scope("What synergies does Acme expect from its 2019 integration plan?", outlook=True).periods == [(2019, None)]
    assert question_scope("Restructuring cost in FY2023?", outlook=True).periods == [(2023, None)]
    assert question_scope("How much restructuring cost does Acme expect in FY2023?").periods == [(2023, None)]


@pytest.fixture
def two_years():
    k22 = ingest.process_and_index_pdf(write_pages(source_path("outlook_k22.pdf"), [
        cover_10k("ACME PACKAGING PLC", "June 30, 2022"),
        "Item 7. Management's Discussion and Analysis.\nExit from Russia. We expect to incur additional "
        "restructuring and other costs of $30 million to $40 million in fiscal 2023 in connection with the exit."]))
    k23 = ingest.process_and_index_pdf(write_pages(source_path("outlook_k23.pdf"), [
        cover_10k("ACME PACKAGING PLC", "June 30, 2023"),
        "Item 7. Management's Discussion and Analysis.\nRestructuring and other costs. In fiscal 2023 restructuring "
        "and other costs were $110 million, including restructuring costs of the exit from Russia and other "
        "restructuring costs; restructuring and other costs in fiscal 2022 were $90 million."]))
    return k22, k23


def test_an_expectation_finds_the_filing_printing_the_outlook(two_years):
    k22, k23 = two_years
    question = "How much additional restructuring and other cost does Acme expect in FY2023 from exiting Russia?"
    before = HybridRetriever([k22.doc_id, k23.doc_id], use_cache=False, ranking=Ranking(outlook_year=False)).search(question, k=1)
    assert before[0].chunk.doc_id == k23.doc_id  # the trap: FY2023's own 10-K reads as the asked year
    after = HybridRetriever([k22.doc_id, k23.doc_id], use_cache=False, ranking=Ranking()).search(question, k=1)
    assert after[0].chunk.doc_id == k22.doc_id
