"""Real clients against local stubs of their HTTP APIs: Gemini (langchain-google-genai) driving the
whole graph, tool call included; Tavily search; and that no key ever shows up in logs or info."""

from __future__ import annotations

import json
import logging

import pytest

from agent.run import run_turn
from agent.llm import load_chat_model, model_spec_from_env
from agent.service import ChatService
from agent.tools import WebSearch
from tests.fixtures_agent import context
from tests.stubs import gemini, tavily
from tests.stubs.gemini import GeminiStub
from tests.stubs.tavily import TavilyStub


@pytest.fixture
def gemini_env(monkeypatch):
    def use(stub):
        monkeypatch.setenv("GOOGLE_API_KEY", gemini.API_KEY)
        monkeypatch.setenv("GEMINI_BASE_URL", stub.url)
        monkeypatch.setenv("GEMINI_MODEL", "gemini-2.5-flash")
        return load_chat_model(model_spec_from_env())  # what ChatService does

    return use


def _parts(body: dict) -> list[dict]:
    return [p for c in body.get("contents", []) for p in c.get("parts", [])]


def test_gemini_adapter_runs_the_documents_loop_with_a_tool_call(sample_pdf, gemini_env, caplog):
    caplog.set_level(logging.DEBUG)
    replies = [
        gemini.text(json.dumps({"relevant": "yes", "reason": "revenue is in the report"})),
        gemini.function_call("rag_search_tool", {"query": "total revenue fiscal 2023"}),
        gemini.text("Total revenue was 412 million euros in fiscal 2023 [^1]."),
    ]
    with GeminiStub(replies) as stub:
        llm = gemini_env(stub)
        result = run_turn(context(llm), "What was revenue in 2023?", selected_doc_ids=[sample_pdf.doc_id])

    assert result.route == "documents" and result.mode == "llm"
    assert result.message == "Total revenue was 412 million euros in fiscal 2023 [^1]."
    assert result.citations[0].metadata.page == 2 and "412 million" in result.citations[0].snippet

    paths = [path for _, path, _, _ in stub.requests]
    assert all("/models/gemini-2.5-flash:generateContent" in p for p in paths) and len(paths) == 3
    grade_req, tools_req, answer_req = (body for _, _, _, body in stub.requests)
    # structured routing: a JSON-schema response naming the three grades
    assert grade_req["generationConfig"]["responseMimeType"] == "application/json"
    assert "maybe" in json.dumps(grade_req["generationConfig"])
    # the tool loop: our tools declared, then the tool's numbered output sent back
    declared = {f["name"] for t in tools_req["tools"] for f in t.get("functionDeclarations", [])}
    assert declared == {"rag_search_tool", "statement_pages_tool", "web_search_tool", "retrieve_previous_sources"}
    responses = [p["functionResponse"] for p in _parts(answer_req) if "functionResponse" in p]
    assert responses and responses[0]["name"] == "rag_search_tool"
    assert "[^1]" in json.dumps(responses[0]["response"]) and "412 million" in json.dumps(responses[0]["response"])
    assert any("functionCall" in p for p in _parts(answer_req))
    # the key travels in the header only, never in logs
    assert all(h.get("x-goog-api-key") == gemini.API_KEY for _, _, h, _ in stub.requests)
    assert gemini.API_KEY not in caplog.text


def test_gemini_and_tavily_web_path(sample_pdf, gemini_env, monkeypatch):
    results = [
        tavily.result("Peru - Wikipedia", "https://en.wikipedia.org/wiki/Peru", "Lima is the capital of Peru."),
        tavily.result("Lima", "https://example.org/lima", "Lima is Peru's largest city."),
    ]
    replies = [
        gemini.text(json.dumps({"relevant": "no", "reason": "geography"})),
        gemini.text(json.dumps({"kind": "needs_web_search"})),
        gemini.text("The capital of Peru is Lima {^1}, also its largest city {^2}."),
    ]
    with GeminiStub(replies) as g, TavilyStub(results) as t:
        monkeypatch.setenv("TAVILY_API_KEY", tavily.API_KEY)
        monkeypatch.setenv("TAVILY_API_BASE_URL", t.url)
        result = run_turn(context(gemini_env(g), web=WebSearch.from_env()), "Capital of Peru?", selected_doc_ids=[sample_pdf.doc_id])
        search_body = t.requests[0][3]
    assert result.route == "web"
    assert [c.metadata.url for c in result.citations] == ["https://en.wikipedia.org/wiki/Peru", "https://example.org/lima"]
    assert search_body["query"] == "Capital of Peru?" and 3 <= search_body["max_results"] <= 5
    summary_prompt = json.dumps(g.requests[2][3])
    assert "{^1} Peru - Wikipedia" in summary_prompt


def test_tavily_client_round_trip_and_errors():
    results = [tavily.result(f"R{i}", f"https://example.org/{i}", f"content {i}") for i in range(7)]
    with TavilyStub(results) as stub:
        sources = WebSearch(tavily.API_KEY, base_url=stub.url).search("solar panel prices")
        assert [s.url for s in sources] == [f"https://example.org/{i}" for i in range(5)]
        assert all(s.kind == "web" and s.source_id == "" for s in sources)
        assert stub.requests[0][2]["authorization"] == f"Bearer {tavily.API_KEY}"

        from agent.tools import search_web

        bad = context(web=WebSearch("wrong-key", base_url=stub.url))
        found, message, ok = search_web(bad, "solar")
        assert not ok and found == [] and "Web search failed" in message and "wrong-key" not in message


def test_model_info_names_model_and_search_without_secrets(monkeypatch):
    monkeypatch.setenv("GOOGLE_API_KEY", gemini.API_KEY)
    monkeypatch.setenv("GEMINI_BASE_URL", "https://user:pw@proxy.internal:8443/")
    monkeypatch.setenv("TAVILY_API_KEY", tavily.API_KEY)
    info = ChatService(history=None).model_info()
    assert info["model"]["model"] == "gemini-2.5-flash" and info["mode"] == "llm"
    assert info["web_search"] == {"enabled": True, "provider": "tavily"}
    dumped = json.dumps(info)
    for secret in (gemini.API_KEY, tavily.API_KEY, "pw@", "user:"):
        assert secret not in dumped


def test_no_configuration_means_no_model_mode(monkeypatch):
    info = ChatService(history=None).model_info()
    assert info["mode"] == "extractive" and info["web_search"]["enabled"] is False
    monkeypatch.setenv("PDF_CHAT_MODEL", "mystery/model-x")
    from agent.llm import ModelConfigError

    with pytest.raises(ModelConfigError, match="provider/model"):
        ChatService(history=None)


def test_openai_compatible_server_runs_the_documents_loop(sample_pdf, monkeypatch):
    from tests.stubs import openai_compat
    from tests.stubs.openai_compat import OpenAIStub

    replies = [
        openai_compat.text(json.dumps({"relevant": "yes", "reason": "about the report"})),
        openai_compat.tool_call("rag_search_tool", {"query": "dividend per share"}),
        openai_compat.text("The board proposes 0.80 euros per share [^1]."),
    ]
    with OpenAIStub(replies) as stub:
        monkeypatch.setenv("OPENAI_BASE_URL", stub.url + "/v1")
        monkeypatch.setenv("OPENAI_MODEL", "llama3.1:8b")
        service = ChatService(history=None)
        result = service.ask("u", None, "What dividend is proposed?", [sample_pdf.doc_id])
        bodies = [body for _, _, _, body in stub.requests]
    assert service.model_info()["model"]["label"] == "openai/llama3.1:8b"
    assert result.route == "documents" and result.citations[0].metadata.page == 2
    assert bodies[0]["model"] == "llama3.1:8b" and "response_format" in bodies[0]
    assert {t["function"]["name"] for t in bodies[1]["tools"]} >= {"rag_search_tool", "web_search_tool"}
    tool_reply = next(m for m in bodies[2]["messages"] if m["role"] == "tool")
    assert "[^1]" in tool_reply["content"] and "0.80 euros" in tool_reply["content"]


def test_model_failure_falls_back_to_an_extractive_answer(sample_pdf, gemini_env):
    with GeminiStub([]) as stub:  # every call answers an error, like a revoked key or exhausted quota
        stub.handler = lambda *a: (400, {"error": {"code": 400, "message": "API key expired", "status": "INVALID_ARGUMENT"}})
        service = ChatService(llm=gemini_env(stub), web=None, history=None)
        result = service.ask("u", None, "What dividend does the board propose?", [sample_pdf.doc_id])
    assert result.mode == "extractive" and "0.80 euros" in result.message and result.citations
    assert "language model failed" in result.error and gemini.API_KEY not in result.error
