"""Chat page while the history database is down for a whole turn: the turn is shown as not saved
yet, written when the database is back, then shown once from the store; a stopped answer keeps no
provisional id, and each queued answer numbers its own sources from 1."""

from __future__ import annotations

import ui.resources
from storage.history.store import HistoryStore
from tests.fixtures_ui import citation_buttons, new_app, retriever_factory, stopped_run

QUEUED = "Not saved to your history yet"


def _serve(server, db_name: str, monkeypatch, tmp_path) -> HistoryStore:
    """The pages get a real no-model ChatService on `server`, its outbox under tmp_path."""
    from agent.service import ChatService

    monkeypatch.setenv("PDF_CHAT_OUTBOX", str(tmp_path / "outbox"))
    store = HistoryStore(server.uri, db_name=db_name, timeout_ms=500)
    service = ChatService(llm=None, web=None, history=store, get_retriever=retriever_factory())
    monkeypatch.setattr(ui.resources, "get_chat_service", lambda: service)
    monkeypatch.setattr(ui.resources, "get_history_store", lambda: store)
    return store


def test_a_turn_asked_during_an_outage_is_saved_when_the_history_is_back(ui_env, sample_processed, own_nx_server,  # noqa: F811
                                                                         monkeypatch, tmp_path):
    store = _serve(own_nx_server, "ui_outage", monkeypatch, tmp_path)
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


def test_a_stopped_turn_during_an_outage_keeps_no_provisional_id(ui_env, sample_processed, own_nx_server,  # noqa: F811
                                                                  monkeypatch, tmp_path):
    store = _serve(own_nx_server, "ui_outage_stop", monkeypatch, tmp_path)
    cid = store.create_conversation(ui_env["user_id"], "Outage")
    own_nx_server.stop()
    # What Stop leaves behind: the partial answer with the ids its run numbered provisionally.
    at = stopped_run(cid, "Net debt fell to 62.5 million [^1][^2] at")
    assert not at.exception
    at.chat_input[0].set_value("How many employees were there?").run()  # numbered provisionally from 1 again
    assert not at.exception
    assert any(QUEUED in c.value for c in at.caption)
    [stopped] = [m.value for m in at.markdown if "Net debt fell" in m.value]
    assert "[^" not in stopped and ":blue-badge[" not in stopped  # the stopped text cites nothing
    [queued] = [m.value for m in at.markdown if "2,340 people" in m.value and ":blue-badge[" in m.value]
    assert ":blue-badge[1]" in queued  # the queued answer's own sources, from 1
    at.chat_input[0].set_value("What was the net debt at year end?").run()  # again provisional [^1].. (down)
    assert not at.exception
    firsts = [b.label for b in citation_buttons(at) if b.label.startswith("1 · ")]
    assert len(firsts) == 2 and firsts[0] != firsts[1]  # each answer's [1] opens its own source


def test_a_turn_stopped_during_an_outage_is_queued_and_written_when_the_history_is_back(
        ui_env, sample_processed, own_nx_server, monkeypatch, tmp_path):  # noqa: F811
    store = _serve(own_nx_server, "ui_outage_stop_queued", monkeypatch, tmp_path)
    user_id = ui_env["user_id"]
    cid = store.create_conversation(user_id, "Outage")
    own_nx_server.stop()
    at = stopped_run(cid, "Net debt fell to")
    assert not at.exception
    service = ui.resources.get_chat_service()
    queued = [(m["role"], m["content"], bool(m.get("stopped"))) for m in service.turns.pending_messages(user_id, cid)]
    assert queued == [("user", "What was the net debt?", False), ("ai", "Net debt fell to", True)]  # in the outbox
    captions = [c.value for c in at.caption]
    assert any(QUEUED in c for c in captions) and "Stopped: this answer is incomplete." in " ".join(captions)
    assert not any("browser tab only" in c for c in captions)  # shown like a queued agent turn

    own_nx_server.start()
    at.run()
    assert not at.exception and not any(QUEUED in c.value for c in at.caption)
    stored = [(m["role"], m["content"], bool(m.get("stopped"))) for m in store.load_messages(user_id, cid)]
    assert stored == queued  # written once, as it was queued
    assert service.turns.pending_messages(user_id, cid) == []
    assert "Stopped: this answer is incomplete." in " ".join(c.value for c in at.caption)
