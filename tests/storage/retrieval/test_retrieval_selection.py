"""Selection-aware ranking: the period, form or issuer a question names picks the filing; nothing
named hides nothing; BM25 over several PDFs is scored as one corpus."""

from __future__ import annotations

import numpy as np
import pytest

from storage.documents import ingest
from storage.documents.bm25 import bm25_scores, build_bm25_model, selection_bm25_scores
from storage.retrieval.question_scope import question_scope
from bench.baselines.legacy_ranking import LegacyRetriever
from storage.retrieval.hybrid import HybridRetriever
from storage.schema import DocumentInfo
from storage.retrieval.selection_prior import RECENT, period_match, selection_prior
from tests.fixtures_filings import acme_10k_pages, source_path, write_pages


@pytest.fixture
def two_10ks():
    """FY2018 and FY2022 10-Ks of one issuer, same line items; the FY2022 one talks more about capex."""
    fy18 = ingest.process_and_index_pdf(
        write_pages(source_path("filing_a.pdf"), acme_10k_pages(2018, (1722, 1739, 1808), prose=False))
    )
    fy22 = ingest.process_and_index_pdf(
        write_pages(source_path("filing_b.pdf"), acme_10k_pages(2022, (1222, 980, 1303), prose=True))
    )
    return fy18, fy22


def test_the_period_in_the_question_picks_the_filing(two_10ks):
    fy18, fy22 = two_10ks
    question = "What is the FY2018 capital expenditure of Acme Rockets?"
    # the trap is real: without selection awareness the FY2022 filing's capex page comes first
    legacy = LegacyRetriever([fy18.doc_id, fy22.doc_id]).search(question, k=3)
    assert legacy[0].chunk.doc_id == fy22.doc_id

    hits = HybridRetriever([fy18.doc_id, fy22.doc_id], use_cache=False).search(question, k=3)
    assert (hits[0].chunk.doc_id, hits[0].chunk.page_number) == (fy18.doc_id, 2)
    assert hits[0].document is not None and hits[0].document.title == "Acme Rockets · 10-K · FY2018"
    assert hits[0].document.period_label == "FY2018"

    later = HybridRetriever([fy18.doc_id, fy22.doc_id], use_cache=False).search("FY2022 capital expenditures?", k=1)
    assert later[0].chunk.doc_id == fy22.doc_id and later[0].document.title == "Acme Rockets · 10-K · FY2022"


def test_a_comparative_year_prefers_the_later_filing_that_prints_it(two_10ks):
    fy18, fy22 = two_10ks
    # FY2021 is printed only as a comparative in the FY2022 10-K
    hits = HybridRetriever([fy18.doc_id, fy22.doc_id], use_cache=False).search(
        "Purchases of property, plant and equipment in FY2021?", k=1
    )
    assert hits[0].chunk.doc_id == fy22.doc_id


def test_no_period_named_hides_nothing(two_10ks):
    # only a weak preference for the latest filing: the older filing's matching page still leads
    fy18, fy22 = two_10ks
    hits = HybridRetriever([fy18.doc_id, fy22.doc_id], use_cache=False).search(
        "Purchases of property, plant and equipment", k=4
    )
    capex_pages = {(h.chunk.doc_id, h.chunk.page_number) for h in hits[:2]}
    assert capex_pages == {(fy18.doc_id, 2), (fy22.doc_id, 2)}  # both filings' cash-flow pages lead
    assert all(h.document is not None for h in hits)


def test_issuer_named_in_the_question_is_preferred():
    a = ingest.process_and_index_pdf(
        write_pages(source_path("one.pdf"), acme_10k_pages(2022, (1222, 980, 1303), prose=True))
    )
    other = [p.replace("ACME ROCKETS, INC.", "ZENITH MOTORS, INC.").replace("Acme Rockets, Inc.", "Zenith Motors, Inc.")
             for p in acme_10k_pages(2022, (1500, 1400, 1300), prose=True)]
    b = ingest.process_and_index_pdf(write_pages(source_path("two.pdf"), other))
    for name, want in (("Zenith Motors", b.doc_id), ("Acme Rockets", a.doc_id)):
        hits = HybridRetriever([a.doc_id, b.doc_id], use_cache=False).search(f"{name} capital expenditures 2022", k=1)
        assert hits[0].chunk.doc_id == want


# ------------------------------------------------------------------ the parts, without PDFs


def test_question_constraints():
    c = question_scope("Was there any change in stores between Q2 of FY2024 and FY2023 in the 10-Q?")
    assert c.periods == [(2024, 2), (2023, None)] and c.forms == {"10-Q"}
    assert question_scope("3 year average for FY2015 - FY2017").periods == [(2015, None), (2016, None), (2017, None)]
    assert question_scope("What was in the 8k dated 1st July 2022?").dates[0].isoformat() == "2022-07-01"
    assert question_scope("Q4 FY23 results").periods == [(2023, 4)]
    assert question_scope("What industry is it in?").empty


def test_period_match_exact_beats_comparative_beats_nothing():
    k22 = DocumentInfo(title="t", form="10-K", fiscal_year=2022, period_end="2022-12-31")
    q2 = DocumentInfo(title="t", form="10-Q", fiscal_year=2024, fiscal_quarter=2, period_end="2023-07-29")
    assert period_match(2022, None, k22) > period_match(2021, None, k22) > period_match(2019, None, k22) == 0.0
    assert period_match(2024, 2, q2) > period_match(2024, None, q2) > 0
    assert period_match(2024, 2, q2) > period_match(2024, 1, q2)


def test_selection_prior_without_a_period_only_weakly_prefers_the_latest_and_ignores_what_nobody_matches():
    infos = {
        "a": DocumentInfo(title="a", issuer="Acme Rockets, Inc.", form="10-K", fiscal_year=2018, period_end="2018-12-31"),
        "b": DocumentInfo(title="b", issuer="Acme Rockets, Inc.", form="10-K", fiscal_year=2022, period_end="2022-12-31"),
        "c": DocumentInfo(title="c", issuer="Acme Rockets, Inc.", form="8-K", date="2023-03-01"),
    }
    weak = selection_prior("What is capex?", infos)  # about the present: the latest period, weakly
    assert weak["b"] == RECENT and weak["a"] == 0.0 and weak["c"] == 0.0
    assert selection_prior("capex in FY1995?", infos) == {"a": 0.0, "b": 0.0, "c": 0.0}  # nobody matches: ignored
    assert selection_prior("Acme Rockets capex?", infos) == weak  # everybody matches the issuer: no information
    prior = selection_prior("Acme Rockets capex in FY2018?", infos)
    assert prior["a"] == 1.0 and prior["b"] < 0.5 and prior["c"] < 0.5
    other = selection_prior("Zenith Motors capex in FY2018?", {**infos, "z": infos["a"].model_copy(update={"issuer": "Zenith Motors"})})
    assert other["z"] == 1.0 and other["a"] == 0.0  # another issuer's filing of the named year gets nothing


def test_selection_bm25_equals_one_corpus_bm25():
    a = ["revenue grew strongly", "revenue fell", "inventory rose"]
    b = ["inventory rose sharply", "inventory fell", "cash grew"]
    merged = bm25_scores(build_bm25_model(a + b), "inventory revenue", 6)
    split = np.concatenate(selection_bm25_scores([build_bm25_model(a), build_bm25_model(b)], "inventory revenue"))
    assert np.allclose(split, merged, atol=1e-5)
    single = build_bm25_model(a)
    assert np.allclose(selection_bm25_scores([single], "revenue")[0], bm25_scores(single, "revenue", 3), atol=1e-6)
