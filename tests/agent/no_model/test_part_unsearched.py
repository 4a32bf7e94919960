"""The no-model answer asks for the pages of a named segment the search did not bring (agent/no_model/answer.py
`_part_unsearched`) from the page numbers the stored facts give, without loading any page's text."""

from __future__ import annotations

from agent.no_model.answer import _part_unsearched
from agent.run import initial_state
from agent.tools import Source


def test_a_segments_page_the_search_missed_is_found_by_its_number_alone(pdf_home, monkeypatch):
    from storage.documents import catalog, ingest
    from tests.fixtures_filings import source_path
    from tests.storage.documents.layout_pages import filing
    from tests.storage.retrieval.test_retrieval_part_pages import BY_SECTION, INCOME

    path = source_path("acme_segments.pdf")
    path.write_bytes(filing([INCOME, BY_SECTION]))
    doc = ingest.process_and_index_pdf(path)

    def no_texts(doc_id):
        raise AssertionError("page texts loaded")

    monkeypatch.setattr(catalog, "load_page_texts", no_texts)
    asked = "What operating income did the Southlands segment earn in 2023?"
    state = initial_state(asked, selected_doc_ids=[doc.doc_id])
    statement_page = Source(kind="page", text="", doc_id=doc.doc_id, page_number=0)
    segment_page = Source(kind="page", text="", doc_id=doc.doc_id, page_number=1)
    assert _part_unsearched(state, asked, [statement_page])
    assert not _part_unsearched(state, asked, [statement_page, segment_page])
    company = "What was operating income in 2023?"
    assert not _part_unsearched(initial_state(company, selected_doc_ids=[doc.doc_id]), company, [statement_page])
