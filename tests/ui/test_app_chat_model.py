"""Chat page with a scripted language model (LangChain fake chat model through the real graph):
a documents answer with its citation, and a web answer (local Tavily stub) whose citation
preview offers the page's link. The model is the only thing scripted."""

from __future__ import annotations

import ui.resources
from storage.history.store import HistoryStore
from tests.fixtures_agent import call, grade, kind, say, scripted
from tests.fixtures_ui import FILE, citation_buttons, new_app, retriever_factory
from tests.stubs import tavily
from tests.stubs.tavily import TavilyStub
from ui.safe_text import escape_markdown


def _serve(monkeypatch, ui_env, llm, web=None):
    from agent.service import ChatService

    service = ChatService(llm=llm, web=web, history=HistoryStore(ui_env["mongo_uri"]), get_retriever=retriever_factory())
    monkeypatch.setattr(ui.resources, "get_chat_service", lambda: service)
    monkeypatch.setattr(ui.resources, "get_history_store", lambda: service.history)
    return service


def test_model_answer_with_a_document_citation(ui_env, sample_processed, monkeypatch):
    llm = scripted(
        grade("yes"),
        call("rag_search_tool", query="employees end of 2023"),
        say("Northwind employed **2,340 people** at the end of 2023 [^1]."),
    )
    _serve(monkeypatch, ui_env, llm)
    at = new_app().run()
    assert not any("no-model mode" in i.value for i in at.info)  # a model is configured
    at.chat_input[0].set_value("How many employees did Northwind have?").run()
    assert not at.exception
    answer = next(m.value for m in at.markdown if "2,340 people" in m.value)
    [button] = citation_buttons(at)
    # The number in the text links to its citation's button (a click on it opens the preview).
    assert answer == f"Northwind employed **2,340 people** at the end of 2023  [:blue-badge[1]](#cite-{button.key})."
    assert button.label == f"1 · {escape_markdown(FILE + ', page 3')}"
    assert any(c.value == "Answered from your documents" for c in at.caption)
    button.click().run()
    dialog = "\n".join(m.value for m in at.markdown)
    assert escape_markdown(f"{FILE}, page 3") in dialog and "2,340" in dialog


def test_web_answer_citation_links_to_the_page(ui_env, monkeypatch):
    from agent.tools import WebSearch

    results = [tavily.result("Lima - Wikipedia", "https://en.wikipedia.org/wiki/Lima", "Lima is the capital of Peru.")]
    with TavilyStub(results) as stub:
        llm = scripted(kind("needs_web_search"), say("Lima is the capital of Peru {^1}."))
        _serve(monkeypatch, ui_env, llm, web=WebSearch(tavily.API_KEY, base_url=stub.url))
        at = new_app().run()
        at.chat_input[0].set_value("What is the capital of Peru?").run()
        assert not at.exception
    [button] = citation_buttons(at)
    assert button.label.startswith("web 1 · Lima")
    assert any(c.value == "Answered from a web search" for c in at.caption)
    button.click().run()
    assert not at.exception
    links = at.get("link_button")
    assert [lb.proto.url for lb in links] == ["https://en.wikipedia.org/wiki/Lima"]
