"""Faults: database down at start and mid-conversation, server restarts, the embedded server's
sharing between processes, and secrets kept out of error messages."""

from __future__ import annotations

import socket
import time
import subprocess
import sys

import pytest

from storage.history import embedded_server
from storage.settings import PROJECT_ROOT
from storage.history.store import HistoryStore, HistoryUnavailableError
from tests.fixtures_mongo import write_message


def test_database_down_at_start_gives_a_clear_error_without_the_password():
    port = embedded_server.free_port()  # nothing listens there
    store = HistoryStore(f"mongodb://alice:s3cr3t-pw@127.0.0.1:{port}/?authSource=admin", timeout_ms=300)
    with pytest.raises(HistoryUnavailableError) as err:
        store.ping()
    message = str(err.value)
    assert f"127.0.0.1:{port}" in message and "unavailable" in message
    assert "s3cr3t-pw" not in message and "alice" not in message
    with pytest.raises(HistoryUnavailableError):
        store.create_conversation("alice")


def test_embedded_server_restarts_itself_and_keeps_data(own_embedded_dir):
    store = HistoryStore(db_name="restart")
    conv = store.create_conversation("alice", "Survives")
    write_message(store, "alice", conv, "user", "before the crash")
    first = embedded_server.running_server(own_embedded_dir)
    assert first is not None and (own_embedded_dir / "db" / "restart.db").exists()  # data lives in the folder

    embedded_server.stop_server(own_embedded_dir)  # server killed (crash, reboot)
    assert embedded_server.running_server(own_embedded_dir) is None
    write_message(store, "alice", conv, "ai", "after the restart")  # the store starts it again

    again = HistoryStore(db_name="restart")  # a fresh app process
    assert [m["content"] for m in again.load_messages("alice", conv)] == ["before the crash", "after the restart"]
    assert again.list_conversations("alice")[0]["title"] == "Survives"
    assert embedded_server.running_server(own_embedded_dir).pid != first.pid


def test_two_app_processes_share_one_embedded_server(own_embedded_dir):
    info = embedded_server.ensure_server(own_embedded_dir)
    code = ("from storage.history import embedded_server; import sys; "
            "i = embedded_server.ensure_server(); print(i.pid, i.port)")
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
    assert embedded_server.running_server(own_embedded_dir) is None


def test_embedded_server_exits_when_no_app_is_connected(own_embedded_dir, monkeypatch):
    monkeypatch.setenv("PDF_CHAT_MONGO_IDLE_S", "1")
    info = embedded_server.ensure_server(own_embedded_dir)
    store = HistoryStore(db_name="idle")
    store.create_conversation("alice")  # an open client keeps it alive past the idle limit
    time.sleep(2.5)
    assert embedded_server.running_server(own_embedded_dir) == info
    store.close()
    deadline = time.monotonic() + 15
    while embedded_server._is_our_server(info.pid) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not embedded_server._is_our_server(info.pid)
