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
   with nothing named the prior is 0. Issuer names leave the keyword query (they select
   documents, and would otherwise pull every cover page of the named issuer up).
5. Results are the best chunk of each page, pages in score order (k distinct pages cover more
   evidence than k chunks of one page); if k exceeds the pages, further chunks follow. Each
   result carries its document's info (title unique in the library, period).

`ranking="legacy"` keeps the ranking before selection awareness (per-PDF BM25, no document
signals) as a baseline for bench.retrieval.

Loaded indexes are kept per process and reloaded when a PDF's manifest changes (re-index).
"""

from __future__ import annotations

import hashlib
import logging
import threading
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from storage.documents import catalog
from storage.documents import vector_store
from storage.documents.bm25 import Bm25Index, SelectionBm25, bm25_scores, build_bm25_model, load_bm25_index
from storage.settings import get_settings
from storage.documents.embeddings import get_embedder
from storage.retrieval.query_expansion import expand_query
from storage.retrieval.cache import RetrievalCache, normalise_query
from storage.schema import Chunk, DocumentInfo, RetrievedChunk
from storage.retrieval.selection_prior import selection_prior, without_issuers

log = logging.getLogger(__name__)

DENSE_WEIGHT = 0.6  # chunk score = 0.6 dense + 0.4 BM25 (z-scores); plateau 0.5-0.8 on dev
PAGE_WEIGHT = 0.4  # page score = 0.6 best chunk + 0.4 page BM25; plateau 0.2-0.5 on dev
# Document signals (several PDFs selected), both in units of the query's own score spread (best
# page - median page), so they weigh the same whatever the selection's size. Chosen on the dev
# slice's company-folder and whole-library selections; the sweep is in bench/retrieval.py.
DOC_SIGNAL = "votes"  # a PDF's relevance = its share of the selection's best DOC_VOTE_PAGES pages
DOC_VOTE_PAGES = 20  # (or "mean_top": mean score of its best DOC_TOP_PAGES pages; measured worse)
DOC_TOP_PAGES = 3
DOC_WEIGHT = 1.0  # page score += DOC_WEIGHT * spread * (its PDF's share - the best PDF's share)
PRIOR_WEIGHT = 2.0  # page score += PRIOR_WEIGHT * spread * prior of its PDF (0..1, storage.retrieval.selection_prior)
RETRIEVER_VERSION = 3  # part of the cache fingerprint: bump when ranking changes (3: primary sources)


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
        _selections.clear()
        for cache in _caches.values():
            cache.close()
        _caches.clear()


def _zscore(x: np.ndarray) -> np.ndarray:
    std = float(x.std())
    return (x - x.mean()) / std if std > 1e-9 else np.zeros_like(x)


def _max_median(x: np.ndarray) -> np.ndarray:
    """(x - median) / (max - median): the best item is 1 whatever the selection's size (an ablation)."""
    if not len(x):
        return x
    med = float(np.median(x))
    span = float(x.max()) - med
    return (x - med) / span if span > 1e-9 else np.zeros_like(x)


PER_PDF_IDF = False  # bench ablation: BM25 with each PDF's own idf (the legacy behaviour)
NORMALISE = _zscore  # how each signal is put on one scale in `_rank` (bench ablation: _max_median)


@dataclass
class _SelectionArrays:
    vectors: np.ndarray  # all chunk vectors of the selection, PDF after PDF
    chunk_page: np.ndarray  # selection-wide page id of each chunk
    page_doc: np.ndarray  # index (in the selection) of each page's PDF
    chunk_bm25: SelectionBm25  # chunk BM25 with the idf of the whole selection
    page_bm25: SelectionBm25  # page BM25 likewise


_selections: dict[tuple, _SelectionArrays] = {}


def _selection_arrays(indexes: list[DocIndex]) -> _SelectionArrays:
    """Concatenated arrays of a selection, built once per selection (and per re-index)."""
    key = tuple((id(i), i.stamp) for i in indexes)
    with _lock:
        found = _selections.get(key)
    if found is not None:
        return found
    # global page ids: pages of PDF j are offset by the page counts of the PDFs before it
    offsets = np.cumsum([0] + [i.n_pages for i in indexes[:-1]])
    arrays = _SelectionArrays(
        vectors=np.concatenate([i.vectors for i in indexes]) if len(indexes) > 1 else indexes[0].vectors,
        chunk_page=np.concatenate([i.chunk_pages + off for i, off in zip(indexes, offsets)]),
        page_doc=np.concatenate([np.full(i.n_pages, j) for j, i in enumerate(indexes)]),
        chunk_bm25=SelectionBm25([i.chunk_bm25.model for i in indexes]),
        page_bm25=SelectionBm25([i.page_bm25 for i in indexes]),
    )
    with _lock:
        if len(_selections) >= 8:  # a few selections per process; drop the oldest
            _selections.pop(next(iter(_selections)))
        _selections[key] = arrays
    return arrays


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

    def __init__(self, doc_ids: list[str], use_cache: bool = True, ranking: str = "selection") -> None:
        if not doc_ids:
            raise RetrievalError("No PDF selected: select or upload a PDF first")
        if ranking not in ("selection", "legacy"):
            raise ValueError(f"unknown ranking {ranking!r}")
        self.doc_ids = sorted(dict.fromkeys(doc_ids))
        self.use_cache = use_cache
        self.ranking = ranking
        self._documents: dict[str, DocumentInfo | None] = {}
        for doc_id in self.doc_ids:
            get_doc_index(doc_id)  # fail now, with a clear message, if one cannot be searched

    def _fingerprint(self, indexes: list[DocIndex]) -> str:
        # processed_at has 1 s resolution; the manifest's mtime tells two builds in one second apart
        parts = [f"v{RETRIEVER_VERSION}{self.ranking}"] + [f"{i.doc_id}@{i.processed_at}@{i.stamp}" for i in indexes]
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
            except Exception as exc:  # a broken cache must never break search
                log.warning("Retrieval cache unavailable: %s", exc)
                cache = None

        expanded = expand_query(query)
        if cache is not None:
            cache_vec, dense_vec = get_embedder().embed([normalise_query(query), expanded.sparse_text])
        else:  # no cache: one embedding, not two
            cache_vec, dense_vec = None, get_embedder().embed([expanded.sparse_text])[0]
        if cache is not None:
            try:
                hit = cache.get_similar(fingerprint, k, query, cache_vec)
                if hit is not None:
                    return hit
            except Exception as exc:
                log.warning("Retrieval cache lookup failed: %s", exc)

        if self.ranking == "legacy":
            results = self._rank_legacy(indexes, expanded.sparse_text, dense_vec, k)
        else:
            sparse = expanded.sparse_text
            if len(indexes) > 1:  # the issuer's name selects documents (the prior), not pages
                sparse = without_issuers(sparse, self._documents)
            results = self._rank(indexes, sparse, dense_vec, k, question=query)
        if cache is not None:
            try:
                cache.put(fingerprint, k, query, cache_vec, results)
            except Exception as exc:
                log.warning("Retrieval cache write failed: %s", exc)
        return results

    def _rank(
        self, indexes: list[DocIndex], sparse_query: str, dense_vec: np.ndarray, k: int, question: str | None = None
    ) -> list[RetrievedChunk]:
        indexes = [i for i in indexes if i.chunks]
        if not indexes:
            return []
        documents = getattr(self, "_documents", {})
        sel = _selection_arrays(indexes)
        dense = sel.vectors @ dense_vec
        if PER_PDF_IDF:  # the ablation: each PDF's own idf
            sparse = np.concatenate([i.chunk_bm25.scores(sparse_query) for i in indexes])
            page_sparse = np.concatenate([i.page_scores(sparse_query) for i in indexes])
        else:
            sparse, page_sparse = sel.chunk_bm25.scores(sparse_query), sel.page_bm25.scores(sparse_query)
        chunk_score = DENSE_WEIGHT * NORMALISE(dense) + (1 - DENSE_WEIGHT) * NORMALISE(sparse)

        chunk_page, page_doc = sel.chunk_page, sel.page_doc
        best_chunk_of_page = np.full(len(page_sparse), -np.inf)
        np.maximum.at(best_chunk_of_page, chunk_page, chunk_score)
        has_chunks = np.isfinite(best_chunk_of_page)
        page_score = np.where(
            has_chunks, (1 - PAGE_WEIGHT) * best_chunk_of_page + PAGE_WEIGHT * NORMALISE(page_sparse), -np.inf
        )
        if len(indexes) > 1:
            page_score = page_score + self._document_signals(indexes, page_score, page_doc, question, documents)

        # chunks ordered by (page score, chunk score): first chunk seen of each page is its best
        order = np.lexsort((-chunk_score, -page_score[chunk_page]))
        order = order[np.isfinite(page_score[chunk_page[order]])]
        is_first = np.zeros(len(order), dtype=bool)
        is_first[np.unique(chunk_page[order], return_index=True)[1]] = True
        picked = order[is_first][:k]
        if len(picked) < k:  # fewer pages than k: further chunks follow, in the same order
            picked = np.concatenate([picked, order[~is_first][: k - len(picked)]])
        chunk_start = np.cumsum([0] + [len(i.chunks) for i in indexes])
        results = []
        for ci in picked:
            j = int(np.searchsorted(chunk_start, ci, side="right")) - 1
            chunk = indexes[j].chunks[ci - chunk_start[j]]
            results.append(
                RetrievedChunk(
                    chunk=chunk,
                    score=float(page_score[chunk_page[ci]]),
                    dense_score=float(dense[ci]),
                    sparse_score=float(sparse[ci]),
                    document=documents.get(chunk.doc_id),
                )
            )
        return results

    @staticmethod
    def _document_signals(
        indexes: list[DocIndex], page_score: np.ndarray, page_doc: np.ndarray, question: str | None,
        documents: dict[str, DocumentInfo | None],
    ) -> np.ndarray:
        """Per-page addition: its document's relevance as a whole, and the question's prior for it."""
        finite = page_score[np.isfinite(page_score)]
        spread = float(finite.max() - np.median(finite)) if len(finite) else 0.0
        if DOC_SIGNAL == "votes":
            # share of the selection's best pages (before document signals) that lie in each PDF
            top = np.argsort(-np.where(np.isfinite(page_score), page_score, -np.inf))[:DOC_VOTE_PAGES]
            votes = np.bincount(page_doc[top], minlength=len(indexes)) / max(len(top), 1)
            relevance = spread * (votes - votes.max())
        else:
            relevance = np.zeros(len(indexes))
            starts = np.cumsum([0] + [i.n_pages for i in indexes])
            for j in range(len(indexes)):
                scores = page_score[starts[j] : starts[j + 1]]  # a PDF's pages are contiguous
                scores = scores[np.isfinite(scores)]
                top = np.sort(scores)[-DOC_TOP_PAGES:]
                relevance[j] = float(top.mean()) if len(top) else -np.inf
            ok = np.isfinite(relevance)
            relevance = np.where(ok, relevance - (relevance[ok].max() if ok.any() else 0.0), 0.0)
        priors = selection_prior(question or "", {i.doc_id: documents.get(i.doc_id) for i in indexes})
        prior = np.asarray([priors.get(i.doc_id, 0.0) for i in indexes])
        # the prior in units of this query's own score range (best page over the median page), so
        # it weighs the same whatever the selection's size or how sharply the question matches
        return (DOC_WEIGHT * relevance + PRIOR_WEIGHT * spread * prior)[page_doc]

    def _rank_legacy(self, indexes: list[DocIndex], sparse_query: str, dense_vec: np.ndarray, k: int) -> list[RetrievedChunk]:
        """The ranking before selection awareness (RETRIEVER_VERSION 1), a baseline for bench.retrieval."""
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


def documents_of(doc_ids: list[str]) -> dict[str, DocumentInfo | None]:
    """DocumentInfo (title unique in the library) of each doc_id; None when it cannot be read."""
    try:
        library = catalog.library_infos()
    except Exception as exc:  # document info is a nicety: never let it break search
        log.warning("Document info unavailable: %s", exc)
        library = {}
    out: dict[str, DocumentInfo | None] = {}
    for doc_id in doc_ids:
        info = library.get(doc_id)
        if info is None:
            try:
                info = catalog.document_info(catalog.load_manifest(doc_id))
            except Exception:
                info = None
        out[doc_id] = info
    return out


def load_pdf_for_retrieval(doc_id: str) -> HybridRetriever:
    """A retriever over one processed PDF (its indexes are loaded now and kept for the process)."""
    return HybridRetriever([doc_id])
