"""The selected documents are read from the catalog once per turn, and the turn's nodes and tools see
them typed (`SelectedDocument` with its `DocumentInfo`) in state."""

from __future__ import annotations

import sys

import storage.documents.catalog as catalog
from agent.run import initial_state, run_turn
from agent.selection import SelectedDocument, selected_documents, selected_infos
from tests.fixtures_agent import call, context, grade, say, scripted


def test_a_turn_reads_the_selection_from_the_catalog_once(sample_pdf, monkeypatch):
    reads = {"library": 0, "manifest": 0}  # by the agent (retrieval and page texts read manifests of their own)

    def counted(name, real):
        def read(*args, **kwargs):
            if sys._getframe(1).f_globals["__name__"].startswith("agent."):
                reads[name] += 1
            return real(*args, **kwargs)
        return read

    monkeypatch.setattr(catalog, "library_infos", counted("library", catalog.library_infos))
    monkeypatch.setattr(catalog, "load_manifest", counted("manifest", catalog.load_manifest))
    # a model turn of three rounds (two searches, then the answer): each round's prompt has the scope note,
    # which reads the selection's DocumentInfo; the routing summary reads its manifest
    llm = scripted(grade("yes"), call("rag_search_tool", query="revenue"), call("statement_pages_tool", question="What was total revenue?"),
                   say("Revenue was 412 million euros [^1]."))
    result = run_turn(context(llm), "What was total revenue in fiscal 2023?", selected_doc_ids=[sample_pdf.doc_id])
    assert result.route == "documents" and result.citations
    assert reads == {"library": 1, "manifest": 1}


def test_the_selection_in_state_is_typed_in_selection_order(sample_pdf):
    state = initial_state("hello", selected_doc_ids=["missing-0123456789ab", sample_pdf.doc_id])
    missing, doc = state["selected_documents"]
    assert isinstance(doc, SelectedDocument) and doc.doc_id == sample_pdf.doc_id
    assert doc.source_file == sample_pdf.source_file and doc.info is not None and doc.summary
    assert missing.source_file is None and missing.info is None  # unknown: no summary, no info, kept in place
    assert state["indexed_document_summary"] == doc.summary
    assert selected_infos(state) == [doc.info]
    # a node called on its own (no selection in its state) reads it then
    assert selected_documents({"selected_doc_ids": [sample_pdf.doc_id]}) == [doc]
