"""Chat page (AppTest): a real turn through ChatService (no-model mode, real ingestion, real
history over the wire protocol), citations listed and previewed, history and citations back
after a reload, conversations managed, injection text shown literally."""

from __future__ import annotations

import re

import pytest

import ui.resources
from storage.history import HistoryStore
from storage.pdf_processing import process_and_index_pdf
from storage.schema import Citation
from tests.fixtures_ui import *  # noqa: F401,F403  (fixtures)
from tests.fixtures_ui import FILE, citation_buttons, make_xss_pdf, new_app, retriever_factory
from ui.safe_text import escape_markdown


def test_question_gets_a_cited_answer_that_survives_a_reload(chat_service, sample_processed, ui_env):
    at = new_app().run()
    assert not at.exception
    assert at.multiselect(key="doc_picker").value == [sample_processed.doc_id]
    assert any("no-model mode" in i.value for i in at.info)  # extractive mode is announced
    at.chat_input[0].set_value("What was the net debt at year end?").run()
    assert not at.exception

    conversation_id = at.query_params["c"][0] if isinstance(at.query_params["c"], list) else at.query_params["c"]
    messages = HistoryStore(ui_env["mongo_uri"]).load_messages(ui_env["user_id"], conversation_id)
    [ai] = [m for m in messages if m["role"] == "ai" and m.get("citations")]
    stored = [Citation.model_validate(c) for c in ai["citations"]]
    assert any(c.metadata.file == FILE and c.metadata.page == 2 for c in stored)  # "Net debt fell to 62.5" is on page 2

    buttons = citation_buttons(at)
    assert len(buttons) == len(stored)
    assert any(escape_markdown(f"{FILE}, page 2") in b.label for b in buttons)
    sources = [e for e in at.expander if e.label.startswith("Sources (")]
    assert sources and sources[0].label == f"Sources ({len(stored)})"
    assert any("answers are quoted passages" in c.value or "no-model mode" in c.value for c in at.caption)

    # Open the preview of the page-2 citation: file, 1-based page and the cited text.
    target = next(b for b in buttons if "page 2" in b.label)
    target.click().run()
    assert not at.exception
    dialog_text = "\n".join(m.value for m in at.markdown)
    assert escape_markdown(f"{FILE}, page 2") in dialog_text
    assert "62\\.5" in dialog_text
    assert at.get("image")  # the rendered page

    # A reload is a new session that only has the URL: the conversation and citations come back.
    again = new_app()
    again.query_params["c"] = conversation_id
    again.run()
    assert not again.exception
    assert [b.label for b in citation_buttons(again)] == [b.label for b in buttons]
    assert any(m.value == "What was the net debt at year end?" for m in again.text)


def test_conversations_can_be_created_renamed_and_deleted(chat_service, ui_env):
    store = chat_service.history
    first = store.create_conversation(ui_env["user_id"], "Old question")
    at = new_app().run()
    assert at.query_params["c"] in (first, [first])
    at.button(key="new-chat").click().run()
    assert not at.exception
    conversations = store.list_conversations(ui_env["user_id"])
    assert len(conversations) == 2
    new_id = next(c["conversation_id"] for c in conversations if c["conversation_id"] != first)
    assert at.query_params["c"] in (new_id, [new_id])

    at.text_input[0].set_value("Budget review").run()
    at.button(key="rename-chat").click().run()
    assert store.get_conversation(ui_env["user_id"], new_id)["title"] == "Budget review"
    assert any(b.label == "Budget review" for b in at.button)

    at.button(key="delete-chat").click().run()
    assert not at.exception
    assert [c["conversation_id"] for c in store.list_conversations(ui_env["user_id"])] == [first]
    assert at.query_params["c"] in (first, [first])


def test_text_from_a_hostile_pdf_is_shown_literally(chat_service, ui_env):
    path = make_xss_pdf(ui_env["home"] / "source" / "hostile.pdf")
    process_and_index_pdf(path)
    at = new_app().run()
    at.chat_input[0].set_value("What does the quarterly note say about the script and the logo link?").run()
    assert not at.exception
    answer = next(m.value for m in at.markdown if "Quarterly" in m.value or "Logo" in m.value or "Click" in m.value)
    # Every "<", "[" and "$" from the PDF reaches st.markdown backslash-escaped: no HTML, links, LaTeX.
    assert re.search(r"(?<!\\)[<\[$:]", answer.replace(" :blue-badge[", "")) is None, answer
    assert "\\<script\\>" in answer and "\\<img src=x onerror=" in answer and "\\[the link\\](javascript\\:" in answer


def test_history_down_still_answers_and_keeps_the_turn_in_the_session(ui_env, sample_processed, monkeypatch):
    from agent.service import ChatService
    from storage.mongo_server import free_port

    dead = HistoryStore(f"mongodb://127.0.0.1:{free_port()}/", timeout_ms=300)
    service = ChatService(llm=None, web=None, history=dead, get_retriever=retriever_factory())
    monkeypatch.setattr(ui.resources, "get_chat_service", lambda: service)
    monkeypatch.setattr(ui.resources, "get_history_store", lambda: dead)
    at = new_app().run()
    assert not at.exception
    assert any("unavailable" in w.value and "keep asking" in w.value for w in at.warning)
    at.chat_input[0].set_value("What was the net debt at year end?").run()
    assert not at.exception
    assert any("62.5" in m.value or "62\\.5" in m.value for m in at.markdown)
    assert any("Not saved to your history yet" in c.value for c in at.caption)
    buttons = citation_buttons(at)
    assert buttons
    buttons[0].click().run()  # a rerun (opening a citation) keeps the unsaved answer on screen
    assert not at.exception and citation_buttons(at)
