"""Servers started as user processes on free loopback ports, each in a session of its own so it stops with
everything it started: redis-server, `chroma run`, nx-27017 (the embedded launcher) and Celery workers; and the whole cluster of
scripts/start_cluster.sh (`running_cluster`). Used by the cluster tests (tests/fixtures_cluster.py,
tests/e2e/test_e2e_cluster.py), the load benchmark (bench/load.py) and the soak (bench/soak.py).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterable, Iterator
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


# ---------------------------------------------------------------- the cluster of scripts/start_cluster.sh

# Settings of the caller's shell that would point the cluster at other servers, models or folders.
CLUSTER_NOT_INHERITED = ("CELERY_", "CHROMA_", "MONGODB_", "OPENAI_", "GOOGLE_", "GEMINI_", "TAVILY_", "PDF_")


def _pid_files(folder: Path) -> dict[str, int]:
    return {p.stem: int(p.read_text()) for p in folder.glob("*.pid")} if folder.exists() else {}


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@contextlib.contextmanager
def running_cluster(work: Path, tree: Path = PROJECT_ROOT, up_timeout_s: float = 240.0,
                    drop: Iterable[str] = CLUSTER_NOT_INHERITED, **extra_env: str) -> Iterator[dict]:
    """scripts/start_cluster.sh of `tree` (this checkout, or another revision's: bench/revision.py) on free
    loopback ports, its state under `work`; stopped afterwards, every process it started (a RuntimeError
    names any left running). Yields url, apps (replica ports), mongo_uri, env (what a client of the
    cluster needs: broker, Chroma, history), pids (by name: app1, app2, worker, redis, ...), home, logs, tree."""
    if not (tree / ".venv").exists():
        (tree / ".venv").symlink_to(PROJECT_ROOT / ".venv")
    home = work / "pdf_files"
    (home / "source").mkdir(parents=True)
    ports = {name: free_port() for name in ("CLUSTER_PORT", "REDIS_PORT", "CHROMA_PORT", "MONGO_PORT")}
    apps = [free_port(), free_port()]
    prefixes = tuple(drop)
    env = {k: v for k, v in os.environ.items() if not k.startswith(prefixes)}
    env.update({k: str(v) for k, v in ports.items()}, APP_PORTS=" ".join(map(str, apps)), CLUSTER_SKIP_SETUP="1",
               CLUSTER_DIR=str(work / "run"), PDF_CHAT_HOME=str(home), PDF_CHAT_MONGO_DIR=str(work / "mongo"),
               PYTHONUNBUFFERED="1", PYTHONPATH=str(tree), **extra_env)
    out = work / "start_cluster.log"
    pids_dir = work / "run" / "pids"
    with open(out, "wb") as log:
        proc = subprocess.Popen(["bash", str(tree / "scripts" / "start_cluster.sh")], cwd=tree, env=env, stdout=log,
                                stderr=subprocess.STDOUT, start_new_session=True)
    pids: dict[str, int] = {}
    try:
        deadline = time.monotonic() + up_timeout_s
        while "start_cluster: up" not in out.read_text():
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the cluster did not come up in {up_timeout_s:.0f} s: {out.read_text()[-3000:]}")
            time.sleep(0.5)
        pids = _pid_files(pids_dir)
        env.update(CELERY_BROKER_URL=f"redis://127.0.0.1:{ports['REDIS_PORT']}/0", CHROMA_HOST="127.0.0.1",
                   MONGODB_URI=f"mongodb://127.0.0.1:{ports['MONGO_PORT']}/")
        yield {"url": f"http://127.0.0.1:{ports['CLUSTER_PORT']}", "apps": apps, "mongo_uri": env["MONGODB_URI"],
               "env": env, "pids": pids, "home": home, "logs": work / "run" / "logs", "tree": tree}
    finally:
        pids = {**pids, **_pid_files(pids_dir)}
        stop_process(proc, timeout_s=90)  # SIGTERM to the script's group: the script stops what it started
    left = [name for name, pid in pids.items() if alive(pid)]
    if left:
        raise RuntimeError(f"still running after the cluster script stopped: {left}")
