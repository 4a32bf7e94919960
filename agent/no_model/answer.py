"""The documents path without a model: the body of the graph's `answer_without_model` node.

Each step either calls a tool (the standard ToolNode runs it and `cite_sources` numbers its sources,
exactly as for the model) or answers by quoting the best sentences of what the tools found
(agent/no_model/extractive.py, figures first: agent/no_model/figures.py):

    no search yet ────────────────────────> rag_search_tool (the question, a follow-up resolved)
    a figure no searched page prints ─────> statement_pages_tool (once; optional)
    a segment's figure, its pages unsearched > statement_pages_tool (its pages come with the statements)
    passages usable ──────────────────────> the extractive answer (+ curated knowledge quotes)
    nothing usable and web search set up ─> `fallback_reason` (the edge sends the turn to the web)
    the search failed twice ──────────────> the turn ends with the error
"""

from __future__ import annotations

from langchain_core.messages import AIMessage, HumanMessage

from agent import conversation, scope
from agent.knowledge_base import relevant_items
from agent.messages import message_text, tool_call_message
from agent.page_text import page_text_lookup
from agent.selection import selected_documents, selected_infos
from agent.no_model import extractive, figures, followups
from agent.state import MAX_TOOL_FAILURES, AgentContext, AgentState, question, tool_failures, turn_tool_results
from agent.tools import RAG_TOOL, STATEMENTS_TOOL, part_page_numbers
from storage.documents.embeddings import get_embedder


def answer_without_model(state: AgentState, ctx: AgentContext) -> dict:
    """The next step of a no-model documents turn (see the module docstring)."""
    resolved = _resolved_question(state)
    searches = turn_tool_results(state, RAG_TOOL)
    if not searches:
        return _first_search(state, resolved.query)
    sources = [s for r in searches for s in r.sources]
    page_text = page_text_lookup()  # each PDF's pages read once for the whole step
    note = scope.scope_note(resolved.query, selected_infos(state),
                            [s.text or "" for s in sources])
    statements = turn_tool_results(state, STATEMENTS_TOOL)
    statements_failed = any(name == STATEMENTS_TOOL for name, _ in tool_failures(state))  # optional: not asked again
    if not statements and not statements_failed and note is None \
            and (figures.wants_statements(resolved.query, sources, page_text, get_embedder())
                 or _part_unsearched(state, resolved.query, sources)):
        # no row on the cited pages, or a company-level row outside the statements, or a segment's
        # figure whose pages the search missed: read the statement (and segment) pages that print it
        return {"messages": [tool_call_message(STATEMENTS_TOOL, {"question": resolved.query})]}
    sources = [s for r in statements for s in r.sources] + sources  # the pages of record first
    text, usable = extractive.compose_extractive_answer(
        resolved.query, sources, page_text=page_text, searched_for=resolved.query if resolved.is_followup else None,
        scope_note=note)
    if not usable and ctx.web is not None:
        return {"fallback_reason": "no passage in the selected PDFs matched the question"}
    return {"messages": [AIMessage(content=with_knowledge_quotes(text, question(state)))]}


def _part_unsearched(state: AgentState, query: str, sources: list) -> bool:
    """A figure question naming a segment, region or product line whose row's pages (by the stored facts) the
    search did not bring."""
    if not figures.is_figure_question(query):
        return False
    searched = {(s.doc_id, s.page_number) for s in sources}
    return any((doc.doc_id, page) not in searched
               for doc, pages in part_page_numbers(selected_documents(state), query) for page in pages)


def _resolved_question(state: AgentState) -> followups.Resolved:
    """The question; a short follow-up ("and in the year before?") as the previous question, shifted."""
    earlier = [message_text(m) for m in (state.get("messages") or [])[: state.get("turn_start") or 0]
               if isinstance(m, HumanMessage) and not conversation.is_conversation(message_text(m))]
    return followups.resolve_followup(question(state), earlier)


def _first_search(state: AgentState, query: str) -> dict:
    """The document search for the question, or, when it failed `MAX_TOOL_FAILURES` times, the end of the turn."""
    rag_failed = [reason for name, reason in tool_failures(state) if name == RAG_TOOL]
    if len(rag_failed) >= MAX_TOOL_FAILURES:  # the same search failing again would only fail again
        reason = " ".join(rag_failed[-1].encode("utf-8", "replace").decode("utf-8").split())[:200]
        return {"messages": [AIMessage(content=f"The document search failed {len(rag_failed)} times ({reason}), so "
                                               "this turn ends here. Rephrase the question and ask again.")]}
    return {"messages": [tool_call_message(RAG_TOOL, {"query": query})]}


def with_knowledge_quotes(text: str, question_text: str) -> str:
    """No-model mode: quote relevant curated answers, cited by Q-number (shown as [^8.1]-style markers)."""
    items = relevant_items(question_text)
    if not items:
        return text
    quotes = "\n".join(f"- “{item.answer}” ({item.id})" for item in items)
    return f"{text}\n\nFrom the curated knowledge base:\n\n{quotes}"
