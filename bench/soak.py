"""Soak: N browser users on the cluster of scripts/start_cluster.sh (loopback only), greetings and questions
mixed, while filings are processed by the worker. Bounded: users ask for `--minutes`, then the questions
still open get at most `--answer-timeout` seconds more.

    nice .venv/bin/python -m bench.soak [--minutes 4] [--users 8] [--filings 3] [--baseline-rev 18aa8df]

Reports, per run: questions asked, answered, unanswered after the timeout (180 s), told they were queued
("busy: your question is Nth in line"), p50/p95 seconds from Enter to the finished answer per kind
(greetings apart), RSS (MB) per server process at the start, peak and end, turns stored in the history
vs questions asked, and the machine's 1-minute load average (lowest and highest seen). The sample report is processed before the users start (every new session selects it);
the filings (bench/statements, smallest first) are submitted to the worker as the users start.

Users are headless chromium pages (one browser, a context each, Playwright's async API), since a Streamlit
page is a websocket session that only a browser drives faithfully; a user waits for its answer (the Stop
button gone and one more assistant message), then thinks 1-4 s. `--baseline-rev` runs the same soak on the
cluster of another revision first (bench/revision.py), in the same run. The cluster is
bench/servers.running_cluster (the one the cluster e2e tests start). On a machine shared with other work
the latencies mostly measure the neighbours: `python -m bench.greeting_cpu` gives a greeting's CPU cost.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import psutil

from bench.revision import checkout
from bench.servers import running_cluster
from storage.settings import PROJECT_ROOT

SAMPLE = PROJECT_ROOT / "pdf_files" / "source" / "northwind_annual_report_2023.pdf"
FILINGS = Path("/work/shared/bench/statements")
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
USER = "soak"
GREETINGS = ["hello", "hi there!", "thanks!", "good morning", "hey", "thank you"]
QUESTIONS = [
    "What was the net debt at year end?",
    "What does the report say about revenue?",
    "How many employees does the company have?",
    "What are the main risks described in the report?",
    "What was the operating margin in 2023?",
    "How much cash did operations generate?",
    "What dividend is proposed?",
    "What is the outlook for next year?",
]
# One evaluate per poll: assistant messages, a Stop button, a "in line" status, the chat box usable.
PAGE_STATE = """() => ({
  answers: document.querySelectorAll('[data-testid="stChatMessageAvatarAssistant"]').length,
  stop: [...document.querySelectorAll('button')].some(b => b.innerText.trim().endsWith('Stop')),
  busy: document.body.innerText.includes(' in line'),
  input: !!document.querySelector('[data-testid="stChatInputTextArea"]:not([disabled])'),
})"""


# ---------------------------------------------------------------- the cluster


SUBMIT = """
import json, sys, time
from storage.jobs.celery_jobs import CeleryIngestJobs
jobs = CeleryIngestJobs()
ids = [jobs.submit(p, owner="soak").job_id for p in sys.argv[2:]]
deadline = time.monotonic() + float(sys.argv[1])
while time.monotonic() < deadline and any(jobs.get(i).state in ("queued", "running") for i in ids):
    time.sleep(1)
print(json.dumps({i: jobs.get(i).state for i in ids}))
"""


def submit(cluster: dict, paths: list[Path], wait_s: float) -> subprocess.Popen:
    """Submit PDFs of the cluster's source folder to its worker (the cluster's own code); wait up to `wait_s`."""
    return subprocess.Popen([sys.executable, "-c", SUBMIT, str(wait_s), *map(str, paths)], cwd=cluster["tree"],
                            env=cluster["env"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


class RssSampler:
    """RSS (MB) of each server process with its children, every `every_s`: first, peak and last; and the
    machine's 1-minute load average (on a shared machine the latencies mostly measure it)."""

    def __init__(self, pids: dict[str, int], every_s: float = 5.0) -> None:
        self.pids, self.every_s = pids, every_s
        self.rows: dict[str, dict[str, float]] = {}
        self.loads: list[float] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def sample(self) -> None:
        self.loads.append(round(os.getloadavg()[0], 1))
        for name, pid in self.pids.items():
            try:
                proc = psutil.Process(pid)
                rss = sum(p.memory_info().rss for p in [proc, *proc.children(recursive=True)]) / 2**20
            except psutil.Error:
                continue
            row = self.rows.setdefault(name, {"start": round(rss), "peak": 0})
            row["peak"], row["end"] = round(max(row["peak"], rss)), round(rss)

    def _run(self) -> None:
        while not self._stop.wait(self.every_s):
            self.sample()

    def __enter__(self) -> "RssSampler":
        self.sample()
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()
        self.sample()


# ---------------------------------------------------------------- the users


class Start:
    """The soak's window opens when every user's page is loaded (a cold replica takes a minute to draw)."""

    def __init__(self, users: int, minutes: float) -> None:
        self.waiting, self.minutes = users, minutes
        self.event = asyncio.Event()
        self.stop_at = 0.0

    def arrived(self) -> None:
        self.waiting -= 1
        if self.waiting <= 0 and not self.event.is_set():
            self.stop_at = time.monotonic() + self.minutes * 60
            self.event.set()


async def one_user(n: int, browser, url: str, cid: str, start: Start, timeout_s: float, rng: random.Random,
                   greeting_share: float, log: list[dict], loads: list[float]) -> None:
    context = await browser.new_context(viewport={"width": 1280, "height": 860})
    page = await context.new_page()
    arrived = False
    box = page.get_by_test_id("stChatInputTextArea")
    try:
        began = time.monotonic()
        for attempt in (1, 2):  # a page not drawn in 180 s is reloaded once, as a user would
            try:
                await page.goto(f"{url}/?c={cid}", timeout=180_000)
                await box.wait_for(timeout=180_000)
                break
            except Exception:  # noqa: BLE001 - playwright's TimeoutError
                if attempt == 2:
                    raise
        loads.append(round(time.monotonic() - began, 1))
        start.arrived()
        arrived = True
        await start.event.wait()
        await asyncio.sleep(rng.uniform(0, 5))  # users do not all start in the same second
        while time.monotonic() < start.stop_at:
            state = await page.evaluate(PAGE_STATE)
            greeting = rng.random() < greeting_share
            text = rng.choice(GREETINGS if greeting else QUESTIONS)
            row = {"user": n, "kind": "greeting" if greeting else "question", "text": text, "answered": False,
                   "busy": False, "seconds": None, "enters": 0,
                   "at": round(time.monotonic() - start.stop_at + start.minutes * 60, 1)}
            log.append(row)
            for _ in range(5):  # a box redrawn by the previous answer's rerun can drop the Enter: type again
                await box.fill(text)
                await box.press("Enter")
                row["enters"] += 1
                await asyncio.sleep(1)
                if await box.input_value() != text:
                    break
            started = time.monotonic() - 1
            while time.monotonic() - started < timeout_s:
                await asyncio.sleep(0.5)
                now = await page.evaluate(PAGE_STATE)
                row["busy"] = row["busy"] or now["busy"]
                if now["answers"] > state["answers"] and not now["stop"] and now["input"]:
                    row["answered"], row["seconds"] = True, round(time.monotonic() - started, 2)
                    break
            if not row["answered"]:  # reload, as a user would, and go on in the same conversation
                await page.goto(f"{url}/?c={cid}", timeout=180_000)
                await box.wait_for(timeout=180_000)
            await asyncio.sleep(rng.uniform(1, 4))
    except Exception as exc:  # noqa: BLE001 - one user's browser failing ends that user, not the soak
        print(f"user {n} stopped: {type(exc).__name__}: {str(exc)[:300]}", file=sys.stderr)
    finally:
        if not arrived:  # the others need not wait for this one
            start.arrived()
        await context.close()


async def run_users(url: str, conversations: list[str], minutes: float, timeout_s: float, seed: int,
                    greeting_share: float) -> tuple[list[dict], list[float]]:
    from playwright.async_api import async_playwright

    log: list[dict] = []
    loads: list[float] = []  # seconds until each user's page was drawn (users whose page never was: absent)
    start = Start(len(conversations), minutes)
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            await asyncio.gather(*(one_user(n, browser, url, cid, start, timeout_s, random.Random(seed + n),
                                            greeting_share, log, loads) for n, cid in enumerate(conversations)))
        finally:
            await browser.close()
    return log, loads


# ---------------------------------------------------------------- one soak


def _quantiles(values: list[float]) -> dict:
    if not values:
        return {"n": 0, "p50_s": None, "p95_s": None}
    values = sorted(values)
    p95 = values[min(len(values) - 1, int(round(0.95 * (len(values) - 1))))]
    return {"n": len(values), "p50_s": round(statistics.median(values), 2), "p95_s": round(p95, 2)}


def summarize(log: list[dict], stored: int, rss: dict) -> dict:
    out = {"asked": len(log), "answered": sum(r["answered"] for r in log),
           "unanswered": sum(not r["answered"] for r in log),
           "told_queued": sum(r["busy"] for r in log),
           "unanswered_and_not_told": sum(not r["answered"] and not r["busy"] for r in log),
           "turns_stored": stored}
    for kind in ("greeting", "question"):
        out[kind] = _quantiles([r["seconds"] for r in log if r["kind"] == kind and r["answered"]])
        out[kind]["unanswered"] = sum(1 for r in log if r["kind"] == kind and not r["answered"])
    out["rss_mb"] = rss
    return out


def stored_questions(mongo_uri: str, conversations: list[str]) -> list[list[str]]:
    """Each conversation's stored user turns, in order."""
    from storage.history.store import HistoryStore

    store = HistoryStore(mongo_uri)
    try:
        return [[m.get("content") or m.get("text") or "" for m in store.load_messages(USER, cid) if m["role"] == "user"]
                for cid in conversations]
    finally:
        store.close()


def lost_turns(log: list[dict], stored: list[list[str]]) -> list[dict]:
    """Per user, the questions asked and not stored (a multiset difference: the same text may be asked twice)."""
    lost = []
    for n, texts in enumerate(stored):
        left = list(texts)
        for row in (r for r in log if r["user"] == n):
            if row["text"] in left:
                left.remove(row["text"])
            else:
                lost.append(row)
    return lost


def soak(tree: Path, work: Path, args) -> dict:
    from storage.history.store import HistoryStore

    with running_cluster(work, tree, PDF_CHAT_LOCAL_USER=USER) as cluster:
        shutil.copy(SAMPLE, cluster["home"] / "source" / SAMPLE.name)
        pre = submit(cluster, [cluster["home"] / "source" / SAMPLE.name], 600)
        out, err = pre.communicate()
        if '"done"' not in out:
            raise RuntimeError(f"the sample report was not processed: {out} {err[-1500:]}")
        filings = sorted(FILINGS.glob("*.pdf"), key=lambda p: p.stat().st_size)[: args.filings]
        for f in filings:
            shutil.copy(f, cluster["home"] / "source" / f.name)
        store = HistoryStore(cluster["mongo_uri"])
        try:
            conversations = [store.create_conversation(USER, f"soak user {n + 1}") for n in range(args.users)]
        finally:
            store.close()
        with RssSampler(cluster["pids"]) as rss:
            ingesting = submit(cluster, [cluster["home"] / "source" / f.name for f in filings], 0)
            started = time.monotonic()
            log, loads = asyncio.run(run_users(cluster["url"], conversations, args.minutes, args.answer_timeout, args.seed,
                                        args.greeting_share))
            ingesting.communicate()
            time.sleep(3)  # the last turns' writes
        stored = stored_questions(cluster["mongo_uri"], conversations)
        result = summarize(log, sum(map(len, stored)), rss.rows)
        result["machine_load"] = [min(rss.loads), max(rss.loads)]
        result["lost"] = lost_turns(log, stored)
        result["log"], result["stored"] = log, stored
        result["wall_s"] = round(time.monotonic() - started)
        result["users_loaded"], result["page_load_s"] = f"{len(loads)}/{args.users}", sorted(loads)
        result["filings"] = [f.name for f in filings]
        return result


def report(name: str, r: dict) -> None:
    g, q = r["greeting"], r["question"]
    print(f"\n== {name}: {r['asked']} asked, {r['answered']} answered, {r['unanswered']} unanswered after the timeout "
          f"({r['unanswered_and_not_told']} of them never told they were queued); {r['told_queued']} told "
          f"'in line'; turns stored {r['turns_stored']} of {r['asked']} asked; {r['wall_s']} s")
    for row in r.get("lost", []):
        print(f"   not stored: user {row['user']} {row['kind']} {row['text']!r} answered={row['answered']} "
              f"busy={row['busy']} enters={row['enters']} seconds={row['seconds']} asked at {row.get('at')} s")
    if "machine_load" in r:
        print(f"   machine load (1-min average) {r['machine_load'][0]}-{r['machine_load'][1]}")
    print(f"   users whose page loaded: {r['users_loaded']} (seconds to draw: {r['page_load_s']})")
    print(f"   greetings: n={g['n']} p50 {g['p50_s']} s p95 {g['p95_s']} s unanswered {g['unanswered']}")
    print(f"   questions: n={q['n']} p50 {q['p50_s']} s p95 {q['p95_s']} s unanswered {q['unanswered']}")
    print("   RSS MB (start/peak/end): " + ", ".join(f"{k} {v['start']}/{v['peak']}/{v.get('end')}"
                                                   for k, v in sorted(r["rss_mb"].items())))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=4.0)
    ap.add_argument("--users", type=int, default=8)
    ap.add_argument("--filings", type=int, default=3)
    ap.add_argument("--answer-timeout", type=float, default=180.0)
    ap.add_argument("--greeting-share", type=float, default=0.25)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--baseline-rev", help="run the same soak on this revision's cluster first")
    ap.add_argument("--out", type=Path)
    ap.add_argument("--keep", type=Path, help="keep each run's folder (cluster logs) under this folder")
    args = ap.parse_args(argv)
    import tempfile

    results = {}
    with tempfile.TemporaryDirectory(prefix="soak-") as tmp:
        keep = args.keep or Path(tmp)
        if args.baseline_rev:
            with checkout(args.baseline_rev, "soak-base-") as (tree, _):
                results[f"baseline {args.baseline_rev}"] = soak(tree, keep / "baseline", args)
        results["this tree"] = soak(PROJECT_ROOT, keep / "this-tree", args)
    for name, r in results.items():
        report(name, r)
    if args.out:
        args.out.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
