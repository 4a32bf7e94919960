"""Model mode: the model reads each source with its document title and period, is asked to state
figures with their period and id, and the figure it states is highlighted as a row cell."""

from __future__ import annotations

import json

from langchain_core.messages import SystemMessage, ToolMessage

from agent.run import run_turn
from agent.tools import RAG_TOOL
from storage.documents.ingest import process_and_index_pdf
from storage.retrieval.hybrid import HybridRetriever
from storage.schema import DocumentInfo
from tests.fixtures_agent import call, context, grade, say, scripted
from tests.fixtures_statements import make_statement_pdf

INFO = DocumentInfo(title="Northwind Aerospace · 10-K · FY2019", issuer="Northwind Aerospace", form="10-K", fiscal_year=2019)


class TitledRetriever:
    """The real hybrid retriever, with the document metadata the ingestion stores (storage/documents/metadata.py
    fills `RetrievedChunk.document` on the main branch; set here so this test does not depend on it)."""

    def __init__(self, doc_ids):
        self.inner = HybridRetriever(doc_ids)

    def search(self, query, k=8):
        return [hit.model_copy(update={"document": INFO}) for hit in self.inner.search(query, k=k)]


def test_model_sees_title_and_period_and_is_asked_for_periods(pdf_home):
    pdf = process_and_index_pdf(make_statement_pdf(pdf_home / "source" / "northwind_2019_10k.pdf"))
    llm = scripted(
        grade("yes"),
        call(RAG_TOOL, query="purchases of property, plant and equipment 2018"),
        say("Purchases of property, plant and equipment (Years ended December 31, 2018): (1,577) [^1]"),
    )
    result = run_turn(context(llm=llm, retriever=TitledRetriever), "What was capex in 2018?", selected_doc_ids=[pdf.doc_id])
    final_prompt = llm.seen[-1]
    system = next(m for m in final_prompt if isinstance(m, SystemMessage)).content
    assert "<line item> (<period>): <value as printed> [^n]" in system
    assert "never a neighbouring column" in system
    tool = next(m for m in final_prompt if isinstance(m, ToolMessage))
    sources = json.loads(tool.content)["sources"]
    assert sources and all(s["title"] == INFO.title and s["extra"]["period"] == "FY2019" for s in sources)
    # and the table chunk the model reads names the periods of its columns
    assert any("Years ended December 31, 2019" in s["text"] and "(1,577)" in s["text"] for s in sources)
    (citation,) = result.citations
    assert citation.metadata.quotes == ["Purchases of property, plant and equipment … (1,577)"]
