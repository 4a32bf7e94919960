"""Hybrid retrieval over one or several processed PDFs, ranked by page, with a semantic cache.

How a query is answered (each step earned its place on `python -m bench.retrieval`; the
numbers are in the module docstring of bench/retrieval.py):

1. Query expansion (storage.retrieval.query_expansion): answer-format instructions are dropped and the
   filing vocabulary of financial terms is added ("gross margin" -> "cost of sales ...").
2. Three signals per selected PDF, each PDF with its own stores:
   - dense: cosine of the query embedding with every chunk vector (exact, in numpy; the vectors
     are read once from the PDF's Chroma collection),
   - chunk BM25 (storage.documents.bm25, number-aware tokens),
   - page BM25: the same tokenizer over whole pages, a page-level view that tables split into
     several chunks still match as a whole.
   With several PDFs, both BM25 signals are scored as one corpus (idf of the whole selection,
   storage.documents.bm25.selection_bm25_scores): per-PDF idf made scores incomparable across PDFs.
3. Fusion: every signal is z-normalised over all chunks (pages) of the selection, chunk score =
   DENSE_WEIGHT * dense + (1 - DENSE_WEIGHT) * chunk BM25; a page scores its best chunk blended
   with its page BM25 (PAGE_WEIGHT). Z-scores over the whole selection keep PDFs comparable and
   let a PDF with nothing relevant fall behind, which rank fusion (RRF) cannot.
4. Selection-aware (several PDFs): a document-level relevance (a PDF's share of the selection's
   20 best pages, so a filing that matches as a whole beats a stray page elsewhere) and a prior
   for the documents the question names by period, form or issuer (storage.retrieval.selection_prior) are
   added to each page's score, scaled by the query's own score spread. Neither hides anything:
   with nothing named the prior is 0. What a filing's first pages print fills what its DocumentInfo
   missed (storage.retrieval.document_profile: the period and form on a letter-spaced cover; a cover
   that prints the named issuer's name makes the filing that issuer's), and a question asking for
   "the cover" lifts the SEC cover pages, and one naming a part of the filing (legal proceedings, risks, the
   business; a primary statement, or a metric computed from one) lifts the pages labelled as that part
   (storage.retrieval.page_parts). Issuer names leave the keyword query (they select
   documents, and would otherwise pull every cover page of the named issuer up).
5. Results are the best chunk of each page, pages in score order (k distinct pages cover more
   evidence than k chunks of one page); if k exceeds the pages, further chunks follow. Each
   result carries its document's info (title unique in the library, period).

Every weight is a field of `Ranking` (storage/retrieval/fusion.py); the ranking before selection
awareness, the benchmark's baseline, lives in bench/baselines/legacy_ranking.py.

Loaded indexes are kept per process and reloaded when a PDF's manifest changes (re-index).
"""

from __future__ import annotations

import hashlib
import logging
import threading
from pathlib import Path

import numpy as np

from storage.documents import catalog
from storage.documents import vector_store
from storage.documents.bm25 import build_bm25_model, load_bm25_index
from storage.settings import get_settings
from storage.documents.embeddings import get_embedder
from storage.retrieval.page_reranker import get_page_reranker
from storage.retrieval.query_expansion import ExpandedQuery, expand_query
from storage.retrieval.cache import CACHE_ERRORS, RetrievalCache, normalise_query
from storage.schema import Chunk, DocumentInfo, RetrievedChunk
from storage.retrieval.fusion import DocIndex, Ranking, clear_selections, rank_pages
from storage.retrieval.page_scorer import get_page_scorer
from storage.retrieval.page_sections import page_sections
from storage.retrieval.selection_prior import without_issuers

log = logging.getLogger(__name__)

# part of the cache fingerprint: bump when ranking changes (4: the page scorer; 5: cover profile; 6: sections; 7: asked
# parts; 8: the instructions around a question dropped from its keyword query)
RETRIEVER_VERSION = 8


class RetrievalError(Exception):
    """A selected PDF cannot be searched (not processed, or its artifacts are unreadable)."""


_indexes: dict[str, tuple[int, DocIndex]] = {}  # doc_id -> (manifest mtime_ns, index)
_caches: dict[str, RetrievalCache] = {}
_lock = threading.Lock()


def _manifest_stamp(doc_id: str, root: Path | None = None) -> int:
    try:
        if root is not None:  # a doc_id already validated (HybridRetriever.__init__), folder known
            return (root / doc_id / "manifest.json").stat().st_mtime_ns
        return catalog.get_pdf_output_dirs(doc_id).manifest_path.stat().st_mtime_ns
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
    dirs = catalog.get_pdf_output_dirs(doc_id)
    try:
        manifest = catalog.load_manifest(doc_id)
        chunks = catalog.load_chunks(doc_id)
        page_texts = catalog.load_page_texts(doc_id)
        chunk_bm25 = load_bm25_index(dirs.bm25_path)
        vectors = _load_vectors(doc_id, chunks)
    except RetrievalError:
        raise
    except (OSError, ValueError, KeyError, *vector_store.VECTOR_STORE_ERRORS) as exc:  # unreadable, or no collection
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
        page_labels=page_sections(texts),
        chunk_pages=np.asarray([c.page_number for c in chunks], dtype=np.int64),
        n_pages=n_pages,
    )


def get_doc_index(doc_id: str, root: Path | None = None) -> DocIndex:
    """The loaded index of a PDF, reloaded when its manifest changed (re-indexed).
    `root`: the destination folder, when the caller has already validated `doc_id`."""
    stamp = _manifest_stamp(doc_id, root)
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
    clear_selections()


def _cache_path(doc_ids: list[str]) -> Path:
    if len(doc_ids) == 1:
        return catalog.get_pdf_output_dirs(doc_ids[0]).cache_path
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

    def __init__(self, doc_ids: list[str], use_cache: bool = True, ranking: Ranking = Ranking()) -> None:
        if not doc_ids:
            raise RetrievalError("No PDF selected: select or upload a PDF first")
        self.doc_ids = sorted(dict.fromkeys(doc_ids))
        self.use_cache = use_cache
        self.ranking = ranking
        self._documents: dict[str, DocumentInfo | None] = {}
        for doc_id in self.doc_ids:
            get_doc_index(doc_id)  # fail now, with a clear message, if one cannot be searched

    def _fingerprint(self, indexes: list[DocIndex]) -> str:
        # processed_at has 1 s resolution; the manifest's mtime tells two builds in one second apart
        scorer = get_page_scorer() if self.ranking.scorer_pages > 0 or self.ranking.scorer_feature else None
        parts = [f"v{RETRIEVER_VERSION}{self.ranking.model_dump_json()}{scorer.stamp if scorer else ''}"] + [f"{i.doc_id}@{i.processed_at}@{i.stamp}" for i in indexes]
        parts += [(self._documents.get(i.doc_id) or DocumentInfo(title="")).model_dump_json() for i in indexes]
        return hashlib.sha256("|".join(parts).encode()).hexdigest()

    def search(self, query: str, k: int = 8) -> list[RetrievedChunk]:
        query = (query or "").strip()
        if not query or k <= 0:
            return []
        root = get_settings().destination_dir
        indexes = [get_doc_index(d, root) for d in self.doc_ids]
        self._documents = documents_of(self.doc_ids)
        fingerprint = self._fingerprint(indexes)
        cache = None
        if self.use_cache:
            try:
                cache = _get_cache(_cache_path(self.doc_ids))
                hit = cache.get_exact(fingerprint, k, query)
                if hit is not None:
                    return hit
            except CACHE_ERRORS as exc:  # a broken cache must never break search
                log.warning("Retrieval cache unavailable: %s", exc)
                cache = None

        expanded = expand_query(query, sections=self.ranking.expand_sections) if self.ranking.expand_query else ExpandedQuery(query, "")
        if cache is not None:
            cache_vec, dense_vec = get_embedder().embed([normalise_query(query), expanded.sparse_text])
        else:  # no cache: one embedding, not two
            cache_vec, dense_vec = None, get_embedder().embed([expanded.sparse_text])[0]
        if cache is not None:
            try:
                hit = cache.get_similar(fingerprint, k, query, cache_vec)
                if hit is not None:
                    return hit
            except CACHE_ERRORS as exc:
                log.warning("Retrieval cache lookup failed: %s", exc)

        sparse = expanded.sparse_text
        if len(indexes) > 1:  # the issuer's name selects documents (the prior), not pages
            sparse = without_issuers(sparse, self._documents)
        scorer = get_page_scorer() if self.ranking.scorer_pages > 0 or self.ranking.scorer_feature else None  # None: today's ranking (reason logged)
        scorer_vec = scorer.embed_question(query) if scorer is not None else None
        reranker = get_page_reranker() if self.ranking.rerank_pages > 0 else None  # None: reason logged
        results = rank_pages(indexes, sparse, dense_vec, k, question=query, documents=self._documents,
                             ranking=self.ranking, scorer_vec=scorer_vec, scorer=scorer, reranker=reranker)
        if cache is not None:
            try:
                cache.put(fingerprint, k, query, cache_vec, results)
            except CACHE_ERRORS as exc:
                log.warning("Retrieval cache write failed: %s", exc)
        return results

def documents_of(doc_ids: list[str]) -> dict[str, DocumentInfo | None]:
    """DocumentInfo (title unique in the library) of each doc_id; None when it cannot be read."""
    try:
        library = catalog.library_infos()
    except (OSError, ValueError) as exc:  # document info is a nicety: never let it break search
        log.warning("Document info unavailable: %s", exc)
        library = {}
    out: dict[str, DocumentInfo | None] = {}
    for doc_id in doc_ids:
        info = library.get(doc_id)
        if info is None:
            try:
                info = catalog.document_info(catalog.load_manifest(doc_id))
            except (OSError, ValueError):
                info = None
        out[doc_id] = info
    return out
