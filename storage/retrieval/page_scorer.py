"""The learned page scorer: a question encoder fine-tuned here, offline, on questions generated from
the bench filings (bench/train_scorer.py, bench/scorer_data.py), so that a question lands next to the
stored vectors of the chunks of the page that prints its answer. The chunk side is the product's
own embedder (storage/documents/embeddings.py, vectors already in each PDF's index), so scoring a
selection costs one question embedding and one matrix product; a page scores its best chunk.

The weights are an int8 ONNX file in storage/retrieval/models/ (page_scorer.onnx, its recipe in
page_scorer.json), run with onnxruntime + tokenizers like the embedder; nothing is downloaded. A
missing or unreadable file leaves retrieval on today's ranking, with the reason logged once;
`python -m bench.train_scorer` rebuilds it.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from pathlib import Path

import numpy as np

from storage.documents.embeddings import Embedder

log = logging.getLogger(__name__)

MODEL_PATH = Path(__file__).resolve().parent / "models" / "page_scorer.onnx"
QUESTION_TOKENS = 48  # what it was trained with (bench/train_scorer.py)


class PageScorer:
    """Thread-safe question -> float32[384] encoder of the page scorer."""

    def __init__(self, path: Path, threads: int | None = None) -> None:
        self.path = path
        self.stamp = hashlib.sha256(path.read_bytes()).hexdigest()[:16]  # identifies the weights (cache keys)
        self._encoder = Embedder(threads=threads, max_tokens=QUESTION_TOKENS, model_path=path)

    def embed_questions(self, questions: list[str]) -> np.ndarray:
        return self._encoder.embed(questions)

    def embed_question(self, question: str) -> np.ndarray:
        return self.embed_questions([question])[0]


_scorers: dict[str, PageScorer | None] = {}
_lock = threading.Lock()


def get_page_scorer(path: Path | None = None) -> PageScorer | None:
    """The process-wide scorer of `path` (default MODEL_PATH), or None, with the reason logged once,
    when its file is missing or cannot be loaded (retrieval then keeps today's ranking)."""
    path = Path(path or MODEL_PATH)
    key = str(path)
    with _lock:
        if key in _scorers:
            return _scorers[key]
    scorer = None
    if not path.is_file():
        log.warning("Page scorer off: %s is missing (rebuild it with `python -m bench.train_scorer`); "
                    "ranking pages without it", path)
    else:
        try:
            scorer = PageScorer(path)
        except Exception as exc:  # onnxruntime raises its own types for a damaged file
            log.warning("Page scorer off: cannot load %s (%s); ranking pages without it", path, exc)
    with _lock:
        _scorers[key] = scorer
    return scorer


def clear_page_scorers() -> None:
    with _lock:
        _scorers.clear()
