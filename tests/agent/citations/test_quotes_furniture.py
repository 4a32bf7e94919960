"""Page furniture is never a supporting quote (issue 29.2): a 10-K prints the company, the form and
the year at the top of every page and a page number at the foot; such a line says nothing about
the asked item, though it shares the question's words ("Northwind", "2019"). Prose facts asked in
plain words ("how many employees", "when does the fiscal year end") are answered from the
sentence stating them (issue 29.3), on a generated filing with a running header on each page."""

from __future__ import annotations

import re

import pymupdf
import pytest

from agent.run import run_turn
from storage.documents.ingest import process_and_index_pdf
from tests.fixtures_agent import context

HEADER = "NORTHWIND FOODS, INC. ANNUAL REPORT ON FORM 10-K FISCAL 2019"
FOOTER = "Northwind Foods, Inc. | 2019 Form 10-K | {n}"
PAGES = [
    ["ITEM 1. BUSINESS", "Northwind Foods, Inc. is a global manufacturer and marketer of branded consumer foods",
     "sold through retail stores. We were incorporated in Delaware in 1928."],
    ["Human Capital",
     "As of May 26, 2019, we had approximately 40,000 full- and part-time employees worldwide, of",
     "whom about 15,000 were located outside the United States.",
     "Approximately 20 percent of our workforce in the United States is covered by collective",
     "bargaining agreements."],
    ["Defined Contribution Plans",
     "The Company sponsors savings plans for employees. Eligible employees may contribute up to",
     "50 percent of their pay. The Company contributed $95 million to employee savings plans in 2019."],
    ["Basis of Presentation",
     "Our fiscal year ends on the last Saturday of May. Fiscal 2019 included 52 weeks.",
     "The consolidated financial statements include the accounts of Northwind Foods, Inc. and its subsidiaries."],
    ["ITEM 2. PROPERTIES",
     "We operate 41 production facilities, of which 24 are in the United States. We own our headquarters campus."],
]
QUOTE = re.compile(r"^- “(.+)” \[\^\d+\]$", re.M)


def _filing(path):
    doc = pymupdf.open()
    for n, lines in enumerate(PAGES, start=1):
        page = doc.new_page()
        page.insert_text((56, 40), HEADER, fontsize=8)
        y = 110
        for line in lines:
            page.insert_text((56, y), line, fontsize=10)
            y += 14
        page.insert_text((200, 810), FOOTER.format(n=n), fontsize=8)
    doc.save(path)
    doc.close()
    return path


@pytest.fixture
def filing(pdf_home):
    return process_and_index_pdf(_filing(pdf_home / "source" / "northwind_2019_10k.pdf"))


def _answer(filing, question):
    result = run_turn(context(), question, selected_doc_ids=[filing.doc_id])
    return result, QUOTE.findall(result.message)


@pytest.mark.parametrize("question", ["How many employees did Northwind have in 2019?",
                                      "When does Northwind's fiscal year end?",
                                      "What does Northwind Foods do?"])
def test_no_running_header_or_footer_is_quoted(filing, question):
    result, quotes = _answer(filing, question)
    assert quotes, result.message
    quoted = "\n".join(quotes).lower()
    assert "annual report on form 10-k" not in quoted and "| 2019 form 10-k |" not in quoted, result.message
    snippets = "\n".join(q for c in result.citations for q in (c.metadata.quotes or [c.snippet])).lower()
    assert "annual report on form 10-k" not in snippets, snippets



@pytest.mark.parametrize("question, fact", [
    ("How many employees did Northwind have in 2019?", "approximately 40,000 full- and part-time employees"),
    ("How many people work at Northwind?", "approximately 40,000 full- and part-time employees"),
    ("When does Northwind's fiscal year end?", "Our fiscal year ends on the last Saturday of May."),
    ("When does the fiscal year end?", "Our fiscal year ends on the last Saturday of May."),
])
def test_a_prose_fact_asked_in_plain_words_is_the_first_quote(filing, question, fact):
    result, quotes = _answer(filing, question)
    assert quotes and fact in quotes[0], result.message
    cited = next(c for c in result.citations if c.marker in result.message.split(quotes[0], 1)[1][:12])
    assert cited.metadata.page == 2 if "employees" in fact else cited.metadata.page == 4


def test_the_snippet_of_a_cited_page_is_not_its_running_header(filing):
    """A model's answer cites a page: its snippet (shown when no quote is read back) is the passage
    matching the citing sentence, not the header that shares the company's name, form and year."""
    from agent.citations.previews import source_citation
    from storage.documents.catalog import load_page_texts
    from storage.schema import Source

    page = load_page_texts(filing.doc_id)[2]
    assert HEADER in page and FOOTER.format(n=3) in page
    src = Source(kind="document", text=page, doc_id=filing.doc_id, source_file="northwind_2019_10k.pdf", page_number=2)
    citation = source_citation("[^1]", "1", src, "Northwind Foods, Inc. reported in its 2019 annual report on Form 10-K.")
    assert "ANNUAL REPORT" not in citation.snippet and "| 3" not in citation.snippet, citation.snippet
    assert HEADER in citation.preview  # the preview is the page as printed


def test_furniture_keys_of_a_build_without_stored_tables_are_read_from_its_page_texts(filing, monkeypatch):
    from agent.citations import furniture
    from storage.documents.facts import FactsMissing

    def missing(doc_id):
        raise FactsMissing(doc_id)

    monkeypatch.setattr(furniture, "stored_tables", missing)
    keys = furniture.furniture_of(filing.doc_id)
    assert furniture.is_furniture_line(HEADER, keys) and furniture.is_furniture_line(FOOTER.format(n=9), keys)
    assert not furniture.is_furniture_line("Our fiscal year ends on the last Saturday of May.", keys)
    assert not furniture.is_furniture_line("2,953.9", keys)  # a bare number may be a table's value
