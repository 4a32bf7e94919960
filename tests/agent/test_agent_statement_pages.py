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


def test_a_reconciliation_named_gets_its_table_page_before_the_statement_page(pdf_home):
    from storage.documents import ingest
    from tests.fixtures_filings import source_path
    from tests.storage.documents.layout_pages import Statement, filing

    five = ["Years ended December 31,", ["2023", "2022", "2021", "2020", "2019"]]
    operations = Statement(title=["CONSOLIDATED STATEMENTS OF OPERATIONS", "(In thousands)"],
                           header=["Years ended December 31,", ["2023", "2022"]],
                           rows=[("Rental revenue", "2,900", "2,700"), ("Depreciation and amortization", "(700)", "(650)"),
                                 ("Gains on sales of real estate", "375", "180"), ("Net income", "1,000", "950")])
    ffo = Statement(title=["The following table presents a reconciliation of net income to Funds from Operations",
                           "(In thousands)"], header=five,
                    rows=[("Net income", "1,000", "950", "900", "850", "800"),
                          ("Add: Real estate depreciation and amortization", "690", "640", "600", "580", "560"),
                          ("Less: Gains on sales of real estate", "(375)", "(180)", "(90)", "(60)", "(30)"),
                          ("Funds from Operations", "1,315", "1,410", "1,410", "1,370", "1,330")])
    path = source_path("acme_reit.pdf")
    path.write_bytes(filing([operations, ffo], prose_pages=1))
    doc = ingest.process_and_index_pdf(path)
    asked = "How much did gains on sales of real estate take out of Acme's 2022 net income on the way to FFO?"
    sources, message, ok = statement_sources(initial_state(asked, selected_doc_ids=[doc.doc_id]), asked)
    assert ok and [(s.page_number, bool(s.extra.get("reconciliation"))) for s in sources] == [(2, True), (1, False)]
    assert message.startswith("1 page(s) printing the reconciliation")
    # no measure named: the statement page alone; the old ranking (a preset): the statement page alone
    plain = "What was Acme's net income in 2022?"
    assert [s.page_number for s in statement_sources(initial_state(plain, selected_doc_ids=[doc.doc_id]), plain)[0]] == [1]
    old = statement_sources(initial_state(asked, selected_doc_ids=[doc.doc_id]), asked, Ranking(reconciliation_pages=0))
    assert [s.page_number for s in old[0]] == [1]
    # a build whose page texts cannot be read: no reconciliation page, the reason logged, nothing raised
    from agent.selection import selected_documents
    from agent.tools import reconciliation_sources
    from storage.documents.catalog import get_pdf_output_dirs

    selection = selected_documents(initial_state(asked, selected_doc_ids=[doc.doc_id]))
    get_pdf_output_dirs(doc.doc_id).pages_path.unlink()
    assert reconciliation_sources(selection, asked, Ranking()) == []
