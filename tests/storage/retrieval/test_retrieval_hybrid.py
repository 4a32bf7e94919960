"""HybridRetriever over real ingested PDFs (Chroma on disk, BM25 on disk) and its fusion."""

from __future__ import annotations

import numpy as np
import pytest

from storage.retrieval import hybrid
from storage.documents.bm25 import build_bm25_index, build_bm25_model, load_bm25_index
from storage.retrieval.fusion import DocIndex, rank_pages
from storage.retrieval.hybrid import HybridRetriever, RetrievalError
from storage.schema import Chunk
from tests.fixtures_retrieval import REPORT_PAGES, ingest


def test_single_pdf_finds_the_right_page():
    pdf = ingest("acme_2022.pdf", REPORT_PAGES)
    hits = HybridRetriever([pdf.doc_id]).search("What were total revenues and cost of sales?", k=3)
    assert hits[0].chunk.page_number == 1
    assert hits[0].chunk.source_file == "acme_2022.pdf" and hits[0].chunk.doc_id == pdf.doc_id
    assert len({h.chunk.page_number for h in hits}) == len(hits)  # one result per page first
    assert hits[0].dense_score is not None and hits[0].sparse_score is not None
    legal = HybridRetriever([pdf.doc_id]).search("Is the company involved in any lawsuit?", k=1)
    assert legal[0].chunk.page_number == 2


def test_multi_pdf_results_keep_their_own_file_and_page_with_same_chunk_ids():
    a = ingest("alpha.pdf", ["Alpha makes bicycles in Ohio.", "Alpha bicycle revenue was 5,000 dollars."])
    b = ingest("beta.pdf", ["Beta bicycle revenue was 7,000 dollars.", "Beta brews coffee in Oslo."])
    assert {c.chunk_id for c in hybrid.get_doc_index(a.doc_id).chunks} == {0, 1}
    assert {c.chunk_id for c in hybrid.get_doc_index(b.doc_id).chunks} == {0, 1}

    hits = HybridRetriever([a.doc_id, b.doc_id]).search("bicycle revenue", k=4)
    top2 = {(h.chunk.doc_id, h.chunk.source_file, h.chunk.page_number, h.chunk.chunk_id) for h in hits[:2]}
    assert top2 == {(a.doc_id, "alpha.pdf", 1, 1), (b.doc_id, "beta.pdf", 0, 0)}
    for h in hits:  # every hit's text really comes from the file and page it claims
        expected = {"alpha.pdf": ["Alpha makes", "Alpha bicycle"], "beta.pdf": ["Beta bicycle", "Beta brews"]}
        assert h.chunk.text.startswith(expected[h.chunk.source_file][h.chunk.page_number])

    coffee = HybridRetriever([a.doc_id, b.doc_id]).search("Where is coffee brewed?", k=1)
    assert (coffee[0].chunk.source_file, coffee[0].chunk.page_number) == ("beta.pdf", 1)


def test_bad_selection_fails_with_a_clear_message():
    with pytest.raises(RetrievalError, match="No PDF selected"):
        HybridRetriever([])
    with pytest.raises(RetrievalError, match="not processed"):
        HybridRetriever(["missing-0123456789ab"])
    pdf = ingest("acme_2022.pdf", REPORT_PAGES)
    assert HybridRetriever([pdf.doc_id]).search("   ", k=5) == []


# ------------------------------------------------------------------ fusion on a hand-made corpus


def _hand_made_index(tmp_path, texts: list[str], vectors: list[list[float]], pages: list[int]) -> DocIndex:
    chunks = [
        Chunk(chunk_id=i, text=t, source_file="h.pdf", doc_id="h-1", page_number=p, page_end=p)
        for i, (t, p) in enumerate(zip(texts, pages))
    ]
    build_bm25_index(chunks, tmp_path / "bm25")
    n_pages = max(pages) + 1
    page_texts = [" ".join(t for t, p in zip(texts, pages) if p == n) for n in range(n_pages)]
    vecs = np.asarray(vectors, dtype=np.float32)
    return DocIndex(
        doc_id="h-1",
        processed_at="t0",
        chunks=chunks,
        vectors=vecs / np.linalg.norm(vecs, axis=1, keepdims=True),
        chunk_bm25=load_bm25_index(tmp_path / "bm25"),
        page_bm25=build_bm25_model(page_texts),
        chunk_pages=np.asarray(pages),
        n_pages=n_pages,
    )


def test_fusion_orders_agreement_first_then_single_signal_then_nothing(tmp_path):
    query_vec = np.asarray([1.0, 0.0, 0.0], dtype=np.float32)
    index = _hand_made_index(
        tmp_path,
        texts=[
            "unrelated words about weather",  # neither signal
            "inventory balance increased",  # keywords only
            "stock of goods on hand grew",  # meaning only
            "inventory balance grew strongly",  # both
            "picnic lunch menu",  # neither
        ],
        vectors=[[0, 0, 1], [0, 1, 0.2], [1, 0.3, 0], [1, 0.1, 0], [0, 0.2, 1]],
        pages=[0, 1, 2, 3, 4],
    )
    hits = rank_pages([index], "inventory balance", query_vec, k=5)
    order = [h.chunk.chunk_id for h in hits]
    assert order[0] == 3
    assert set(order[1:3]) == {1, 2}
    assert set(order[3:]) == {0, 4}
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def test_fusion_gives_one_result_per_page_before_second_chunks(tmp_path):
    query_vec = np.asarray([1.0, 0.0], dtype=np.float32)
    index = _hand_made_index(
        tmp_path,
        texts=["net sales rose", "net sales rose again", "net sales were flat", "office lease"],
        vectors=[[1, 0], [1, 0.05], [1, 0.5], [0, 1]],
        pages=[0, 0, 1, 2],
    )
    hits = rank_pages([index], "net sales", query_vec, k=4)
    assert [h.chunk.page_number for h in hits[:3]] == [0, 1, 2]
    assert hits[3].chunk.page_number == 0 and hits[3].chunk.chunk_id != hits[0].chunk.chunk_id
