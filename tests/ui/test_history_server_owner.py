"""Issue 29.6: stopping the app stops the embedded history server it started (it used to outlive
the app, reparented to PID 1), however the app ended; a server another app still uses keeps serving
until that app is gone too."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pymongo

from storage.history import embedded_server
from storage.settings import PROJECT_ROOT

APP = ("import sys, time; from pathlib import Path; from storage.history import embedded_server; "
       "i = embedded_server.ensure_server(Path(sys.argv[1])); print(i.pid, i.port, flush=True); time.sleep(600)")


def _start_app(data_dir):
    """A stand-in app process that starts the server and keeps running; (process, server pid, port)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PDF_CHAT_MONGO_")}
    env["PDF_CHAT_MONGO_IDLE_S"] = "86400"  # no idle exit here: only the owner's end may stop it
    app = subprocess.Popen([sys.executable, "-c", APP, str(data_dir)], cwd=PROJECT_ROOT, env=env,
                           stdout=subprocess.PIPE, text=True)
    pid, port = (int(x) for x in app.stdout.readline().split())
    return app, pid, port


def _gone_within(pid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not embedded_server._is_our_server(pid):
            return True
        time.sleep(0.2)
    return False


def test_the_server_stops_with_the_app_that_started_it(tmp_path):
    app, pid, _ = _start_app(tmp_path / "mongo")
    try:
        assert embedded_server._is_our_server(pid)
        app.send_signal(signal.SIGKILL)  # however the app ends: no clean-up code of it runs
        app.wait(10)
        assert _gone_within(pid, 15), "the history server outlived the app that started it"
    finally:
        app.kill()
        embedded_server.stop_server(tmp_path / "mongo")


def test_a_server_another_app_still_uses_keeps_serving_until_it_is_gone(tmp_path):
    app, pid, port = _start_app(tmp_path / "mongo")
    other = pymongo.MongoClient(f"mongodb://127.0.0.1:{port}/", serverSelectionTimeoutMS=5000)
    try:
        other.admin.command("ping")  # a second app is connected
        app.terminate()
        app.wait(10)
        time.sleep(2)
        assert embedded_server._is_our_server(pid)
        other.admin.command("ping")
        other.close()
        assert _gone_within(pid, 15)
    finally:
        other.close()
        app.kill()
        embedded_server.stop_server(tmp_path / "mongo")
