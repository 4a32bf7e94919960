"""The embedded history database: a local `nx-27017` server started on demand.

Why this default: the history store speaks MongoDB through pymongo, and production points
`MONGODB_URI` at a real MongoDB/Atlas. With no URI we want zero installs and data that survives a
restart, yet the *same* store code path (wire protocol, indexes, atomic `$inc`), so what runs
locally is what CI tests. `nx-27017` (pure Python, PyPI) is a MongoDB wire-protocol server over
SQLite, so we start it as a detached subprocess on 127.0.0.1 instead of writing an in-process fake
behind the same interface (which would test a second code path).

- Data: `<data_dir>/db/<database>.db` (SQLite, one file per logical database). `data_dir` is
  `PDF_CHAT_MONGO_DIR`, else `$PDF_CHAT_HOME/.mongo` when `PDF_CHAT_HOME` is set, else
  `<repo>/.data/mongo` (git-ignored).
- Port: `PDF_CHAT_MONGO_PORT`, else the port used last time if free, else any free port.
- Sharing: `server.json` (pid, port) plus a file lock around start-up, so two app processes (or a
  Streamlit rerun after a crash) find and reuse the running server instead of starting a second.
  The server runs in its own session (a Ctrl+C or a signal to the app's process group does not cut
  it off mid-write) but watches the process that started it: once that process is gone and no
  client is connected (another app may still use it), it stops, so stopping the app stops it,
  however the app ended. `python -m storage.history.embedded_server start` starts one that nobody
  owns (it stops when idle, or with `... stop`).
- neosqlite's Python fallback is forced before serving: its SQL fast path stores `$push`ed
  sub-documents as strings. (The store avoids `$push` anyway; this keeps other clients safe.)
- It exits when no client has been connected for `PDF_CHAT_MONGO_IDLE_S` seconds (default 600;
  0 = never) or when its data folder is deleted, so no orphan daemons pile up (test runs!).
- The server gets only the environment it needs (PATH, HOME, locale, its own PDF_CHAT_MONGO_*
  settings): no API keys or other secrets of the app.
- The server logs at WARNING only: at INFO nx-27017 logs raw commands (a privacy risk for chat
  content as its logging grows) and the log would grow without bound.

CLI: `python -m storage.history.embedded_server {start,stop,status,serve}`; `serve` is the launcher the
subprocess runs (foreground).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from filelock import FileLock

from storage.settings import PROJECT_ROOT, get_settings

log = logging.getLogger("storage.history.embedded_server")

HOST = "127.0.0.1"
STATE_FILE = "server.json"
START_TIMEOUT_S = 30.0


class EmbeddedServerError(RuntimeError):
    """The embedded history server could not be started."""


@dataclass(frozen=True)
class ServerInfo:
    pid: int
    port: int
    data_dir: Path

    @property
    def uri(self) -> str:
        return f"mongodb://{HOST}:{self.port}/"


def default_data_dir() -> Path:
    settings = get_settings()
    if settings.history.mongo_dir:
        return settings.history.mongo_dir.expanduser().resolve()
    if "home" in settings.paths.model_fields_set:  # PDF_CHAT_HOME was set
        return settings.paths.home.expanduser().resolve() / ".mongo"
    return PROJECT_ROOT / ".data" / "mongo"


def _port_is_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        try:
            s.bind((HOST, port))
        except OSError:
            return False
        return True


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def _answers_ping(port: int, timeout_s: float = 1.0) -> bool:
    from pymongo import MongoClient
    from pymongo.errors import PyMongoError

    client = MongoClient(HOST, port, serverSelectionTimeoutMS=int(timeout_s * 1000), connectTimeoutMS=int(timeout_s * 1000))
    try:
        client.admin.command("ping")
        return True
    except PyMongoError:
        return False
    finally:
        client.close()


def _is_our_server(pid: int) -> bool:
    """True if `pid` is alive and is a `storage.history.embedded_server serve` process (guards against pid reuse)."""
    try:
        os.waitpid(pid, os.WNOHANG)  # if we started it and it died, reap the zombie
    except ChildProcessError:
        pass
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        try:
            os.kill(pid, 0)  # no /proc (macOS): trust the pid if it is alive
            return True
        except OSError:
            return False
    return "storage.history.embedded_server" in cmdline and " serve" in cmdline


def _read_state(data_dir: Path) -> ServerInfo | None:
    try:
        raw = json.loads((data_dir / STATE_FILE).read_text())
        return ServerInfo(pid=int(raw["pid"]), port=int(raw["port"]), data_dir=data_dir)
    except (OSError, ValueError, KeyError, TypeError):
        return None


def running_server(data_dir: Path | None = None) -> ServerInfo | None:
    """The live server for `data_dir`, or None."""
    data_dir = Path(data_dir) if data_dir else default_data_dir()
    info = _read_state(data_dir)
    if info and _is_our_server(info.pid) and _answers_ping(info.port):
        return info
    return None


def ensure_server(data_dir: Path | None = None, port: int | None = None, *, owned: bool = True) -> ServerInfo:
    """Return the running embedded server for `data_dir`, starting it if needed. A server started here
    stops once this process is gone and no client is connected (`owned=False`: only when idle)."""
    data_dir = Path(data_dir) if data_dir else default_data_dir()
    data_dir.mkdir(parents=True, exist_ok=True)
    with FileLock(str(data_dir / "server.lock"), timeout=START_TIMEOUT_S + 10):
        previous = _read_state(data_dir)
        if previous and _is_our_server(previous.pid):
            if _answers_ping(previous.port, timeout_s=2.0):
                return previous
            _terminate(previous.pid)  # alive but not answering: replace it
        port = port or _configured_port() or (previous.port if previous and _port_is_free(previous.port) else free_port())
        info = _spawn(data_dir, port, os.getpid() if owned else None)
        (data_dir / STATE_FILE).write_text(json.dumps({"pid": info.pid, "port": info.port}))
        return info


def stop_server(data_dir: Path | None = None) -> bool:
    """Stop the embedded server for `data_dir`; True if one was running."""
    data_dir = Path(data_dir) if data_dir else default_data_dir()
    if not data_dir.exists():
        return False
    with FileLock(str(data_dir / "server.lock"), timeout=START_TIMEOUT_S + 10):
        info = _read_state(data_dir)
        (data_dir / STATE_FILE).unlink(missing_ok=True)
        if info and _is_our_server(info.pid):
            _terminate(info.pid)
            return True
        return False


def _configured_port() -> int | None:
    return get_settings().history.mongo_port


# The server needs a shell-like environment and its own settings, nothing of the app's (API keys,
# database URIs): it runs detached and outlives the app, so it must not carry secrets around.
_SERVER_ENV = {"PATH", "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "TZ", "TMPDIR", "SYSTEMROOT", "VIRTUAL_ENV"}


def _server_environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k in _SERVER_ENV or k.startswith("LC_") or k.startswith("PDF_CHAT_MONGO_")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PROJECT_ROOT), os.environ.get("PYTHONPATH")]))
    return env


def _spawn(data_dir: Path, port: int, owner_pid: int | None = None) -> ServerInfo:
    (data_dir / "db").mkdir(parents=True, exist_ok=True)
    log_path = data_dir / "server.log"
    cmd = [sys.executable, "-m", "storage.history.embedded_server", "serve", "--data-dir", str(data_dir), "--port", str(port)]
    if owner_pid:
        cmd += ["--owner-pid", str(owner_pid)]
    env = _server_environment()
    with open(log_path, "ab") as log_fh:
        proc = subprocess.Popen(
            cmd, cwd=str(data_dir), env=env, stdin=subprocess.DEVNULL, stdout=log_fh, stderr=log_fh,
            start_new_session=True,  # its own session: the app's Ctrl+C does not cut a write; it watches the owner
        )
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            lines = [ln.strip() for ln in log_path.read_text(errors="replace").splitlines() if ln.strip()]
            reason = lines[-1][:300] if lines else "no output"
            raise EmbeddedServerError(f"it exited with code {proc.returncode} on port {port} ({reason}); see {log_path}")
        if _answers_ping(port, timeout_s=0.5):
            return ServerInfo(pid=proc.pid, port=port, data_dir=data_dir)
        time.sleep(0.1)
    _terminate(proc.pid)
    raise EmbeddedServerError(f"it did not answer on {HOST}:{port} within {START_TIMEOUT_S:.0f}s; see {log_path}")


def _terminate(pid: int, timeout_s: float = 10.0) -> None:
    try:
        os.kill(pid, signal.SIGTERM)
    except OSError:
        return
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            reaped, _ = os.waitpid(pid, os.WNOHANG)  # our child: reap it, or it stays a zombie
            if reaped == pid:
                return
        except ChildProcessError:
            pass  # not our child
        try:
            os.kill(pid, 0)
        except OSError:
            return
        time.sleep(0.05)
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass


def serve(data_dir: Path, port: int, host: str = HOST, idle_exit_s: float | None = None,
          owner_pid: int | None = None) -> None:
    """Run nx-27017 in the foreground with neosqlite's Python fallback forced (the launcher).

    Exits by itself when its data folder is deleted, or when no client has been connected for
    `idle_exit_s` (`PDF_CHAT_MONGO_IDLE_S`, default 600; 0 = never): an app holds a pymongo pool
    open while it runs, so this only reaps servers whose apps (or test runs) are gone; the next
    app start brings it back in ~2 s. With `owner_pid` (the app that started it) it also exits once
    that process is gone and no client is connected.
    """
    from neosqlite.collection.query_helper import set_force_fallback

    set_force_fallback(True)
    from nx_27017.daemon import remove_pid_file, write_pid_file
    from nx_27017.handler import NeoSQLiteHandler
    from nx_27017.server import run_server_threaded

    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    if idle_exit_s is None:
        idle_exit_s = get_settings().history.mongo_idle_s
    pid_file = str(data_dir / "nx-27017.pid")
    if not write_pid_file(pid_file):  # another server already serves this folder
        sys.exit(1)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    signal.signal(signal.SIGINT, lambda *_: sys.exit(0))
    handler = NeoSQLiteHandler(str(data_dir / "db" / "default.db"), journal_mode="WAL", data_dir=str(data_dir / "db"))
    threading.Thread(target=_watchdog, args=(handler, data_dir, idle_exit_s, owner_pid), daemon=True).start()
    try:
        run_server_threaded(host, port, handler, use_threading=False)
    finally:
        remove_pid_file(pid_file)


def process_alive(pid: int) -> bool:
    """Whether process `pid` runs (an exited process its parent has not reaped yet counts as gone)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True  # no /proc (macOS): the signal check above is all there is
    return stat.rsplit(")", 1)[-1].split()[0] not in ("Z", "X")


def _watchdog(handler, data_dir: Path, idle_exit_s: float, owner_pid: int | None = None, poll_s: float = 0.5) -> None:
    idle_since = time.monotonic()
    while True:
        time.sleep(poll_s)
        if not (data_dir / "db").is_dir():
            log.warning("data folder %s is gone; stopping", data_dir)
            break
        connected = getattr(handler, "_active_connections", 1) > 0  # private counter of nx-27017 0.8.x
        if connected:
            idle_since = time.monotonic()
        elif owner_pid and not process_alive(owner_pid):
            break  # the app that started it has stopped, and no other app is using it
        elif idle_exit_s > 0 and time.monotonic() - idle_since >= idle_exit_s:
            break
    os.kill(os.getpid(), signal.SIGTERM)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m storage.history.embedded_server", description=__doc__.split("\n")[0])
    parser.add_argument("command", choices=["start", "stop", "status", "serve"])
    parser.add_argument("--data-dir", type=Path, default=None)
    parser.add_argument("--port", type=int, default=None)
    parser.add_argument("--owner-pid", type=int, default=None, help="serve: stop once this process is gone and idle")
    args = parser.parse_args(argv)
    data_dir = args.data_dir.resolve() if args.data_dir else default_data_dir()
    if args.command == "serve":
        serve(data_dir, args.port or _configured_port() or 27017, owner_pid=args.owner_pid)
        return 0
    if args.command == "start":
        info = ensure_server(data_dir, args.port, owned=False)
        print(f"history server running: pid {info.pid}, {info.uri}, data {data_dir}")
        return 0
    if args.command == "stop":
        print("stopped" if stop_server(data_dir) else "not running")
        return 0
    info = running_server(data_dir)
    print(f"running: pid {info.pid}, {info.uri}, data {data_dir}" if info else f"not running (data {data_dir})")
    return 0 if info else 1


if __name__ == "__main__":
    sys.exit(main())
