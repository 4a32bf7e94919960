"""MongoDB fixtures for the history tests: a plain `nx-27017` over TCP (as CI runs it) and the
embedded default (storage/history/embedded_server.py), each session-scoped with data in a tmp dir.

Registered for every test by tests/conftest.py's `pytest_plugins`: use the fixtures by name, import nothing.
"""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from pymongo import MongoClient
from pymongo.errors import PyMongoError

from storage.history import embedded_server
from storage.history.store import HistoryStore, new_id

NX_BIN = Path(sys.executable).with_name("nx-27017")


@dataclass
class NxServer:
    """A `nx-27017` process on 127.0.0.1 that a test can stop and start again on the same data."""

    data_dir: Path
    port: int = field(default_factory=embedded_server.free_port)
    proc: subprocess.Popen | None = None

    @property
    def uri(self) -> str:
        return f"mongodb://127.0.0.1:{self.port}/"

    def start(self, timeout_s: float = 30.0) -> "NxServer":
        self.data_dir.mkdir(parents=True, exist_ok=True)
        cmd = [str(NX_BIN) if NX_BIN.exists() else shutil.which("nx-27017") or "nx-27017",
               "--data-dir", str(self.data_dir / "db"), "-p", str(self.port),
               "--pid-file", str(self.data_dir / "nx.pid"), "--log-file", str(self.data_dir / "nx.log")]
        log = open(self.data_dir / "stdout.log", "ab")
        self.proc = subprocess.Popen(cmd, cwd=self.data_dir, stdout=log, stderr=log, stdin=subprocess.DEVNULL)
        log.close()
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, (self.data_dir / "stdout.log").read_text()[-2000:]
            client = MongoClient(self.uri, serverSelectionTimeoutMS=300)
            try:
                client.admin.command("ping")
                return self
            except PyMongoError:
                time.sleep(0.1)
            finally:
                client.close()
        raise RuntimeError(f"nx-27017 did not start on port {self.port}")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None


@pytest.fixture(scope="session")
def nx_server(tmp_path_factory):
    """Session-wide nx-27017 over TCP (no forced fallback: exactly what CI starts)."""
    server = NxServer(tmp_path_factory.mktemp("nx-tcp")).start()
    yield server
    server.stop()


@pytest.fixture
def own_nx_server(tmp_path):
    """A private nx-27017 for tests that stop and restart the server."""
    server = NxServer(tmp_path / "nx-own").start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def embedded_mongo_dir(tmp_path_factory):
    """PDF_CHAT_MONGO_DIR for the whole session; the embedded server is stopped at the end."""
    data_dir = tmp_path_factory.mktemp("embedded-mongo")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PDF_CHAT_MONGO_DIR", str(data_dir))
        mp.delenv("MONGODB_URI", raising=False)
        mp.delenv("PDF_CHAT_MONGO_PORT", raising=False)
        yield data_dir
        embedded_server.stop_server(data_dir)


@pytest.fixture
def own_embedded_dir(tmp_path, monkeypatch):
    """A private embedded-server folder for tests that stop/restart it; stopped afterwards."""
    data_dir = tmp_path / "embedded-own"
    monkeypatch.setenv("PDF_CHAT_MONGO_DIR", str(data_dir))
    monkeypatch.delenv("MONGODB_URI", raising=False)
    monkeypatch.delenv("PDF_CHAT_MONGO_PORT", raising=False)
    yield data_dir
    embedded_server.stop_server(data_dir)


def _fresh_db_name() -> str:
    return "t_" + uuid.uuid4().hex[:12]


@pytest.fixture(params=["embedded", "nx-tcp"])
def backend(request):
    """Parametrises a test over both backends; returns a factory of HistoryStore on one fresh database."""
    db_name = _fresh_db_name()
    stores: list[HistoryStore] = []
    if request.param == "embedded":
        request.getfixturevalue("embedded_mongo_dir")  # sets PDF_CHAT_MONGO_DIR for the session

        def make(**kw) -> HistoryStore:
            stores.append(HistoryStore(db_name=db_name, **kw))
            return stores[-1]
    else:
        server = request.getfixturevalue("nx_server")

        def make(**kw) -> HistoryStore:
            stores.append(HistoryStore(server.uri, db_name=db_name, **kw))
            return stores[-1]

    make.kind = request.param  # type: ignore[attr-defined]
    yield make
    for s in stores:
        s.close()


@pytest.fixture
def store(backend) -> HistoryStore:
    return backend()


def write_message(store: HistoryStore, user_id: str, conversation_id: str, role: str, content: str, *,
                  message_id: str | None = None, **fields) -> str:
    """One message written the product's way, as a one-message turn through `save_turn`; returns its id."""
    message_id = message_id or new_id()
    store.save_turn(user_id, conversation_id, new_id(), [{"role": role, "content": content, "message_id": message_id, **fields}])
    return message_id
