"""BM25 libraries on the filings' pages: bm25s (what storage/documents/bm25.py uses) vs rank-bm25.

    python -m bench.bm25_libs [--data ../shared/bench/financebench-dev]

One corpus: every page of every filing under `--data` (`pdfs/` and `library/`), tokenised once by
the project's tokenizer (storage/documents/bm25.py), so only the library differs. Figures: index build
seconds, milliseconds per query over the dev questions, page_hit@5 (a top-5 page is an evidence page
of the question's filing, from questions.jsonl) and whether the two rank the same top 5. rank-bm25 is
a dev-only install (requirements-dev.txt); it has no save format but pickle.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import bm25s
import numpy as np
import pymupdf

from storage.documents.bm25 import bm25_scores, tokenize


def load_pages(data: Path) -> tuple[list[tuple[str, int]], list[list[str]]]:
    keys, tokens = [], []
    for pdf in sorted([*(data / "pdfs").glob("*.pdf"), *(data / "library").glob("*.pdf")]):
        with pymupdf.open(pdf) as doc:
            for i, page in enumerate(doc):
                keys.append((pdf.stem, i))
                tokens.append(tokenize(page.get_text()) or [""])
    return keys, tokens


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, default=Path("../shared/bench/financebench-dev"))
    args = ap.parse_args(argv)
    from rank_bm25 import BM25Okapi

    questions = [json.loads(line) for line in (args.data / "questions.jsonl").read_text().splitlines() if line.strip()]
    keys, corpus = load_pages(args.data)
    started = time.perf_counter()
    fast = bm25s.BM25()  # as storage/documents/bm25.build_bm25_model, on the same tokens
    fast.index(corpus, show_progress=False)
    build_fast = time.perf_counter() - started
    started = time.perf_counter()
    okapi = BM25Okapi(corpus)
    build_okapi = time.perf_counter() - started
    rankers = {"bm25s": lambda q: bm25_scores(fast, q, len(keys)),
               "rank-bm25": lambda q: okapi.get_scores(tokenize(q))}
    tops: dict[str, list[list[int]]] = {name: [] for name in rankers}
    seconds = {name: 0.0 for name in rankers}
    hits = {name: 0 for name in rankers}
    for q in questions:
        gold = {(e["doc_name"], e["evidence_page_num"]) for e in q["evidence"]}
        for name, score in rankers.items():
            started = time.perf_counter()
            top = list(np.argsort(-np.asarray(score(q["question"])), kind="stable")[:5])
            seconds[name] += time.perf_counter() - started
            tops[name].append(top)
            hits[name] += any(keys[i] in gold for i in top)
    same = sum(set(a) == set(b) for a, b in zip(tops["bm25s"], tops["rank-bm25"]))
    print(f"{len(keys):,} pages of {len({k[0] for k in keys})} filings, {len(questions)} questions")
    print(f"{'library':10} {'build s':>8} {'ms/query':>9} {'page_hit@5':>11}")
    for name, build in (("bm25s", build_fast), ("rank-bm25", build_okapi)):
        print(f"{name:10} {build:8.2f} {1000 * seconds[name] / len(questions):9.1f} {hits[name] / len(questions):11.3f}")
    print(f"same top-5 pages: {same}/{len(questions)} questions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
