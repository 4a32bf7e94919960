"""bench/answers.py with several filings selected: which filings are selected, generated questions
that name the company, and the embedding memo that must not change any answer."""

from __future__ import annotations

import numpy as np

from bench import answers
from bench.selections import company, library_pdfs, selected_ids
from storage.schema import DocumentInfo

DOCS = {"BESTBUY_2019_10K": "bb19", "BESTBUY_2023_10K": "bb23", "BOEING_2018_10K": "ba18",
        "BESTBUY_2024Q2_10Q": "bbq2"}


def test_selections():
    assert company("BESTBUY_2024Q2_10Q") == "BESTBUY"
    assert selected_ids("single", "BESTBUY_2019_10K", DOCS) == ["bb19"]
    assert selected_ids("company", "BESTBUY_2019_10K", DOCS) == ["bb19", "bb23", "bbq2"]
    assert selected_ids("library", "BOEING_2018_10K", DOCS) == list(DOCS.values())


def test_library_pdfs_leave_out_the_questions_filings(tmp_path):
    (tmp_path / "library").mkdir()
    for name in ("BOEING_2017_10K", "BOEING_2018_10K"):
        (tmp_path / "library" / f"{name}.pdf").write_bytes(b"%PDF-")
    assert [p.stem for p in library_pdfs(tmp_path, [tmp_path / "pdfs" / "BOEING_2018_10K.pdf"])] == ["BOEING_2017_10K"]


def test_generated_questions_name_the_company(monkeypatch):
    infos = {"bb19": DocumentInfo(title="Best Buy · 10-K · FY2019", issuer="Best Buy Co., Inc.", form="10-K"),
             "ba18": DocumentInfo(title="Boeing · 10-K · FY2018", issuer="The Boeing Company", form="10-K")}
    monkeypatch.setattr("storage.retrieval.hybrid.documents_of", lambda ids: {i: infos.get(i) for i in ids})
    items = [{"doc_name": "BESTBUY_2019_10K", "label": "Net earnings", "year": 2019,
              "question": "What was Net earnings in fiscal 2019?"},
             {"doc_name": "BOEING_2018_10K", "label": "SG&A expense", "year": 2017,
              "question": "What was SG&A expense in fiscal 2017?"}]
    answers.name_companies(items, DOCS)
    assert items[0]["question_named"] == "What was Best Buy's net earnings in fiscal 2019?"
    assert items[1]["question_named"] == "What was Boeing's SG&A expense in fiscal 2017?"
    assert items[0]["question"] == "What was Net earnings in fiscal 2019?"  # the single-filing text is kept
    assert items[0]["form"] == "10-K"


class _CountingEmbedder:
    def __init__(self):
        self.calls: list[list[str]] = []

    def embed(self, texts):
        self.calls.append(list(texts))
        return np.array([[len(t), t.count("a")] for t in texts], dtype=np.float32)


def test_memo_embedder_gives_the_same_vectors_and_embeds_each_text_once():
    inner = _CountingEmbedder()
    memo = answers._MemoEmbedder(inner)
    first = memo.embed(["alpha", "beta", "alpha"])
    second = memo.embed(["beta", "gamma"])
    assert np.array_equal(first, inner.embed(["alpha", "beta", "alpha"]))
    assert np.array_equal(second, inner.embed(["beta", "gamma"]))
    assert inner.calls[:2] == [["alpha", "beta"], ["gamma"]]
