"""Faults: database down at start and mid-conversation, server restarts, the embedded server's
sharing between processes, and secrets kept out of error messages."""

from __future__ import annotations

import socket
import time
import subprocess
import sys

import pytest

from storage import mongo_server
from storage.config import PROJECT_ROOT
from storage.history import HistoryStore, HistoryUnavailableError, PendingWrites
from tests.fixtures_mongo import *  # noqa: F401,F403


def test_database_down_at_start_gives_a_clear_error_without_the_password():
    port = mongo_server.free_port()  # nothing listens there
    store = HistoryStore(f"mongodb://alice:s3cr3t-pw@127.0.0.1:{port}/?authSource=admin", timeout_ms=300)
    with pytest.raises(HistoryUnavailableError) as err:
        store.ping()
    message = str(err.value)
    assert f"127.0.0.1:{port}" in message and "unavailable" in message
    assert "s3cr3t-pw" not in message and "alice" not in message
    with pytest.raises(HistoryUnavailableError):
        store.create_conversation("alice")

    outbox = PendingWrites(store)  # the UI keeps the answer and says "not saved yet"
    conv = "0" * 32
    mid = outbox.append_message("alice", conv, "user", "hello")
    assert len(outbox) == 1 and outbox.is_pending(mid)
    assert outbox.pending_messages("alice", conv)[0]["content"] == "hello"
    assert "unavailable" in outbox.last_error and "s3cr3t-pw" not in outbox.last_error


def test_down_mid_conversation_then_restart_nothing_lost(own_nx_server):
    store = HistoryStore(own_nx_server.uri, db_name="faults", timeout_ms=500)
    outbox = PendingWrites(store)
    conv = store.create_conversation("alice", "Kept")
    first = outbox.append_message("alice", conv, "user", "Q1")
    outbox.append_message("alice", conv, "ai", "A1 [^1]", route="documents")
    outbox.save_state("alice", conv, rag_counter=1)
    assert len(outbox) == 0

    own_nx_server.stop()  # the database goes away mid-conversation
    with pytest.raises(HistoryUnavailableError, match="unavailable"):
        store.load_messages("alice", conv)
    q2 = outbox.append_message("alice", conv, "user", "Q2")
    a2 = outbox.append_message("alice", conv, "ai", "A2 [^2]", citation_map={"[^2]": {"page": 3}})
    outbox.save_state("alice", conv, rag_counter=2)
    assert len(outbox) == 3 and outbox.is_pending(a2)
    with pytest.raises(HistoryUnavailableError):
        outbox.flush()
    assert len(outbox) == 3  # still queued, in order

    own_nx_server.start()  # same port, same data files
    assert outbox.flush() == 3 and len(outbox) == 0
    msgs = store.load_messages("alice", conv)
    assert [m["content"] for m in msgs] == ["Q1", "A1 [^1]", "Q2", "A2 [^2]"]
    assert msgs[0]["message_id"] == first and msgs[2]["message_id"] == q2
    assert msgs[3]["citation_map"] == {"[^2]": {"page": 3}}
    assert store.get_state("alice", conv)["rag_counter"] == 2
    assert outbox.flush() == 0  # idempotent: nothing written twice
    assert len(store.load_messages("alice", conv)) == 4


def test_embedded_server_restarts_itself_and_keeps_data(own_embedded_dir):
    store = HistoryStore(db_name="restart")
    conv = store.create_conversation("alice", "Survives")
    store.append_message("alice", conv, "user", "before the crash")
    first = mongo_server.running_server(own_embedded_dir)
    assert first is not None and (own_embedded_dir / "db" / "restart.db").exists()  # data lives in the folder

    mongo_server.stop_server(own_embedded_dir)  # server killed (crash, reboot)
    assert mongo_server.running_server(own_embedded_dir) is None
    store.append_message("alice", conv, "ai", "after the restart")  # the store starts it again

    again = HistoryStore(db_name="restart")  # a fresh app process
    assert [m["content"] for m in again.load_messages("alice", conv)] == ["before the crash", "after the restart"]
    assert again.list_conversations("alice")[0]["title"] == "Survives"
    assert mongo_server.running_server(own_embedded_dir).pid != first.pid


def test_two_app_processes_share_one_embedded_server(own_embedded_dir):
    info = mongo_server.ensure_server(own_embedded_dir)
    code = ("from storage import mongo_server; import sys; "
            "i = mongo_server.ensure_server(); print(i.pid, i.port)")
    out = subprocess.run([sys.executable, "-c", code], cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == [str(info.pid), str(info.port)]


def test_embedded_server_that_cannot_start_is_reported(own_embedded_dir, monkeypatch):
    with socket.socket() as blocker:  # something else already holds the configured port
        blocker.bind(("127.0.0.1", 0))
        blocker.listen()
        monkeypatch.setenv("PDF_CHAT_MONGO_PORT", str(blocker.getsockname()[1]))
        store = HistoryStore(db_name="nope", timeout_ms=300)
        with pytest.raises(HistoryUnavailableError, match="could not be started.*address already in use"):
            store.ping()
    assert mongo_server.running_server(own_embedded_dir) is None


def test_embedded_server_exits_when_no_app_is_connected(own_embedded_dir, monkeypatch):
    monkeypatch.setenv("PDF_CHAT_MONGO_IDLE_S", "1")
    info = mongo_server.ensure_server(own_embedded_dir)
    store = HistoryStore(db_name="idle")
    store.create_conversation("alice")  # an open client keeps it alive past the idle limit
    time.sleep(2.5)
    assert mongo_server.running_server(own_embedded_dir) == info
    store.close()
    deadline = time.monotonic() + 15
    while mongo_server._is_our_server(info.pid) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not mongo_server._is_our_server(info.pid)



def test_bad_state_is_refused_at_once_even_while_writes_are_queued():
    """Queued behind a write waiting for the database, bad input used to be accepted silently and
    then raised later from an unrelated call (or, as a TypeError, block the queue for good)."""
    from storage.history import InvalidHistoryInputError

    store = HistoryStore(f"mongodb://127.0.0.1:{mongo_server.free_port()}/", timeout_ms=300)
    outbox = PendingWrites(store)
    conv = "0" * 32
    outbox.append_message("alice", conv, "user", "hello")  # queued: the database is down
    with pytest.raises(InvalidHistoryInputError, match="rag_counter"):
        outbox.save_state("alice", conv, rag_counter=-1)
    with pytest.raises(InvalidHistoryInputError, match="unexpected argument"):
        outbox.save_state("alice", conv, rag_count=1)
    assert len(outbox) == 1


def test_flush_does_not_count_writes_dropped_for_a_deleted_conversation(own_nx_server):
    store = HistoryStore(own_nx_server.uri, db_name="dropped", timeout_ms=500)
    outbox = PendingWrites(store)
    conv = store.create_conversation("alice")
    own_nx_server.stop()
    outbox.append_message("alice", conv, "user", "queued")
    assert len(outbox) == 1
    own_nx_server.start()
    store.delete_conversation("alice", conv)
    assert outbox.flush() == 0 and len(outbox) == 0
