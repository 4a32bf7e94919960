"""The agent's tools. Each returns a `ToolOutput` (agent/tool_output.py) as its artifact and the
tool-output JSON contract (docs/ARCHITECTURE.md) as the content the model reads:

    {"success": bool, "tool": name, "result_count": n, "sources": [Source dumps], "message": str}

Sources leave `source_id` empty; the graph's `cite_sources` node (agent/citations/ids.py) numbers
them right after the standard `ToolNode` ran the calls.
Tools read the selected PDFs and the viewed page from graph state and their dependencies from the
run context (agent/state.py `AgentContext`) through langgraph's injected `ToolRuntime`.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from langchain_core.tools import tool
from langgraph.prebuilt import ToolRuntime

from agent.context import retrieve_previous_sources
from agent.selection import selected_documents
from agent.tool_output import ToolOutput
from storage.schema import RetrievedChunk, Source, display_page
from storage.settings import get_settings
from agent.tuning import TUNING
from storage.documents import catalog, page_tables
from storage.documents.bm25 import tokenize
from storage.finance.line_items import asked_items, printed_forms
from storage.retrieval.hybrid import RetrievalError
from storage.retrieval.fusion import Ranking
from storage.retrieval.label_pages import label_pages
from storage.retrieval.part_pages import part_pages
from storage.retrieval.reconciliation_pages import measure_phrases, pages_printing
from storage.retrieval.selection_prior import selection_prior

log = logging.getLogger(__name__)

RAG_TOOL = "rag_search_tool"
STATEMENTS_TOOL = "statement_pages_tool"
MAX_STATEMENT_PAGES = 3
MAX_RECONCILIATION_DOCS = 4  # of a larger selection, the documents its prior favours are read for a reconciliation
MAX_PART_PAGES = 2  # of each selected PDF: the pages printing the named segment's (region's, product line's) row
STATEMENT_TEXT_LIMIT = 8000  # a statement page's text handed to the model (its rows are read from the PDF)
WEB_TOOL = "web_search_tool"
PAGE_TEXT_LIMIT = 4000  # characters of a viewed page handed to the model
WEB_MAX_RESULTS = 5


# ---------------------------------------------------------------- web search (Tavily)


class WebSearchError(Exception):
    """The web search service could not be reached or refused the query (the message names the error's type)."""


class WebSearch:
    """Tavily search returning `Source(kind="web")`. `TAVILY_API_BASE_URL` overrides the endpoint."""

    name = "tavily"

    def __init__(self, api_key: str, base_url: str | None = None) -> None:
        from tavily import TavilyClient

        self._client = TavilyClient(api_key=api_key, api_base_url=base_url)

    @classmethod
    def from_env(cls) -> "WebSearch | None":
        web = get_settings().web
        return cls(web.tavily_api_key.get_secret_value(), web.tavily_base_url) if web.tavily_api_key else None

    def search(self, query: str, max_results: int = WEB_MAX_RESULTS) -> list[Source]:
        """Up to `max_results` web pages; raises `WebSearchError` when the service fails."""
        import requests
        from tavily import errors

        refused = (errors.UsageLimitExceededError, errors.BadRequestError, errors.ForbiddenError,
                   errors.InvalidAPIKeyError, errors.MissingAPIKeyError, errors.TimeoutError)
        try:
            response = self._client.search(query, max_results=max_results, search_depth="basic")
        except (*refused, requests.RequestException, ValueError) as exc:  # ValueError: a reply that is not JSON
            raise WebSearchError(type(exc).__name__) from exc
        sources = []
        for item in (response or {}).get("results", [])[:max_results]:
            if not item.get("url"):
                continue
            sources.append(
                Source(
                    kind="web",
                    url=item["url"],
                    title=(item.get("title") or item["url"]).strip(),
                    text=(item.get("content") or "").strip(),
                    score=item.get("score"),
                )
            )
        return sources


# ---------------------------------------------------------------- documents


def page_sources(state: dict) -> list[Source]:
    """The page(s) the user is looking at, as `page` sources ([^Current Page] / [^Previous Page])."""
    out = []
    for role in ("current", "previous"):
        ref = state.get(f"{role}_page")
        if not ref or ref.get("page_number") is None or not ref.get("doc_id"):
            continue
        try:
            pages = catalog.load_page_texts(ref["doc_id"])
            text = pages[ref["page_number"]]
        except (OSError, ValueError, IndexError) as exc:
            log.warning("viewed page %s unavailable: %s", ref, exc)
            continue
        out.append(
            Source(
                kind="page",
                text=text[:PAGE_TEXT_LIMIT],
                title=f"{ref.get('source_file') or ref['doc_id']}, page {display_page(ref['page_number'])}",
                doc_id=ref["doc_id"],
                source_file=ref.get("source_file"),
                page_number=ref["page_number"],
                extra={"page_role": role},
            )
        )
    return out


def search_documents(context, state: dict, query: str) -> tuple[list[Source], str, bool]:
    """Hybrid retrieval over the selected PDFs -> (sources, message, success)."""
    doc_ids = list(state.get("selected_doc_ids") or [])
    pages = page_sources(state)
    if not doc_ids:
        return pages, "No PDF is selected; select or upload one to search documents.", bool(pages)
    if not query.strip():
        return pages, "Empty query.", False
    try:
        hits: list[RetrievedChunk] = context.get_retriever(doc_ids).search(query, k=context.rag_k)
    except (RetrievalError, OSError) as exc:  # a selection that cannot be searched: the model can try the web
        log.warning("document search failed: %s", exc)
        return pages, f"Document search failed: {exc}", bool(pages)
    if not hits:
        return pages, "No passages matched this query in the selected PDFs.", bool(pages)
    best = max(h.dense_score or 0.0 for h in hits)
    if best < TUNING.search.weak_dense and not any(h.sparse_score for h in hits):
        # not one query term in any passage and nothing semantically close: off-topic for these PDFs
        return pages, f"Nothing in the selected PDFs matches this query (best similarity {best:.2f}).", bool(pages)
    sources = [*pages, *(Source.from_retrieved(h) for h in hits)]
    return sources, f"{len(hits)} passages from {len(doc_ids)} PDF(s).", True


@tool(RAG_TOOL, response_format="content_and_artifact")
def rag_search_tool(query: str, runtime: ToolRuntime[Any, Any]) -> tuple[str, ToolOutput]:
    """Search the user's selected PDFs (hybrid keyword + semantic search). Returns passages, each
    with its file, page and a source_id to cite. Use specific terms: names, line items, years."""
    runtime.context.emit("searching_documents", query=query)
    sources, message, ok = search_documents(runtime.context, runtime.state, query)
    return ToolOutput(tool=RAG_TOOL, sources=sources, message=message, success=ok).as_tool_response()


def ranking_in_use(context, doc_ids: list[str]) -> Ranking:
    """The `Ranking` of the retriever the run searches these PDFs with (`Ranking()` for a retriever without one,
    or none): the page-source tools follow the same weights as the search."""
    if context is None or context.get_retriever is None or not doc_ids:
        return Ranking()
    try:
        ranking = getattr(context.get_retriever(list(doc_ids)), "ranking", None)
    except (RetrievalError, OSError):  # the search reports it; the tools keep the defaults
        return Ranking()
    return ranking if isinstance(ranking, Ranking) else Ranking()


def statement_sources(state: dict, question: str, ranking: Ranking | None = None) -> tuple[list[Source], str, bool]:
    """The table pages printing the reconciliation or non-GAAP measure a question names, first
    (`reconciliation_sources`), then the primary statement pages (`primary_statement_sources`), as `page` sources:
    at most MAX_STATEMENT_PAGES. `ranking`: the one in use; None, the default ranking."""
    ranking = ranking or Ranking()
    sources, message, ok = primary_statement_sources(state, question, ranking)
    if not (reconciled := reconciliation_sources(selected_documents(state), question, ranking)):
        return sources, message, ok
    seen = {(s.doc_id, s.page_number) for s in reconciled}
    kept = (reconciled + [s for s in sources if (s.doc_id, s.page_number) not in seen])[:MAX_STATEMENT_PAGES]
    return kept, (f"{len(reconciled)} page(s) printing the reconciliation or measure the question names"
                  + (f", then {len(kept) - len(reconciled)} of: {message}" if len(kept) > len(reconciled) else ".")), True


def reconciliation_sources(selection: list, question: str, ranking: Ranking) -> list[Source]:
    """The table pages of the selected PDFs printing the reconciliation, list of reconciling items or non-GAAP
    measure the question names (storage/retrieval/reconciliation_pages.py; the first `ranking.reconciliation_pages`
    of each), of the MAX_RECONCILIATION_DOCS documents the question's period and form point to first
    (storage/retrieval/selection_prior.py): each document's page texts are read once."""
    if ranking.reconciliation_pages <= 0 or not measure_phrases(question):
        return []
    if len(selection) > 1:
        prior = selection_prior(question, {d.doc_id: d.info for d in selection}, **ranking.prior_options())
        selection = sorted(selection, key=lambda d: -prior.get(d.doc_id, 0.0))[:MAX_RECONCILIATION_DOCS]
    out = []
    for doc in selection:
        if doc.source_file is None or (texts := _page_texts(doc, "reconciliation")) is None:
            continue
        issuer = frozenset(tokenize(doc.info.issuer if doc.info and doc.info.issuer else ""))
        pages = pages_printing(texts, question, issuer, ranking.reconciliation_pages)
        out += _sources_of(doc, texts, pages, "reconciliation")
    return out


def primary_statement_sources(state: dict, question: str, ranking: Ranking) -> tuple[list[Source], str, bool]:
    """The primary statement pages (income, balance sheet, cash flows: by their titles) of the
    selected PDFs that print the line item a figure question asks, as `page` sources: the pages of
    record for a figure, whatever rank a passage search gives them among the notes that discuss it.
    Pages printing the item's label first, then the documents the question's period and form point
    to (storage/retrieval/selection_prior.py), then the question's words on the page. A question naming
    a part of the company (a segment, region or product line the filing's facts print) gets the pages
    printing that part's row first (storage/retrieval/part_pages.py), then the statement page of record;
    a company-level item names no part and keeps its statement pages. `ranking`: the one in use (its
    `prior_options`, `label_pages`)."""
    selection = selected_documents(state)
    labels = [re.compile(rf"(?im)^\s*(?:{printed_forms(a.item)})\b") for a in asked_items(question)]
    parts = part_sources(selection, question)
    if selection and not (labels or parts) and (named := label_sources(selection, question, ranking)):
        # a row of no known line item, named by its printed label: the pages printing it (a notes table)
        return named, f"{len(named)} page(s) printing the row the question names.", True
    if not selection or not (labels or parts):
        return [], "No selected PDF, or the question names no statement line item.", False
    prior = selection_prior(question, {d.doc_id: d.info for d in selection}, **ranking.prior_options())
    words = set(tokenize(question))
    scored = []
    for doc in selection if labels else ():
        doc_id = doc.doc_id
        try:
            if doc.source_file is None:
                raise ValueError("no manifest")
            texts = catalog.load_page_texts(doc_id)
        except (OSError, ValueError) as exc:
            log.warning("statement pages of %s unavailable: %s", doc_id, exc)
            continue
        for page in page_tables.statement_pages(doc_id):
            text = texts[page]
            if any(rx.search(text) for rx in labels):
                scored.append((prior.get(doc_id, 0.0), len(words & set(tokenize(text))), doc.source_file, doc_id, page, text))
    scored.sort(key=lambda x: (-x[0], -x[1]))
    sources = [Source(kind="page", text=text[:STATEMENT_TEXT_LIMIT], title=f"{file}, page {display_page(page)}",
                      doc_id=doc_id, source_file=file, page_number=page, extra={"statement": True})
               for _, _, file, doc_id, page, text in scored[:MAX_STATEMENT_PAGES]]
    if parts:  # a segment's question: its pages, then the statement page of record (as many pages as before)
        kept = parts[: MAX_STATEMENT_PAGES - 1]
        seen = {(s.doc_id, s.page_number) for s in kept}
        sources = kept + [s for s in sources if (s.doc_id, s.page_number) not in seen][: MAX_STATEMENT_PAGES - len(kept)]
    if not sources:
        return [], "No primary statement page of the selected PDFs prints this line item.", False
    return sources, f"{len(sources)} statement or segment page(s) printing the line item.", True


def _fact_page_numbers(selection: list, question: str, finder, most: int) -> list[tuple[Any, list[int]]]:
    """(document, the first `most` of `finder(doc_id, question, issuer)`'s 0-based pages) of the selected PDFs
    that have such pages."""
    out = []
    for doc in selection if most > 0 else ():
        if doc.source_file is None:
            continue
        if pages := finder(doc.doc_id, question, doc.info.issuer if doc.info else None)[:most]:
            out.append((doc, pages))
    return out


def part_page_numbers(selection: list, question: str) -> list[tuple[Any, list[int]]]:
    """(document, its 0-based pages printing the row of the part the question names) of the selected PDFs that
    have such pages (storage/retrieval/part_pages.py)."""
    return _fact_page_numbers(selection, question, part_pages, MAX_PART_PAGES)


def part_sources(selection: list, question: str) -> list[Source]:
    """The pages of the selected PDFs printing the row of a segment, region or product line the question
    names (by the stored facts: storage/retrieval/part_pages.py), as `page` sources."""
    return _page_sources(part_page_numbers(selection, question), "part")


def label_sources(selection: list, question: str, ranking: Ranking) -> list[Source]:
    """The pages of the selected PDFs printing a row the question names by its printed label (by the stored
    facts: storage/retrieval/label_pages.py; the first `ranking.label_pages` of each), as `page` sources."""
    return _page_sources(_fact_page_numbers(selection, question, label_pages, ranking.label_pages), "label")


def _page_sources(doc_pages: list[tuple[Any, list[int]]], flag: str) -> list[Source]:
    """Each (document, pages) as `page` sources (extra[flag] True)."""
    out = []
    for doc, pages in doc_pages:
        if (texts := _page_texts(doc, flag)) is not None:
            out += _sources_of(doc, texts, pages, flag)
    return out


def _page_texts(doc, flag: str) -> list[str] | None:
    """The document's page texts; None, with the reason logged, when they cannot be read."""
    try:
        return catalog.load_page_texts(doc.doc_id)
    except (OSError, ValueError) as exc:
        log.warning("%s pages of %s unavailable: %s", flag, doc.doc_id, exc)
        return None


def _sources_of(doc, texts: list[str], pages: list[int], flag: str) -> list[Source]:
    """The document's `pages` as `page` sources (extra[flag] True)."""
    return [Source(kind="page", text=texts[page][:STATEMENT_TEXT_LIMIT], title=f"{doc.source_file}, page "
                   f"{display_page(page)}", doc_id=doc.doc_id, source_file=doc.source_file, page_number=page,
                   extra={flag: True}) for page in pages if page < len(texts)]


@tool(STATEMENTS_TOOL, response_format="content_and_artifact")
def statement_pages_tool(question: str, runtime: ToolRuntime[Any, Any]) -> tuple[str, ToolOutput]:
    """The primary financial statement pages (income statement, balance sheet, cash flows) of the
    selected PDFs that print the line item a figure question asks for. Use it when a search did not
    bring the statement row itself. Each page has a source_id to cite."""
    runtime.context.emit("searching_documents", query=question)
    ranking = ranking_in_use(runtime.context, list(runtime.state.get("selected_doc_ids") or []))
    sources, message, ok = statement_sources(runtime.state, question, ranking)
    return ToolOutput(tool=STATEMENTS_TOOL, sources=sources, message=message, success=ok).as_tool_response()


def search_web(context, query: str) -> tuple[list[Source], str, bool]:
    if context.web is None:
        return [], "Web search is not configured (no TAVILY_API_KEY).", False
    if not query.strip():
        return [], "Empty query.", False
    try:
        sources = context.web.search(query)
    except WebSearchError as exc:  # reported to the model / user; its type only (a reply may echo the key)
        log.warning("web search failed: %s", exc)
        return [], f"Web search failed ({exc}).", False
    if not sources:
        return [], "The web search returned no results.", False
    return sources, f"{len(sources)} web results.", True


@tool(WEB_TOOL, response_format="content_and_artifact")
def web_search_tool(query: str, runtime: ToolRuntime[Any, Any]) -> tuple[str, ToolOutput]:
    """Search the web for current or outside information not in the user's PDFs. Returns pages with
    a source_id to cite."""
    runtime.context.emit("searching_web", query=query)
    sources, message, ok = search_web(runtime.context, query)
    return ToolOutput(tool=WEB_TOOL, sources=sources, message=message, success=ok).as_tool_response()


# The tools, listed once: the graph's ToolNode runs exactly these and the model is bound to exactly these.
TOOLS = (rag_search_tool, statement_pages_tool, web_search_tool, retrieve_previous_sources)
