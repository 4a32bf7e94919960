"""The ranking before selection awareness (RETRIEVER_VERSION 1): each PDF's own BM25 idf, no document
signals, no prior. The baseline of bench.retrieval and bench.answers ("today's path")."""

from __future__ import annotations

import numpy as np

from storage.documents.embeddings import get_embedder
from storage.retrieval.fusion import DocIndex, Ranking, zscore
from storage.retrieval.hybrid import RetrievalError, get_doc_index
from storage.retrieval.query_expansion import expand_query
from storage.schema import RetrievedChunk

WEIGHTS = Ranking()  # it shared the dense and page weights with today's ranking


class LegacyRetriever:
    """`.search(query, k)` like HybridRetriever, with the old fusion and no cache."""

    def __init__(self, doc_ids: list[str]) -> None:
        if not doc_ids:
            raise RetrievalError("No PDF selected: select or upload a PDF first")
        self.doc_ids = sorted(dict.fromkeys(doc_ids))

    def search(self, query: str, k: int = 8) -> list[RetrievedChunk]:
        query = (query or "").strip()
        if not query or k <= 0:
            return []
        expanded = expand_query(query)
        dense_vec = get_embedder().embed([expanded.sparse_text])[0]
        return legacy_rank([get_doc_index(d) for d in self.doc_ids], expanded.sparse_text, dense_vec, k)


def legacy_rank(indexes: list[DocIndex], sparse_query: str, dense_vec: np.ndarray, k: int) -> list[RetrievedChunk]:
    indexes = [i for i in indexes if i.chunks]
    if not indexes:
        return []
    dense = np.concatenate([i.vectors @ dense_vec for i in indexes])
    sparse = np.concatenate([i.chunk_bm25.scores(sparse_query) for i in indexes])
    page_sparse = np.concatenate([i.page_scores(sparse_query) for i in indexes])
    chunk_score = WEIGHTS.dense_weight * zscore(dense) + (1 - WEIGHTS.dense_weight) * zscore(sparse)

    # global page ids: pages of PDF j are offset by the page counts of the PDFs before it
    offsets = np.cumsum([0] + [i.n_pages for i in indexes[:-1]])
    chunk_page = np.concatenate([i.chunk_pages + off for i, off in zip(indexes, offsets)])
    best_chunk_of_page = np.full(len(page_sparse), -np.inf)
    np.maximum.at(best_chunk_of_page, chunk_page, chunk_score)
    has_chunks = np.isfinite(best_chunk_of_page)
    page_score = np.where(
        has_chunks, (1 - WEIGHTS.page_weight) * best_chunk_of_page + WEIGHTS.page_weight * zscore(page_sparse), -np.inf
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

