"""The learned page scorer: a question encoder fine-tuned here, offline, on questions generated from
the bench filings (bench/train_scorer.py, bench/scorer_data.py), so that a question lands next to the
stored vectors of the chunks of the page that prints its answer. The chunk side is the product's
own embedder (storage/documents/embeddings.py, vectors already in each PDF's index), so scoring a
selection costs one question embedding and one matrix product; a page scores its best chunk. A page
also reads its header, what the ingestion knows of it (issuer, form, period, section label:
storage.retrieval.page_sections.page_header), embedded by the product's embedder when first reranked
and kept: page score = best chunk cosine + header_weight x header cosine (header_weight learnt with
the encoder, in page_scorer.json; 0 or absent = chunks only).

The weights are an int8 ONNX file in storage/retrieval/models/ (page_scorer.onnx, its recipe in
page_scorer.json), run with onnxruntime + tokenizers like the embedder; nothing is downloaded. A
missing or unreadable file leaves retrieval on today's ranking, with the reason logged once;
`python -m bench.train_scorer` rebuilds it.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from pathlib import Path

import numpy as np

from storage.documents.embeddings import Embedder, get_embedder
from storage.retrieval.model_files import forget, load_once

log = logging.getLogger(__name__)

MODEL_PATH = Path(__file__).resolve().parent / "models" / "page_scorer.onnx"
QUESTION_TOKENS = 48  # what weights without a recipe file were trained with (bench/train_scorer.py)
HEADER_CACHE = 20_000  # page headers kept (1.5 kB each); a library repeats its section labels


class PageScorer:
    """Thread-safe question -> float32[384] encoder of the page scorer, and the header vectors of pages."""

    def __init__(self, path: Path, threads: int | None = None) -> None:
        self.path = path
        meta_path = path.with_suffix(".json")
        meta = json.loads(meta_path.read_text()) if meta_path.is_file() else {}
        self.header_weight = float(meta.get("header_weight") or 0.0)
        tokens = int(meta.get("question_tokens") or QUESTION_TOKENS)
        digest = hashlib.sha256(path.read_bytes())
        digest.update(f"{self.header_weight}".encode())
        self.stamp = digest.hexdigest()[:16]  # identifies the weights (cache keys)
        self._encoder = Embedder(threads=threads, max_tokens=tokens, model_path=path)
        self._headers: dict[str, np.ndarray] = {}
        self._headers_lock = threading.Lock()

    def embed_questions(self, questions: list[str]) -> np.ndarray:
        return self._encoder.embed(questions)

    def embed_question(self, question: str) -> np.ndarray:
        return self.embed_questions([question])[0]

    def header_vectors(self, headers: list[str]) -> np.ndarray:
        """float32[n, 384]: each page header embedded by the product's embedder (as in training), kept."""
        with self._headers_lock:
            missing = sorted({h for h in headers if h not in self._headers})
        if missing:
            vecs = get_embedder().embed(missing)
            with self._headers_lock:
                if len(self._headers) + len(missing) > HEADER_CACHE:
                    self._headers.clear()
                self._headers.update(zip(missing, vecs))
        with self._headers_lock:
            found = [self._headers.get(h) for h in headers]
        if any(v is None for v in found):  # cleared by another thread meanwhile
            return get_embedder().embed(headers)
        return np.stack(found) if found else np.zeros((0, 384), dtype=np.float32)


def get_page_scorer(path: Path | None = None) -> PageScorer | None:
    """The process-wide scorer of `path` (default MODEL_PATH), or None, with the reason logged once,
    when its file is missing or cannot be loaded (retrieval then keeps today's ranking)."""
    return load_once("Page scorer", Path(path or MODEL_PATH), PageScorer, "python -m bench.train_scorer", log)


def clear_page_scorers() -> None:
    forget("Page scorer")
