"""Start the app for the browser tests: `streamlit run app.py` on 127.0.0.1, a free port, its own
PDF home (and so its own embedded history server), no keys from the environment unless given."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from storage.history.embedded_server import free_port
from tests.fixtures_ui import ROOT

# Not passed on to an app under test: keys and servers of the developer's environment, and the test session's
# shared history server and outbox (tests/fixtures_mongo.py sets them for the session; e2e tests run after the
# other folders): each app keeps its history under its own PDF_CHAT_HOME.
NOT_INHERITED = ("GOOGLE_API_KEY", "GEMINI_API_KEY", "OPENAI_API_KEY", "OPENAI_BASE_URL", "TAVILY_API_KEY",
                 "MONGODB_URI", "CHROMA_HOST", "PDF_SOURCE_DIR", "PDF_DESTINATION_DIR", "PDF_CHAT_LOCAL_USER",
                 "PDF_CHAT_MONGO_DIR", "PDF_CHAT_MONGO_PORT", "PDF_CHAT_OUTBOX")


@contextlib.contextmanager
def run_app(workdir: Path, **extra_env: str):
    """Yield {"url", "home"} for a running app; stop it (and its history server) afterwards and
    fail if its log shows a traceback."""
    home = workdir / "pdf_files"
    (home / "source").mkdir(parents=True)
    env = {k: v for k, v in os.environ.items() if k not in NOT_INHERITED}
    env.update(PDF_CHAT_HOME=str(home), ANONYMIZED_TELEMETRY="False", PYTHONUNBUFFERED="1", **extra_env)
    port = free_port()
    log_path = workdir / "streamlit.log"
    log = open(log_path, "wb")
    # The file watcher is off by .streamlit/config.toml, as in production.
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
         "--server.port", str(port), "--server.address", "127.0.0.1"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, log_path.read_text()[-3000:]
            try:
                if urllib.request.urlopen(f"{url}/_stcore/health", timeout=2).status == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, "streamlit did not come up in 60 s"
            time.sleep(0.3)
        yield {"url": url, "home": home}
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
        log.close()
        from storage.history.embedded_server import _is_our_server, _read_state, stop_server

        server = _read_state(home / ".mongo")  # the app's embedded history server (PDF_CHAT_HOME/.mongo)
        deadline = time.monotonic() + 20
        while server and _is_our_server(server.pid) and time.monotonic() < deadline:
            time.sleep(0.2)  # it stops by itself once the app that started it is gone
        outlived = bool(server and _is_our_server(server.pid))
        stop_server(home / ".mongo")
        server_log = log_path.read_text(errors="replace")
        assert "Traceback" not in server_log, server_log[-4000:]
        assert not outlived, "the embedded history server outlived the app that started it"
