"""ChatService: persisting every turn over the MongoDB wire protocol (nx-27017), continuing the
citation numbering, truncated history with retrieve_previous_sources, answering when history is down."""

from __future__ import annotations

import json

import pytest
from langchain_core.messages import ToolMessage

from agent.service import ChatService
from storage.history.store import HistoryStore


def test_service_persists_the_turn_and_continues_numbering(sample_pdf, nx_server):  # noqa: F811
    store = HistoryStore(nx_server.uri, db_name="t_agent_service")
    service = ChatService(llm=None, web=None, history=store)
    conv = service.create_conversation("alice")
    first = service.ask("alice", conv, "What was total revenue in fiscal 2023?", [sample_pdf.doc_id])
    assert first.saved and first.error is None and first.citations
    stored = store.load_messages("alice", conv)
    # a figure question whose pages print no table row gets a second, statement-directed search
    assert [m["role"] for m in stored] in (["user", "ai", "tool", "ai"], ["user", "ai", "tool", "ai", "tool", "ai"])
    assert stored[1]["tool_calls"][0]["name"] == "rag_search_tool"
    assert stored[2]["tool_name"] == "rag_search_tool" and stored[2]["sources"][0]["source_id"] == "[^1]"
    assert stored[-1]["content"] == first.message and stored[-1]["citations"][0]["marker"] == first.citations[0].marker
    assert stored[-1]["mode"] == "extractive" and stored[-1]["route"] == "documents"
    state = store.get_state("alice", conv)
    assert state["rag_counter"] >= 1 and "[^1]" in state["sources"]
    assert service.list_conversations("alice")[0]["title"].startswith("What was total revenue")

    second = service.ask("alice", conv, "How many people did the company employ?", [sample_pdf.doc_id])
    # numbering continues from the stored registry: a chunk seen in turn 1 keeps its id, a new one
    # gets the next number
    (cited,) = [c for c in second.citations if "1,240" in c.snippet]
    known = {(s["doc_id"], s["chunk_id"]): sid for sid, s in state["sources"].items()}
    expected = known.get((sample_pdf.doc_id, cited.metadata.chunk_id), f"[^{state['rag_counter'] + 1}]")
    assert cited.marker == expected
    assert len(store.load_messages("alice", conv)) >= len(stored) + 4  # the second turn is stored whole
    store.close()


def test_service_answers_when_history_is_down(sample_pdf):
    store = HistoryStore("mongodb://127.0.0.1:9/", db_name="down", timeout_ms=300)
    service = ChatService(llm=None, web=None, history=store)
    result = service.ask("bob", "0" * 32, "What dividend does the board propose?", [sample_pdf.doc_id])
    assert result.saved is False and "not saved" in result.error
    assert "0.80 euros" in result.message and result.citations


def test_empty_question_is_refused_with_a_clear_message():
    with pytest.raises(ValueError, match="question is empty"):
        ChatService(llm=None, web=None, history=None).ask("u", None, "   ", [])


def test_second_turn_sees_truncated_history_and_retrieves_previous_sources(sample_pdf, nx_server):  # noqa: F811
    from tests.fixtures_agent import call, grade, say, scripted

    store = HistoryStore(nx_server.uri, db_name="t_agent_prev")
    conv = store.create_conversation("carol")
    turn1 = scripted(grade("yes"), call("rag_search_tool", query="dividend"), say("A dividend of 0.80 euros is proposed [^1]."))
    first = ChatService(llm=turn1, web=None, history=store).ask("carol", conv, "Dividend?", [sample_pdf.doc_id])
    assert first.saved and first.citations[0].marker == "[^1]"
    tool_id = next(m["message_id"] for m in store.load_messages("carol", conv) if m["role"] == "tool")

    turn2 = scripted(grade("maybe"), call("retrieve_previous_sources", tool_message_ids=[tool_id]),
                     say("As said, 0.80 euros per share [^1]."))
    second = ChatService(llm=turn2, web=None, history=store).ask("carol", conv, "Repeat that with the source", [sample_pdf.doc_id])
    # the model saw turn 1's tool output only as a stub, then got the full sources back with their ids
    stub = next(m for m in turn2.seen[1] if isinstance(m, ToolMessage))
    assert json.loads(stub.content)["tool_message_id"] == tool_id and "sources" not in json.loads(stub.content)
    fetched = json.loads([m for m in turn2.seen[2] if isinstance(m, ToolMessage)][-1].content)
    assert fetched["success"] and fetched["sources"][0]["source_id"] == "[^1]"
    assert second.citations[0].marker == "[^1]"
    assert second.citations[0].metadata.chunk_id == first.citations[0].metadata.chunk_id
    assert "Tool output from earlier turns" in turn2.seen[1][0].content  # the history note is in the prompt
    store.close()


def test_web_and_command_turns_are_persisted_too(nx_server):  # noqa: F811
    from agent.tools import WebSearch
    from tests.stubs import tavily
    from tests.stubs.tavily import TavilyStub

    store = HistoryStore(nx_server.uri, db_name="t_agent_web")
    conv = store.create_conversation("dan")
    results = [tavily.result("Lima", "https://example.org/lima", "Lima is the capital of Peru.")]
    with TavilyStub(results) as stub:
        service = ChatService(llm=None, web=WebSearch(tavily.API_KEY, base_url=stub.url), history=store)
        web = service.ask("dan", conv, "What is the capital of Peru?", [])
        help_reply = service.ask("dan", conv, "/help", [])
    assert web.route == "web" and web.saved and web.citations[0].marker == "{^1}"
    assert help_reply.saved and "/ingest" in help_reply.message
    stored = store.load_messages("dan", conv)
    assert [m["role"] for m in stored] == ["user", "ai", "tool", "ai", "user", "ai"]
    assert stored[2]["tool_name"] == "web_search_tool" and stored[2]["sources"][0]["url"] == "https://example.org/lima"
    assert stored[3]["route"] == "web" and stored[3]["citations"][0]["marker"] == "{^1}"
    assert store.get_state("dan", conv)["web_counter"] == 1
    store.close()


def _stop_after_first_words(service, user, conv, question, doc_ids) -> str:
    """Ask, and close the stream (the user pressed Stop) once the answer's first words arrived."""
    stream = service.ask_stream(user, conv, question, doc_ids)
    seen = ""
    for kind, value in stream:
        if kind == "token":
            seen += value
            break
    stream.close()
    return seen


def test_a_stopped_runs_sources_are_not_offered_to_later_turns(sample_pdf, nx_server):  # noqa: F811
    from tests.fixtures_agent import grade, say, scripted

    store = HistoryStore(nx_server.uri, db_name="t_agent_stopped_sources")
    conv = store.create_conversation("dora")
    stopped = ChatService(llm=None, web=None, history=store)
    assert _stop_after_first_words(stopped, "dora", conv, "What dividend does the board propose?", [sample_pdf.doc_id])
    assert store.load_messages("dora", conv) == []  # the stopped run saved nothing ...
    assert "[^1]" in store.get_state("dora", conv)["sources"]  # ... though its sources got their ids
    assert stopped.turns.load("dora", conv).sources == {}  # no saved turn holds them: not offered

    llm = scripted(grade("yes"), say("As shown earlier, 0.80 euros [^1]."))  # answers without a search
    later = ChatService(llm=llm, web=None, history=store).ask("dora", conv, "And the dividend?", [sample_pdf.doc_id])
    assert later.citations == [] and "[^1]" not in later.message  # nothing the model saw, nothing to click
    store.close()
