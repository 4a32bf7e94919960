"""Ingestion throughput: the project's pipeline vs a LangChain-style pipeline, same process, same machine.

    python -m bench.ingest --data ../shared/bench/financebench-dev [--limit N] [--out results.json]

For each PDF in DIR/pdfs, both pipelines run from scratch, alternating which goes first:
- project:   storage.documents.ingest.process_and_index_pdf (text + OCR of scanned pages/images,
             table-aware chunking, embeddings, Chroma collection, BM25 index, atomic commit);
- langchain: PyMuPDFLoader -> RecursiveCharacterTextSplitter(1000, 200) -> the same embedding
             model -> a Chroma collection.
Prints and writes pages/s and chunks/s per method and the ratio.

    python -m bench.ingest --data ../shared/bench/financebench-dev --limit N --baseline-rev fe96e53

compares this tree's pipeline with revision REV's instead (a temporary worktree): each PDF is
ingested by both, alternating which goes first, each in a fresh process (embedding model loaded and
warmed up before the clock starts) and a fresh destination folder; prints pages/s of both and the ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import tempfile
import time
from pathlib import Path

from tqdm import tqdm


def run_project(pdf: Path) -> tuple[int, int]:
    from storage.documents.ingest import process_and_index_pdf

    manifest = process_and_index_pdf(pdf, force=True)
    return manifest.page_count, manifest.chunk_count


def run_langchain(pdf: Path, baseline) -> tuple[int, int]:
    from storage.documents.intake import file_sha256

    sha = file_sha256(pdf)
    pages, _ = baseline.ingest(pdf, sha)
    return pages, baseline.chunk_count(sha)


_TIMED = r'''
import json, os, sys, tempfile, time
from pathlib import Path
work = Path(tempfile.mkdtemp(prefix="bench-ingest-rev-"))
pdf = Path(sys.argv[1])
os.environ.update(PDF_SOURCE_DIR=str(pdf.parent), PDF_DESTINATION_DIR=str(work / "destination"),
                  ANONYMIZED_TELEMETRY="False", PDF_CHAT_HOME=str(work))
from storage.documents.embeddings import get_embedder
get_embedder().embed(["warm up"])
from storage.documents.ingest import process_and_index_pdf
start, cpu = time.perf_counter(), time.process_time()
m = process_and_index_pdf(pdf, force=True)
print(json.dumps({"pages": m.page_count, "chunks": m.chunk_count, "seconds": time.perf_counter() - start,
                  "cpu": time.process_time() - cpu}))
'''


def compare_revision(pdfs: list[Path], rev: str) -> dict:
    """pages/s of this tree's pipeline and of revision `rev`'s, on the same PDFs, alternating."""
    import subprocess
    import sys

    from bench.revision import ROOT as root, checkout

    totals = {name: {"seconds": 0.0, "cpu": 0.0, "pages": 0, "chunks": 0} for name in ("this tree", rev)}
    with checkout(rev, "bench-ingest-") as (tree, tmp):
        script = tmp / "timed.py"
        script.write_text(_TIMED, "utf-8")
        for i, pdf in enumerate(pdfs):
            order = [("this tree", root), (rev, tree)]
            for name, code in (order if i % 2 == 0 else order[::-1]):
                done = subprocess.run([sys.executable, str(script), str(pdf)], cwd=code, capture_output=True, text=True,
                                      env={**os.environ, "PYTHONPATH": str(code)}, check=True)
                r = json.loads(done.stdout.strip().splitlines()[-1])
                for k in ("seconds", "cpu", "pages", "chunks"):
                    totals[name][k] += r[k]
                print(f"{pdf.name:40s} {name:10s} {r['pages']:4d} pages {r['seconds']:7.1f} s {r['cpu']:7.1f} s CPU", flush=True)
    for name, t in totals.items():
        t["pages_per_s"] = round(t["pages"] / t["seconds"], 3)
        t["pages_per_cpu_s"] = round(t["pages"] / t["cpu"], 3)
        print(f"{name:10s} {t['pages']:6d} pages {t['seconds']:8.1f} s {t['pages_per_s']:8.2f} pages/s "
              f"{t['cpu']:8.1f} CPU s {t['pages_per_cpu_s']:8.2f} pages/CPU s")
    ratio = totals["this tree"]["pages_per_s"] / totals[rev]["pages_per_s"]
    cpu_ratio = totals["this tree"]["pages_per_cpu_s"] / totals[rev]["pages_per_cpu_s"]
    print(f"this tree / {rev}: pages/s {ratio:.3f}, pages per CPU second {cpu_ratio:.3f} (CPU time is the fairer "
          f"figure on a shared machine)")
    return {"pdfs": len(pdfs), "methods": totals, "ratio": round(ratio, 3), "cpu_ratio": round(cpu_ratio, 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", required=True, type=Path, help="folder holding pdfs/")
    parser.add_argument("--limit", type=int, default=0, help="only the first N PDFs (by name)")
    parser.add_argument("--out", type=Path, default=None, help="write the figures as JSON here")
    parser.add_argument("--baseline-rev", default="", help="compare with this git revision's pipeline instead of LangChain's")
    args = parser.parse_args()

    pdf_dir = (args.data / "pdfs").resolve()
    pdfs = sorted(pdf_dir.glob("*.pdf"))[: args.limit or None]
    if not pdfs:
        raise SystemExit(f"no PDFs in {pdf_dir}")
    if args.baseline_rev:
        results = compare_revision(pdfs, args.baseline_rev)
        if args.out:
            args.out.write_text(json.dumps(results, indent=2))
        return
    work = Path(tempfile.mkdtemp(prefix="bench-ingest-"))
    os.environ["PDF_SOURCE_DIR"] = str(pdf_dir)
    os.environ["PDF_DESTINATION_DIR"] = str(work / "destination")
    os.environ["ANONYMIZED_TELEMETRY"] = "False"

    from bench.baselines.langchain_pipeline import LangChainBaseline
    from storage.documents.embeddings import get_embedder

    embedder = get_embedder()
    embedder.embed(["warm up"])
    baseline = LangChainBaseline(work)  # a fresh work folder: nothing is reused
    totals = {m: {"seconds": 0.0, "pages": 0, "chunks": 0} for m in ("project", "langchain")}
    try:
        for i, pdf in enumerate(tqdm(pdfs, desc="ingest", unit="pdf")):
            order = ["project", "langchain"] if i % 2 == 0 else ["langchain", "project"]
            for method in order:
                start = time.perf_counter()
                if method == "project":
                    pages, chunks = run_project(pdf)
                else:
                    pages, chunks = run_langchain(pdf, baseline)
                elapsed = time.perf_counter() - start
                totals[method]["seconds"] += elapsed
                totals[method]["pages"] += pages
                totals[method]["chunks"] += chunks
                tqdm.write(f"{pdf.name:40s} {method:10s} {pages:4d} pages {chunks:5d} chunks {elapsed:7.1f} s")
    finally:
        shutil.rmtree(work, ignore_errors=True)

    results = {"pdfs": len(pdfs), "methods": {}}
    for method, t in totals.items():
        results["methods"][method] = {
            **t,
            "seconds": round(t["seconds"], 2),
            "pages_per_s": round(t["pages"] / t["seconds"], 3),
            "chunks_per_s": round(t["chunks"] / t["seconds"], 3),
        }
    p, b = results["methods"]["project"], results["methods"]["langchain"]
    results["speedup_pages_per_s"] = round(p["pages_per_s"] / b["pages_per_s"], 3)
    print(f"\n{'method':10s} {'pages':>6s} {'chunks':>7s} {'seconds':>8s} {'pages/s':>8s} {'chunks/s':>9s}")
    for method, r in results["methods"].items():
        print(f"{method:10s} {r['pages']:6d} {r['chunks']:7d} {r['seconds']:8.1f} {r['pages_per_s']:8.2f} {r['chunks_per_s']:9.2f}")
    print(f"project / langchain pages/s: {results['speedup_pages_per_s']:.2f}x")
    if args.out:
        args.out.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
