"""RetrievalCache: hits for repeats, misses for different questions, invalidation on re-index."""

from __future__ import annotations

import numpy as np
import pytest

from storage.retrieval import hybrid
from storage.documents.catalog import get_pdf_output_dirs
from storage.documents.ingest import reindex_pdf
from storage.retrieval.hybrid import HybridRetriever
from storage.retrieval.cache import RetrievalCache, normalise_query
from tests.fixtures_retrieval import REPORT_PAGES, ingest


@pytest.fixture
def count_rankings(monkeypatch):
    calls = []
    original = hybrid.rank_pages  # runs only on a cache miss

    def counting(*args, **kwargs):
        calls.append(args)
        return original(*args, **kwargs)

    monkeypatch.setattr(hybrid, "rank_pages", counting)
    return calls


def test_repeat_and_trivial_variants_hit_without_embedding(count_rankings, monkeypatch):
    pdf = ingest("acme_2022.pdf", REPORT_PAGES)
    retriever = HybridRetriever([pdf.doc_id])
    first = retriever.search("What were total revenues in 2022?", k=3)
    assert len(count_rankings) == 1
    assert get_pdf_output_dirs(pdf.doc_id).cache_path.is_file()

    def no_embedding(*_a, **_k):
        raise AssertionError("an exact cache hit must not embed the query")

    monkeypatch.setattr(hybrid, "get_embedder", no_embedding)
    for variant in ("What were total revenues in 2022?", "what were TOTAL revenues in 2022", "  What were total   revenues in 2022 ?! "):
        assert retriever.search(variant, k=3) == first
    assert len(count_rankings) == 1


def test_different_questions_and_numbers_miss(count_rankings):
    pdf = ingest("acme_2022.pdf", REPORT_PAGES)
    retriever = HybridRetriever([pdf.doc_id])
    retriever.search("What were total revenues in 2022?", k=3)
    legal = retriever.search("Is the company involved in any lawsuit?", k=3)
    retriever.search("What were total revenues in 2021?", k=3)
    retriever.search("What were total revenues in 2022?", k=5)  # other k: other entry
    assert len(count_rankings) == 4
    assert legal[0].chunk.page_number == 2


def test_reindex_invalidates_the_cache(count_rankings):
    pdf = ingest("acme_2022.pdf", REPORT_PAGES)
    question = "How many engineers are employed?"
    before = HybridRetriever([pdf.doc_id]).search(question, k=2)
    assert "1,200 engineers" in before[0].chunk.text

    changed = REPORT_PAGES[:3] + ["Employees. At year end we employed 3,400 engineers and technicians."]
    again = reindex_pdf(pdf.doc_id)  # same content, rebuilt (within the same second, too)
    assert again.doc_id == pdf.doc_id
    HybridRetriever([pdf.doc_id]).search(question, k=2)
    assert len(count_rankings) == 2  # re-indexed: the cached entry was not served

    other = ingest("acme_2022.pdf", changed)  # same file name, new content: new doc id
    after = HybridRetriever([other.doc_id]).search(question, k=2)
    assert "3,400 engineers" in after[0].chunk.text


def test_selection_cache_is_separate_from_single_pdf_cache(count_rankings):
    a = ingest("alpha.pdf", ["Alpha bicycle revenue was 5,000 dollars."])
    b = ingest("beta.pdf", ["Beta bicycle revenue was 7,000 dollars."])
    HybridRetriever([a.doc_id]).search("bicycle revenue", k=2)
    both = HybridRetriever([b.doc_id, a.doc_id]).search("bicycle revenue", k=2)
    assert len(count_rankings) == 2
    assert {h.chunk.source_file for h in both} == {"alpha.pdf", "beta.pdf"}
    assert HybridRetriever([a.doc_id, b.doc_id]).search("Bicycle revenue.", k=2) == both
    assert len(count_rankings) == 2


def test_semantic_tier_needs_threshold_and_same_numbers(tmp_path):
    cache = RetrievalCache(tmp_path / "c.db", threshold=0.95)
    vec = np.asarray([1.0, 0.0], dtype=np.float32)
    near = np.asarray([0.99, 0.141], dtype=np.float32)
    far = np.asarray([0.8, 0.6], dtype=np.float32)
    cache.put("fp", 3, "revenue in 2022", vec, [])
    assert cache.get_similar("fp", 3, "sales in 2022", near) == []
    assert cache.get_similar("fp", 3, "sales in 2022", far) is None
    assert cache.get_similar("fp", 3, "revenue in 2023", near) is None
    assert cache.get_similar("other", 3, "revenue in 2022", vec) is None
    assert normalise_query(" Revenue,  in 2022? ") == "revenue in 2022"
    cache.put("newer", 3, "q", vec, [])  # a new index version's first write drops the older entries
    assert cache.count() == 1 and cache.get_exact("fp", 3, "revenue in 2022") is None
    assert cache.purge_other_fingerprints("newer") == 0


def test_cache_reopens_its_file_after_reindex(count_rankings):
    """Re-indexing replaces the PDF's folder: the cache must write to the new file, not to the
    deleted one that an open handle still points at (lost for other processes, never freed)."""
    pdf = ingest("acme_2022.pdf", REPORT_PAGES)
    question = "How many engineers are employed?"
    HybridRetriever([pdf.doc_id]).search(question, k=2)
    cache_path = get_pdf_output_dirs(pdf.doc_id).cache_path
    assert cache_path.is_file()

    reindex_pdf(pdf.doc_id)
    assert not cache_path.exists()
    HybridRetriever([pdf.doc_id]).search(question, k=2)
    reopened = RetrievalCache(cache_path)
    assert reopened.count() == 1
    reopened.close()
    HybridRetriever([pdf.doc_id]).search(question, k=2)
    assert len(count_rankings) == 2  # the repeat after re-indexing is served by the new file


def test_entries_of_an_older_index_version_are_dropped_on_the_next_write(tmp_path):
    cache = RetrievalCache(tmp_path / "cache.db")
    vec = np.ones(384, dtype=np.float32) / np.sqrt(384)
    cache.put("index-v1", 5, "what was revenue", vec, [])
    cache.put("index-v1", 5, "what was net income", vec, [])
    assert cache.count() == 2
    cache.put("index-v2", 5, "what was revenue", vec, [])
    assert cache.count() == 1 and cache.get_exact("index-v1", 5, "what was revenue") is None
    assert cache.get_exact("index-v2", 5, "what was revenue") == []
