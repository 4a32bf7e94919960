"""The ablations of bench.retrieval and bench.answers, named: each a `Ranking` that differs from the
product's in the fields it names (storage/retrieval/fusion.py says what each field does)."""

from __future__ import annotations

from storage.retrieval.fusion import Ranking

# single filing: the signals and their blend
SINGLE = {
    "ablation_no_query_expansion": {"expand_query": False},
    "ablation_no_page_bm25": {"page_weight": 0.0},
    "ablation_dense_weight_0.5": {"dense_weight": 0.5},
    "ablation_dense_weight_0.7": {"dense_weight": 0.7},
    "ablation_max_median_normalisation": {"normalise": "max_median"},
}
# several filings: the selection-aware parts
SELECTION = {
    "ablation_idf_fix_only": {"prior_weight": 0.0, "doc_weight": 0.0},
    "ablation_per_pdf_bm25_idf": {"per_pdf_idf": True},
    "ablation_max_median_normalisation": {"normalise": "max_median"},
    "ablation_no_prior": {"prior_weight": 0.0},
    "ablation_no_doc_relevance": {"doc_weight": 0.0},
    "ablation_doc_relevance_mean_top3": {"doc_signal": "mean_top", "doc_weight": 0.5},
    "ablation_no_recency": {"recent": 0.0},
    "ablation_no_primary_source": {"secondary": 1.0},
    "ablation_secondary_0.5": {"secondary": 0.5},
    "ablation_prior_weight_1": {"prior_weight": 1.0},
    "ablation_prior_weight_3": {"prior_weight": 3.0},
    "ablation_doc_weight_0.5": {"doc_weight": 0.5},
    "ablation_doc_weight_2": {"doc_weight": 2.0},
}


# the learned page scorer (storage/retrieval/page_scorer.py) reranking the top pages, and today's ranking without it
SCORER = {
    "today_ranking": {"scorer_pages": 0},
    "scorer_rerank": {"scorer_pages": 20, "scorer_weight": 0.5},
    "scorer_rerank_w0.3": {"scorer_pages": 20, "scorer_weight": 0.3},
    "scorer_rerank_w0.8": {"scorer_pages": 20, "scorer_weight": 0.8},
    "scorer_rerank_k10_w0.1": {"scorer_pages": 10, "scorer_weight": 0.1},
    "scorer_rerank_k10_w0.2": {"scorer_pages": 10, "scorer_weight": 0.2},
    "scorer_rerank_k10_w0.3": {"scorer_pages": 10, "scorer_weight": 0.3},
    "scorer_rerank_w0.1": {"scorer_pages": 20, "scorer_weight": 0.1},
    "scorer_rerank_w0.2": {"scorer_pages": 20, "scorer_weight": 0.2},
    "scorer_rerank_w0.3_no_headers": {"scorer_pages": 20, "scorer_weight": 0.3, "scorer_headers": False},
    "scorer_rerank_k10_w0.5": {"scorer_pages": 10, "scorer_weight": 0.5},
    "scorer_feature_0.1": {"scorer_feature": 0.1},
    "scorer_feature_0.2": {"scorer_feature": 0.2},
    "scorer_feature_0.4": {"scorer_feature": 0.4},
    # the cross-encoder page reranker (storage/retrieval/page_reranker.py) over the top 20 / 10 pages
    "cross_rerank": {"rerank_pages": 20, "rerank_weight": 0.5},
    "cross_rerank_w0.3": {"rerank_pages": 20, "rerank_weight": 0.3},
    "cross_rerank_w0.8": {"rerank_pages": 20, "rerank_weight": 0.8},
    "cross_rerank_k10": {"rerank_pages": 10, "rerank_weight": 0.5},
    "cross_rerank_k10_w0.3": {"rerank_pages": 10, "rerank_weight": 0.3},
}
# the selection prior reading what a filing's first pages print (storage/retrieval/document_profile.py):
# the ranking before it, and each reader alone
PROFILE = {
    "ranking_before_profile": {"fill_periods": False, "cover_issuers": False, "cover_weight": 0.0, "form_decides": False},
    "profile": {"fill_periods": True, "cover_issuers": True, "cover_weight": 1.0, "form_decides": True},
    "profile_no_cover_page": {"cover_weight": 0.0},
    "profile_form_not_deciding": {"form_decides": False},
    "profile_cover_page_0.5": {"cover_weight": 0.5},
    "profile_cover_page_2": {"cover_weight": 2.0},
    "profile_periods_only": {"fill_periods": True, "cover_issuers": False, "cover_weight": 0.0, "form_decides": False},
    "profile_issuers_only": {"fill_periods": False, "cover_issuers": True, "cover_weight": 0.0, "form_decides": False},
    "profile_cover_page_only": {"fill_periods": False, "cover_issuers": False, "cover_weight": 1.0, "form_decides": False},
    "profile_form_decides_only": {"fill_periods": False, "cover_issuers": False, "cover_weight": 0.0, "form_decides": True},
}

# what a question names of a filing's parts (issue 28): the ranking before the section phrasings and derived
# nouns joined the keyword query, and the section-label signal (storage/retrieval/page_sections.py, off by default)
SECTIONS = {
    "ranking_before_sections": {"expand_sections": False, "section_weight": 0.0, "cover_facts": False},
    "sections_no_cover_facts": {"cover_facts": False},
    "sections_no_section_words": {"expand_sections": False},
    "sections_label_0.2": {"section_weight": 0.2},
    "sections_label_0.4": {"section_weight": 0.4},
    "sections_label_0.2_expanded": {"section_weight": 0.2, "section_query": "expanded"},
}

# the stored facts of a page (storage/retrieval/fact_pages.py): a row of the asked line item, in a column of the asked
# year; the ranking before it, weights, and the year ignored (every page printing the row matches fully)
FACTS = {
    "ranking_before_facts": {"facts_weight": 0.0},
    "facts_0.1": {"facts_weight": 0.1},
    "facts_0.25": {"facts_weight": 0.25},
    "facts_0.5": {"facts_weight": 0.5},
    "facts_1": {"facts_weight": 1.0},
    "facts_0.25_any_year": {"facts_weight": 0.25, "facts_concept_only": 1.0},
    "facts_0.25_year_only": {"facts_weight": 0.25, "facts_concept_only": 0.0},
    "facts_0.25_scorer_feature_0.2": {"facts_weight": 0.25, "scorer_feature": 0.2},
    # round 10: the facts as a tie-break among the pages near the top (Ranking.facts_tie), not a lift of every page
    "ranking_before_facts_tie": {"facts_tie": 0.0},
    "facts_tie_0.1": {"facts_tie": 0.1},
    "facts_tie_0.25": {"facts_tie": 0.25},
    "facts_tie_0.5": {"facts_tie": 0.5},
    "facts_tie_0.1_rows": {"facts_tie": 0.1, "facts_tie_inputs": False},
    "facts_tie_0.25_rows": {"facts_tie": 0.25, "facts_tie_inputs": False},
}


# what a question's period, date and issuer say about which filing (storage/retrieval/selection_prior.py, issue 28):
# the ranking before the five readings, and each one left out
FILING = {
    "ranking_before_filing": {"stale_annual": False, "date_after": False, "period_per_issuer": False,
                              "fill_issuers": False, "release_quarter": False},
    "filing_no_stale_annual": {"stale_annual": False},
    "filing_no_date_after": {"date_after": False},
    "filing_no_period_per_issuer": {"period_per_issuer": False},
    "filing_no_fill_issuers": {"fill_issuers": False},
    "filing_no_release_quarter": {"release_quarter": False},
    # round 9: a year naming the document ("its FY2019 10-K") is the only period read
    "ranking_before_document_period": {"document_period": False},
    # round 10: the filed 10-K leads its issuer's glossy annual report of the same period (on); the ranking before
    "filed_annual": {"filed_annual": True},
    "ranking_before_filed_annual": {"filed_annual": False},
    # rank17: a year asked with a year-to-date span ("first nine months of 2022") is that span's quarter (off)
    "year_to_date": {"year_to_date": True},
    # rank17: a year an expectation is for ("expect in FY2023") reads as the year before; a month an event happened
    # in matches the 8-Ks / releases dated in it (both on: they lifted both halves); the ranking before them, each
    # alone, and with year_to_date
    "outlook_year": {"outlook_year": True, "event_month": False},
    "event_month": {"event_month": True, "outlook_year": False},
    "ranking_before_rank17": {"outlook_year": False, "event_month": False},
    "rank17_all": {"year_to_date": True, "outlook_year": True, "event_month": True},
}


def preset(name: str) -> Ranking:
    """The Ranking of a named ablation."""
    tables = (SINGLE, SELECTION, SCORER, PROFILE, SECTIONS, PARTS, FACTS, FILING, CAUSE)
    overrides = next((t[name] for t in tables if name in t), None)
    if overrides is None:
        raise KeyError(f"no ablation named {name!r}; known: {', '.join(sorted(k for t in tables for k in t))}")
    return Ranking(**overrides)


def retriever(doc_ids: list[str], ranking: str | Ranking = "selection"):
    """A retriever for the benchmarks: "selection" (the product's HybridRetriever), "legacy"
    (bench/baselines/legacy_ranking.py), a preset's name, or a Ranking; never the semantic cache."""
    from bench.baselines.legacy_ranking import LegacyRetriever
    from storage.retrieval.hybrid import HybridRetriever

    if ranking == "legacy":
        return LegacyRetriever(doc_ids)
    if isinstance(ranking, str):
        ranking = Ranking() if ranking == "selection" else preset(ranking)
    return HybridRetriever(doc_ids, use_cache=False, ranking=ranking)

# the part of a filing a question asks for (storage/retrieval/page_parts.py): the ranking before it, each class alone
PARTS = {
    "ranking_before_parts": {"part_weight": 0.0, "statement_weight": 0.0, "cover_period": False, "capex_statement": False},
    # the capex and report-period rules, on by default until round 4 (they lifted the tune half only: off)
    "parts_with_cover_period": {"cover_period": True},
    "parts_with_capex_statement": {"capex_statement": True},
    "parts_with_cash_flow_items": {"cash_flow_items": True},
    "parts_with_both_rules": {"cover_period": True, "capex_statement": True},
    "parts_prose_only": {"statement_weight": 0.0},
    "parts_statements_only": {"part_weight": 0.0},
    "parts_1": {"part_weight": 1.0, "statement_weight": 1.0},
    "parts_2": {"part_weight": 2.0, "statement_weight": 2.0},
}

# a question for the cause of a change (storage/retrieval/page_parts.py CAUSE, issue 28 round 9): the ranking before
# (a metric named lifts its statement even when the question asks why it moved), and the MD&A lift at weights
CAUSE = {
    "ranking_before_cause": {"cause_statements": True, "cause_weight": 0.0},
    # the ranking of main 273b287: both round-9 readings off
    "ranking_before_round9": {"cause_statements": True, "cause_weight": 0.0, "document_period": False,
                              "event_item_weight": 0.0},
    # a question for what an 8-K is about lifts its item pages
    "ranking_before_event_items": {"event_item_weight": 0.0},
    "event_items_0.25": {"event_item_weight": 0.25},
    "event_items_1": {"event_item_weight": 1.0},
    "cause_mdna_0.25": {"cause_weight": 0.25},
    "cause_mdna_0.5": {"cause_weight": 0.5},
    "cause_mdna_1": {"cause_weight": 1.0},
    "cause_mdna_only_0.5": {"cause_statements": True, "cause_weight": 0.5},
}
