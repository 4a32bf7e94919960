"""Streaming a turn (`agent.run.stream_turn`, `ChatService.ask_stream`) through LangGraph's
messages and custom streams, with a real OpenAI client against a local server that streams its
reply token by token (tests/stubs/openai_compat.py), and in no-model mode."""

from __future__ import annotations

from agent.service import ChatService
from tests.stubs import openai_compat
from tests.stubs.openai_compat import OpenAIStub

ANSWER = "The board proposes 0.80 euros per share, paid in May."


def _events(service, question, doc_ids):
    return list(service.ask_stream("u", None, question, doc_ids))


def test_model_answer_streams_token_by_token_then_the_cited_answer(sample_pdf, monkeypatch):
    replies = [
        openai_compat.structured(relevant="yes", reason="about the report"),
        openai_compat.tool_call("rag_search_tool", {"query": "dividend per share"}),
        lambda body: openai_compat.text(f"{ANSWER} {openai_compat.source_id_for(body, '0.80 euros')}"),
    ]
    with OpenAIStub(replies) as stub:
        monkeypatch.setenv("OPENAI_BASE_URL", stub.url + "/v1")
        service = ChatService(history=None)
        events = _events(service, "What dividend is proposed?", [sample_pdf.doc_id])
        bodies = [body for _, _, _, body in stub.requests]
    assert all(b.get("stream") for b in bodies)  # the client asked the server to stream every call
    tokens = [v for k, v in events if k == "token"]
    assert len(tokens) > 5 and "".join(tokens).startswith(ANSWER)  # many pieces, answer text only
    assert not any("relevant" in t for t in tokens)  # routing's structured output is not shown
    progress = [v["event"] for k, v in events if k == "progress"]
    assert "route" in progress and "searching_documents" in progress or "thinking" in progress
    kind, result = events[-1]
    assert kind == "answer" and [k for k, _ in events].count("answer") == 1
    assert result.message.startswith(ANSWER) and result.citations[0].metadata.page == 2


def test_no_model_answer_arrives_as_text_before_the_final_answer(sample_pdf):
    service = ChatService(llm=None, web=None, history=None)
    events = _events(service, "What dividend does the board propose?", [sample_pdf.doc_id])
    tokens = [v for k, v in events if k == "token"]
    assert tokens and "0.80 euros" in "".join(tokens)
    assert events[-1][0] == "answer" and events[-1][1].citations


def test_closing_the_stream_early_stops_the_turn_unsaved(sample_pdf, monkeypatch, store):
    conv = store.create_conversation("u")
    replies = [openai_compat.structured(kind="conversational"),
               openai_compat.text("Small talk is welcome here, and this reply is rather long on purpose.")]
    with OpenAIStub(replies, token_delay=0.05) as stub:
        monkeypatch.setenv("OPENAI_BASE_URL", stub.url + "/v1")
        service = ChatService(history=store, web=None)
        stream = service.ask_stream("u", conv, "hello there", [])
        seen = ""
        for kind, value in stream:
            if kind == "token":
                seen += value
                if len(seen) > 10:
                    break
        stream.close()
    assert store.load_messages("u", conv) == []  # neither the question nor a partial answer was stored
    assert 10 < len(seen) < 40
