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


def test_a_question_naming_a_segment_gets_its_tables_page_then_the_statement_page(pdf_home):
    from storage.documents import ingest
    from tests.fixtures_filings import source_path
    from tests.storage.documents.layout_pages import filing
    from tests.storage.retrieval.test_retrieval_part_pages import BY_SECTION, INCOME

    path = source_path("acme_segments.pdf")
    path.write_bytes(filing([INCOME, BY_SECTION]))
    doc = ingest.process_and_index_pdf(path)
    asked = "What operating income did the Southlands segment earn in 2023?"
    sources, _, ok = statement_sources(initial_state(asked, selected_doc_ids=[doc.doc_id]), asked)
    assert ok and [(s.page_number, bool(s.extra.get("part"))) for s in sources] == [(1, True), (0, False)]
    company = "What was operating income in 2023?"
    sources, _, ok = statement_sources(initial_state(company, selected_doc_ids=[doc.doc_id]), company)
    assert ok and [s.page_number for s in sources] == [0]


def test_a_row_named_by_its_label_gets_the_notes_page_printing_it(pdf_home):
    from agent.state import AgentContext
    from agent.tools import ranking_in_use
    from storage.retrieval.hybrid import HybridRetriever
    from storage.documents import ingest
    from tests.fixtures_filings import source_path
    from tests.storage.documents.layout_pages import filing
    from tests.storage.retrieval.test_retrieval_label_pages import BORROWINGS
    from tests.storage.retrieval.test_retrieval_part_pages import INCOME

    path = source_path("acme_notes.pdf")
    path.write_bytes(filing([INCOME, BORROWINGS], prose_pages=2))
    doc = ingest.process_and_index_pdf(path)
    asked = "What were Acme's bank overdrafts at the end of 2023?"
    sources, _, ok = statement_sources(initial_state(asked, selected_doc_ids=[doc.doc_id]), asked)
    assert ok and [(s.page_number, bool(s.extra.get("label"))) for s in sources] == [(3, True)]
    # a known line item keeps its statement page; a year no column prints, no page
    company = "What was net income in 2023?"
    sources, _, ok = statement_sources(initial_state(company, selected_doc_ids=[doc.doc_id]), company)
    assert ok and [(s.page_number, bool(s.extra.get("label"))) for s in sources] == [(2, False)]
    assert not statement_sources(initial_state(asked, selected_doc_ids=[doc.doc_id]), asked.replace("2023", "2019"))[2]
    # the old behaviour, a preset: the tool finds nothing for a row of no known line item; the tool reads the
    # ranking of the retriever the run searches with, not the default one
    old = Ranking(label_pages=0)
    context = AgentContext(get_retriever=lambda ids: HybridRetriever(ids, use_cache=False, ranking=old))
    assert ranking_in_use(context, [doc.doc_id]) is old
    assert ranking_in_use(AgentContext(get_retriever=HybridRetriever), [doc.doc_id]) == Ranking()
    assert ranking_in_use(context, []) == Ranking()  # nothing selected: the defaults
    assert statement_sources(initial_state(asked, selected_doc_ids=[doc.doc_id]), asked, ranking_in_use(context, [doc.doc_id])) == \
        ([], "No selected PDF, or the question names no statement line item.", False)
