"""The learned page scorer (storage/retrieval/page_scorer.py): loaded offline from its file, stable,
optional (a missing file = today's ranking, reason logged), and it prefers the page that prints
the asked row over a page that only talks about the item."""

from __future__ import annotations

import logging
import socket

import numpy as np
import pytest

from bench.scorer_data import build_pairs, Filing, issuer_code, table_rows, training_files
from storage.documents import ingest
from storage.retrieval import page_scorer
from storage.retrieval.fusion import Ranking, rerank_pages, scorer_feature, zscore
from storage.retrieval.hybrid import HybridRetriever
from tests.fixtures_filings import source_path, write_pages

SCORER = Ranking(scorer_pages=20, scorer_weight=0.5)


@pytest.fixture(autouse=True)
def fresh_scorer():
    page_scorer.clear_page_scorers()
    yield
    page_scorer.clear_page_scorers()


def _row_and_prose_pdf():
    """Two pages: page 0 mentions the line item in prose (MD&A); page 1 prints its row (the answer)."""
    prose = (
        "Liquidity and Capital Resources. We fund our operations and growth from operating cash flows and our "
        "revolving credit facility. We expect purchases of property, plant and equipment to rise in fiscal 2022 as "
        "we expand launch capacity, and we keep our dividend policy under review with the board."
    )
    table = (
        "Consolidated Statements of Cash Flows (in millions)\n"
        "Years ended December 31, 2022 2021 2020\n"
        "Net earnings 9,100 8,200 7,300\n"
        "Depreciation and amortization 1,410 1,380 1,290\n"
        "Purchases of property, plant and equipment (1,222) (980) (1,303)\n"
        "Proceeds from sale of businesses 45 12 —\n"
        "Net cash used by investing activities (2,100) (1,900) (2,300)"
    )
    return ingest.process_and_index_pdf(
        write_pages(source_path("row_or_prose.pdf"), [prose, table])
    )


def test_the_scorer_loads_offline_from_its_file(monkeypatch):
    def no_network(*a, **kw):
        raise AssertionError("the page scorer must not touch the network")

    monkeypatch.setattr(socket.socket, "connect", no_network)
    assert page_scorer.MODEL_PATH.is_file()
    scorer = page_scorer.get_page_scorer()
    assert scorer is not None
    vecs = scorer.embed_questions(["What was FY2022 capex?", "Who are the primary customers?"])
    assert vecs.shape == (2, 384)
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-4)
    assert float(vecs[0] @ vecs[1]) < 0.99  # different questions, different vectors


def test_a_printed_row_outranks_a_page_that_only_mentions_the_item(pdf_home):
    doc = _row_and_prose_pdf()
    hits = HybridRetriever([doc.doc_id], use_cache=False, ranking=SCORER).search(
        "What were Acme Rockets' purchases of property, plant and equipment in FY2022?", k=3)
    assert hits[0].chunk.page_number == 1
    # the scorer alone (weight 1) orders the two pages the same way
    alone = HybridRetriever([doc.doc_id], use_cache=False, ranking=Ranking(scorer_pages=20, scorer_weight=1.0)).search(
        "What were Acme Rockets' purchases of property, plant and equipment in FY2022?", k=3)
    assert alone[0].chunk.page_number == 1


def test_the_same_ranking_twice(pdf_home):
    doc = _row_and_prose_pdf()
    question = "How much did Acme spend on property, plant and equipment in 2021?"
    first = [(h.chunk.doc_id, h.chunk.page_number, round(h.score, 6))
             for h in HybridRetriever([doc.doc_id], use_cache=False, ranking=SCORER).search(question, k=3)]
    page_scorer.clear_page_scorers()  # loaded again from its file
    second = [(h.chunk.doc_id, h.chunk.page_number, round(h.score, 6))
              for h in HybridRetriever([doc.doc_id], use_cache=False, ranking=SCORER).search(question, k=3)]
    assert first == second


def test_a_missing_file_falls_back_to_todays_ranking_with_a_logged_reason(pdf_home, monkeypatch, tmp_path, caplog):
    doc = _row_and_prose_pdf()
    question = "What were Acme Rockets' capital expenditures in FY2022?"
    today = [(h.chunk.page_number, h.score) for h in
             HybridRetriever([doc.doc_id], use_cache=False, ranking=Ranking(scorer_pages=0)).search(question, k=3)]
    monkeypatch.setattr(page_scorer, "MODEL_PATH", tmp_path / "page_scorer.onnx")
    with caplog.at_level(logging.WARNING, logger="storage.retrieval.page_scorer"):
        hits = HybridRetriever([doc.doc_id], use_cache=False, ranking=SCORER).search(question, k=3)
    assert [(h.chunk.page_number, h.score) for h in hits] == today
    assert any("missing" in r.getMessage() and "bench.train_scorer" in r.getMessage() for r in caplog.records)


def test_rerank_keeps_reranked_pages_ahead_and_weight_zero_keeps_their_order():
    page_score = np.array([5.0, 4.0, 3.0, 0.5, -np.inf])
    chunk_page = np.array([0, 1, 2, 3])
    scorer = np.array([0.1, 0.2, 0.9, 0.95])  # page 3 is outside the reranked top 3
    out = rerank_pages(page_score, scorer, chunk_page, Ranking(scorer_pages=3, scorer_weight=1.0))
    assert list(np.argsort(-out)[:3]) == [2, 1, 0]
    assert out[3] == 0.5 and np.isneginf(out[4])
    keep = rerank_pages(page_score, scorer, chunk_page, Ranking(scorer_pages=3, scorer_weight=0.0))
    assert list(np.argsort(-keep)[:3]) == [0, 1, 2]


def test_the_scorer_as_a_feature_is_each_page_best_chunk_normalised_and_zero_on_pages_without_chunks():
    chunk_page = np.array([0, 0, 1, 3])
    has_chunks = np.array([True, True, False, True])
    feature = scorer_feature(np.array([0.1, 0.7, 0.4, 0.3]), chunk_page, has_chunks, zscore)
    assert feature[2] == 0.0  # a page without chunks gets nothing (it stays unranked)
    assert feature[0] > feature[3] and feature[0] > 0 > feature[3]  # page 0 scores its best chunk, 0.7


# ------------------------------------------------------------------ the training recipe (bench/scorer_data.py)

def test_training_files_leave_out_check_issuers_and_evaluation_filings(tmp_path):
    for rel in ("statements/APPLE_2022_10K.pdf", "statements/EBAY_2022_10K.pdf", "statements/PG_E_2022_10K.pdf",
                "financebench-dev/library/BOEING_2019_10K.pdf", "financebench-dev/library/BESTBUY_2018_10K.pdf",
                "financebench-dev/pdfs/BOEING_2022_10K.pdf", "statements-more/APPLE_2015_10K.pdf"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_bytes(b"%PDF")
    names = [p.stem for p in training_files(tmp_path)]
    assert names == ["APPLE_2022_10K", "PG_E_2022_10K", "BOEING_2019_10K"]
    assert issuer_code("PG_E_2022_10K") == "PG_E"


def test_questions_come_from_table_rows_with_their_period():
    chunk = {"text": "Years ended December 31, 2022 2021\nTotal revenues $ 1,234 $ 1,100\nCost of sales (800) (700)",
             "page_number": 7, "chunk_type": "table"}
    rows = table_rows(chunk)
    assert [(r[0], r[2]) for r in rows] == [("Total revenues", ["2022", "2021"]), ("Cost of sales", ["2022", "2021"])]
    other = {"text": "Item 1. Business. Total revenues grew as demand rose.", "page_number": 2, "chunk_type": "text"}
    older = Filing("ACME_2020_10K", "Acme", "10-K", 2020, None, [
        {"text": "Years ended December 31, 2020 2019\nTotal revenues $ 900 $ 800", "page_number": 5, "chunk_type": "table"}])
    pairs = build_pairs([Filing("ACME_2022_10K", "Acme", "10-K", 2022, None, [chunk, other]), older], seed=1)
    row_pairs = [p for p in pairs if p["kind"] == "row" and p["filing"] == "ACME_2022_10K"]
    assert row_pairs and all(p["page"] == 7 for p in row_pairs)
    assert all(other["text"] in p["negatives"] for p in row_pairs)
    assert pairs == build_pairs([Filing("ACME_2022_10K", "Acme", "10-K", 2022, None, [chunk, other]), older], seed=1)


# ------------------------------------------------------------------ the page's header (what the ingestion knows of it)

def test_a_page_header_names_issuer_form_period_and_section():
    from storage.retrieval.page_sections import page_header, page_sections, statement_name

    labels = page_sections(["Item 7. Management's Discussion and Analysis\nRevenue rose.",
                            "CONSOLIDATED STATEMENTS OF CASH FLOWS\n(in millions)\nNet earnings 10 9"])
    assert statement_name(labels[1]) == "cash flow statement" and statement_name(labels[0]) is None
    assert page_header(labels[1], "Acme Corp", "10-Q", 2022, 2).startswith("Acme Corp 10-Q Q2 FY2022 | ")
    assert "cash flow statement" in page_header(labels[1], "Acme Corp", "10-K", 2022)
    assert page_header("", "Acme Corp", "10-K", 2022) == "Acme Corp 10-K FY2022"  # no label: the filing only


def test_headers_of_selection_wide_pages_follow_their_own_filing():
    from storage.retrieval.fusion import DocIndex, page_headers
    from storage.schema import DocumentInfo

    def index(doc_id, labels):
        return DocIndex(doc_id=doc_id, processed_at="", chunks=[], vectors=np.zeros((0, 384)), chunk_bm25=None,
                        page_bm25=None, chunk_pages=np.zeros(0, dtype=int), n_pages=len(labels), page_labels=labels)

    indexes = [index("a", ["Business", "Risk Factors"]), index("b", ["", "Statements of Operations income statement", "x"])]
    page_doc = np.array([0, 0, 1, 1, 1])
    docs = {"a": DocumentInfo(title="A", issuer="Acme", form="10-K", fiscal_year=2021),
            "b": DocumentInfo(title="B", issuer="Bolt", form="10-Q", fiscal_year=2023, fiscal_quarter=1)}
    assert page_headers(indexes, page_doc, np.array([3, 1, 2]), docs) == [
        "Bolt 10-Q Q1 FY2023 | Statements of Operations income statement", "Acme 10-K FY2021 | Risk Factors",
        "Bolt 10-Q Q1 FY2023"]


def test_rerank_adds_the_header_score_of_the_reranked_pages_only():
    page_score = np.array([5.0, 4.0, 3.0, 0.5])
    chunk_page = np.array([0, 1, 2, 3])
    scorer = np.array([0.5, 0.5, 0.5, 0.9])
    asked = []

    def headers(pages):
        asked.extend(pages.tolist())
        return np.where(pages == 2, 1.0, 0.0)  # page 2's header matches the question

    out = rerank_pages(page_score, scorer, chunk_page, Ranking(scorer_pages=3, scorer_weight=1.0), headers)
    assert sorted(asked) == [0, 1, 2]  # page 3 is not reranked: its header is never read
    assert int(np.argmax(out)) == 2 and out[3] == 0.5


def test_the_header_weight_is_read_from_the_recipe_file_beside_the_weights(tmp_path):
    import json
    import shutil

    model = tmp_path / "page_scorer.onnx"
    shutil.copy(page_scorer.MODEL_PATH, model)
    (tmp_path / "page_scorer.json").write_text(json.dumps({"header_weight": 0.25, "question_tokens": 64}))
    with_headers = page_scorer.get_page_scorer(model)
    assert with_headers.header_weight == 0.25
    vecs = with_headers.header_vectors(["Acme 10-K FY2022 | Business", "Acme 10-K FY2022 | Business"])
    assert vecs.shape == (2, 384) and np.allclose(vecs[0], vecs[1])
    (tmp_path / "page_scorer.json").unlink()
    page_scorer.clear_page_scorers()
    without = page_scorer.get_page_scorer(model)
    assert without.header_weight == 0.0 and without.stamp != with_headers.stamp  # cache keys tell them apart


def test_analyst_questions_name_the_statement_a_page_prints_and_two_of_its_rows():
    from bench.scorer_data import ANALYST_ROW_TEMPLATES, RATIO_TEMPLATES

    table = {"text": "Years ended December 31, 2022 2021\nNet cash provided by operating activities 5,000 4,000\n"
                     "Purchases of property and equipment (1,200) (900)\nDividends paid (300) (280)",
             "page_number": 1, "chunk_type": "table"}
    prose = {"text": "Item 7. Operating activities, property and equipment purchases and dividends paid rose in 2022 "
                     "as cash provided by the business grew; what is Acme's ratio to the statement?",
             "page_number": 0, "chunk_type": "text"}
    f = Filing("ACME_2022_10K", "Acme", "10-K", 2022, None, [prose, table],
               ["Management's Discussion", "Statements of Cash Flows cash flow statement statement of cash flows"],
               {"issuer": "Acme Corp", "form": "10-K", "fiscal_year": 2022})
    assert f.header(1) == "Acme Corp 10-K FY2022 | Statements of Cash Flows cash flow statement statement of cash flows"
    questions = [p["question"] for seed in range(12) for p in build_pairs([f], seed=seed) if p["kind"] == "row"]
    stems = [t.split("{")[0] for t in ANALYST_ROW_TEMPLATES + RATIO_TEMPLATES if not t.startswith("{")]
    analyst = [q for q in questions if "cash flow statement" in q]
    assert analyst and all("10-K" not in q for q in analyst)  # the statement, not the form, is named
    assert any(q.startswith(tuple(s for s in stems if s)) for q in analyst)
    rows = ["net cash provided by operating activities", "purchases of property and equipment", "dividends paid"]
    assert any(sum(r in q.lower() for r in rows) == 2 for q in questions)  # a ratio of two rows of the page
    assert all("the the" not in q for q in analyst)  # analysts write FY2022
