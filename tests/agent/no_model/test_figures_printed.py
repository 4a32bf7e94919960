""""No figure is stated" is never said while a searched page prints the asked item: when no row is
picked (two rows of the item that nothing tells apart), the answer lists what the pages print for it,
read from the facts stored at ingestion (storage/documents/facts.py `facts_of`, generated PDFs read
by layout); a page printing only other items still gets "no figure is stated"."""

from __future__ import annotations

import pymupdf

from agent.no_model import extractive, figures
from storage.documents.embeddings import get_embedder
from storage.documents.facts import facts_of
from storage.documents.table_layout import layout_units
from tests.agent.no_model.pdf_statements import Page, statement_pdf  # noqa: F401 (fixture)

YEARS = ("2022", "2021")
FIRST = Page("Selected Financial Data", YEARS, [("Revenues", "$ 9,632", "$ 9,532"), ("Operating income", "1,925", "1,700")])
SECOND = Page("Selected Financial Data", YEARS, [("Revenues", "$ 44,236", "$ 42,078"), ("Operating income", "3,000", "2,500")])
OTHER = Page("Selected Financial Data", YEARS, [("Operating income", "1,925", "1,700")])


def _with_facts(statement_pdf, monkeypatch, tmp_path, pages):
    sources, text = statement_pdf(pages)
    path = tmp_path / "facts.pdf"
    from tests.agent.no_model.pdf_statements import build_pdf

    build_pdf(path, pages)
    with pymupdf.open(path) as doc:
        stored = {i: facts_of(i, layout_units(p.get_text("words"))) for i, p in enumerate(doc)}
    monkeypatch.setattr(figures, "page_facts", lambda doc_id, page: stored[page])
    return sources, text


def test_rows_nothing_tells_apart_are_listed_not_said_missing(statement_pdf, monkeypatch, tmp_path):
    sources, text = _with_facts(statement_pdf, monkeypatch, tmp_path, [FIRST, SECOND])
    question = "What were revenues in 2022?"
    assert figures.figure_block(question, sources, text, get_embedder()) is None  # no row is picked
    answer, usable = extractive.compose_extractive_answer(question, sources, page_text=text, embedder=get_embedder())
    assert usable and figures.NO_FIGURE not in answer, answer
    assert "- Revenues (Years Ended December 31, 2022): $9,632 million [^1]" in answer, answer
    assert "- Revenues (Years Ended December 31, 2022): $44,236 million [^2]" in answer, answer
    assert "9,532" not in answer  # another year's column is not what the page prints for the asked year


def test_no_fact_of_the_item_still_says_no_figure(statement_pdf, monkeypatch, tmp_path):
    sources, text = _with_facts(statement_pdf, monkeypatch, tmp_path, [OTHER])
    assert figures.printed_block("What were revenues in 2022?", sources) is None
    assert figures.printed_block("What was operating income in 2020?", sources) is None  # a year not printed


def test_a_computation_asked_gets_no_input_row_listed(statement_pdf, monkeypatch, tmp_path):
    sources, text = _with_facts(statement_pdf, monkeypatch, tmp_path, [FIRST, SECOND])
    assert figures.printed_block("What were revenues in 2022?", sources)  # the rows are printed
    # the ratio's input printed is not the ratio: no row listed as if it answered
    assert figures.printed_block("What was the operating margin in 2022 (operating income divided by revenues)?",
                                 sources) is None
    assert figures.printed_block("By what percentage did revenues grow in 2022?", sources) is None
