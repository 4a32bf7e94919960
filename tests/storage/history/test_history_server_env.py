"""The embedded history server is started with only the environment it needs: no API keys."""

from __future__ import annotations

from pathlib import Path

from storage.history.embedded_server import ensure_server, stop_server


def test_the_server_does_not_inherit_secrets(tmp_path, monkeypatch):
    monkeypatch.setenv("GOOGLE_API_KEY", "test-secret-google-key")
    monkeypatch.setenv("TAVILY_API_KEY", "test-secret-tavily-key")
    monkeypatch.setenv("MONGODB_URI", "mongodb://user:password@db.example:27017/")
    monkeypatch.setenv("PDF_CHAT_MONGO_IDLE_S", "30")
    info = ensure_server(tmp_path / "mongo")
    try:
        raw = Path(f"/proc/{info.pid}/environ").read_bytes()
        env = dict(item.split("=", 1) for item in raw.decode(errors="replace").split("\0") if "=" in item)
    finally:
        stop_server(tmp_path / "mongo")
    assert b"test-secret" not in raw and b"password" not in raw
    assert not {"GOOGLE_API_KEY", "TAVILY_API_KEY", "MONGODB_URI"} & env.keys()
    assert env["PDF_CHAT_MONGO_IDLE_S"] == "30" and "PATH" in env and "PYTHONPATH" in env
