"""Idle cost of the app server: CPU used and log lines repeated while nobody uses the app.

    python -m bench.idle_cpu [--seconds 60] [--no-baseline]

Starts the app the way the README does (`scripts/start_app.sh`, headless, on a free port), waits
until it answers its health check plus a settling time, then measures the CPU time of the server
process tree over `--seconds` (psutil) and counts log lines that appear more than once. Meanwhile
a thread writes a small file 20 times a second under `.data/idle-bench/` in the repository, as the
embedded history database does under `.data/mongo` once the app was used (journal, diagnostics):
files changing in the working tree are what a file watcher pays for. The
baseline, measured in the same run, is the same command with Streamlit's default file watcher
turned back on (`--server.fileWatcherType auto`), which is what the app ran with before.
Target: under 2% of one core, no repeated log lines.
"""

from __future__ import annotations

import argparse
import os
import signal
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections import Counter
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _tree_cpu_seconds(proc: psutil.Process) -> float:
    total = 0.0
    for p in [proc, *proc.children(recursive=True)]:
        try:
            t = p.cpu_times()
            total += t.user + t.system
        except psutil.NoSuchProcess:
            continue
    return total


def _churn(stop: threading.Event) -> None:
    folder = ROOT / ".data" / "idle-bench"
    folder.mkdir(parents=True, exist_ok=True)
    i = 0
    try:
        while not stop.wait(0.05):
            (folder / f"w{i % 50}.bin").write_bytes(os.urandom(512))
            i += 1
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def measure(extra_args: list[str], seconds: float, settle: float) -> dict:
    """Start the app, let it settle, measure CPU and log repetition over `seconds`."""
    port = _free_port()
    log_path = Path(tempfile.mkstemp(prefix="idle-cpu-", suffix=".log")[1])
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    cmd = ["bash", "scripts/start_app.sh", "--server.headless", "true", "--server.port", str(port),
           "--server.address", "127.0.0.1", *extra_args]
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 180
        while True:
            if proc.poll() is not None:
                raise SystemExit(f"the app exited early:\n{log_path.read_text(errors='replace')[-2000:]}")
            try:
                if urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2).status == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit("the app did not answer its health check within 180 s")
            time.sleep(0.5)
        time.sleep(settle)
        root = psutil.Process(proc.pid)
        lines_before = len(log_path.read_text(errors="replace").splitlines())
        stop = threading.Event()
        writer = threading.Thread(target=_churn, args=(stop,), daemon=True)
        cpu0, t0 = _tree_cpu_seconds(root), time.monotonic()
        writer.start()
        time.sleep(seconds)
        cpu1, t1 = _tree_cpu_seconds(root), time.monotonic()
        stop.set()
        writer.join()
        window = log_path.read_text(errors="replace").splitlines()[lines_before:]
    finally:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=20)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            os.killpg(proc.pid, signal.SIGKILL)
    # Timestamps would make every line unique: compare lines without a leading date/time.
    counts = Counter(line.split(" ", 2)[-1] if line[:4].isdigit() else line for line in window if line.strip())
    repeated = {line: n for line, n in counts.items() if n > 1}
    log_path.unlink(missing_ok=True)
    return {
        "cpu_percent_of_one_core": 100.0 * (cpu1 - cpu0) / (t1 - t0),
        "log_lines": len(window),
        "repeated_lines": sum(repeated.values()),
        "most_repeated": max(repeated.items(), key=lambda kv: kv[1]) if repeated else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=60.0, help="measurement window (default 60)")
    parser.add_argument("--settle", type=float, default=10.0, help="wait after start-up before measuring")
    parser.add_argument("--no-baseline", action="store_true", help="skip the file-watcher baseline")
    args = parser.parse_args()

    runs = [("app as configured (no file watcher)", [])]
    if not args.no_baseline:
        runs.append(("baseline: default file watcher", ["--server.fileWatcherType", "auto"]))
    print(f"idle server, no browser connected, {args.seconds:.0f} s window, {psutil.cpu_count()} cores")
    ok = True
    for label, extra in runs:
        r = measure(extra, args.seconds, args.settle)
        print(f"{label:40s} cpu {r['cpu_percent_of_one_core']:6.2f}% of a core · "
              f"{r['log_lines']} log lines, {r['repeated_lines']} repeated"
              + (f" (most: {r['most_repeated'][1]}x {r['most_repeated'][0][:80]!r})" if r["most_repeated"] else ""))
        if not extra:
            ok = r["cpu_percent_of_one_core"] < 2.0 and r["repeated_lines"] == 0
    print("target (< 2% of a core, no repeated lines):", "met" if ok else "NOT met")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
