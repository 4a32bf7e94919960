"""No-model (extractive) mode end to end on real PDFs: every quoted sentence is on its cited page;
web fallback; the benchmark hook; the shell command."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from agent.markers import iter_markers
from agent.no_model.extractive import split_sentences
from agent.run import run_turn
from agent.tools import WebSearch
from storage.documents.catalog import load_page_texts
from storage.settings import PROJECT_ROOT
from tests.fixtures_agent import SAMPLE_PAGES, FailingRetriever, context
from tests.stubs import tavily
from tests.stubs.tavily import TavilyStub

QUOTE = re.compile(r"“(?P<sentence>[^”]+)”\s*(?P<marker>\[\^(?:\d+|Current Page|Previous Page)\])")  # document/page ids


def squash(text: str) -> str:
    return " ".join(text.split()).lower()


def assert_every_quote_is_on_its_cited_page(result, doc_id: str) -> list[int]:
    """Each quoted sentence is followed by its marker; the marker's page must contain the sentence."""
    pages = load_page_texts(doc_id)
    by_marker = {c.marker: c for c in result.citations}
    quotes = list(QUOTE.finditer(result.message))
    assert quotes, result.message
    cited_pages = []
    for q in quotes:
        citation = by_marker[q["marker"]]
        page = citation.metadata.page  # 1-based
        assert citation.metadata.doc_id == doc_id
        assert squash(q["sentence"]) in squash(pages[page - 1]), (q["sentence"], page)
        cited_pages.append(page)
    assert {m.text for m in iter_markers(result.message)} == set(by_marker)  # no marker without a citation
    return cited_pages


@pytest.mark.parametrize(
    "question, page, needle",
    [
        ("What was total revenue in fiscal 2023?", 2, "412 million euros"),
        ("What revenue does management expect for 2024?", 3, "450 and 480"),
        ("How many people did the company employ?", 4, "1,240 people"),
    ],
)
def test_no_model_answers_quote_the_cited_page(sample_pdf, question, page, needle):
    result = run_turn(context(), question, selected_doc_ids=[sample_pdf.doc_id])
    assert result.mode == "extractive" and result.route == "documents"
    cited = assert_every_quote_is_on_its_cited_page(result, sample_pdf.doc_id)
    first_quote = QUOTE.search(result.message)["sentence"]
    assert needle in first_quote and cited[0] == page


def test_no_model_multi_pdf_cites_the_right_file(sample_pdf, pdf_home):
    from storage.documents.ingest import process_and_index_pdf
    from tests.fixtures_pdfs import make_text_pdf

    other = process_and_index_pdf(make_text_pdf(pdf_home / "source" / "bakery.pdf", [
        "Crumb & Co bakery menu. Sourdough loaves cost 6 euros each.",
        "Opening hours\n\nThe bakery opens at 7 am on weekdays and closes at 6 pm.",
    ]))
    result = run_turn(context(), "When does the bakery open on weekdays?", selected_doc_ids=[sample_pdf.doc_id, other.doc_id])
    assert_every_quote_is_on_its_cited_page(result, other.doc_id)
    assert result.citations[0].metadata.file == "bakery.pdf" and result.citations[0].metadata.page == 2


def test_no_model_says_not_found_instead_of_quoting_noise(sample_pdf):
    result = run_turn(context(), "Who painted the Mona Lisa?", selected_doc_ids=[sample_pdf.doc_id])
    assert result.citations == [] and "could not find" in result.message


def test_no_model_falls_back_to_web_results_when_documents_have_nothing(sample_pdf):
    results = [tavily.result("Mona Lisa", "https://example.org/mona-lisa", "The Mona Lisa was painted by Leonardo da Vinci. It hangs in the Louvre.")]
    with TavilyStub(results) as stub:
        ctx = context(web=WebSearch(tavily.API_KEY, base_url=stub.url), retriever=FailingRetriever)
        result = run_turn(ctx, "Who painted the Mona Lisa?", selected_doc_ids=[sample_pdf.doc_id])
    assert result.route == "web" and result.mode == "extractive"
    assert [c.marker for c in result.citations] == ["{^1}"] and "Leonardo da Vinci" in result.message
    assert "did not answer" in result.message


def test_no_model_small_talk_and_no_pdf_are_explained():
    hello = run_turn(context(), "hello!")
    assert hello.route == "conversation" and "No language model is configured" in hello.message


def test_split_sentences_rejoins_wrapped_lines_and_keeps_table_rows():
    text = "The main risk is the price of polysilicon, which rose sharply\nin 2022. Another full sentence here.\nRevenue 412 380\nRisks"
    assert split_sentences(text) == [
        "The main risk is the price of polysilicon, which rose sharply in 2022.",
        "Another full sentence here.",
        "Revenue 412 380",
    ]


def _cli(args, home, **env):
    full_env = {**os.environ, "PDF_CHAT_HOME": str(home), **env}
    for key in ("GOOGLE_API_KEY", "GEMINI_API_KEY", "OPENAI_BASE_URL", "TAVILY_API_KEY", "PDF_CHAT_MODEL"):
        full_env.pop(key, None)
    return subprocess.run([sys.executable, "-m", "agent.cli", *args], cwd=PROJECT_ROOT, env=full_env,
                          capture_output=True, text=True, timeout=240)


def test_cli_answers_from_the_shell_with_citations(pdf_home):
    from tests.fixtures_pdfs import make_text_pdf

    make_text_pdf(pdf_home / "source" / "northwind_2023.pdf", SAMPLE_PAGES)
    run = _cli(["--pdf", "northwind_2023.pdf", "What dividend does the board propose?"], pdf_home)
    assert run.returncode == 0, run.stderr
    assert "extractive: no model configured" in run.stdout
    assert re.search(r"“The board proposes a dividend of 0\.80 euros per share\.” \[\^1\]", run.stdout)
    assert re.search(r"Citations:\n  \[\^1\] northwind_2023\.pdf, page 2, chunk \d+", run.stdout)

    as_json = _cli(["--pdf", "northwind_2023.pdf", "--json", "What dividend does the board propose?"], pdf_home)
    assert json.loads(as_json.stdout)["citations"][0]["metadata"]["page"] == 2

    outside = _cli(["--pdf", "/etc/hostname", "anything"], pdf_home)
    assert outside.returncode == 2 and "outside the source folder" in outside.stderr


def test_cli_shows_why_a_model_answer_fell_back(monkeypatch, capsys):
    from agent import cli
    from agent import service
    from storage.schema import AnswerResult

    class FallbackService:
        def __init__(self, **kwargs):
            pass

        def ask(self, *args, **kwargs):
            return AnswerResult(message="Quoted.", route="documents", mode="extractive", saved=False,
                                error="The language model failed (ReadTimeout), so this answer quotes the documents instead.")

    monkeypatch.setattr(service, "ChatService", FallbackService)
    assert cli.main(["What was revenue?"]) == 0
    assert "Note: The language model failed (ReadTimeout)" in capsys.readouterr().out
