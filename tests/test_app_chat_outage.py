"""Chat page while the history database is down for a whole turn: the turn is shown as not saved
yet, written when the database is back, then shown once from the store."""

from __future__ import annotations

import ui.resources
from storage.history.store import HistoryStore
from tests.fixtures_mongo import own_nx_server  # noqa: F401
from tests.fixtures_ui import *  # noqa: F401,F403  (fixtures)
from tests.fixtures_ui import new_app, retriever_factory

QUEUED = "Not saved to your history yet"


def test_a_turn_asked_during_an_outage_is_saved_when_the_history_is_back(ui_env, sample_processed, own_nx_server,  # noqa: F811
                                                                         monkeypatch, tmp_path):
    from agent.service import ChatService

    monkeypatch.setenv("PDF_CHAT_OUTBOX", str(tmp_path / "outbox"))
    store = HistoryStore(own_nx_server.uri, db_name="ui_outage", timeout_ms=500)
    service = ChatService(llm=None, web=None, history=store, get_retriever=retriever_factory())
    monkeypatch.setattr(ui.resources, "get_chat_service", lambda: service)
    monkeypatch.setattr(ui.resources, "get_history_store", lambda: store)
    at = new_app().run()
    at.chat_input[0].set_value("What was the net debt at year end?").run()
    assert not at.exception
    conversation_id = at.query_params["c"][0] if isinstance(at.query_params["c"], list) else at.query_params["c"]

    own_nx_server.stop()
    at.chat_input[0].set_value("How many employees were there?").run()
    assert not at.exception
    assert any("unavailable" in w.value for w in at.warning)
    assert any(QUEUED in c.value for c in at.caption)  # shown, and said plainly that it is not saved yet

    own_nx_server.start()
    at.run()
    assert not at.exception and not any(QUEUED in c.value for c in at.caption)
    user_turns = [m["content"] for m in store.load_messages(ui_env["user_id"], conversation_id) if m["role"] == "user"]
    assert user_turns == ["What was the net debt at year end?", "How many employees were there?"]  # once, in order
    assert [t.value for t in at.text].count("How many employees were there?") == 1  # shown once, from the store
