"""A month an event happened in ("entered into in April 2022") names the current report dated in it, like a
named date does; the annual report of the year printing the same event in its liquidity prose is secondary
(Ranking.event_month, on)."""

from __future__ import annotations

import pytest

from storage.documents import ingest
from storage.retrieval import hybrid
from storage.retrieval.fusion import Ranking
from storage.retrieval.hybrid import HybridRetriever
from storage.retrieval.selection_prior import selection_prior
from tests.fixtures_filings import cover_8k, cover_10k, source_path, write_pages

FACILITY = ("revolving credit facility of $1.9 billion maturing April 2025 and a revolving credit facility of "
            "$1.9 billion maturing April 2027")


@pytest.fixture
def report_and_annual():
    k = ingest.process_and_index_pdf(write_pages(source_path("month_k22.pdf"), [
        cover_10k("ACME PACKAGING PLC", "June 30, 2022"),
        "Item 7. Liquidity and Capital Resources.\nIn April 2022 the Company entered into two new revolving credit "
        f"facilities: a three-year {FACILITY}. The revolving credit facilities replaced the revolving credit "
        "facilities entered into in 2019; each revolving credit facility is unsecured."]))
    e = ingest.process_and_index_pdf(write_pages(source_path("month_8k.pdf"), [
        cover_8k("ACME PACKAGING PLC", "April 26, 2022"),
        "Item 1.01. Entry into a Material Definitive Agreement.\nOn April 26, 2022, the Company entered into a "
        f"three-year {FACILITY}."]))
    return k, e


def test_a_month_names_the_current_report_dated_in_it(report_and_annual):
    k, e = report_and_annual
    infos = hybrid.documents_of([k.doc_id, e.doc_id])
    assert infos[e.doc_id].form == "8-K"
    question = "What is the committed amount and maturity of each revolving credit facility Acme entered into in April 2022?"
    prior = selection_prior(question, infos, event_month=True)
    assert prior[e.doc_id] > prior[k.doc_id]
    # a period's end is no event: "the quarter ended April 2022" does not name the 8-K
    assert selection_prior("Revenue for the quarter ended April 2022?", infos, event_month=True) == \
        selection_prior("Revenue for the quarter ended April 2022?", infos)
    before = HybridRetriever([k.doc_id, e.doc_id], use_cache=False, ranking=Ranking(event_month=False)).search(question, k=1)
    assert before[0].chunk.doc_id == k.doc_id  # the trap: FY2022's 10-K reads as the asked year
    after = HybridRetriever([k.doc_id, e.doc_id], use_cache=False, ranking=Ranking()).search(question, k=1)
    assert after[0].chunk.doc_id == e.doc_id
