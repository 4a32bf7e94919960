"""Hybrid retrieval over one or several processed PDFs, ranked by page, with a semantic cache.

How a query is answered (each step earned its place on `python -m bench.retrieval`; the
numbers are in the module docstring of bench/retrieval.py):

1. Query expansion (storage.query_expansion): answer-format instructions are dropped and the
   filing vocabulary of financial terms is added ("gross margin" -> "cost of sales ...").
2. Three signals per selected PDF, each PDF with its own stores:
   - dense: cosine of the query embedding with every chunk vector (exact, in numpy; the vectors
     are read once from the PDF's Chroma collection),
   - chunk BM25 (storage.bm25_index, number-aware tokens),
   - page BM25: the same tokenizer over whole pages, a page-level view that tables split into
     several chunks still match as a whole.
3. Fusion: every signal is z-normalised over all chunks (pages) of the selection, chunk score =
   DENSE_WEIGHT * dense + (1 - DENSE_WEIGHT) * chunk BM25; a page scores its best chunk blended
   with its page BM25 (PAGE_WEIGHT). Z-scores over the whole selection keep PDFs comparable and
   let a PDF with nothing relevant fall behind, which rank fusion (RRF) cannot.
4. Results are the best chunk of each page, pages in score order (k distinct pages cover more
   evidence than k chunks of one page); if k exceeds the pages, further chunks follow.

Loaded indexes are kept per process and reloaded when a PDF's manifest changes (re-index).
"""

from __future__ import annotations

import hashlib
import logging
import threading
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from storage import pdf_processing, vector_store
from storage.bm25_index import Bm25Index, bm25_scores, build_bm25_model, load_bm25_index
from storage.config import get_settings
from storage.embeddings import get_embedder
from storage.query_expansion import expand_query
from storage.retrieval_cache import RetrievalCache, normalise_query
from storage.schema import Chunk, RetrievedChunk

log = logging.getLogger(__name__)

DENSE_WEIGHT = 0.6  # chunk score = 0.6 dense + 0.4 BM25 (z-scores); plateau 0.5-0.8 on dev
PAGE_WEIGHT = 0.4  # page score = 0.6 best chunk + 0.4 page BM25; plateau 0.2-0.5 on dev
RETRIEVER_VERSION = 1  # part of the cache fingerprint: bump when ranking changes


class RetrievalError(Exception):
    """A selected PDF cannot be searched (not processed, or its artifacts are unreadable)."""


@dataclass
class DocIndex:
    """Everything needed to score one PDF, loaded once per process."""

    doc_id: str
    processed_at: str
    chunks: list[Chunk]
    vectors: np.ndarray  # float32 [n_chunks, 384], row i = chunks[i]
    chunk_bm25: Bm25Index
    page_bm25: object  # bm25s.BM25 over page texts
    chunk_pages: np.ndarray  # int [n_chunks]: page of each chunk
    n_pages: int
    stamp: int = 0  # manifest mtime_ns when loaded

    def page_scores(self, query: str) -> np.ndarray:
        return bm25_scores(self.page_bm25, query, self.n_pages)


_indexes: dict[str, tuple[int, DocIndex]] = {}  # doc_id -> (manifest mtime_ns, index)
_caches: dict[str, RetrievalCache] = {}
_lock = threading.Lock()


def _manifest_stamp(doc_id: str) -> int:
    try:
        return pdf_processing.get_pdf_output_dirs(doc_id).manifest_path.stat().st_mtime_ns
    except (OSError, ValueError) as exc:
        raise RetrievalError(f"{doc_id}: not processed (no manifest); process the PDF first") from exc


def _load_vectors(doc_id: str, chunks: list[Chunk]) -> np.ndarray:
    collection = vector_store.get_collection(vector_store.collection_name(doc_id))
    got = collection.get(include=["embeddings"])
    by_id = {int(i): e for i, e in zip(got["ids"], got["embeddings"])}
    missing = [c.chunk_id for c in chunks if c.chunk_id not in by_id]
    if missing:
        raise RetrievalError(f"{doc_id}: {len(missing)} chunks have no vector in Chroma; re-index the PDF")
    vectors = np.asarray([by_id[c.chunk_id] for c in chunks], dtype=np.float32).reshape(len(chunks), -1)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.clip(norms, 1e-12, None)


def _load_doc_index(doc_id: str) -> DocIndex:
    dirs = pdf_processing.get_pdf_output_dirs(doc_id)
    try:
        manifest = pdf_processing.load_manifest(doc_id)
        chunks = pdf_processing.load_chunks(doc_id)
        page_texts = pdf_processing.load_page_texts(doc_id)
        chunk_bm25 = load_bm25_index(dirs.bm25_path)
        vectors = _load_vectors(doc_id, chunks)
    except RetrievalError:
        raise
    except Exception as exc:  # unreadable artifacts or missing collection
        raise RetrievalError(f"{doc_id}: cannot load its indexes ({exc}); re-index the PDF") from exc
    if chunk_bm25.chunk_ids != [c.chunk_id for c in chunks]:
        raise RetrievalError(f"{doc_id}: BM25 index does not match its chunks; re-index the PDF")
    n_pages = max(len(page_texts), max((c.page_end for c in chunks), default=-1) + 1)
    texts = page_texts + [""] * (n_pages - len(page_texts))
    return DocIndex(
        doc_id=doc_id,
        processed_at=manifest.processed_at,
        chunks=chunks,
        vectors=vectors,
        chunk_bm25=chunk_bm25,
        page_bm25=build_bm25_model(texts),
        chunk_pages=np.asarray([c.page_number for c in chunks], dtype=np.int64),
        n_pages=n_pages,
    )


def get_doc_index(doc_id: str) -> DocIndex:
    """The loaded index of a PDF, reloaded when its manifest changed (re-indexed)."""
    stamp = _manifest_stamp(doc_id)
    with _lock:
        cached = _indexes.get(doc_id)
        if cached and cached[0] == stamp:
            return cached[1]
    index = _load_doc_index(doc_id)
    index.stamp = stamp
    with _lock:
        _indexes[doc_id] = (stamp, index)
    return index


def clear_loaded_indexes() -> None:
    """Forget loaded indexes and cache handles (tests; after deleting PDFs)."""
    with _lock:
        _indexes.clear()
        for cache in _caches.values():
            cache.close()
        _caches.clear()


def _zscore(x: np.ndarray) -> np.ndarray:
    std = float(x.std())
    return (x - x.mean()) / std if std > 1e-9 else np.zeros_like(x)


def _cache_path(doc_ids: list[str]) -> Path:
    if len(doc_ids) == 1:
        return pdf_processing.get_pdf_output_dirs(doc_ids[0]).cache_path
    key = hashlib.sha256("\n".join(doc_ids).encode()).hexdigest()[:16]
    return get_settings().destination_dir / ".selection_cache" / f"{key}.db"


def _get_cache(path: Path) -> RetrievalCache:
    with _lock:
        cache = _caches.get(str(path))
        if cache is not None and not cache.is_current():  # the PDF was re-indexed or deleted
            cache.close()
            cache = None
        if cache is None:
            cache = RetrievalCache(path)
            _caches[str(path)] = cache
        return cache


class HybridRetriever:
    """Dense + BM25 + page-level retrieval over a selection of processed PDFs."""

    def __init__(self, doc_ids: list[str], use_cache: bool = True) -> None:
        if not doc_ids:
            raise RetrievalError("No PDF selected: select or upload a PDF first")
        self.doc_ids = sorted(dict.fromkeys(doc_ids))
        self.use_cache = use_cache
        for doc_id in self.doc_ids:
            get_doc_index(doc_id)  # fail now, with a clear message, if one cannot be searched

    def _fingerprint(self, indexes: list[DocIndex]) -> str:
        # processed_at has 1 s resolution; the manifest's mtime tells two builds in one second apart
        parts = [f"v{RETRIEVER_VERSION}"] + [f"{i.doc_id}@{i.processed_at}@{i.stamp}" for i in indexes]
        return hashlib.sha256("|".join(parts).encode()).hexdigest()

    def search(self, query: str, k: int = 8) -> list[RetrievedChunk]:
        query = (query or "").strip()
        if not query or k <= 0:
            return []
        indexes = [get_doc_index(d) for d in self.doc_ids]
        fingerprint = self._fingerprint(indexes)
        cache = None
        if self.use_cache:
            try:
                cache = _get_cache(_cache_path(self.doc_ids))
                hit = cache.get_exact(fingerprint, k, query)
                if hit is not None:
                    return hit
            except Exception as exc:  # a broken cache must never break search
                log.warning("Retrieval cache unavailable: %s", exc)
                cache = None

        expanded = expand_query(query)
        cache_vec, dense_vec = get_embedder().embed([normalise_query(query), expanded.sparse_text])
        if cache is not None:
            try:
                hit = cache.get_similar(fingerprint, k, query, cache_vec)
                if hit is not None:
                    return hit
            except Exception as exc:
                log.warning("Retrieval cache lookup failed: %s", exc)

        results = self._rank(indexes, expanded.sparse_text, dense_vec, k)
        if cache is not None:
            try:
                cache.put(fingerprint, k, query, cache_vec, results)
            except Exception as exc:
                log.warning("Retrieval cache write failed: %s", exc)
        return results

    def _rank(self, indexes: list[DocIndex], sparse_query: str, dense_vec: np.ndarray, k: int) -> list[RetrievedChunk]:
        indexes = [i for i in indexes if i.chunks]
        if not indexes:
            return []
        dense = np.concatenate([i.vectors @ dense_vec for i in indexes])
        sparse = np.concatenate([i.chunk_bm25.scores(sparse_query) for i in indexes])
        page_sparse = np.concatenate([i.page_scores(sparse_query) for i in indexes])
        chunk_score = DENSE_WEIGHT * _zscore(dense) + (1 - DENSE_WEIGHT) * _zscore(sparse)

        # global page ids: pages of PDF j are offset by the page counts of the PDFs before it
        offsets = np.cumsum([0] + [i.n_pages for i in indexes[:-1]])
        chunk_page = np.concatenate([i.chunk_pages + off for i, off in zip(indexes, offsets)])
        best_chunk_of_page = np.full(len(page_sparse), -np.inf)
        np.maximum.at(best_chunk_of_page, chunk_page, chunk_score)
        has_chunks = np.isfinite(best_chunk_of_page)
        page_score = np.where(
            has_chunks, (1 - PAGE_WEIGHT) * best_chunk_of_page + PAGE_WEIGHT * _zscore(page_sparse), -np.inf
        )

        all_chunks = [c for i in indexes for c in i.chunks]
        # chunks ordered by (page score, chunk score): first chunk seen of each page is its best
        order = np.lexsort((-chunk_score, -page_score[chunk_page]))
        first, rest, seen = [], [], set()
        for ci in order:
            if not np.isfinite(page_score[chunk_page[ci]]):
                continue
            (rest if chunk_page[ci] in seen else first).append(ci)
            seen.add(chunk_page[ci])
        picked = (first + rest)[:k]
        return [
            RetrievedChunk(
                chunk=all_chunks[ci],
                score=float(page_score[chunk_page[ci]]),
                dense_score=float(dense[ci]),
                sparse_score=float(sparse[ci]),
            )
            for ci in picked
        ]


def load_pdf_for_retrieval(doc_id: str) -> HybridRetriever:
    """A retriever over one processed PDF (its indexes are loaded now and kept for the process)."""
    return HybridRetriever([doc_id])
