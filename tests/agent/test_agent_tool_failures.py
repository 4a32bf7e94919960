"""A tool that fails the same way twice ends the turn (it used to retry until GraphRecursionError),
through ChatService and through the chat page; an optional tool that fails is not asked again.

A lone surrogate itself is refused by ChatService (tests/agent/test_question_limit.py); it cannot reach the
page: Streamlit's widget protocol (protobuf strings are UTF-8) rejects it before the script runs."""

from __future__ import annotations

from langchain_core.messages import HumanMessage, ToolMessage

from agent import prompts
from agent.service import ChatService
from tests.fixtures_agent import call, grade, say, scripted
from tests.fixtures_ui import new_app


class BrokenRetriever:
    """Its search returns a malformed hit, so the search tool itself raises (not the retriever,
    whose exceptions the tool reports as a failed search)."""

    calls = 0

    def __init__(self, doc_ids):
        pass

    def search(self, query, k=8):
        BrokenRetriever.calls += 1
        return [None]


def test_a_search_failing_twice_ends_a_no_model_turn(sample_pdf):  # noqa: F811
    BrokenRetriever.calls = 0
    service = ChatService(llm=None, web=None, history=None, get_retriever=BrokenRetriever)
    result = service.ask("u", None, "What was total revenue in fiscal 2023?", [sample_pdf.doc_id])
    assert "document search failed 2 times" in result.message and "AttributeError" in result.message
    assert "NoneType" not in result.message  # the error's type, not its text (which may hold server paths)
    assert BrokenRetriever.calls == 2 and not result.citations


def test_a_model_whose_tool_call_fails_the_same_way_twice_must_answer(sample_pdf):  # noqa: F811
    model = scripted(grade("yes"), call("rag_search_tool", q="dividend"), call("rag_search_tool", q="dividend"),
                     say("The documents could not be searched just now."))
    result = ChatService(llm=model, web=None, history=None).ask("u", None, "What dividend is proposed?",
                                                                 [sample_pdf.doc_id])
    assert result.message == "The documents could not be searched just now."
    last_prompt = model.seen[-1]
    assert isinstance(last_prompt[-1], HumanMessage) and last_prompt[-1].content == prompts.FORCE_ANSWER_NOTE
    failures = [m for m in last_prompt if isinstance(m, ToolMessage) and m.status == "error"]
    assert len(failures) == 2 and failures[0].content == failures[1].content  # asked twice, then no tools


def test_a_failing_statement_tool_is_not_asked_again_and_the_search_answers(sample_pdf, monkeypatch):  # noqa: F811
    import agent.tools

    calls = []

    def unreadable(state, question, ranking=None):
        calls.append(question)
        raise RuntimeError("page tables unreadable")

    monkeypatch.setattr(agent.tools, "statement_sources", unreadable)
    result = ChatService(llm=None, web=None, history=None).ask(
        "u", None, "What was total revenue in fiscal 2023?", [sample_pdf.doc_id])
    assert len(calls) == 1
    assert "412 million euros" in result.message and result.citations


def test_the_page_shows_the_end_of_a_turn_whose_search_failed_twice(chat_service, sample_processed):
    BrokenRetriever.calls = 0
    chat_service.get_retriever = BrokenRetriever
    at = new_app().run()
    at.chat_input[0].set_value("What was the net debt at year end?").run()
    assert not at.exception and not at.error
    assert any("document search failed 2 times" in m.value for m in at.markdown)
    assert BrokenRetriever.calls == 2
