"""CPU seconds a greeting costs the replica that answers it, through the whole chat page (Streamlit's AppTest:
the page's runs, the agent, the history on nx-27017; no browser), on a conversation that already holds answered
questions about the sample report, no-model mode. On a saturated replica a greeting's wait is its CPU divided
by the share of a core it gets, so this is the part of greeting latency the code decides, comparable across
machines (bench.soak measures the whole wait, but on a shared machine mostly measures the neighbours).

    nice .venv/bin/python -m bench.greeting_cpu [--greetings 8] [--baseline-rev ce8aeba]

Each revision runs in a subprocess of its own tree (bench/revision.py), one after the other, in the same run.
Prints per revision: CPU s per greeting (the process, all threads) and wall s, median and max.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

from bench.revision import checkout
from storage.settings import PROJECT_ROOT

QUESTIONS = ["What was the net debt at year end?", "What does the report say about revenue?",
             "What dividend is proposed?", "What was the operating margin in 2023?"]
GREETINGS = ["hello", "thanks!", "hi there!", "good morning", "thank you", "hey"]

# Run in the tree measured (cwd and PYTHONPATH): argv = greetings count, work folder; prints one JSON line.
PROBE = """
import json, os, shutil, sys, time
from pathlib import Path
n, work = int(sys.argv[1]), Path(sys.argv[2])
questions, greetings = json.loads(sys.argv[3]), json.loads(sys.argv[4])
home = work / "pdf_files"
(home / "source").mkdir(parents=True)
(home / "destination").mkdir()
from bench.servers import MongoServer
mongo = MongoServer(work / "mongo").start()
os.environ.update(PDF_CHAT_HOME=str(home), MONGODB_URI=mongo.uri, PDF_CHAT_LOCAL_USER="greeter")
try:
    from storage.documents.ingest import process_and_index_pdf
    from streamlit.testing.v1 import AppTest
    sample = home / "source" / "northwind_annual_report_2023.pdf"
    shutil.copy(Path("pdf_files/source") / sample.name, sample)
    process_and_index_pdf(sample)
    at = AppTest.from_file("app.py", default_timeout=600)
    at.run()
    for q in questions:
        at.chat_input[0].set_value(q).run()
    rows = []
    for i in range(n):
        cpu, wall = time.process_time(), time.perf_counter()
        at.chat_input[0].set_value(greetings[i % len(greetings)]).run()
        rows.append([time.process_time() - cpu, time.perf_counter() - wall])
    answered = sum(1 for m in at.chat_message if m.name == "assistant")
    print(json.dumps({"rows": rows, "assistant_messages": answered, "exception": bool(at.exception)}))
finally:
    mongo.stop()
"""


def probe(tree: Path, work: Path, greetings: int) -> dict:
    drop = ("CELERY_", "CHROMA_", "MONGODB_", "OPENAI_", "GOOGLE_", "GEMINI_", "TAVILY_", "PDF_")
    env = {k: v for k, v in os.environ.items() if not k.startswith(drop)}
    env.update(PYTHONPATH=str(tree), ANONYMIZED_TELEMETRY="False")
    run = subprocess.run([sys.executable, "-c", PROBE, str(greetings), str(work), json.dumps(QUESTIONS),
                          json.dumps(GREETINGS)], cwd=tree, env=env, capture_output=True, text=True)
    lines = [line for line in run.stdout.splitlines() if line.startswith("{")]
    if run.returncode or not lines:
        raise RuntimeError(f"probe failed in {tree}: {run.stderr[-2000:]}")
    out = json.loads(lines[-1])
    cpu, wall = [r[0] for r in out["rows"]], [r[1] for r in out["rows"]]
    return {"greetings": len(cpu), "cpu_s_median": round(statistics.median(cpu), 3), "cpu_s_max": round(max(cpu), 3),
            "wall_s_median": round(statistics.median(wall), 3), "wall_s_max": round(max(wall), 3),
            "assistant_messages": out["assistant_messages"], "page_exception": out["exception"]}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--greetings", type=int, default=8)
    ap.add_argument("--baseline-rev")
    args = ap.parse_args(argv)
    import tempfile

    results = {}
    with tempfile.TemporaryDirectory(prefix="greeting-cpu-") as tmp:
        if args.baseline_rev:
            with checkout(args.baseline_rev, "greeting-cpu-base-") as (tree, _):
                if not (tree / ".venv").exists():
                    (tree / ".venv").symlink_to(PROJECT_ROOT / ".venv")
                results[f"baseline {args.baseline_rev}"] = probe(tree, Path(tmp) / "baseline", args.greetings)
        results["this tree"] = probe(PROJECT_ROOT, Path(tmp) / "this-tree", args.greetings)
    print(f"{len(QUESTIONS)} questions answered first, then greetings, no-model mode, one page (AppTest)")
    for name, r in results.items():
        print(f"{name:<22} CPU s per greeting: median {r['cpu_s_median']} max {r['cpu_s_max']}; wall s: median "
              f"{r['wall_s_median']} max {r['wall_s_max']}; n={r['greetings']}; assistant messages "
              f"{r['assistant_messages']}; page exception {r['page_exception']}")


if __name__ == "__main__":
    main()
