"""The cross-encoder page reranker (storage/retrieval/page_reranker.py, Ranking.rerank_pages): optional (a
missing file = today's ranking, reason logged), it reads each reranked page as its header and best chunk,
and reorders only the top pages, which stay ahead of the rest."""

from __future__ import annotations

import logging

import numpy as np
import pytest

from storage.retrieval import page_reranker
from storage.retrieval.fusion import Ranking
from storage.retrieval.hybrid import HybridRetriever
from tests.fixtures_retrieval import ingest

PAGES = [
    "Liquidity and Capital Resources. We fund our operations from cash on hand and our revolving credit facility, "
    "and we keep our dividend policy under review with the board.",
    "Consolidated Statements of Cash Flows (in millions) 2022 2021\nNet earnings 9,100 8,200\n"
    "Purchases of property, plant and equipment (1,222) (980)\nNet cash used by investing activities (2,100) (1,900)",
    "Item 1. Business. Acme Rockets designs and builds launch vehicles for commercial satellite operators.",
]
QUESTION = "What were Acme Rockets' purchases of property, plant and equipment in FY2022?"


@pytest.fixture(autouse=True)
def fresh_reranker():
    page_reranker.clear_page_rerankers()
    yield
    page_reranker.clear_page_rerankers()


@pytest.fixture
def filing():
    return ingest("acme_rerank_2022_10k.pdf", PAGES)


class _Reads:
    """A reranker that scores the page whose text holds `word` highest, and records what it read."""

    def __init__(self, word: str):
        self.word, self.read = word, []

    def score(self, question, pages):
        self.read.extend(pages)
        return np.array([10.0 if self.word in p else 0.0 for p in pages], dtype=np.float32)


def _ranking(filing, ranking, monkeypatch, reranker):
    monkeypatch.setattr("storage.retrieval.hybrid.get_page_reranker", lambda: reranker)
    return [h.chunk.page_number for h in HybridRetriever([filing.doc_id], use_cache=False, ranking=ranking).search(QUESTION, k=3)]


def test_a_missing_file_falls_back_to_todays_ranking_with_a_logged_reason(filing, monkeypatch, tmp_path, caplog):
    today = [(h.chunk.page_number, h.score) for h in
             HybridRetriever([filing.doc_id], use_cache=False, ranking=Ranking()).search(QUESTION, k=3)]
    monkeypatch.setattr(page_reranker, "MODEL_PATH", tmp_path / "page_reranker.onnx")
    with caplog.at_level(logging.WARNING, logger="storage.retrieval.page_reranker"):
        hits = HybridRetriever([filing.doc_id], use_cache=False, ranking=Ranking(rerank_pages=20)).search(QUESTION, k=3)
    assert [(h.chunk.page_number, h.score) for h in hits] == today
    assert any("missing" in r.getMessage() and "bench.train_reranker" in r.getMessage() for r in caplog.records)


def test_the_reranker_reorders_the_top_pages_reading_header_and_chunk(filing, monkeypatch):
    today = _ranking(filing, Ranking(), monkeypatch, None)
    assert today[0] == 1
    reads = _Reads("launch vehicles")
    alone = _ranking(filing, Ranking(rerank_pages=3, rerank_weight=1.0), monkeypatch, reads)
    assert alone[0] == 2  # the cross-encoder alone orders the pages it reranks
    assert any("launch vehicles" in p for p in reads.read)  # the page's best chunk, after its header line
    # weight 0: the hybrid order of the reranked pages stays
    assert _ranking(filing, Ranking(rerank_pages=3, rerank_weight=0.0), monkeypatch, _Reads("launch vehicles")) == today


def test_pages_outside_the_reranked_top_stay_behind(filing, monkeypatch):
    today = _ranking(filing, Ranking(), monkeypatch, None)
    reads = _Reads("launch vehicles")
    two = _ranking(filing, Ranking(rerank_pages=2, rerank_weight=1.0), monkeypatch, reads)
    assert set(two[:2]) == set(today[:2]) and two[2] == today[2]
    assert len(reads.read) == 2
