"""The page reranker: a cross-encoder fine-tuned here, offline, on questions generated from the bench
filings (bench/train_reranker.py, bench/scorer_data.py). It reads the question and a page together, the
page as its header (issuer, form, period, section label: storage.retrieval.page_sections.page_header)
and its best chunk, and scores how well the page answers; the top `Ranking.rerank_pages` pages of the
hybrid ranking are reordered by a blend of both (storage/retrieval/fusion.py).

The weights are an int8 ONNX file in storage/retrieval/models/ (page_reranker.onnx, its recipe in
page_reranker.json), run with onnxruntime + the embedder's tokenizer; nothing is downloaded. A missing
or unreadable file leaves retrieval on today's ranking, with the reason logged once;
`python -m bench.train_reranker` rebuilds it.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

import numpy as np

from storage.documents.embeddings import tokenizer_path
from storage.retrieval.model_files import forget, load_once

log = logging.getLogger(__name__)

MODEL_PATH = Path(__file__).resolve().parent / "models" / "page_reranker.onnx"
MAX_TOKENS = 160  # what weights without a recipe file were trained with (bench/train_reranker.py)


class PageReranker:
    """Thread-safe (question, [page texts]) -> float32[n] relevance logits."""

    def __init__(self, path: Path, threads: int | None = None) -> None:
        import onnxruntime as ort
        from tokenizers import Tokenizer

        meta_path = path.with_suffix(".json")
        meta = json.loads(meta_path.read_text()) if meta_path.is_file() else {}
        self.path = path
        self._tokenizer = Tokenizer.from_file(str(tokenizer_path()))
        self._tokenizer.enable_truncation(max_length=int(meta.get("max_tokens") or MAX_TOKENS))
        self._tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads or min(4, os.cpu_count() or 1)
        self._session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])

    def score(self, question: str, pages: list[str]) -> np.ndarray:
        if not pages:
            return np.zeros(0, dtype=np.float32)
        enc = self._tokenizer.encode_batch([(question, p or " ") for p in pages])
        ids = np.array([e.ids for e in enc], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": np.array([e.attention_mask for e in enc], dtype=np.int64),
                 "token_type_ids": np.array([e.type_ids for e in enc], dtype=np.int64)}
        return self._session.run(None, feeds)[0][:, 0].astype(np.float32)


def get_page_reranker(path: Path | None = None) -> PageReranker | None:
    """The process-wide reranker of `path` (default MODEL_PATH), or None, with the reason logged once,
    when its file is missing or cannot be loaded (retrieval then keeps today's ranking)."""
    return load_once("Page reranker", Path(path or MODEL_PATH), PageReranker, "python -m bench.train_reranker", log)


def clear_page_rerankers() -> None:
    forget("Page reranker")
