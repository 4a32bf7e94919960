"""Servers started as user processes on free loopback ports, each in a session of its own so it stops with
everything it started: redis-server, `chroma run`, nx-27017 (the embedded launcher) and Celery workers.
Used by the cluster tests (tests/fixtures_cluster.py) and the load benchmark (bench/load.py).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from storage.history.embedded_server import free_port
from storage.settings import PROJECT_ROOT

REDIS_BIN = shutil.which("redis-server")
CHROMA_BIN = Path(sys.executable).with_name("chroma")


def wait_until(check, what: str, proc: subprocess.Popen, log: Path, timeout_s: float = 60.0) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        assert proc.poll() is None, f"{what} exited: {log.read_text()[-2000:] if log.exists() else ''}"
        if check():
            return
        time.sleep(0.2)
    raise RuntimeError(f"{what} did not start in {timeout_s:.0f} s")


def stop_process(proc: subprocess.Popen | None, sig: int = signal.SIGTERM, timeout_s: float = 20.0) -> None:
    """Stop `proc` and its process group (it was started in a session of its own)."""
    if proc is None or proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, sig)
        proc.wait(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    except ProcessLookupError:
        pass


def spawn(cmd: list[str], log: Path, env: dict | None = None, cwd: Path | None = None) -> subprocess.Popen:
    out = open(log, "ab")
    try:
        return subprocess.Popen(cmd, stdout=out, stderr=out, stdin=subprocess.DEVNULL, env=env,
                                cwd=cwd, start_new_session=True)
    finally:
        out.close()


@dataclass
class RedisServer:
    data_dir: Path
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen | None = None
    persistent: bool = False  # append-only file in data_dir (what scripts/start_cluster.sh and compose run)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> "RedisServer":
        import redis

        self.data_dir.mkdir(parents=True, exist_ok=True)
        log = self.data_dir / "redis.log"
        assert REDIS_BIN, "redis-server is not installed: scripts/setup.sh --dev installs it"
        self.proc = spawn([REDIS_BIN, "--bind", "127.0.0.1", "--port", str(self.port), "--save", "",
                            "--appendonly", "yes" if self.persistent else "no", "--dir", str(self.data_dir), "--daemonize", "no"], log)

        def ping() -> bool:
            try:
                return redis.Redis.from_url(self.url, socket_timeout=0.5).ping()
            except redis.RedisError:
                return False

        wait_until(ping, "redis-server", self.proc, log)
        return self

    def stop(self) -> None:
        stop_process(self.proc)


@dataclass
class ChromaServer:
    data_dir: Path
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen | None = None

    def start(self) -> "ChromaServer":
        self.data_dir.mkdir(parents=True, exist_ok=True)
        log = self.data_dir / "chroma.log"
        self.proc = spawn([str(CHROMA_BIN), "run", "--path", str(self.data_dir / "db"), "--host", "127.0.0.1",
                            "--port", str(self.port)], log)

        def up() -> bool:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/api/v2/heartbeat", timeout=1) as r:
                    return r.status == 200
            except OSError:
                return False

        wait_until(up, "chroma run", self.proc, log)
        return self

    def stop(self) -> None:
        stop_process(self.proc)


@dataclass
class CeleryWorker:
    """`celery -A storage.jobs.celery_app worker` with the given environment (its own process group)."""

    env: dict
    log: Path
    proc: subprocess.Popen | None = None

    def start(self) -> "CeleryWorker":
        cmd = [sys.executable, "-m", "celery", "-A", "storage.jobs.celery_app", "worker", "--concurrency", "1",
               "--loglevel", "INFO", "--without-gossip", "--without-mingle", "-n", f"w{os.getpid()}-{time.time_ns()}@%h"]
        self.proc = spawn(cmd, self.log, env=self.env, cwd=PROJECT_ROOT)
        wait_until(lambda: "ready." in self.log.read_text(errors="replace"), "celery worker", self.proc, self.log, 120)
        return self

    def kill(self) -> None:
        """kill -9 of the worker and its pool processes, as a lost machine would."""
        stop_process(self.proc, signal.SIGKILL)

    def stop(self) -> None:
        stop_process(self.proc, signal.SIGTERM, timeout_s=30)


@dataclass
class MongoServer:
    """nx-27017 through the app's launcher (`python -m storage.history.embedded_server serve`)."""

    data_dir: Path
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen | None = None

    @property
    def uri(self) -> str:
        return f"mongodb://127.0.0.1:{self.port}/"

    def start(self) -> "MongoServer":
        from pymongo import MongoClient
        from pymongo.errors import PyMongoError

        (self.data_dir / "db").mkdir(parents=True, exist_ok=True)
        log = self.data_dir / "mongo.log"
        self.proc = spawn([sys.executable, "-m", "storage.history.embedded_server", "serve", "--data-dir",
                            str(self.data_dir), "--port", str(self.port)], log,
                           env={**os.environ, "PDF_CHAT_MONGO_IDLE_S": "86400"}, cwd=PROJECT_ROOT)

        def ping() -> bool:
            try:
                return bool(MongoClient(self.uri, serverSelectionTimeoutMS=500).admin.command("ping"))
            except PyMongoError:
                return False

        wait_until(ping, "nx-27017", self.proc, log)
        return self

    def stop(self) -> None:
        stop_process(self.proc)
