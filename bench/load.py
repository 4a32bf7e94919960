"""Answers/s and p50/p95 latency under load while a 500-page PDF is being processed, in one run:

- "1 replica": today's single machine (one app process; the PDF is processed on a thread of it; embedded Chroma);
- "2 replicas + worker": two replicas behind HAProxy (deploy/haproxy.cfg), the PDF processed by a Celery
  worker (Redis broker), a Chroma server and nx-27017 for the job records.

Each setup is measured idle first (its own baseline), then with the ingestion running. Beside answers/s
(which on a shared machine says as much about the neighbours as about the app) every window reports the CPU
seconds its server processes used (replicas, worker with its pool, HAProxy, Redis, Chroma, nx-27017; psutil)
in all and per answer, by process kind, so setups compare across machines, and the ingest-only processes'
(the Celery worker with its pool) CPU seconds per ingested page, from submit to the PDF's end (the run waits
for it, --ingest-timeout; "1 replica" processes it inside the answering process: n/a). Replicas are
bench/load_replica.py (the app's ChatService in no-model mode and its job queue over HTTP; the Streamlit
page itself is not drawn); load is locust headless (bench/locustfile.py: N users asking back to back).

    nice .venv/bin/python -m bench.load [--users 4] [--seconds 40] [--pages 500] [--out results.json]

Needs redis-server and haproxy (scripts/setup.sh --cluster) and locust (requirements-dev.txt).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from contextlib import ExitStack
from pathlib import Path

import psutil
import pymupdf

from bench.servers import CeleryWorker, ChromaServer, MongoServer, RedisServer, spawn, stop_process, wait_until
from storage.history.embedded_server import free_port
from storage.settings import PROJECT_ROOT

SAMPLE = PROJECT_ROOT / "pdf_files" / "source" / "northwind_annual_report_2023.pdf"
MODES = ("1 replica", "2 replicas + worker")


def make_long_pdf(path: Path, pages: int, tag: str) -> Path:
    """A text filing of `pages` pages (distinct per `tag`, so each setup processes it from scratch)."""
    doc = pymupdf.open()
    for p in range(pages):
        lines = [f"{tag} annual report, page {p + 1}. Segment {i % 9} revenue rose {(p * 7 + i) % 23} percent "
                 f"to {(p * 13 + i * 31) % 997} million; operating costs were {(p + i * 17) % 541} million."
                 for i in range(28)]
        doc.new_page().insert_textbox(pymupdf.Rect(50, 50, 545, 800), "\n".join(lines), fontsize=9)
    doc.save(path)
    doc.close()
    return path


def _call(url: str, path: str, body: dict | None = None) -> dict:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url + path, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=120) as response:
        return json.loads(response.read())


def _health(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=1) as response:
            return response.status == 200
    except OSError:
        return False


class CpuMeter:
    """CPU seconds (user + system) of named server processes and all their children, between two reads."""

    def __init__(self) -> None:
        self.procs: dict[str, list[int]] = {}

    def add(self, kind: str, pid: int) -> None:
        self.procs.setdefault(kind, []).append(pid)

    def read(self) -> dict[str, float]:
        out: dict[str, float] = {}
        for kind, pids in self.procs.items():
            total = 0.0
            for pid in pids:
                try:
                    root = psutil.Process(pid)
                    for p in [root, *root.children(recursive=True)]:
                        t = p.cpu_times()
                        total += t.user + t.system
                except psutil.Error:
                    continue  # gone (stopped): its time is no longer counted
            out[kind] = total
        return out


def start_setup(mode: str, work: Path, stack: ExitStack, cpu: CpuMeter) -> tuple[str, dict]:
    """Start the processes of `mode` (each registered with `cpu`); return (the front URL, the environment)."""
    home = work / "home"
    (home / "source").mkdir(parents=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CELERY_", "CHROMA_", "MONGODB_"))}
    env.update(PDF_CHAT_HOME=str(home), ANONYMIZED_TELEMETRY="False", PDF_CHAT_MONGO_DIR=str(work / "mongo"))
    replicas = 1
    if mode != MODES[0]:
        replicas = 2
        redis, chroma, mongo = (RedisServer(work / "redis"), ChromaServer(work / "chroma"), MongoServer(work / "mongo"))
        for kind, server in (("redis", redis), ("chroma", chroma), ("nx-27017", mongo)):
            stack.callback(server.stop)
            server.start()
            cpu.add(kind, server.proc.pid)
        env.update(CELERY_BROKER_URL=redis.url, CHROMA_HOST="127.0.0.1", CHROMA_PORT=str(chroma.port),
                   MONGODB_URI=mongo.uri)
        worker = CeleryWorker(env, work / "worker.log").start()
        stack.callback(worker.kill)  # a warm stop would wait for the ingestion to end
        cpu.add("worker", worker.proc.pid)
    ports = [free_port() for _ in range(replicas)]
    for n, port in enumerate(ports):
        log = work / f"replica{n + 1}.log"
        proc = spawn([sys.executable, "-m", "bench.load_replica", "--port", str(port)], log, env=env, cwd=PROJECT_ROOT)
        stack.callback(stop_process, proc)
        cpu.add("replicas", proc.pid)
        wait_until(lambda port=port: _health(f"http://127.0.0.1:{port}"), f"replica {port}", proc, log, 120)
    front = free_port()
    proxy_env = {**os.environ, "CLUSTER_BIND": f"127.0.0.1:{front}", "APP1_ADDR": f"127.0.0.1:{ports[0]}",
                 "APP2_ADDR": f"127.0.0.1:{ports[-1]}",  # one replica: both entries name it
                 "HAPROXY_ERRORS": str(PROJECT_ROOT / "deploy" / "errors")}  # haproxy.cfg's "restarting" page
    proc = spawn(["haproxy", "-db", "-f", str(PROJECT_ROOT / "deploy" / "haproxy.cfg")], work / "haproxy.log",
                 env=proxy_env)
    stack.callback(stop_process, proc)
    cpu.add("haproxy", proc.pid)
    url = f"http://127.0.0.1:{front}"
    wait_until(lambda: _health(url), "haproxy", proc, work / "haproxy.log")
    return url, env


def wait_job(url: str, job_id: str, until, timeout_s: float = 900) -> dict:
    deadline = time.monotonic() + timeout_s
    while True:
        job = _call(url, f"/job?id={job_id}")
        if until(job):
            return job
        if job["state"] in ("error", "cancelled") or time.monotonic() > deadline:
            raise RuntimeError(f"job {job_id}: {job}")
        time.sleep(0.5)


def run_locust(url: str, doc_ids: list[str], users: int, seconds: int, prefix: Path) -> dict:
    env = {**os.environ, "BENCH_DOC_IDS": ",".join(doc_ids)}
    run = subprocess.run([sys.executable, "-m", "locust", "-f", str(PROJECT_ROOT / "bench" / "locustfile.py"),
                          "--headless", "-u", str(users), "-r", str(users), "-t", f"{seconds}s", "--host", url,
                          "--csv", str(prefix), "--only-summary", "--loglevel", "WARNING"],
                         env=env, cwd=PROJECT_ROOT, capture_output=True, text=True)
    if run.returncode not in (0, 1):  # 1: some requests failed (counted below)
        raise RuntimeError(f"locust failed ({run.returncode}): {run.stderr[-2000:]}")
    with open(f"{prefix}_stats.csv", newline="") as f:
        row = next(r for r in csv.DictReader(f) if r["Name"] == "/ask")
    requests, failures = int(row["Request Count"]), int(row["Failure Count"])
    return {"answers_per_s": round((requests - failures) / seconds, 2), "p50_ms": float(row["50%"]),
            "p95_ms": float(row["95%"]), "answers": requests - failures, "failures": failures}


def cpu_per_answer(before: dict[str, float], after: dict[str, float], window: dict) -> dict:
    """CPU seconds the servers used in a window: in all, by process kind, and per answer (all processes and
    by kind; no answer: no figure)."""
    used = {kind: after.get(kind, 0.0) - before.get(kind, 0.0) for kind in after}
    answers = window["answers"]
    return {"cpu_s_per_answer": round(sum(used.values()) / answers, 3) if answers else None,
            "cpu_s_per_answer_by_kind": {kind: round(s / answers, 4) for kind, s in used.items()} if answers else {},
            "cpu_s_by_kind": {kind: round(s, 1) for kind, s in used.items()}}


# Process kinds that only ingest (their CPU from submit to done is the PDF's cost). In "1 replica" the PDF is
# processed on a thread of the answering process, whose CPU cannot be split from the answers': no figure.
INGEST_KINDS = ("worker",)


def cpu_per_page(before: dict[str, float], after: dict[str, float], pages: int, finished: bool) -> float | None:
    """CPU seconds per ingested page of the ingest-only processes, from the job's submit to its end (None:
    no such process, or the job did not finish, so its pages are not all ingested)."""
    kinds = [k for k in INGEST_KINDS if k in after]
    if not kinds or not finished or pages <= 0:
        return None
    return round(sum(after[k] - before.get(k, 0.0) for k in kinds) / pages, 3)


def measure(mode: str, work: Path, args) -> list[dict]:
    cpu = CpuMeter()
    with ExitStack() as stack:
        url, env = start_setup(mode, work, stack, cpu)
        sample = shutil.copy(SAMPLE, work / "home" / "source" / SAMPLE.name)
        done = wait_job(url, _call(url, "/ingest", {"path": str(sample)})["job_id"], lambda j: j["state"] == "done")
        doc_ids = [done["doc_id"]]
        _call(url, "/ask", {"question": "What was the net debt at year end?", "doc_ids": doc_ids})  # warm both paths
        before = cpu.read()
        idle = run_locust(url, doc_ids, args.users, args.seconds, work / "idle")
        rows = [{"setup": mode, "window": "idle", **idle, **cpu_per_answer(before, cpu.read(), idle)}]
        big = make_long_pdf(work / "home" / "source" / "long-filing.pdf", args.pages, tag=mode)
        at_submit = cpu.read()
        job_id = _call(url, "/ingest", {"path": str(big)})["job_id"]
        wait_job(url, job_id, lambda j: j["state"] == "running" and j["stage"] not in ("Starting", "Checking file"))
        before = cpu.read()
        loaded = run_locust(url, doc_ids, args.users, args.seconds, work / "ingesting")
        loaded.update(cpu_per_answer(before, cpu.read(), loaded))
        job = _call(url, f"/job?id={job_id}")
        at_end = f"{job['state']}: {job['stage']} {job['done']}/{job['total']}"
        finished = job["state"] == "done"
        if not finished and any(k in at_submit for k in INGEST_KINDS):  # let it end: its CPU per page needs all pages
            try:
                job = wait_job(url, job_id, lambda j: j["state"] == "done", timeout_s=args.ingest_timeout)
                finished = True
            except RuntimeError:
                pass
        per_page = cpu_per_page(at_submit, cpu.read(), args.pages, finished)
        rows.append({"setup": mode, "window": f"{args.pages}-page ingestion", **loaded, "ingestion_at_end": at_end,
                     "cpu_s_per_page": per_page})
        return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--users", type=int, default=4)
    parser.add_argument("--seconds", type=int, default=40)
    parser.add_argument("--pages", type=int, default=500)
    parser.add_argument("--ingest-timeout", type=float, default=900,
                        help="seconds to let the PDF finish after the window, for its CPU per page")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    for binary in ("redis-server", "haproxy"):
        if shutil.which(binary) is None:
            sys.exit(f"bench.load: {binary} is missing (scripts/setup.sh --cluster installs it)")
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-load-") as tmp:
        for mode in MODES:
            work = Path(tmp) / mode.replace(" ", "-").replace("+", "")
            work.mkdir()
            rows += measure(mode, work, args)
    print(f"{args.users} users asking back to back, {args.seconds} s per window (noisy shared machine: compare "
          "rows of this run only)")
    print(f"{'setup':<22}{'window':<24}{'answers/s':>10}{'p50 ms':>9}{'p95 ms':>9}{'failed':>8}{'CPU s/answer':>14}"
          f"{'CPU s/page':>12}  ingestion at end")
    for r in rows:
        per_page = r.get("cpu_s_per_page")
        page_col = "" if r["window"] == "idle" else "n/a" if per_page is None else str(per_page)
        print(f"{r['setup']:<22}{r['window']:<24}{r['answers_per_s']:>10}{r['p50_ms']:>9.0f}{r['p95_ms']:>9.0f}"
              f"{r['failures']:>8}{str(r['cpu_s_per_answer']):>14}{page_col:>12}  {r.get('ingestion_at_end', '')}")
        print(f"{'':<46}CPU s by process: {r['cpu_s_by_kind']}; per answer: {r['cpu_s_per_answer_by_kind']}")
    if args.out:
        args.out.write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
