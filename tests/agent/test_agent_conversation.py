"""Conversation is conversation (agent/conversation.py): greetings, thanks and questions about the
app are answered without a search in every mode, and never become the question a follow-up is
resolved against."""

from __future__ import annotations

import pytest
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from agent import conversation
from agent.run import run_turn, stream_turn
from storage.documents.ingest import process_and_index_pdf
from tests.fixtures_agent import SAMPLE_PAGES, context, say, scripted
from tests.fixtures_pdfs import make_text_pdf

CONVERSATION = ["Hi there!", "hello", "thanks", "Thank you very much!", "what can you do?", "How do I upload a PDF?",
                "bye for now"]
QUESTIONS = ["What was total revenue in fiscal 2023?", "How many people does the company employ?",
             "Who founded the company?", "Hi, what was revenue in 2023?", "and the year before?"]


@pytest.mark.parametrize("text", CONVERSATION)
def test_conversation_is_recognised(text):
    assert conversation.kind(text) is not None


@pytest.mark.parametrize("text", QUESTIONS)
def test_questions_are_not_conversation(text):
    assert conversation.kind(text) is None


def _tool_calls(messages) -> int:
    return sum(isinstance(m, ToolMessage) for m in messages)


@pytest.fixture
def two_pdfs(pdf_home):
    a = process_and_index_pdf(make_text_pdf(pdf_home / "source" / "northwind_2023.pdf", SAMPLE_PAGES,
                                            title="Northwind Solar Annual Report 2023"))
    b = process_and_index_pdf(make_text_pdf(pdf_home / "source" / "contoso_2023.pdf",
                                            ["Contoso Annual Report 2023\n\nContoso makes wind turbines. Revenue was 90 million."],
                                            title="Contoso Annual Report 2023"))
    return [a.doc_id, b.doc_id]


@pytest.mark.parametrize("selected", [0, 1, 2])
@pytest.mark.parametrize("text", ["Hi there!", "thanks", "what can you do?"])
def test_no_model_answers_conversation_without_a_search(two_pdfs, selected, text):
    result = run_turn(context(), text, selected_doc_ids=two_pdfs[:selected])
    assert result.route == "conversation" and result.citations == []
    assert "Select a PDF" not in result.message or selected == 0
    if selected:
        assert "northwind" in result.message.lower()  # it names what is selected
    if text == "thanks":
        assert result.message.startswith("You're welcome")


def test_model_mode_answers_a_greeting_without_judgements_or_search(two_pdfs):
    llm = scripted(say("Hello! Ask me about your filings."))
    events = list(stream_turn(context(llm), "Hi there!", selected_doc_ids=two_pdfs))
    result = events[-1][1]
    assert result.route == "conversation" and result.message == "Hello! Ask me about your filings."
    assert len(llm.seen) == 1  # the reply only: no relevance judgement, no tool call


def test_a_greeting_after_a_question_is_not_rewritten_as_a_follow_up(two_pdfs):
    history = [HumanMessage("What was total revenue for fiscal 2023?"), AIMessage("Total revenue was 412 million euros [^1].")]
    result = run_turn(context(), "Hi there!", selected_doc_ids=two_pdfs, history=history)
    assert result.route == "conversation"
    assert "Searched for" not in result.message and "revenue" not in result.message.lower()


def test_a_follow_up_after_small_talk_resolves_against_the_real_question(two_pdfs):
    history = [HumanMessage("What was total revenue for fiscal 2023?"), AIMessage("Total revenue was 412 million euros [^1]."),
               HumanMessage("thanks"), AIMessage("You're welcome.")]
    result = run_turn(context(), "and for 2022?", selected_doc_ids=two_pdfs, history=history)
    assert result.route == "documents"
    assert "Searched for: “What was total revenue for fiscal 2022?”" in result.message


@pytest.mark.parametrize("llm", [None, "model"])
def test_small_talk_is_answered_without_embedding_anything(two_pdfs, monkeypatch, llm):
    """A greeting, thanks or goodbye asks the knowledge base nothing: on a saturated replica its query
    embedding waited for the CPU behind every search (bench.soak, issue 31). A question about the app
    still quotes it."""
    from storage.documents import embeddings

    real, embedded = embeddings.get_embedder(), []

    class Counting:
        def embed(self, texts):
            embedded.extend(texts)
            return real.embed(texts)

    monkeypatch.setattr(embeddings, "get_embedder", lambda: Counting())
    for text in ["hello", "Hi there!", "thanks!", "good morning", "bye"]:
        model = scripted(say("Hello!")) if llm else None
        result = run_turn(context(model), text, selected_doc_ids=two_pdfs)
        assert result.route == "conversation" and embedded == [], (text, embedded)
    result = run_turn(context(), "How do I upload a PDF?", selected_doc_ids=two_pdfs)
    assert "knowledge base" in result.message and "How do I upload a PDF?" in embedded
