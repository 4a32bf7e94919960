"""Fusion: the scores of a selection's signals made into one ranking of pages (steps 3-5 of
storage/retrieval/hybrid.py), under a `Ranking` that names every weight.

`Ranking()` is what the product uses; each default was chosen on `python -m bench.retrieval` (the
sweep and its plateaus are in that module's docstring). The benchmark's ablations are other
`Ranking`s, named in bench/baselines/presets.py, never patches of this module.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from storage.documents.bm25 import Bm25Index, SelectionBm25, bm25_scores, build_bm25_model
from storage.retrieval.fact_pages import CONCEPT_ONLY, FactPages, asked_facts, load_fact_pages, page_match
from storage.retrieval.document_profile import COVER_PAGES, asks_for_cover, cover_fact_wording, cover_page_numbers, prints
from storage.retrieval.page_parts import (CAPEX_PARTS, CASH_FLOW_ITEM_PARTS, CAUSE_PARTS, EVENT_ITEM_PARTS,
                                          NAMED_STATEMENT_PARTS,
                                          PROSE_PARTS, STATEMENT_PARTS, asked_parts, asks_cause, label_mask)
from storage.retrieval.page_sections import page_header
from storage.retrieval.query_expansion import expand_query, strip_instructions
from storage.retrieval.selection_prior import RECENT, SECONDARY, selection_prior
from storage.schema import Chunk, DocumentInfo, RetrievedChunk


class Ranking(BaseModel):
    """Every weight of the ranking. Document signals (several PDFs selected) are in units of the query's own
    score spread (best page - median page), so they weigh the same whatever the selection's size."""

    model_config = ConfigDict(frozen=True)

    dense_weight: float = Field(0.6, description="chunk score = w dense + (1 - w) BM25 (z-scores); plateau 0.5-0.8 on dev")
    page_weight: float = Field(0.4, description="page score = (1 - w) best chunk + w page BM25; plateau 0.2-0.5 on dev")
    normalise: Literal["zscore", "max_median"] = Field("zscore", description="how each signal is put on one scale")
    per_pdf_idf: bool = Field(False, description="BM25 with each PDF's own idf (before selection awareness)")
    doc_signal: Literal["votes", "mean_top"] = Field(
        "votes", description="a PDF's relevance: its share of the selection's best doc_vote_pages pages, or the mean "
        "of its doc_top_pages best pages (measured worse)")
    doc_vote_pages: int = Field(20, description="pages that vote for their PDF")
    doc_top_pages: int = Field(3, description="pages averaged by the mean_top signal")
    doc_weight: float = Field(1.0, description="page score += w * spread * (its PDF's share - the best PDF's share)")
    prior_weight: float = Field(2.0, description="page score += w * spread * prior of its PDF (storage.retrieval.selection_prior)")
    recent: float = Field(RECENT, description="prior of the issuer's present when the question names no period")
    secondary: float = Field(SECONDARY, description="share of its period match a release keeps beside a periodic report")
    stale_annual: bool = Field(True, description="no period named: an annual report a later filing of its issuer "
                               "outdates by over a year is not the issuer's present (storage.retrieval.selection_prior)")
    date_after: bool = Field(True, description="a named date no document carries matches each issuer's first "
                             "document dated on or after it (storage.retrieval.selection_prior)")
    period_per_issuer: bool = Field(True, description="several issuers selected, none named: the period's match is "
                                    "scaled per issuer, so it picks among an issuer's filings, not the issuer")
    fill_issuers: bool = Field(True, description="a document without an issuer takes the one selected issuer its "
                               "first pages print, for the prior (storage.retrieval.selection_prior)")
    release_quarter: bool = Field(True, description="an earnings release's period is the quarter its first lines "
                                  "report, not a comparative table's year-end (storage.retrieval.document_profile)")
    document_period: bool = Field(True, description="a year naming the document (\"according to its FY2019 10-K\", "
                                  "\"per the 2021 annual report\") is the only period the prior reads; other years "
                                  "in the question are what is asked of it (storage.finance.forms.document_years)")
    filed_annual: bool = Field(True, description="an annual report that is not the 10-K (a glossy report binding "
                               "its pages) beside its issuer's 10-K of the same period keeps `secondary` of its "
                               "period match: the filed 10-K leads where both print the page, the other stays "
                               "selected (storage.retrieval.selection_prior)")
    year_to_date: bool = Field(False, description="a year asked with a year-to-date span (\"first nine months of "
                               "2022\", \"six months\", \"first half\") is that span's fiscal quarter for the prior: a "
                               "quarterly report (or the next year's, printing it as comparatives) over the annual "
                               "report (storage.retrieval.question_scope.year_to_date_quarter)")
    outlook_year: bool = Field(True, description="a year an expectation is for (\"expect in FY2023\", \"forecasting "
                               "for 2023\"), no quarter or date named, is read as the year before for the prior: the "
                               "filing printing the outlook (storage.retrieval.question_scope._EXPECTS)")
    event_month: bool = Field(True, description="a month an event happened in (\"entered into in April 2022\") "
                              "matches the 8-Ks and releases dated in it, like a named date "
                              "(storage.retrieval.selection_prior._EVENT_MONTH)")
    expand_query: bool = Field(True, description="add the filing vocabulary of financial terms to the keyword query")
    expand_sections: bool = Field(True, description="also the words of the filing part a question names (what the "
                                  "company does: Business; exposure: Risk Factors) and derived nouns' adjectives "
                                  "(storage.retrieval.query_expansion.SECTION_GLOSSARY)")
    fill_periods: bool = Field(True, description="a document's form and period its first pages print fill what its "
                               "DocumentInfo lacks, for the prior (storage.retrieval.document_profile)")
    cover_issuers: bool = Field(True, description="a document whose first pages print an issuer name the question names "
                                "is that issuer's for the prior, whatever its DocumentInfo's issuer")
    form_decides: bool = Field(True, description="a form named without a period: the form's match is whole, the "
                               "issuer's present only breaks ties (storage.retrieval.selection_prior)")
    cover_weight: float = Field(1.0, description="a question asking for the cover: its SEC cover pages' score += w * "
                                "spread (storage.retrieval.document_profile.cover_page_numbers)")
    cover_facts: bool = Field(True, description="a question for what the SEC cover states (period end date, "
                              "headquarters, incorporation, ticker) lifts the cover pages printing that fact's wording "
                              "(storage.retrieval.document_profile.COVER_FACTS)")
    cover_period: bool = Field(False, description="a question for the period the filing reports on (\"which quarter "
                               "does this 10-Q report on\") lifts the cover pages printing \"period ended\" "
                               "(storage.retrieval.document_profile.REPORT_PERIOD); off: it lifted the tune half "
                               "only (a fit; bench preset parts_with_cover_period)")
    section_weight: float = Field(0.0, description="page score += w * z(BM25 of the query against the page's section "
                                  "label: item, note, primary statement; storage.retrieval.page_sections); 0 = off")
    section_query: Literal["question", "expanded"] = Field("question", description="what the section labels are "
                                                           "matched with: the question's words, or with the glossary's")
    part_weight: float = Field(0.5, description="a question naming a part of the filing in prose (the business, its "
                               "risks, legal proceedings): pages labelled as that part += w * spread "
                               "(storage.retrieval.page_parts.PROSE_PARTS); 0 = off")
    statement_weight: float = Field(0.5, description="a question naming a primary statement or a metric computed from "
                                    "one (margins, effective tax rate, quick ratio, free cash flow): that statement's "
                                    "pages += w * spread (storage.retrieval.page_parts.STATEMENT_PARTS); 0 = off")
    capex_statement: bool = Field(False, description="capital expenditures count as asking for the cash flow "
                                  "statement (storage.retrieval.page_parts.CAPEX_PARTS, weighed by statement_weight); "
                                  "off: it lifted the tune half only (a fit; bench preset parts_with_capex_statement)")
    cause_statements: bool = Field(False, description="a question for the cause of a change (\"why did the tax rate "
                                   "rise\", \"what drove the margin\") still lifts the statement a metric it names is "
                                   "computed from; False: only a statement named in words is lifted (the cause is in "
                                   "the prose, storage.retrieval.page_parts.CAUSE)")
    cause_weight: float = Field(0.0, description="a question for the cause of a change: pages labelled as Management's "
                                "Discussion and Analysis += w * spread (storage.retrieval.page_parts.CAUSE_PARTS); 0 = off")
    event_item_weight: float = Field(0.5, description="a question for what a current report is about (its \"key "
                                     "agenda\"): pages printing an 8-K item heading += w * spread "
                                     "(storage.retrieval.page_parts.EVENT_ITEM_PARTS); 0 = off")
    rerank_pages: int = Field(0, description="rerank this many top pages with the cross-encoder page reranker "
                              "(storage.retrieval.page_reranker: the question read with each page's header and best "
                              "chunk); 0 = today's ranking")
    rerank_weight: float = Field(0.5, description="reranked page = (1 - w) hybrid + w cross-encoder (z-scores over "
                                 "the reranked pages); 1 = the cross-encoder alone orders them")
    cash_flow_items: bool = Field(False, description="a question naming a line item the cash flow statement "
                                  "presents, in any of the words storage.finance.line_items knows (capex, CFO, "
                                  "buybacks, D&A), counts as asking for that statement "
                                  "(storage.retrieval.page_parts.CASH_FLOW_ITEM_PARTS, weighed by statement_weight)")
    scorer_feature: float = Field(0.0, description="page score += w * z(the learned page scorer's score of the page: "
                                  "its best chunk), before the document signals; a feature beside the hybrid score "
                                  "rather than a reorder (storage.retrieval.page_scorer); 0 = off")
    scorer_pages: int = Field(0, description="rerank this many top pages with the learned page scorer "
                              "(storage.retrieval.page_scorer); 0 = today's ranking")
    scorer_weight: float = Field(0.5, description="reranked page = (1 - w) hybrid + w scorer (z-scores over the "
                                 "reranked pages); 1 = the scorer alone orders them")
    facts_weight: float = Field(0.0, description="a question naming a line item (and maybe a fiscal year): page score "
                                "+= w * spread * match, match in [0, 1] of the page's stored facts (a row of that "
                                "concept, a column of that year; storage.retrieval.fact_pages); 0 = off: at .25 "
                                "(chosen on tune) it lifted the tune halves and lowered check MRR (bench.retrieval "
                                "round 7; preset facts_0.25)")
    facts_concept_only: float = Field(CONCEPT_ONLY, description="the match of a page printing the asked row without "
                                      "a column of the asked year (1 = the year does not matter)")
    facts_tie: float = Field(0.0, description="a question naming a line item (not asking why it moved): the pages "
                             "of the best page's filing scoring within w * its spread of the best page are lifted by "
                             "w * that spread * their facts match (storage.retrieval.fact_pages), so among near-ties "
                             "the page printing the asked row (in the asked year's column) leads a page mentioning "
                             "the item in prose; pages further down are left as ranked; 0 = off: at .25 (rows only) "
                             "it lifted @1 on every tune half and the FB-style check half, and lowered dev check "
                             "single @1 and FB-style library check @5 (bench.retrieval round 10; preset "
                             "facts_tie_0.25_rows)")
    facts_tie_inputs: bool = Field(True, description="the tie-break also counts a page printing a ratio's formula "
                                   "inputs (storage.retrieval.fact_pages: the statement printing both lines of a "
                                   "margin); False: only a row of the asked item itself")
    label_pages: int = Field(2, description="a figure question naming no known line item and no part: the agent's "
                             "statement-pages tool reads this many pages of each selected PDF whose stored facts print "
                             "a row of a label the question says in full, in a fiscal year it names "
                             "(storage.retrieval.label_pages); 0 = off (the tool found nothing for it)")
    reconciliation_pages: int = Field(2, description="a figure question naming a reconciliation or a non-GAAP measure "
                                      "(FFO, NOI, free cash flow, an adjusted or core figure, a list of certain charges): "
                                      "the agent's statement-pages tool reads this many table pages of each selected PDF "
                                      "printing it first (storage.retrieval.reconciliation_pages); 0 = off")
    scorer_headers: bool = Field(True, description="the scorer also reads each reranked page's header (issuer, form, "
                                 "period, section label) at the weight its weights were trained with "
                                 "(storage.retrieval.page_scorer); False = best chunk only (an ablation)")


    def prior_options(self) -> dict:
        """The keyword options of storage.retrieval.selection_prior this ranking sets (covers aside): the agent's
        statement-pages tool weighs the selection's documents the way the page ranking does."""
        return {"recent": self.recent, "secondary": self.secondary, "fill_periods": self.fill_periods,
                "cover_issuers": self.cover_issuers, "form_decides": self.form_decides, "stale_annual": self.stale_annual,
                "date_after": self.date_after, "period_per_issuer": self.period_per_issuer,
                "fill_issuers": self.fill_issuers, "release_quarter": self.release_quarter,
                "document_period": self.document_period, "filed_annual": self.filed_annual,
                "year_to_date": self.year_to_date, "outlook": self.outlook_year,
                "event_month": self.event_month}

@dataclass
class DocIndex:
    """Everything needed to score one PDF, loaded once per process (storage.retrieval.hybrid.get_doc_index)."""

    doc_id: str
    processed_at: str
    chunks: list[Chunk]
    vectors: np.ndarray  # float32 [n_chunks, 384], row i = chunks[i]
    chunk_bm25: Bm25Index
    page_bm25: object  # bm25s.BM25 over page texts
    chunk_pages: np.ndarray  # int [n_chunks]: page of each chunk
    n_pages: int
    stamp: int = 0  # manifest mtime_ns when loaded
    page_labels: list[str] | None = None  # section label of each page (storage.retrieval.page_sections)
    _cover: str | None = None
    _cover_pages: np.ndarray | None = None
    _cover_texts: dict | None = None
    _section_bm25: object | None = None
    _labelled: dict | None = None
    _fact_pages: FactPages | None = None

    def fact_pages(self) -> FactPages:
        """Its stored facts by concept and page (storage.retrieval.fact_pages), read from the build once."""
        if self._fact_pages is None:
            self._fact_pages = load_fact_pages(self.doc_id)
        return self._fact_pages

    def pages_labelled(self, parts: tuple) -> np.ndarray:
        """Page indexes whose section label matches one of `parts` (storage.retrieval.page_parts), read once."""
        if self._labelled is None:
            self._labelled = {}
        if parts not in self._labelled:
            self._labelled[parts] = np.asarray(label_mask(list(self.page_labels or []), list(parts)), dtype=int)
        return self._labelled[parts]

    def section_bm25(self):
        """BM25 over the pages' section labels, built on first use."""
        if self._section_bm25 is None:
            labels = list(self.page_labels or [])
            self._section_bm25 = build_bm25_model((labels + [""] * self.n_pages)[: self.n_pages])
        return self._section_bm25

    def page_scores(self, query: str) -> np.ndarray:
        return bm25_scores(self.page_bm25, query, self.n_pages)

    def cover_text(self) -> str:
        """The text of its first COVER_PAGES pages (chunks in reading order), read once."""
        if self._cover is None:
            self._cover = "\n".join(c.text for c in self.chunks if c.page_number < COVER_PAGES)
        return self._cover

    def cover_pages(self) -> np.ndarray:
        """Page indexes (within this PDF) of its SEC cover pages, read once."""
        if self._cover_pages is None:
            texts: dict[int, str] = {}
            for c in self.chunks:
                if c.page_number < COVER_PAGES:
                    texts[c.page_number] = texts.get(c.page_number, "") + "\n" + c.text
            self._cover_pages = np.asarray(sorted(cover_page_numbers(texts)), dtype=int)
            self._cover_texts = {p: texts[p] for p in self._cover_pages.tolist()}
        return self._cover_pages

    def cover_pages_printing(self, wording) -> np.ndarray:
        """Its SEC cover pages whose text matches `wording` (a compiled pattern)."""
        pages = self.cover_pages()
        return np.asarray([p for p in pages.tolist() if prints(wording, self._cover_texts.get(p, ""))], dtype=int)


def zscore(x: np.ndarray) -> np.ndarray:
    std = float(x.std())
    return (x - x.mean()) / std if std > 1e-9 else np.zeros_like(x)


def max_median(x: np.ndarray) -> np.ndarray:
    """(x - median) / (max - median): the best item is 1 whatever the selection's size (an ablation)."""
    if not len(x):
        return x
    med = float(np.median(x))
    span = float(x.max()) - med
    return (x - med) / span if span > 1e-9 else np.zeros_like(x)


_NORMALISERS = {"zscore": zscore, "max_median": max_median}


@dataclass
class _SelectionArrays:
    vectors: np.ndarray  # all chunk vectors of the selection, PDF after PDF
    chunk_page: np.ndarray  # selection-wide page id of each chunk
    page_doc: np.ndarray  # index (in the selection) of each page's PDF
    chunk_bm25: SelectionBm25  # chunk BM25 with the idf of the whole selection
    page_bm25: SelectionBm25  # page BM25 likewise
    indexes: list[DocIndex]
    _section_bm25: SelectionBm25 | None = None

    def section_bm25(self) -> SelectionBm25:
        if self._section_bm25 is None:
            self._section_bm25 = SelectionBm25([i.section_bm25() for i in self.indexes])
        return self._section_bm25


_selections: dict[tuple, _SelectionArrays] = {}
_lock = threading.Lock()


def clear_selections() -> None:
    with _lock:
        _selections.clear()


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
        indexes=indexes,
    )
    with _lock:
        if len(_selections) >= 8:  # a few selections per process; drop the oldest
            _selections.pop(next(iter(_selections)))
        _selections[key] = arrays
    return arrays


def rank_pages(
    indexes: list[DocIndex], sparse_query: str, dense_vec: np.ndarray, k: int, *, question: str | None = None,
    documents: dict[str, DocumentInfo | None] | None = None, ranking: Ranking = Ranking(),
    scorer_vec: np.ndarray | None = None, scorer=None, reranker=None,
) -> list[RetrievedChunk]:
    """The best chunk of each page, pages in score order; if k exceeds the pages, further chunks follow.
    `scorer_vec`: the page scorer's question vector (reranks the top ranking.scorer_pages pages); `scorer`:
    the PageScorer it came from, whose pages also read their headers (storage.retrieval.page_scorer);
    `reranker`: the cross-encoder PageReranker that reorders the top ranking.rerank_pages pages."""
    indexes = [i for i in indexes if i.chunks]
    if not indexes:
        return []
    documents = documents or {}
    normalise = _NORMALISERS[ranking.normalise]
    sel = _selection_arrays(indexes)
    dense = sel.vectors @ dense_vec
    if ranking.per_pdf_idf:
        sparse = np.concatenate([i.chunk_bm25.scores(sparse_query) for i in indexes])
        page_sparse = np.concatenate([i.page_scores(sparse_query) for i in indexes])
    else:
        sparse, page_sparse = sel.chunk_bm25.scores(sparse_query), sel.page_bm25.scores(sparse_query)
    chunk_score = ranking.dense_weight * normalise(dense) + (1 - ranking.dense_weight) * normalise(sparse)

    chunk_page, page_doc = sel.chunk_page, sel.page_doc
    best_chunk_of_page = np.full(len(page_sparse), -np.inf)
    np.maximum.at(best_chunk_of_page, chunk_page, chunk_score)
    has_chunks = np.isfinite(best_chunk_of_page)
    page_score = np.where(
        has_chunks, (1 - ranking.page_weight) * best_chunk_of_page + ranking.page_weight * normalise(page_sparse), -np.inf
    )
    if ranking.scorer_feature and scorer_vec is not None:
        page_score = page_score + ranking.scorer_feature * scorer_feature(sel.vectors @ scorer_vec, chunk_page,
                                                                          has_chunks, normalise)
    if ranking.section_weight:  # the page's section heading (item, note, statement) against the query
        section = sel.section_bm25().scores(section_query(question or sparse_query, ranking))
        page_score = page_score + ranking.section_weight * normalise(section)
    # a question asking for the cover: the cover pages lift (in the query's spread before document signals,
    # added after them, so the covers of every selected PDF do not vote for their PDFs)
    cover = 0.0
    if ranking.cover_weight and asks_for_cover(question or ""):
        cover = ranking.cover_weight * _spread(page_score) * cover_mask(indexes, len(page_score))
    elif ranking.cover_weight and ranking.cover_facts and (wording := cover_fact_wording(question or "", ranking.cover_period)):
        cover = ranking.cover_weight * _spread(page_score) * cover_mask(indexes, len(page_score), wording)
    parts = asked_part_lift(indexes, page_score, question or "", ranking)
    if ranking.facts_weight and (asked := asked_facts(question or "")) is not None:
        parts = parts + ranking.facts_weight * _spread(page_score) * facts_match(indexes, asked, ranking)
    if len(indexes) > 1:
        page_score = page_score + document_signals(indexes, page_score, page_doc, question, documents, ranking)
    page_score = page_score + cover + parts
    if ranking.facts_tie and (asked := asked_facts(question or "")) is not None \
            and not asks_cause(strip_instructions(question or "")):  # a cause is explained in prose
        page_score = facts_tie_break(page_score, facts_match(indexes, asked, ranking, ranking.facts_tie_inputs),
                                     ranking.facts_tie, page_doc)
    if ranking.scorer_pages > 0 and scorer_vec is not None:
        headers = None
        if ranking.scorer_headers and scorer is not None and getattr(scorer, "header_weight", 0.0):
            def headers(pages: np.ndarray) -> np.ndarray:
                texts = page_headers(indexes, page_doc, pages, documents)
                return scorer.header_weight * (scorer.header_vectors(texts) @ scorer_vec)
        page_score = rerank_pages(page_score, sel.vectors @ scorer_vec, chunk_page, ranking, headers)

    if ranking.rerank_pages > 0 and reranker is not None:
        page_score = cross_rerank(page_score, chunk_score, sel, question or sparse_query, documents, ranking, reranker)

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


def section_query(question: str, ranking: Ranking) -> str:
    """What the section labels are matched with: the question's own words (the glossary's expansion names
    line items, which every note and statement label shares some word with), or the keyword query."""
    return strip_instructions(question) if ranking.section_query == "question" else expand_query(question).sparse_text


def _spread(page_score: np.ndarray) -> float:
    """A query's own score range: best page over the median page (what document-level additions are in units of)."""
    finite = page_score[np.isfinite(page_score)]
    return float(finite.max() - np.median(finite)) if len(finite) else 0.0


def asked_part_lift(indexes: list[DocIndex], page_score: np.ndarray, question: str, ranking: Ranking) -> np.ndarray | float:
    """The pages labelled as the part of the filing the question asks for, lifted in units of the query's
    spread (after the document signals, like the cover: every selected PDF has such pages)."""
    lift: np.ndarray | float = 0.0
    cause = asks_cause(strip_instructions(question))  # not "explain why" of an answer-format instruction
    if cause and not ranking.cause_statements:  # the prose explains a change; only a statement named is lifted
        statements = NAMED_STATEMENT_PARTS
    else:
        statements = STATEMENT_PARTS + (CAPEX_PARTS if ranking.capex_statement else []) + \
            (CASH_FLOW_ITEM_PARTS if ranking.cash_flow_items else [])
    for weight, table in ((ranking.part_weight, PROSE_PARTS), (ranking.statement_weight, statements),
                          (ranking.cause_weight if cause else 0.0, CAUSE_PARTS),
                          (ranking.event_item_weight, EVENT_ITEM_PARTS)):
        parts = tuple(asked_parts(question, table)) if weight else ()
        if parts:
            mask = np.zeros(len(page_score))
            offset = 0
            for i in indexes:
                mask[i.pages_labelled(parts) + offset] = 1.0
                offset += i.n_pages
            lift = lift + weight * _spread(page_score) * mask
    return lift


def facts_match(indexes: list[DocIndex], asked, ranking: Ranking, inputs: bool = True) -> np.ndarray:
    """Each selected page's facts match (storage.retrieval.fact_pages.page_match), in selection-wide page ids;
    `inputs` False: a ratio's formula inputs do not count, only a row of the asked item itself."""
    return np.concatenate([page_match(i.fact_pages(), asked, i.n_pages, ranking.facts_concept_only, inputs)
                           for i in indexes])


def facts_tie_break(page_score: np.ndarray, match: np.ndarray, width: float, page_doc: np.ndarray) -> np.ndarray:
    """The pages of the best page's filing within a window of it lifted by window * match (match in [0, 1]): a
    page printing the asked row climbs over near-ties that do not, never over a page it trails by more than the
    window. The window is `width` times that filing's own spread (its best page over its median page), so it is
    as wide with the whole library selected as with the filing alone; pages of other filings are left as ranked
    (the tie-break orders pages, the filing is the prior's and the content's choice: another year's filing
    prints the same row as a comparative)."""
    finite = np.isfinite(page_score)
    if width <= 0 or not finite.any():
        return page_score
    own = finite & (page_doc == page_doc[int(np.argmax(np.where(finite, page_score, -np.inf)))])
    window = width * _spread(np.where(own, page_score, -np.inf))
    near = own & (page_score >= page_score[own].max() - window)
    return np.where(near, page_score + window * match, page_score)


def cover_mask(indexes: list[DocIndex], n_pages: int, wording=None) -> np.ndarray:
    """1 for every selected PDF's SEC cover pages (those printing `wording`, if given), in selection-wide page ids."""
    mask = np.zeros(n_pages)
    offset = 0
    for i in indexes:
        mask[(i.cover_pages() if wording is None else i.cover_pages_printing(wording)) + offset] = 1.0
        offset += i.n_pages
    return mask


def scorer_feature(scorer_chunks: np.ndarray, chunk_page: np.ndarray, has_chunks: np.ndarray, normalise) -> np.ndarray:
    """The scorer's page score (its best chunk), normalised over the selection's pages with chunks; 0 elsewhere."""
    page = np.full(len(has_chunks), -np.inf)
    np.maximum.at(page, chunk_page, scorer_chunks)
    out = np.zeros(len(has_chunks))
    out[has_chunks] = normalise(page[has_chunks])
    return out


def page_headers(indexes: list[DocIndex], page_doc: np.ndarray, pages: np.ndarray,
                 documents: dict[str, DocumentInfo | None]) -> list[str]:
    """The header the page scorer reads of each selection-wide page id: its filing's issuer, form and period
    and its section label (storage.retrieval.page_sections.page_header)."""
    starts = np.cumsum([0] + [i.n_pages for i in indexes])
    out = []
    for g in pages.tolist():
        j = int(page_doc[g])
        index, local = indexes[j], g - int(starts[j])
        labels = index.page_labels or []
        info = documents.get(index.doc_id)
        out.append(page_header(labels[local] if local < len(labels) else "", info.issuer if info else None,
                               info.form if info else None, info.fiscal_year if info else None,
                               info.fiscal_quarter if info else None))
    return out


def rerank_pages(page_score: np.ndarray, scorer_chunks: np.ndarray, chunk_page: np.ndarray, ranking: Ranking,
                 headers=None) -> np.ndarray:
    """The top `scorer_pages` pages reordered by a blend of their score and the scorer's (a page scores its
    best chunk, plus `headers(pages)`, its header's score, when given), each signal z-scored over those
    pages; they stay ahead of every other page."""
    finite = np.isfinite(page_score)
    top = np.argsort(-np.where(finite, page_score, -np.inf), kind="stable")[: ranking.scorer_pages]
    top = top[finite[top]]
    if len(top) < 2:
        return page_score
    scorer_page = np.full(len(page_score), -np.inf)
    np.maximum.at(scorer_page, chunk_page, scorer_chunks)
    if headers is not None:
        scorer_page[top] = scorer_page[top] + headers(top)
    blend = (1 - ranking.scorer_weight) * zscore(page_score[top]) + ranking.scorer_weight * zscore(scorer_page[top])
    out = page_score.copy()
    rest = np.delete(page_score, top)
    rest = rest[np.isfinite(rest)]
    floor = float(rest.max()) if len(rest) else 0.0
    out[top] = floor + 1.0 + blend - blend.min()  # above every page not reranked
    return out


def cross_rerank(page_score: np.ndarray, chunk_score: np.ndarray, sel: _SelectionArrays, question: str,
                 documents: dict[str, DocumentInfo | None], ranking: Ranking, reranker) -> np.ndarray:
    """The top `rerank_pages` pages reordered by a blend of their score and the cross-encoder's reading of
    (question, page header + the page's best chunk), each z-scored over those pages; they stay ahead of
    every other page."""
    finite = np.isfinite(page_score)
    top = np.argsort(-np.where(finite, page_score, -np.inf), kind="stable")[: ranking.rerank_pages]
    top = top[finite[top]]
    if len(top) < 2:
        return page_score
    by_score = np.argsort(-chunk_score, kind="stable")
    pages_sorted = sel.chunk_page[by_score]
    first = np.unique(pages_sorted, return_index=True)
    best_chunk = dict(zip(first[0].tolist(), by_score[first[1]].tolist()))
    chunk_start = np.cumsum([0] + [len(i.chunks) for i in sel.indexes])
    headers = page_headers(sel.indexes, sel.page_doc, top, documents)
    texts = []
    for g, header in zip(top.tolist(), headers):
        ci = best_chunk[g]
        j = int(np.searchsorted(chunk_start, ci, side="right")) - 1
        texts.append(f"{header}\n{sel.indexes[j].chunks[ci - chunk_start[j]].text}")
    cross = reranker.score(question, texts)
    blend = (1 - ranking.rerank_weight) * zscore(page_score[top]) + ranking.rerank_weight * zscore(cross.astype(float))
    out = page_score.copy()
    rest = np.delete(page_score, top)
    rest = rest[np.isfinite(rest)]
    floor = float(rest.max()) if len(rest) else 0.0
    out[top] = floor + 1.0 + blend - blend.min()
    return out


def document_signals(
    indexes: list[DocIndex], page_score: np.ndarray, page_doc: np.ndarray, question: str | None,
    documents: dict[str, DocumentInfo | None], ranking: Ranking,
) -> np.ndarray:
    """Per-page addition: its document's relevance as a whole, and the question's prior for it."""
    spread = _spread(page_score)
    if ranking.doc_signal == "votes":
        # share of the selection's best pages (before document signals) that lie in each PDF
        top = np.argsort(-np.where(np.isfinite(page_score), page_score, -np.inf))[: ranking.doc_vote_pages]
        votes = np.bincount(page_doc[top], minlength=len(indexes)) / max(len(top), 1)
        relevance = spread * (votes - votes.max())
    else:
        relevance = np.zeros(len(indexes))
        starts = np.cumsum([0] + [i.n_pages for i in indexes])
        for j in range(len(indexes)):
            scores = page_score[starts[j] : starts[j + 1]]  # a PDF's pages are contiguous
            scores = scores[np.isfinite(scores)]
            top = np.sort(scores)[-ranking.doc_top_pages:]
            relevance[j] = float(top.mean()) if len(top) else -np.inf
        ok = np.isfinite(relevance)
        relevance = np.where(ok, relevance - (relevance[ok].max() if ok.any() else 0.0), 0.0)
    covers = ({i.doc_id: i.cover_text() for i in indexes}
              if ranking.fill_periods or ranking.cover_issuers or ranking.fill_issuers else None)
    priors = selection_prior(question or "", {i.doc_id: documents.get(i.doc_id) for i in indexes},
                             covers=covers, **ranking.prior_options())
    prior = np.asarray([priors.get(i.doc_id, 0.0) for i in indexes])
    # the prior in units of this query's own score range (best page over the median page), so
    # it weighs the same whatever the selection's size or how sharply the question matches
    return (ranking.doc_weight * relevance + ranking.prior_weight * spread * prior)[page_doc]
