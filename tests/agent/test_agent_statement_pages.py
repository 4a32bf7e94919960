"""The agent's statement-pages tool weighs the selected documents with the page ranking's own prior options
(`Ranking().prior_options()`): of an issuer's filed 10-K and its glossy annual report binding the same
statement pages, the 10-K's page comes first, whichever was selected first."""

from __future__ import annotations

from agent.run import initial_state
from agent.tools import statement_sources
from storage.retrieval.fusion import Ranking
from tests.storage.retrieval.test_retrieval_primary_source import _annual_pair


def test_the_statement_pages_tool_puts_the_filed_10k_before_its_glossy_copy(pdf_home):
    k, glossy = _annual_pair()
    assert Ranking().filed_annual
    state = initial_state("What were total current assets at December 31, 2023?", selected_doc_ids=[glossy.doc_id, k.doc_id])
    sources, _, ok = statement_sources(state, "What were total current assets at December 31, 2023?")
    assert ok and [s.doc_id for s in sources[:2]] == [k.doc_id, glossy.doc_id]
    assert sources[0].page_number == sources[1].page_number - 3  # the same statement page, bound after three pages
