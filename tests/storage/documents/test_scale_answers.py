"""A statement captioned "(Millions)": the no-model figure line says the figure at the caption's scale."""

from __future__ import annotations

from agent.run import run_turn
from storage.documents.ingest import process_and_index_pdf
from tests.fixtures_agent import context
from tests.storage.documents.statement_pdfs import statement_filing


def test_a_millions_caption_scales_the_figure_line(pdf_home):
    processed = process_and_index_pdf(statement_filing(pdf_home / "source" / "northwind_2022_10k.pdf"))
    result = run_turn(context(), "What were net sales in 2022?", selected_doc_ids=[processed.doc_id])
    assert "$34,229 million" in result.message, result.message
