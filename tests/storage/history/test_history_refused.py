"""A history server that refuses the credentials of MONGODB_URI, and a malformed MONGODB_URI.

The refusal is pymongo's own OperationFailure (code 18), raised by its SCRAM handshake against a
loopback wire-protocol server that answers `saslStart` as mongod does for a wrong password
(tests/stubs/mongo_auth_refusing.py; nx-27017 has no authentication)."""

from __future__ import annotations

import pytest

from agent.service import ChatService
from storage.history.store import ConversationNotFoundError, HistoryConfigError, HistoryStore, HistoryUnavailableError
from storage.history.outbox import TurnOutbox
from tests.fixtures_mongo import NxServer
from tests.stubs.mongo_auth_refusing import AuthRefusingServer

SECRET = "wr0ng-Secret"


def test_refused_credentials_are_an_outage_said_plainly_without_the_password():
    with AuthRefusingServer() as server:
        store = HistoryStore(f"mongodb://bob:{SECRET}@127.0.0.1:{server.port}/", db_name="refused", timeout_ms=2000)
        with pytest.raises(HistoryUnavailableError) as caught:
            store.list_conversations("alice")
        store.close()
    message = str(caught.value)
    assert "authentication failed" in message and f"127.0.0.1:{server.port}" in message
    assert SECRET not in message and "bob" not in message
    assert "saslStart" in server.commands  # pymongo really tried to log in and was refused


@pytest.mark.parametrize("uri", [
    f"mongodb://bob:{SECRET}@@db.example:27017/",         # an unescaped "@"
    f"mongodb://bob:{SECRET}@db.example:27o17/",          # a port that is not a number
    f"mongodbx://bob:{SECRET}@db.example/",               # not a MongoDB scheme
    f"mongodb://bob:{SECRET}@db.example/?retryWrite=yes",  # an unknown option
    f"mongodb+srv://bob:{SECRET}@cluster.example:27017/",  # an SRV host with a port
])
def test_a_malformed_uri_is_refused_at_start_without_the_password(uri, monkeypatch):
    monkeypatch.setenv("MONGODB_URI", uri)
    with pytest.raises(HistoryConfigError, match="MONGODB_URI is not a valid MongoDB URI") as caught:
        HistoryStore()
    assert SECRET not in str(caught.value)


def test_a_well_formed_srv_uri_is_accepted_at_start_and_an_unknown_host_is_an_outage():
    store = HistoryStore(f"mongodb+srv://bob:{SECRET}@cluster.invalid/", timeout_ms=300)  # no DNS lookup at start
    with pytest.raises(HistoryUnavailableError) as caught:
        store.ping()
    assert SECRET not in str(caught.value)


def test_turns_asked_while_credentials_are_refused_are_saved_once_they_are_fixed(sample_pdf, tmp_path, monkeypatch):
    """The password of the history user was changed on the server: questions are answered and
    queued; with MONGODB_URI fixed (same server and database) the queued turn is written."""
    monkeypatch.setenv("PDF_CHAT_OUTBOX", str(tmp_path / "outbox"))
    nx = NxServer(tmp_path / "nx").start()
    port, db = nx.port, "refused_then_fixed"
    before = HistoryStore(nx.uri, db_name=db)
    conversation = ChatService(llm=None, web=None, history=before).create_conversation("carol")
    before.close()
    nx.stop()

    with AuthRefusingServer(port) as server:
        refused = HistoryStore(f"mongodb://carol:{SECRET}@127.0.0.1:{port}/", db_name=db, timeout_ms=2000)
        result = ChatService(llm=None, web=None, history=refused).ask(
            "carol", conversation, "What dividend does the board propose?", [sample_pdf.doc_id])
        refused.close()
    assert "saslStart" in server.commands
    assert "0.80 euros" in result.message and result.citations  # answered anyway
    assert result.saved is False and "History is unavailable" in result.error and "saved" in result.error
    assert SECRET not in result.error
    assert len(TurnOutbox.for_store(refused).pending("carol", conversation)) == 1

    nx.start()
    try:
        fixed = HistoryStore(f"mongodb://127.0.0.1:{port}/", db_name=db)
        service = ChatService(llm=None, web=None, history=fixed)
        assert service.turns.flush("carol") == 1
        stored = fixed.load_messages("carol", conversation)
        assert [m["content"] for m in stored if m["role"] == "user"] == ["What dividend does the board propose?"]
        assert stored[-1]["content"] == result.message
        assert not TurnOutbox.for_store(fixed).pending("carol")
        fixed.close()
    finally:
        nx.stop()


def test_a_conversation_opened_while_refused_is_created_before_its_turns(sample_pdf, tmp_path, monkeypatch):
    monkeypatch.setenv("PDF_CHAT_OUTBOX", str(tmp_path / "outbox"))
    with AuthRefusingServer() as server:
        port = server.port
        refused = HistoryStore(f"mongodb://dan:{SECRET}@127.0.0.1:{port}/", db_name="opened_offline", timeout_ms=2000)
        service = ChatService(llm=None, web=None, history=refused)
        conversation = service.turns.open_offline("dan", "Dividend question")
        result = service.ask("dan", conversation, "What dividend does the board propose?", [sample_pdf.doc_id])
        assert result.saved is False and service.turns.flush("dan") == 0  # still refused: kept
        refused.close()
    nx = NxServer(tmp_path / "nx", port=port).start()
    try:
        fixed = HistoryStore(f"mongodb://127.0.0.1:{port}/", db_name="opened_offline")
        service = ChatService(llm=None, web=None, history=fixed)
        assert service.turns.flush("dan") == 1
        assert service.list_conversations("dan")[0]["conversation_id"] == conversation
        assert [m["role"] for m in fixed.load_messages("dan", conversation)][0] == "user"
        assert not service.turns.outbox.pending_conversations("dan")
        # creating it again (a retry) is a no-op for its user; another user cannot take the id
        assert fixed.create_conversation("dan", "Again", conversation) == conversation
        with pytest.raises(ConversationNotFoundError):
            fixed.create_conversation("eve", "Mine now", conversation)
        fixed.close()
    finally:
        nx.stop()
