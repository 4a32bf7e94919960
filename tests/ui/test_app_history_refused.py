"""Chat page when MONGODB_URI is refused by its server (wrong password) or malformed: the page says
that history is unavailable and why (never the password), answers anyway, and promises saving only
where a turn is really queued (a configured store: a conversation opened while it refuses is created
when it is back)."""

from __future__ import annotations

import streamlit as st

from storage.history.store import HistoryStore, new_id
from tests.fixtures_mongo import NxServer
from tests.fixtures_ui import new_app
from tests.stubs.mongo_auth_refusing import AuthRefusingServer
from ui.safe_text import escape_markdown

SECRET = "wr0ng-Secret"
QUESTION = "What was the net debt at year end?"
QUEUED = "Not saved to your history yet"
TAB_ONLY = "kept in this browser tab only"


def _page_text(at) -> str:
    parts = [e.value for kind in ("warning", "error", "info", "caption", "markdown", "text") for e in getattr(at, kind)]
    return "\n".join(str(p) for p in parts)


def _ask(at):
    at.chat_input[0].set_value(QUESTION).run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert any("62.5" in m.value or "62\\.5" in m.value for m in at.markdown)  # answered from the PDF anyway
    return at


def _history_warning(at) -> str:
    (warning,) = [w.value for w in at.warning if "Chat history is unavailable" in w.value]
    return warning


def test_refused_credentials_in_an_open_conversation_queue_the_turn(ui_env, sample_processed, monkeypatch, tmp_path):
    monkeypatch.setenv("PDF_CHAT_OUTBOX", str(tmp_path / "outbox"))
    with AuthRefusingServer() as server:
        monkeypatch.setenv("MONGODB_URI", f"mongodb://{ui_env['user_id']}:{SECRET}@127.0.0.1:{server.port}/")
        at = new_app()
        at.query_params["c"] = new_id()
        at.run()
        assert not at.exception
        warning = _history_warning(at)
        assert "authentication failed" in warning and "saved to your history when it is back" in warning
        _ask(at)
        assert any(QUEUED in c.value for c in at.caption)
        assert not any(TAB_ONLY in c.value for c in at.caption)
        assert SECRET not in _page_text(at)
    assert "saslStart" in server.commands


def test_a_conversation_opened_while_credentials_are_refused_is_saved_once_they_are_fixed(
        ui_env, sample_processed, monkeypatch, tmp_path):
    """No conversation open and the login refused: the question opens one on this server, and its
    turn is queued; with MONGODB_URI fixed (same server and database) the page creates it and
    shows the turn from the store."""
    monkeypatch.setenv("PDF_CHAT_OUTBOX", str(tmp_path / "outbox"))
    with AuthRefusingServer() as server:
        port = server.port
        monkeypatch.setenv("MONGODB_URI", f"mongodb://{ui_env['user_id']}:{SECRET}@127.0.0.1:{port}/")
        at = new_app().run()
        assert not at.exception
        warning = _history_warning(at)
        assert "authentication failed" in warning and "kept on this server" in warning
        _ask(at)
        assert any(QUEUED in c.value for c in at.caption) and SECRET not in _page_text(at)
    conversation_id = at.query_params["c"][0] if isinstance(at.query_params["c"], list) else at.query_params["c"]

    nx = NxServer(tmp_path / "nx", port=port).start()
    try:
        monkeypatch.setenv("MONGODB_URI", f"mongodb://127.0.0.1:{port}/")  # the credentials fixed, the app restarted
        st.cache_resource.clear()
        at.run()
        assert not at.exception and not [w for w in at.warning if "Chat history is unavailable" in w.value]
        assert not any(QUEUED in c.value for c in at.caption)
        store = HistoryStore(f"mongodb://127.0.0.1:{port}/")
        assert store.get_conversation(ui_env["user_id"], conversation_id)["title"] == QUESTION
        assert [m["content"] for m in store.load_messages(ui_env["user_id"], conversation_id) if m["role"] == "user"] \
            == [QUESTION]
        assert [t.value for t in at.text].count(QUESTION) == 1  # shown once, from the store
        store.close()
    finally:
        nx.stop()


def test_a_malformed_uri_is_refused_and_the_chat_answers_unsaved(ui_env, sample_processed, monkeypatch):
    monkeypatch.setenv("MONGODB_URI", f"mongodb://bob:{SECRET}@@127.0.0.1:27017/")
    at = new_app()
    at.query_params["c"] = new_id()  # even an open conversation cannot be saved without a store
    at.run()
    assert not at.exception
    warning = _history_warning(at)
    assert escape_markdown("MONGODB_URI is not a valid MongoDB URI") in warning and "Answers are not saved" in warning
    _ask(at)
    assert any(TAB_ONLY in c.value for c in at.caption)
    page = _page_text(at)
    assert QUEUED not in page and "is back" not in page and SECRET not in page
