"""How often a legacy `[chunk_id: N]` marker is resolved to the right PDF when N exists in several;
with `--claims`, the claim check on planted and no-model answers (bench/claims.py).

    python -m bench.citations [--max-pairs 0]
    python -m bench.citations --claims-hostile --work DIR [--baseline-rev fe96e53] [--half tune|check] [--seed 11] [--show-misses 40]
                              [--gold statements|library|releases|tune-more|tune-more2|tune-more3|claims-forms|claims-forms2]  # the claim check on hostile claims from the human-read gold (claims-forms, claims-forms2: sentences a person wrote and judged)
    python -m bench.citations --claims [--work DIR]      # self-consistency only (circular planted set), DIR reused
    python -m bench.citations --claims-gold --work DIR [--data ../shared/bench/statements]
                                                         # the statements gold's no-model answers (DIR: ingested)

For each FinanceBench dev question, the true chunk is the chunk of its PDF (storage/documents/chunking.py)
on the evidence page that shares most words with the evidence text. Every other dev PDF that
also has a chunk with that chunk_id makes one collision (true chunk vs. the other PDF's chunk).
The citing sentence is what a model would write: question + gold answer ("qa"), or the gold
answer alone ("answer", often just "2.8%", the hard case).

Reported per method, over all collisions: right, wrong, abstained (said "ambiguous"). Baselines
measured in the same run: picking the first file that has the chunk id (what a resolver without
disambiguation does), lexical-only and embedding-only scoring, and our combined score without the
abstain margin. The target is zero wrong resolutions at a small abstain rate: a wrong page is
worse than an honest "ambiguous".
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import pymupdf

from agent.citations.legacy import candidate_scores, content_words, pick
from agent.tuning import TUNING
from bench.claims import GOLD_SETS
from storage.documents.chunking import chunk_pages
from storage.documents.embeddings import get_embedder
from storage.schema import PageContent

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "bench" / "financebench-dev"


def load_chunks(pdf: Path) -> list[dict]:
    with pymupdf.open(pdf) as doc:
        pages = [PageContent(page_number=i, text=p.get_text()) for i, p in enumerate(doc)]
    return [c.model_dump() for c in chunk_pages(pages, pdf.name, pdf.stem)]


def true_chunk(chunks: list[dict], page: int, evidence: str) -> dict | None:
    on_page = [c for c in chunks if c["page_number"] == page]
    words = content_words(evidence)
    return max(on_page, key=lambda c: len(words & content_words(c["text"])), default=None)


class CachedEmbedder:
    """Embeds each distinct text once (chunks recur across collisions)."""

    def __init__(self) -> None:
        self.inner, self.cache = get_embedder(), {}

    def embed(self, texts):
        import numpy as np

        missing = [t for t in dict.fromkeys(texts) if t not in self.cache]
        if missing:
            self.cache.update(zip(missing, self.inner.embed(missing)))
        return np.stack([self.cache[t] for t in texts])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="folder with pdfs/ and questions.jsonl")
    parser.add_argument("--max-pairs", type=int, default=0, help="stop after this many collisions (0: all)")
    parser.add_argument("--claims", action="store_true", help="claim-check self-consistency run (circular: not a recall measure; see --claims-hostile)")
    parser.add_argument("--claims-gold", action="store_true", help="the claim check on the statements gold's no-model answers")
    parser.add_argument("--claims-hostile", action="store_true",
                        help="the claim check on hostile claims generated from the human-read statements gold")
    parser.add_argument("--baseline-rev", default="fe96e53", help="with --claims-hostile: git revision to compare with, or 'none'")
    parser.add_argument("--half", choices=("tune", "check"), help="with --claims-hostile: only this half's cases (bench/gold/splits.json)")
    parser.add_argument("--seed", type=int, default=11, help="with --claims-hostile: the generator's seed (other sentences of the same forms)")
    parser.add_argument("--gold", choices=GOLD_SETS, default="statements",
                        help="with --claims-hostile: the human-read gold the cases are written from (bench/claims.py gold_figures)")
    parser.add_argument("--show-misses", type=int, default=40, help="with --claims-hostile: tune-half misses and false flags printed")
    parser.add_argument("--work", type=Path, default=Path("/tmp/bench-claims"), help="ingestion folder for --claims (reused)")
    args = parser.parse_args()
    if args.claims_hostile:
        from bench.claims import run_hostile

        run_hostile(args.work.resolve(), args.baseline_rev, args.show_misses, args.half, args.seed, args.gold)
        return
    if args.claims or args.claims_gold:
        from bench.claims import run, run_gold

        if args.claims_gold:
            data = args.data if args.data != DEFAULT_DATA else DEFAULT_DATA.parent / "statements"
            run_gold(data.resolve(), args.work.resolve())
        else:
            run(args.data.resolve(), args.work.resolve())
        return

    t0 = time.perf_counter()
    chunks = {pdf.stem: load_chunks(pdf) for pdf in sorted((args.data / "pdfs").glob("*.pdf"))}
    by_id = {name: {c["chunk_id"]: c for c in cs} for name, cs in chunks.items()}
    questions = [json.loads(line) for line in (args.data / "questions.jsonl").read_text().splitlines() if line.strip()]
    pairs = []
    for q in questions:
        ev = q["evidence"][0]
        truth = true_chunk(chunks[q["doc_name"]], ev["evidence_page_num"], ev["evidence_text"])
        if truth is None:
            continue
        for other, ids in by_id.items():
            if other != q["doc_name"] and truth["chunk_id"] in ids:
                pairs.append((q, truth, ids[truth["chunk_id"]]))
    if args.max_pairs:
        pairs = pairs[: args.max_pairs]
    print(f"{len(chunks)} PDFs, {sum(map(len, chunks.values()))} chunks, {len(pairs)} collisions "
          f"({len(questions)} questions), prepared in {time.perf_counter() - t0:.1f}s")

    embedder = CachedEmbedder()
    methods = {
        "first file (no disambiguation)": lambda lex, cos, order: order,
        "lexical only, no margin": lambda lex, cos, order: pick(lex, 0.0),
        "embedding only, no margin": lambda lex, cos, order: pick(cos, 0.0),
        "combined, no margin": lambda lex, cos, order: pick(combined(lex, cos), 0.0),
        f"combined, margin {TUNING.markers.min_margin} (shipped)": lambda lex, cos, order: pick(combined(lex, cos)),
    }
    for variant in ("qa", "answer"):
        tallies = {name: [0, 0, 0] for name in methods}  # right, wrong, abstained
        t1 = time.perf_counter()
        for i, (q, truth, other) in enumerate(pairs):
            sentence = f"{q['question']} {q['answer']}" if variant == "qa" else q["answer"]
            # Alternate which file comes first so "first file" is not trivially right or wrong.
            cands = [("t", truth), ("o", other)] if i % 2 == 0 else [("o", other), ("t", truth)]
            lex, cos = candidate_scores(sentence, cands, embedder)
            for name, method in methods.items():
                choice = method(lex, cos, 0)
                slot = 2 if choice is None else (0 if cands[choice][0] == "t" else 1)
                tallies[name][slot] += 1
        elapsed = time.perf_counter() - t1
        print(f"\nciting sentence = {variant}: {len(pairs)} collisions, {1000 * elapsed / max(len(pairs), 1):.1f} ms each")
        print(f"  {'method':<38} {'right':>7} {'wrong':>7} {'abstain':>8}")
        for name, (right, wrong, abstain) in tallies.items():
            n = max(len(pairs), 1)
            print(f"  {name:<38} {right / n:>7.1%} {wrong / n:>7.1%} {abstain / n:>8.1%}")


def combined(lex: list[float], cos: list[float]) -> list[float]:
    w = TUNING.markers.lexical_weight
    return [w * a + (1 - w) * b for a, b in zip(lex, cos)]


if __name__ == "__main__":
    main()
